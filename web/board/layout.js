// The board as drawn: which cell of the 8x8 grid shows which square, and the square names people
// see. The API names the squares as the game's players do (its state says which board the game
// has): on the FMJD board (Brazilian, Russian, Pool, Czech) a1, White's near-left corner, is dark;
// on the mirrored board of Spanish and Portuguese (`mirrored_board`) that corner is light and h1 is
// dark, with the files a..h still left to right as White sees them. The Filipino style draws a
// game of the FMJD board mirrored, so its names swap the files a..h; a game of the mirrored board
// is always drawn as its own. Drawing only, no rules.

const FILES = "abcdefgh";
export const SIZE = 8;

export function squareName(col, row) { return FILES[col] + String(row + 1); }  // col, row from a1
// The playing squares: a1's colour on the FMJD board, the others on the mirrored one.
export function isDark(view, col, row) { return (col + row) % 2 === (view.mirroredGame ? 1 : 0); }

const mirrored = (view) => view.style === "filipino" && !view.mirroredGame;

// A square name, a move or a line as this board names it.
export function shown(view, text) {
  return mirrored(view) ? text.replace(/[a-h](?=[1-8])/g, (f) => FILES[7 - FILES.indexOf(f)]) : text;
}

// Board column and row (from a1) of the cell drawn at x, y (from the bottom left); the mapping is
// its own inverse.
export function fromDisplay(view, x, y) {
  return [view.flipped !== mirrored(view) ? SIZE - 1 - x : x, view.flipped ? SIZE - 1 - y : y];
}
