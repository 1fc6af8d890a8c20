// Board drawing: the grid of squares, the pieces of the position (the game's, a best line's or
// the editor's), the marks of move entry (from legal.js), and the status line above the panel.
import { SIZE, fromDisplay, isDark, shown, squareName } from "./layout.js";
import { candidates, takenAnyway, targets } from "./legal.js";

const $ = (id) => document.getElementById(id);

// Rebuilds the cells; `onSquare(name)` and `onKey(event)` are the dark squares' handlers.
export function buildBoard(app, onSquare, onKey) {
  const board = $("board");
  board.textContent = "";
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) board.appendChild(buildCell(app.view, x, y, onSquare, onKey));
  }
  // The keyboard's square: a playing square of this board (a1 is none on the mirrored one).
  if (!board.querySelector('.sq.dark[tabindex="0"]')) {
    const first = [...board.children].slice(-SIZE).find((c) => c.dataset.square);  // the bottom row's first
    first.tabIndex = 0;
    app.view.focus = first.dataset.square;
  }
  $("eval-bar").classList.toggle("flipped", app.view.flipped);
  board.dataset.mirrored = app.view.mirroredGame ? "1" : "0";
}

function buildCell(view, x, y, onSquare, onKey) {
  const [col, row] = fromDisplay(view, x, y);
  const dark = isDark(view, col, row);
  const cell = document.createElement(dark ? "button" : "div");
  cell.className = "sq " + (dark ? "dark" : "light");
  if (dark) {
    const name = squareName(col, row);
    cell.type = "button";
    cell.dataset.square = name;
    cell.setAttribute("aria-label", shown(view, name));
    cell.tabIndex = name === view.focus ? 0 : -1;
    cell.addEventListener("click", () => onSquare(name));
    cell.addEventListener("keydown", onKey);
  }
  if (y === 0 || x === 0) {
    const coord = document.createElement("span");
    coord.className = "coord";
    coord.textContent = (y === 0 ? shown(view, squareName(col, row))[0] : "") + (x === 0 ? String(row + 1) : "");
    cell.appendChild(coord);
  }
  return cell;
}

// The cell drawn at x, y (from the bottom left), or undefined outside the board.
export function cellAt(x, y) {
  if (x < 0 || x >= SIZE || y < 0 || y >= SIZE) return undefined;
  return $("board").children[(SIZE - 1 - y) * SIZE + x];
}

// Where a cell is drawn: x, y from the bottom left.
export function cellPosition(cell) {
  const at = [...$("board").children].indexOf(cell);
  return [at % SIZE, SIZE - 1 - Math.floor(at / SIZE)];
}

// Square -> "w" | "b" | "W" | "B" of the position shown.
export function pieceMap(app) {
  if (app.setup) return Object.assign({}, app.setup.board);
  const map = {};
  if (!app.game) return map;
  const pieces = app.line ? app.line.steps[app.line.index].pieces : app.game.pieces;
  for (const p of pieces) map[p.square] = (p.color === "white" ? "w" : "b")[p.king ? "toUpperCase" : "toString"]();
  return map;
}

function describe(code) {
  return { w: "white man", W: "white king", b: "black man", B: "black king" }[code] || "";
}

// What the board marks: squares that go on with the move, pieces that must capture, pieces
// taken, the last move and the hint.
function marks(app) {
  const { game, setup, line, pick, hint } = app;
  const cands = game && !setup ? candidates(game.legal, pick) : [];
  const lastMove = line ? line.steps[line.index].last_move : game && game.last_move;
  return {
    cands,
    targets: pick && !setup ? targets(cands, pick) : new Set(),
    taken: takenAnyway(cands, pick),
    capturers: new Set(game && !setup && !line && game.must_capture ? game.capturers : []),
    last: lastMove && !setup ? [lastMove.from, lastMove.to] : [],
    hint: hint && !setup ? [hint.from, hint.to] : [],
    path: pick && !setup ? pick.landings : [],
  };
}

export function render(app) {
  const map = pieceMap(app);
  const m = marks(app);
  const pick = app.setup ? null : app.pick;
  $("board").classList.toggle("line-view", !!app.line);
  document.querySelectorAll(".sq.dark").forEach((el) => {
    const name = el.dataset.square;
    el.classList.toggle("target", m.targets.has(name));
    el.classList.toggle("path", m.path.includes(name));
    el.classList.toggle("last", m.last.includes(name));
    el.classList.toggle("hint", m.hint.includes(name));
    el.querySelectorAll(".piece").forEach((p) => p.remove());
    const entered = pick && pick.landings.length > 0;
    const code = entered && name === pick.landings[pick.landings.length - 1] ? map[pick.from] : map[name];
    if (!code) return;
    const piece = document.createElement("span");
    piece.className = "piece " + (code.toLowerCase() === "w" ? "white" : "black") + (code === code.toUpperCase() ? " king" : "");
    if (pick && name === pick.from) piece.classList.add(entered ? "ghost" : "selected");
    if (m.capturers.has(name) && !(pick && name === pick.from)) piece.classList.add("must");
    if (m.taken.has(name)) piece.classList.add("captured");
    piece.setAttribute("aria-hidden", "true");
    el.appendChild(piece);
    el.setAttribute("aria-label", shown(app.view, name) + " " + describe(code));
  });
  renderStatus(app, m.cands);
}

function lineText(app) {
  const { line } = app;
  const step = line.steps[line.index];
  return `Best line: ${line.index} of ${line.steps.length - 1}` +
         (step.text ? ` (${shown(app.view, step.text)})` : " (before the move)");
}

function renderStatus(app, cands) {
  const { game, setup, line, pick } = app;
  const banner = $("banner");
  if (setup) {
    $("status").textContent = "Setting up a position";
    banner.hidden = true;
    return;
  }
  if (!game) return;
  const side = game.side === "white" ? "White" : "Black";
  let text;
  if (line) text = lineText(app);
  else if (game.result.over) text = game.result.text;
  else if (game.turn === "computer") text = side + " to move (computer thinking)";
  else text = side + " to move" + (game.must_capture ? " (must capture)" : "");
  if (pick && pick.landings.length && cands.length > 1) text += " — choose the next landing square";
  $("status").textContent = text;
  banner.hidden = !game.result.over;
  banner.textContent = game.result.over ? game.result.text : "";
  document.body.dataset.over = game.result.over ? "1" : "0";
  document.body.dataset.side = game.side;
}
