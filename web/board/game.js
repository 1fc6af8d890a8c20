// Game controls: the session's state from the API on the board, moves, the computer's answer,
// undo, hint, going to a ply, a new game (or one from a FEN or PDN), and PDN out. The panels that
// follow the game (move list, review, analysis, puzzles) hang on app.on (see board.js).
import { api } from "./transport.js";
import { render } from "./draw.js";
import { shown } from "./layout.js";
import { rulesTitle } from "./settings.js";

const $ = (id) => document.getElementById(id);

// The game the session plays, as the API names it, in the header and the window's title.
function showVariant(variant, title) {
  const option = $("variant").querySelector(`option[value="${variant}"]`);
  const name = title || (option ? option.textContent : variant);
  $("variant").value = variant;
  $("subtitle").textContent = name + ": play and analyse";
  document.title = "damas: " + name + " board";
  document.body.dataset.variant = variant;
}

function run(hooks) { for (const f of hooks) f(); }

// Draws the panels that follow the game again (the move list, the review).
export function redrawPanels(app) {
  if (app.game) run(app.on.update);
}

// Draws the board and every panel again (the board style changed, say).
export function redraw(app) {
  render(app);
  redrawPanels(app);
}

// The board of the game (the mirrored one of Spanish and Portuguese, or the FMJD one), drawn again
// when the game changes board. The Filipino style is for a game of the FMJD board only.
function followBoard(app, mirroredGame) {
  $("board-style").disabled = mirroredGame;
  $("board-style").title = mirroredGame ? "this game has its own board: a light square at each player's near left" : "";
  if (app.view.mirroredGame === mirroredGame) return;
  app.view.mirroredGame = mirroredGame;
  app.drawBoard();
}

// Shows the API's state of the session: the board, the controls' values, the panels.
export function update(app, s) {
  if (!s) return;
  app.game = s;
  app.pick = null;
  app.hint = null;
  app.line = null;
  $("hint-text").textContent = "";
  $("fen").value = s.fen;
  showVariant(s.variant, s.title);
  $("mode").value = s.mode;
  $("level").value = s.level;
  $("rules").value = s.rules;
  $("game-laws").textContent = "Laws: " + rulesTitle(s.rules);
  $("human").value = s.human;
  $("computer-move").hidden = s.mode !== "computer";
  followBoard(app, s.mirrored_board === true);
  redraw(app);
}

// The settings of a new game, from the controls (and ?movetime=S). The variant is also that of a
// PDN without a GameType tag (a tagged game is played by its own).
function settings() {
  const s = { variant: $("variant").value, mode: $("mode").value, level: $("level").value, human: $("human").value,
              rules: $("rules").value };
  for (const key of ["variant", "rules"]) if (!s[key]) delete s[key];  // none offered: the API's default
  const mt = Number(new URLSearchParams(location.search).get("movetime"));
  if (mt > 0) s.movetime = mt;
  return s;
}

// A new session (`extra`: {fen} or {pdn} and settings); the previous one is closed.
export async function newGame(app, extra) {
  run(app.on.reset);
  const previous = app.game && app.game.session;
  const op = extra && extra.pdn !== undefined ? "load-pdn" : "new";
  const s = await api(app, op, Object.assign(settings(), extra || {}));
  if (!s) return false;
  if (previous) app.transport.call("close", { session: previous }).catch(() => {});
  update(app, s);
  await afterChange(app);
  return true;
}

// A legal move entered on the board (puzzle mode has its own: app.play).
export async function playMove(app, move) {
  if (app.play) return app.play(move);
  const s = await api(app, "move", { session: app.game.session, move: move.id });
  if (!s) return dropPick(app);
  update(app, s);
  await afterChange(app);
}

export function dropPick(app) {
  app.pick = null;
  render(app);
}

// After the position changes: the computer answers, and the panels follow the board.
async function afterChange(app) {
  const { game } = app;
  if (game.turn === "computer" && !game.result.over) {
    render(app);
    const s = await api(app, "engine-move", { session: game.session });
    if (s && s.session === app.game.session) update(app, s);
  }
  run(app.on.changed);
}

// The request `op` on the session, unless another is in flight; shows its state.
async function sessionOp(app, op, extra) {
  if (!app.game || app.busy) return null;
  const s = await api(app, op, Object.assign({ session: app.game.session }, extra || {}));
  if (s) update(app, s);
  return s;
}

export async function gotoPly(app, ply) {
  if (!app.game || app.busy) return;
  if (app.puzzles.current && ply > app.game.cursor) return;  // the moves ahead are the solution
  const s = await sessionOp(app, "goto", { ply });
  if (app.puzzles.current && s) app.puzzles.current.step = s.cursor;
  run(app.on.changed);
}

export async function undo(app) {
  if (await sessionOp(app, "undo")) run(app.on.changed);
}

export async function computerMove(app) {
  if (await sessionOp(app, "engine-move")) run(app.on.changed);
}

export async function hint(app) {
  if (!app.game || app.busy) return;
  const r = await api(app, "hint", { session: app.game.session });
  if (!r || r.session !== app.game.session) return;
  app.hint = r.hint;
  $("hint-text").textContent = "Hint: " + shown(app.view, r.hint.text) + " (" + r.score_text + ")";
  render(app);
}

// Puts the PDN text in the PDN field and offers it as a file.
export function download(text, name) {
  $("pdn").value = text;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pdn" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 0);
}

export function savePdn(app) {
  if (app.game) download(app.game.pdn, "damas-game.pdn");
}
