// The set-up editor: a palette of pieces placed on the board, the side to move, the FEN out. The
// API validates the position when it is played; its start position comes from the API too.
import { render, pieceMap } from "./draw.js";
import { api } from "./transport.js";
import { newGame } from "./game.js";

const $ = (id) => document.getElementById(id);

export function startSetup(app) {
  app.pick = null;
  app.setup = { board: pieceMap(app), piece: "w" };
  $("setup").hidden = false;
  $("setup-side").value = app.game && app.game.side === "black" ? "B" : "W";
  selectPalette(app, "w");
  render(app);
  updateSetupFen(app);
}

export function selectPalette(app, piece) {
  app.setup.piece = piece;
  document.querySelectorAll(".pal").forEach((b) => b.setAttribute("aria-checked", String(b.dataset.piece === piece)));
}

export function placePiece(app, name) {
  const { setup } = app;
  if (setup.piece === "." || setup.board[name] === setup.piece) delete setup.board[name];
  else setup.board[name] = setup.piece;
  render(app);
  updateSetupFen(app);
}

// The FEN of the editor's board, with algebraic squares.
function setupFen(app) {
  const { board } = app.setup;
  const part = (color) => Object.keys(board).filter((sq) => board[sq].toLowerCase() === color).sort()
    .map((sq) => (board[sq] === color.toUpperCase() ? "K" : "") + sq).join(",");
  return `${$("setup-side").value}:W${part("w")}:B${part("b")}`;
}

export function updateSetupFen(app) { $("fen").value = setupFen(app); }

export function clearBoard(app) {
  app.setup.board = {};
  render(app);
  updateSetupFen(app);
}

export async function endSetup(app, play) {
  const fen = setupFen(app);
  if (play && !(await newGame(app, { fen }))) return;
  app.setup = null;
  $("setup").hidden = true;
  render(app);
  if (app.game) $("fen").value = app.game.fen;
}

// The start position, as the API sets it up for a new game (a session opened and closed).
export async function startPosition(app) {
  const variant = app.game ? app.game.variant : $("variant").value;
  const s = await api(app, "new", variant ? { mode: "two-players", variant } : { mode: "two-players" });
  if (!s || !app.setup) return;
  app.transport.call("close", { session: s.session }).catch(() => {});
  app.setup.board = pieceMap({ game: s });
  $("setup-side").value = s.side === "black" ? "B" : "W";
  render(app);
  updateSetupFen(app);
}
