// The Puzzles panel: a puzzle of the set (puzzle-set.js) loaded through the API, its solution
// played from its position; a wrong move gets the engine's answer. While on, the board's moves
// go to puzzleMove (app.play).
import * as puzzleSet from "./puzzle-set.js";
import { api, showMessage } from "./transport.js";
import { dropPick, newGame, update } from "./game.js";
import { render } from "./draw.js";
import { shown } from "./layout.js";

const $ = (id) => document.getElementById(id);

function say(text, how) {
  $("puzzle-text").textContent = text;
  $("puzzle-text").className = "puzzle-text" + (how ? " " + how : "");
}

function showSolvedCount(app, count = puzzleSet.solved().size) {
  const total = app.puzzles.set ? app.puzzles.set.length : 0;
  $("puzzle-solved").textContent = `Solved in this browser: ${count} of ${total}`;
}

export function setPuzzleMode(app, on) {
  $("puzzle-toggle").textContent = on ? "Stop puzzles" : "Solve puzzles";
  for (const id of ["puzzle-hint", "puzzle-next"]) $(id).hidden = !on;
  $("puzzle-retry").hidden = true;
  document.body.dataset.puzzle = on ? "1" : "0";
  app.play = on ? (move) => puzzleMove(app, move) : null;
  if (!on) {
    app.puzzles.current = null;
    say("");
  }
}

export async function togglePuzzles(app) {
  if (app.puzzles.current) {
    setPuzzleMode(app, false);
    return newGame(app);
  }
  try {
    if (!app.puzzles.set) app.puzzles.set = await puzzleSet.load();
  } catch (e) {
    showMessage(e.message);
    return;
  }
  if (!app.puzzles.set.length) { showMessage("the puzzle set is empty"); return; }
  const solved = puzzleSet.solved();
  const first = app.puzzles.set.findIndex((p) => !solved.has(p.id));
  await startPuzzle(app, first < 0 ? 0 : first);
}

export function nextPuzzle(app) {
  const { set, current } = app.puzzles;
  if (set) startPuzzle(app, (current ? current.index + 1 : 0) % set.length);
}

// Loads puzzle i: its PDN through the API (which reads the solution), then back to its start.
async function startPuzzle(app, i) {
  const p = app.puzzles.set[i];
  if (!(await newGame(app, { pdn: p.pdn, mode: "two-players" }))) return;
  // The solution stays out of sight: the move list shows the moves up to the cursor only.
  app.puzzles.current = { index: i, solution: app.game.moves.map((m) => m.text), step: 0, failed: false };
  setPuzzleMode(app, true);
  const s = await api(app, "goto", { session: app.game.session, ply: 0 });
  if (!s) return;
  update(app, s);
  const side = app.game.side === "white" ? "White" : "Black";
  const source = p.source.replace(/ \(best [^)]*\)$/, "");  // the source names the answer
  say(`Puzzle ${i + 1} of ${app.puzzles.set.length}: ${side} to play and win a piece. (${source})`);
  showSolvedCount(app);
}

async function puzzleMove(app, move) {
  const puzzle = app.puzzles.current;
  const expected = puzzle.solution[puzzle.step];
  const s = await api(app, "move", { session: app.game.session, move: move.id });
  if (!s) return dropPick(app);
  update(app, s);
  if (move.text !== expected) return refute(app, move);
  puzzle.step++;
  if (puzzle.step < puzzle.solution.length) {
    const reply = app.game.legal.find((m) => m.text === puzzle.solution[puzzle.step]);
    const r = reply && (await api(app, "move", { session: app.game.session, move: reply.id }));
    if (r) update(app, r);
    puzzle.step++;
    say(`Right. ${shown(app.view, puzzle.solution[puzzle.step - 1])} came back: go on.`);
    return;
  }
  const id = app.puzzles.set[puzzle.index].id;
  say(puzzle.failed ? "Solved, after a wrong try." : "Solved!", "solved");
  showSolvedCount(app, puzzle.failed ? puzzleSet.solved().size : puzzleSet.markSolved(id));
}

// A wrong move: the engine answers it on the board; "Try again" goes back before it.
async function refute(app, move) {
  app.puzzles.current.failed = true;
  $("puzzle-retry").hidden = false;
  $("puzzle-retry").dataset.ply = String(app.game.cursor - 1);
  const wrong = shown(app.view, move.text);
  if (app.game.result.over) { say(`${wrong} is not it.`, "failed"); return; }
  const h = await api(app, "hint", { session: app.game.session });
  const r = h && (await api(app, "move", { session: app.game.session, move: h.hint.id }));
  if (r) update(app, r);
  say(`${wrong} is not it: ${h ? shown(app.view, h.hint.text) : "the answer"} refutes it.`, "failed");
}

export async function retryPuzzle(app) {
  const s = await api(app, "goto", { session: app.game.session, ply: Number($("puzzle-retry").dataset.ply) });
  if (!s) return;
  update(app, s);
  app.puzzles.current.step = s.cursor;
  $("puzzle-retry").hidden = true;
  say("Try again.");
}

export function puzzleHint(app) {
  const puzzle = app.puzzles.current;
  if (!puzzle || puzzle.step >= puzzle.solution.length) return;
  app.hint = app.game.legal.find((m) => m.text === puzzle.solution[puzzle.step]) || null;
  if (app.hint) say(`Hint: the piece on ${shown(app.view, app.hint.from)} moves.`);
  render(app);
}
