// The person's input on the board: clicks and keys on the squares. A click picks a piece, enters
// a landing square or drops the pick (legal.js decides from the engine's legal moves); in the
// editor it places a piece; on a best line it goes back to the game.
import { cellAt, cellPosition, render } from "./draw.js";
import { enterSquare } from "./legal.js";
import { playMove } from "./game.js";
import { placePiece } from "./editor.js";
import { closeLine } from "./review-panel.js";

export async function onSquare(app, name) {
  app.view.focus = name;
  if (app.setup) return placePiece(app, name);
  if (app.line) return closeLine(app);
  const { game } = app;
  if (!game || app.busy || game.result.over || game.turn !== "human") return;
  const { pick, move } = enterSquare(game.legal, app.pick, name);
  app.pick = pick;
  if (move) return playMove(app, move);
  render(app);
}

// Where the arrows go from the cell drawn at x, y: to a diagonal neighbour on the board as drawn;
// up goes right and down left (the other way at the edge), left goes up and right down (likewise).
const STEPS = { ArrowUp: [[1, 1], [-1, 1]], ArrowDown: [[-1, -1], [1, -1]],
                ArrowLeft: [[-1, 1], [-1, -1]], ArrowRight: [[1, -1], [1, 1]] };

export function onKey(app, e) {
  if (e.key === "Escape") {
    app.pick = null;
    render(app);
    return;
  }
  const steps = STEPS[e.key];
  if (!steps) return;
  e.preventDefault();
  const [x, y] = cellPosition(e.currentTarget);
  const target = steps.map(([dx, dy]) => cellAt(x + dx, y + dy)).find((c) => c && c.dataset.square);
  if (!target) return;
  e.currentTarget.tabIndex = -1;
  target.tabIndex = 0;
  target.focus();
  app.view.focus = target.dataset.square;
}
