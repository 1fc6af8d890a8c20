// The Opening panel: the opening book's moves of the position on the board, best first, with
// White's score, the depth behind it and whether the move leads on in the book; and how far the
// book goes from here along its best moves (the `opening` operation, protocol/web-api.md).
import { api } from "./transport.js";
import { shown } from "./layout.js";

const $ = (id) => document.getElementById(id);

function moveItem(app, m) {
  const li = document.createElement("li");
  li.innerHTML = `<span class="move">${shown(app.view, m.text)}</span><span class="score">${m.white_score_text}</span>` +
                 `<span class="depth">depth ${m.depth}</span>` + (m.in_book ? "" : `<span class="leaf">searched</span>`);
  return li;
}

function statusText(app, o) {
  if (!o.in_book) return o.book_loaded ? "Out of the book." : o.book;
  const line = o.line.length ? ` along ${o.line.map((m) => shown(app.view, m)).join(" ")}` : "";
  return `In the book (ply ${o.ply}): it goes ${o.line.length} more plies${line}. ` +
         "Its moves best first, scored from White's side:";
}

// Asks for the book moves of the position shown; an answer for a position no longer shown is dropped.
export async function renderOpening(app) {
  if (!app.game) return;
  const asked = app.game.fen;
  const o = await api(app, "opening", { session: app.game.session });
  if (!o || !app.game || app.game.fen !== asked) return;
  $("opening-status").textContent = statusText(app, o);
  const ol = $("opening-moves");
  ol.textContent = "";
  for (const m of o.moves) ol.appendChild(moveItem(app, m));
}
