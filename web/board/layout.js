// The board as drawn: which cell of the 8x8 grid shows which square, and the square names people
// see. The API names the squares (a1 is White's near-left dark corner); the Filipino board is the
// mirror image of the Brazilian one, so its names swap the files a..h. Drawing only, no rules.

const FILES = "abcdefgh";
export const SIZE = 8;

export function squareName(col, row) { return FILES[col] + String(row + 1); }  // col, row from a1
export function isDark(col, row) { return (col + row) % 2 === 0; }                // a1 is dark

const mirrored = (view) => view.style === "filipino";

// A square name, a move or a line as this board names it.
export function shown(view, text) {
  return mirrored(view) ? text.replace(/[a-h](?=[1-8])/g, (f) => FILES[7 - FILES.indexOf(f)]) : text;
}

// Board column and row (from a1) of the cell drawn at x, y (from the bottom left); the mapping is
// its own inverse.
export function fromDisplay(view, x, y) {
  return [view.flipped !== mirrored(view) ? SIZE - 1 - x : x, view.flipped ? SIZE - 1 - y : y];
}
