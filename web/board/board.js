// The damas board page: draws the position the API describes and sends it the moves entered.
// It knows no rules: legal moves, their landing squares, results and notation come from the API
// (POST /api/<op> on `damas serve`, or the same API in the WebAssembly worker).
// URL options: ?movetime=S (seconds per computer move), ?engine=browser|server, ?board=brazilian|filipino,
// ?variant=NAME (the game, one the engine offers: brazilian, russian, spanish, portuguese, pool, czech;
// its rules and its board are the engine's, as everything else).
// This module holds the page's state (one object, handed to every module) and wires the controls.
import { api, browserCanRun, enginesHere, serverTransport, showMessage } from "./transport.js";
import { buildBoard, render } from "./draw.js";
import { onKey, onSquare } from "./input.js";
import * as game from "./game.js";
import { renderMoves } from "./move-list.js";
import { followBoard, stopAnalysisView, toggleAnalysis } from "./analysis.js";
import * as reviewPanel from "./review-panel.js";
import * as puzzlePanel from "./puzzle-panel.js";
import * as editor from "./editor.js";
import * as settings from "./settings.js";
import { renderOpening } from "./opening-panel.js";

function createApp() {
  return {
    transport: serverTransport(),  // where the API answers: the server or the engine in this browser
    browserAvailable: false,       // decided at start (engines.json, worker-api.js)
    game: null,                    // the API's state of the session (protocol/web-api.md)
    busy: 0,                       // requests in flight
    view: { flipped: false, style: "brazilian", mirroredGame: false, focus: "a1" },
    drawBoard: null,               // builds the board's cells again (its board or view changed)
    pick: null,                    // {from, landings}: the piece picked and the landing squares entered
    hint: null,                    // a legal move shown as the hint
    setup: null,                   // {board: {square: "w"|"b"|"W"|"B"}, piece} while editing
    line: null,                    // {ply, steps, index}: a best line of the review on the board
    review: { result: null, run: 0 },  // the finished review; run is bumped to stop a running one
    analysis: { on: false, subscription: null, timer: null, lines: new Map() },
    puzzles: { set: null, current: null },  // current: {index, solution, step, failed}
    play: null,                    // puzzle mode's own handling of a move entered
    on: { update: [], reset: [], changed: [] },  // what the panels do when the game changes
  };
}

const app = createApp();
const $ = (id) => document.getElementById(id);
const click = (id, f) => $(id).addEventListener("click", f);
const change = (id, f) => $(id).addEventListener("change", f);

function drawBoard() {
  buildBoard(app, (name) => onSquare(app, name), (e) => onKey(app, e));
  render(app);
}

function selectPly(ply) {
  return reviewPanel.reviewOfGame(app) ? reviewPanel.selectReviewPly(app, ply) : game.gotoPly(app, ply);
}

// The panels that follow the game.
function hangPanels() {
  app.on.update.push(() => renderMoves(app, selectPly), () => reviewPanel.renderReview(app), () => renderOpening(app));
  app.on.reset.push(() => stopAnalysisView(app), () => app.puzzles.current && puzzlePanel.setPuzzleMode(app, false),
                    () => reviewPanel.dropReview(app));
  app.on.changed.push(() => followBoard(app));
}

function wireGame() {
  click("new-game", () => game.newGame(app));
  click("undo", () => game.undo(app));
  click("hint", () => game.hint(app));
  click("computer-move", () => game.computerMove(app));
  click("flip", () => { app.view.flipped = !app.view.flipped; drawBoard(); });
  for (const id of ["variant", "mode", "level", "rules"]) change(id, () => game.newGame(app));
  change("human", () => {
    app.view.flipped = $("human").value === "black";
    drawBoard();
    game.newGame(app);
  });
  click("nav-start", () => game.gotoPly(app, 0));
  click("nav-back", () => app.game && app.game.cursor > 0 && game.gotoPly(app, app.game.cursor - 1));
  click("nav-forward", () => app.game && app.game.cursor < app.game.moves.length && game.gotoPly(app, app.game.cursor + 1));
  click("nav-end", () => app.game && game.gotoPly(app, app.game.moves.length));
  click("analysis-toggle", () => toggleAnalysis(app));
  click("fen-load", () => game.newGame(app, { fen: $("fen").value.trim() }));
  click("pdn-load", () => game.newGame(app, { pdn: $("pdn").value }));
  click("pdn-save", () => game.savePdn(app));
}

function wireEditor() {
  click("setup-toggle", () => {
    if (app.setup) return editor.endSetup(app, false);
    stopAnalysisView(app);
    editor.startSetup(app);
  });
  document.querySelectorAll(".pal").forEach((b) => b.addEventListener("click", () => editor.selectPalette(app, b.dataset.piece)));
  change("setup-side", () => editor.updateSetupFen(app));
  click("setup-clear", () => editor.clearBoard(app));
  click("setup-start", () => editor.startPosition(app));
  click("setup-done", () => editor.endSetup(app, true));
  click("setup-cancel", () => editor.endSetup(app, false));
}

function wireReviewAndPuzzles() {
  click("review-start", () => reviewPanel.startReview(app));
  click("review-cancel", () => reviewPanel.cancelReview(app));
  click("review-save", () => { const r = reviewPanel.reviewOfGame(app); if (r) game.download(r.pdn, "damas-review.pdn"); });
  click("line-start", () => reviewPanel.stepLine(app, () => 0));
  click("line-back", () => reviewPanel.stepLine(app, (i) => i - 1));
  click("line-forward", () => reviewPanel.stepLine(app, (i) => i + 1));
  click("line-end", () => reviewPanel.stepLine(app, () => Infinity));
  click("line-close", () => { $("review-line").hidden = true; reviewPanel.closeLine(app); });
  click("puzzle-toggle", () => puzzlePanel.togglePuzzles(app));
  click("puzzle-next", () => puzzlePanel.nextPuzzle(app));
  click("puzzle-retry", () => puzzlePanel.retryPuzzle(app));
  click("puzzle-hint", () => puzzlePanel.puzzleHint(app));
}

function wireSettings() {
  change("board-style", () => {
    settings.setBoardStyle(app, $("board-style").value);
    drawBoard();
    game.redrawPanels(app);
  });
  change("engine-where", async () => {
    const wanted = settings.chosenTransport(app);
    if (!wanted) return;
    stopAnalysisView(app);
    app.transport = wanted;
    app.game = null;
    await game.newGame(app);
  });
}

// Says text once the requests in flight are answered (each answer clears the message line).
async function sayWhenAnswered(text) {
  while (app.busy > 0) await new Promise((done) => setTimeout(done, 20));
  showMessage(text);
}

async function main() {
  document.body.dataset.busy = "0";
  const params = new URLSearchParams(location.search);
  const here = await enginesHere();
  app.browserAvailable = here.browser === true && browserCanRun();
  settings.chooseEngine(app, here, params);
  app.drawBoard = drawBoard;
  settings.offerGames(await api(app, "games", {}));
  if (params.get("mode")) $("mode").value = params.get("mode");
  if (params.get("level")) $("level").value = params.get("level");
  const variantProblem = settings.chooseVariant(params);
  app.view.style = settings.initialStyle(params);
  settings.showStyle(app.view.style);
  reviewPanel.setReviewing(false);
  hangPanels();
  drawBoard();
  wireGame();
  wireEditor();
  wireReviewAndPuzzles();
  wireSettings();
  await game.newGame(app);
  if (variantProblem) await sayWhenAnswered(variantProblem);
  document.body.dataset.ready = "1";
}

// Read-only view for tests and the console.
self.damasBoard = {
  get state() { return app.game; },
  get transport() { return app.transport.name; },
  get review() { return app.review.result; },
  get puzzle() { return app.puzzles.current; },
};
main();
