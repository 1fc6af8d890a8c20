#!/usr/bin/env python3
"""Cross-checks damas' Russian move generation against a second, deliberately plain generator.

The generator below is written from the rules alone (board coordinates, no bitboards, no code of
damas): capture compulsory with free choice among sequences, a sequence finished, a man reaching
the far row during a capture crowned at once and capturing on as a king, flying kings that must
land where they can take again if they can, the Turkish strike. It plays random Russian games and,
at every position, compares its legal moves with `damas perft --variant russian --depth 1
--divide`, and its depth-2 leaf count with damas' (which checks the crowning of Position::after).

Usage: tools/russian-crosscheck.py [--damas build/release/damas] [--games 40] [--seed 1]
Prints the first difference and exits 1, or a summary and exits 0.
"""
import argparse
import random
import subprocess
import sys

DIRECTIONS = [(-1, 1), (1, 1), (-1, -1), (1, -1)]  # (file, rank) steps


def square_of(n):
    """Standard number 1..32 (1 = b8) to 0-based (file, rank)."""
    row_from_top = (n - 1) // 4
    file = 2 * ((n - 1) % 4) + (1 if row_from_top % 2 == 0 else 0)
    return file, 7 - row_from_top


def number_of(sq):
    file, rank = sq
    row_from_top = 7 - rank
    return row_from_top * 4 + file // 2 + 1


def on_board(sq):
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def forward(colour):
    return 1 if colour == "W" else -1


def far_rank(colour):
    return 7 if colour == "W" else 0


class Position:
    def __init__(self, pieces, side):
        self.pieces = pieces  # (file, rank) -> (colour, is_king)
        self.side = side

    def fen(self):
        parts = [self.side]
        for colour in "WB":
            squares = sorted(number_of(s) for s, (c, _) in self.pieces.items() if c == colour)
            kings = {number_of(s) for s, (c, k) in self.pieces.items() if c == colour and k}
            parts.append(colour + ",".join(("K" if n in kings else "") + str(n) for n in squares))
        return ":".join(parts)


def start():
    pieces = {square_of(n): ("B", False) for n in range(1, 13)}
    pieces.update({square_of(n): ("W", False) for n in range(21, 33)})
    return Position(pieces, "W")


def king_takes(pos, at, captured, origin):
    """The (victim, landings) a king on `at` can take, the moving piece's origin counted empty."""
    def empty(sq):
        return on_board(sq) and (sq == origin or sq not in pos.pieces)

    out = []
    for df, dr in DIRECTIONS:
        sq = (at[0] + df, at[1] + dr)
        while empty(sq):
            sq = (sq[0] + df, sq[1] + dr)
        if not on_board(sq) or sq in captured or pos.pieces[sq][0] == pos.side:
            continue
        landings = []
        beyond = (sq[0] + df, sq[1] + dr)
        while empty(beyond):
            landings.append(beyond)
            beyond = (beyond[0] + df, beyond[1] + dr)
        if landings:
            out.append((sq, landings))
    return out


def man_takes(pos, at, captured, origin):
    out = []
    for df, dr in DIRECTIONS:
        victim = (at[0] + df, at[1] + dr)
        landing = (at[0] + 2 * df, at[1] + 2 * dr)
        if not on_board(landing) or victim not in pos.pieces or victim in captured:
            continue
        if pos.pieces[victim][0] == pos.side:
            continue
        if landing == origin or landing not in pos.pieces:
            out.append((victim, [landing]))
    return out


def sequences(pos, origin, at, king, captured, found):
    takes = (king_takes if king else man_takes)(pos, at, captured, origin)
    if not takes:
        if captured:
            found.add((origin, at, frozenset(captured), king))
        return
    for victim, landings in takes:
        now = captured | {victim}
        if king:
            going_on = [l for l in landings if king_takes(pos, l, now, origin)]
            landings = going_on or landings
        for landing in landings:
            crowned = king or landing[1] == far_rank(pos.side)
            sequences(pos, origin, landing, crowned, now, found)


def legal_moves(pos):
    """Moves as (from, to, captured frozenset, king at the end)."""
    found = set()
    for sq, (colour, king) in pos.pieces.items():
        if colour == pos.side:
            sequences(pos, sq, sq, king, frozenset(), found)
    if found:
        return found
    moves = set()
    for sq, (colour, king) in pos.pieces.items():
        if colour != pos.side:
            continue
        for df, dr in DIRECTIONS:
            if not king and dr != forward(colour):
                continue
            to = (sq[0] + df, sq[1] + dr)
            while on_board(to) and to not in pos.pieces:
                moves.add((sq, to, frozenset(), king or to[1] == far_rank(colour)))
                if not king:
                    break
                to = (to[0] + df, to[1] + dr)
    return moves


def after(pos, move):
    origin, to, captured, king = move
    pieces = {s: p for s, p in pos.pieces.items() if s not in captured and s != origin}
    pieces[to] = (pos.side, king)
    return Position(pieces, "B" if pos.side == "W" else "W")


def hub_text(move):
    origin, to, captured, _ = move
    if not captured:
        return f"{number_of(origin)}-{number_of(to)}"
    return "x".join(str(n) for n in [number_of(origin), number_of(to)] + sorted(number_of(c) for c in captured))


def perft(pos, depth):
    if depth == 0:
        return 1
    return sum(perft(after(pos, m), depth - 1) for m in legal_moves(pos))


def damas_divide(binary, fen, depth):
    out = subprocess.run([binary, "perft", "--variant", "russian", "--fen", fen, "--depth", str(depth), "--divide"],
                         capture_output=True, text=True, check=True).stdout
    lines = [line.split() for line in out.splitlines() if not line.startswith("perft")]
    return {move: int(count) for move, count in lines}


def check(binary, pos):
    """None when damas agrees at this position, else the difference."""
    ours = legal_moves(pos)
    theirs = damas_divide(binary, pos.fen(), 2)
    texts = {hub_text(m): m for m in ours}
    if len(texts) != len(ours) or set(texts) != set(theirs):
        return f"moves differ: here {sorted(texts)}, damas {sorted(theirs)}"
    for text, move in texts.items():
        if perft(after(pos, move), 1) != theirs[text]:
            return f"after {text}: {perft(after(pos, move), 1)} replies here, damas {theirs[text]}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--damas", default="build/release/damas")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = captures = crowned_on_the_way = 0
    for _ in range(args.games):
        pos = start()
        for _ply in range(150):
            moves = legal_moves(pos)
            if not moves:
                break
            difference = check(args.damas, pos)
            positions += 1
            if difference:
                print(f"{pos.fen()}: {difference}")
                return 1
            captures += any(m[2] for m in moves)
            crowned_on_the_way += any(m[3] and m[2] and m[1][1] != far_rank(pos.side) and not pos.pieces[m[0]][1]
                                      for m in moves)
            pos = after(pos, rng.choice(sorted(moves, key=hub_text)))
    print(f"{positions} positions agree ({captures} with captures, {crowned_on_the_way} with a man crowned "
          f"during a capture that ends off the far row)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
