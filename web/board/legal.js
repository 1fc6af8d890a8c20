// Move entry from the engine's legal moves (the state's `legal`: from, captured, routes): which
// pieces may be picked, which squares go on with a move, which move the squares entered make.
// Everything comes from that list, so another rule set needs no change here.

// The moves from the picked square (each with one of its routes) whose route begins with the
// landing squares entered so far.
export function candidates(legal, pick) {
  if (!pick) return [];
  const out = [];
  for (const move of legal) {
    if (move.from !== pick.from) continue;
    for (const route of move.routes) {
      if (pick.landings.every((sq, i) => route[i] === sq)) out.push({ move, route });
    }
  }
  return out;
}

export function movable(legal, square) {
  return legal.some((m) => m.from === square);
}

// The squares that go on with the picked piece's move.
export function targets(cands, pick) {
  return new Set(cands.map((c) => c.route[pick.landings.length]).filter(Boolean));
}

// Mid-capture, the pieces that go whichever way the capture is finished: those every remaining
// move takes.
export function takenAnyway(cands, pick) {
  if (!pick || !pick.landings.length || !cands.length) return new Set();
  return new Set(cands[0].move.captured.filter((sq) => cands.every((c) => c.move.captured.includes(sq))));
}

// Whether more than one move still begins with the squares entered (the next landing chooses).
export function choosing(cands) {
  return new Set(cands.map((c) => c.move.id)).size > 1;
}

// A click on `square` with `pick` ({from, landings} or null): the new pick, and the move when the
// squares entered name exactly one legal move.
export function enterSquare(legal, pick, square) {
  if (pick) {
    const next = candidates(legal, pick).filter((c) => c.route[pick.landings.length] === square);
    if (next.length) {
      const entered = { from: pick.from, landings: pick.landings.concat(square) };
      return { pick: entered, move: choosing(next) ? null : next[0].move };
    }
    if (pick.landings.length) return { pick, move: null };  // mid-capture: only a landing goes on
  }
  const again = pick && pick.from === square;  // picking the piece again drops it
  return { pick: movable(legal, square) && !again ? { from: square, landings: [] } : null, move: null };
}
