// The Review panel: the API reviews the game one position per review-step (so the page and other
// sessions stay served), then the graph (review-graph.js), the summary, and a best line instead of
// a move, stepped on the board.
import { api, showMessage } from "./transport.js";
import { render } from "./draw.js";
import { shown } from "./layout.js";
import { redrawPanels, update } from "./game.js";
import { stopAnalysisView } from "./analysis.js";
import { draw as drawGraph } from "./review-graph.js";

const $ = (id) => document.getElementById(id);

// The review when it is of the game on the board (same moves), else null.
export function reviewOfGame(app) {
  const { game } = app;
  const r = app.review.result;
  if (!r || !game || r.plies.length !== game.moves.length) return null;
  return r.plies.every((p, i) => p.text === game.moves[i].text) ? r : null;
}

function sideText(name, s) {
  return `${name}: ${s.inaccuracies} inaccuracies, ${s.mistakes} mistakes, ${s.blunders} blunders, ` +
         `average loss ${s.average_loss.toFixed(2)} per move`;
}

export function renderReview(app) {
  const r = reviewOfGame(app);
  $("review-save").hidden = !r;
  if (!r) {
    $("review-graph").textContent = "";
    $("review-summary").textContent = "";
    $("review-line").hidden = true;
    return;
  }
  drawGraph($("review-graph"), r, app.game.cursor, (ply) => selectReviewPly(app, ply));
  $("review-summary").textContent = `Here: ${r.evals[app.game.cursor].text}. ` + sideText("White", r.white) + ". " +
                                    sideText("Black", r.black) + ".";
}

export function setReviewing(on) {
  $("review-start").hidden = on;
  $("review-cancel").hidden = !on;
  $("review-progress").hidden = !on;
  document.body.dataset.reviewing = on ? "1" : "0";
}

// A new game: a running review ends with its session, a finished one is no longer shown.
export function dropReview(app) {
  app.review.run++;
  setReviewing(false);
  app.review.result = null;
}

// Steps the review until it is finished or cancelled (app.review.run bumped).
async function runReview(app, start) {
  const run = ++app.review.run;
  const session = app.game.session;
  setReviewing(true);
  let a = start;
  // One request per position: other requests (and other sessions) go in between.
  while (run === app.review.run && !a.finished) {
    $("review-progress").max = a.total;
    $("review-progress").value = a.done;
    const r = await app.transport.call("review-step", { session })
      .catch((e) => ({ status: 0, json: { error: e.message } }));
    if (r.status !== 200) {
      if (run === app.review.run) showMessage("review stopped: " + (r.json.error || "error " + r.status));
      break;
    }
    a = r.json;
  }
  if (run !== app.review.run) return;
  setReviewing(false);
  if (a.finished && app.game && app.game.session === session) {
    app.review.result = a.review;
    redrawPanels(app);
  }
}

export async function startReview(app) {
  if (!app.game || app.busy) return;
  stopAnalysisView(app);
  const [kind, value] = $("review-limit").value.split(":");
  const start = await api(app, "review-start", { session: app.game.session, [kind]: Number(value) });
  if (start) await runReview(app, start);
}

export async function cancelReview(app) {
  app.review.run++;
  setReviewing(false);
  if (app.game) await api(app, "review-cancel", { session: app.game.session });
}

function lineCaption(app, ply, line) {
  const p = app.review.result.plies[ply - 1];
  const number = Math.floor((ply - 1 + (app.game.start_side === "black" ? 1 : 0)) / 2) + 1;
  const see = (text) => shown(app.view, text);
  return `${number}${p.side === "white" ? "." : "..."} ${see(p.text)}${p.nag}` +
         ` (loses ${p.loss.toFixed(2)}); best ${see(p.best)}: ${line.steps.slice(1).map((x) => see(x.text)).join(" ")}`;
}

// A move of the review chosen (graph, dot or move list): the board goes after it and the
// engine's line instead of it is offered, from the position before it.
export async function selectReviewPly(app, ply) {
  if (!app.game || app.busy) return;
  const s = await api(app, "goto", { session: app.game.session, ply });
  if (!s) return;
  update(app, s);
  if (ply === 0 || !reviewOfGame(app)) return;
  const line = await api(app, "review-line", { session: app.game.session, ply });
  if (!line) return;
  $("review-line-text").textContent = lineCaption(app, ply, line);
  $("review-line").hidden = false;
  $("review-line").dataset.ply = String(ply);
  app.line = { ply, steps: line.steps, index: 0 };
  render(app);
}

// Steps the best line shown: `to(index)` is the step wanted.
export function stepLine(app, to) {
  if (!app.line && $("review-line").hidden) return;
  if (!app.line) {
    const ply = Number($("review-line").dataset.ply);
    return selectReviewPly(app, ply).then(() => app.line && stepLine(app, to));
  }
  app.line.index = Math.max(0, Math.min(app.line.steps.length - 1, to(app.line.index)));
  render(app);
}

export function closeLine(app) {
  app.line = null;
  render(app);
}
