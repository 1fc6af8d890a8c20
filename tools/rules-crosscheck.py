#!/usr/bin/env python3
"""Cross-checks damas' move generation of every game against a second, deliberately plain generator.

The generator below is written from the rules alone (board coordinates, no bitboards, no code of
damas) and plays random games of each game, comparing at every position its legal moves with
`damas perft --variant V --fen F --depth 2 --divide`, and each move's number of replies with
damas' depth-2 counts (which checks what Position::after made of the move: crowning, removal).

What every game shares (the 64-square games with flying kings): White's men start on the three
rows nearest White and move one square diagonally forward; a king moves any distance along a
free diagonal; capture is compulsory, pieces are removed when the capture ends and none is jumped
twice (the Turkish strike), and a sequence once begun is finished: a king lands only on a square
from which it can take again when there is one (`king_takes` then `sequences`). A man reaching
the far row by a quiet move is crowned.

How each rule of the rules table is written here (RULES below, one row per game):
- men_capture_backward: a man jumps an adjacent opponent in the four directions, or in the two
  forward ones only (`man_takes`).
- crown_mid_capture: a man landing on its far row during a capture goes on at once as a king
  (Russian); otherwise it goes on as a man and is crowned only if its capture ends there
  (`sequences`, and `legal_moves` for the end square).
- choice: Free keeps every sequence; Majority keeps those taking the most pieces; MajorityKings
  then keeps, among those, the ones taking the most kings; KingsFirst keeps only the kings'
  sequences when a king can capture, otherwise all (`choose`).
- mirrored_board: the board is the same, reflected, so the script plays on damas' squares and
  converts only the numbers it writes and reads: the game's number n of a square is its standard
  number (1 = b8 ... 32 = g1) for the other games, and for Spanish and Portuguese the "a1" order
  of the same squares, rows counted from White's side (number 1..4 on White's near row), as
  core/game_squares.h says.
A move is (from, to, the set captured), one move however many routes reach it, as damas counts.

Usage: tools/rules-crosscheck.py [--damas build/release/damas] [--variant NAME] [--games 40] [--seed 1]
(--variant: one of the games, default all six in turn.) Prints the first difference and exits 1,
or a summary per game and exits 0.
"""
import argparse
import random
import subprocess
import sys

DIRECTIONS = [(-1, 1), (1, 1), (-1, -1), (1, -1)]  # (file, rank) steps; White moves up the ranks

# The rows of the rules table (include/damas/core/types.h), as this script reads them.
RULES = {
    "brazilian": dict(men_capture_backward=True, crown_mid_capture=False, choice="Majority", mirrored=False),
    "russian": dict(men_capture_backward=True, crown_mid_capture=True, choice="Free", mirrored=False),
    "spanish": dict(men_capture_backward=False, crown_mid_capture=False, choice="MajorityKings", mirrored=True),
    "portuguese": dict(men_capture_backward=False, crown_mid_capture=False, choice="MajorityKings", mirrored=True),
    "pool": dict(men_capture_backward=True, crown_mid_capture=False, choice="Free", mirrored=False),
    "czech": dict(men_capture_backward=False, crown_mid_capture=False, choice="KingsFirst", mirrored=False),
}


def square_of(n):
    """Standard number 1..32 (1 = b8) to 0-based (file, rank) on damas' board."""
    row_from_top = (n - 1) // 4
    file = 2 * ((n - 1) % 4) + (1 if row_from_top % 2 == 0 else 0)
    return file, 7 - row_from_top


def standard_number(sq):
    file, rank = sq
    return (7 - rank) * 4 + file // 2 + 1


def a1_order(n):
    """The standard number n in the a1 order of the same squares (an involution)."""
    i = n - 1
    return 4 * (7 - i // 4) + i % 4 + 1


class Game:
    def __init__(self, name):
        self.name = name
        rules = RULES[name]
        self.backward = rules["men_capture_backward"]
        self.crown_mid_capture = rules["crown_mid_capture"]
        self.choice = rules["choice"]
        self.mirrored = rules["mirrored"]

    def number(self, sq):
        n = standard_number(sq)
        return a1_order(n) if self.mirrored else n

    def square(self, number):
        return square_of(a1_order(number) if self.mirrored else number)


def on_board(sq):
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def forward(colour):
    return 1 if colour == "W" else -1


def far_rank(colour):
    return 7 if colour == "W" else 0


class Position:
    def __init__(self, game, pieces, side):
        self.game = game
        self.pieces = pieces  # (file, rank) -> (colour, is_king)
        self.side = side

    def fen(self):
        parts = [self.side]
        for colour in "WB":
            numbers = sorted(self.game.number(s) for s, (c, _) in self.pieces.items() if c == colour)
            kings = {self.game.number(s) for s, (c, k) in self.pieces.items() if c == colour and k}
            parts.append(colour + ",".join(("K" if n in kings else "") + str(n) for n in numbers))
        return ":".join(parts)


def start(game):
    """Black's men on standard 1-12, White's on 21-32 (on the mirrored board: 1-12 of its numbers)."""
    pieces = {square_of(n): ("B", False) for n in range(1, 13)}
    pieces.update({square_of(n): ("W", False) for n in range(21, 33)})
    return Position(game, pieces, "W")


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
        if not pos.game.backward and dr != forward(pos.side):
            continue
        victim = (at[0] + df, at[1] + dr)
        landing = (at[0] + 2 * df, at[1] + 2 * dr)
        if not on_board(landing) or victim not in pos.pieces or victim in captured:
            continue
        if pos.pieces[victim][0] == pos.side:
            continue
        if landing == origin or landing not in pos.pieces:
            out.append((victim, [landing]))
    return out


def sequences(pos, origin, at, king, captured, found, passed_far_row=False):
    """Adds every finished sequence from `at` as (from, to, captured, king at the end, passed as man)."""
    takes = (king_takes if king else man_takes)(pos, at, captured, origin)
    if not takes:
        if captured:
            crowned = king or at[1] == far_rank(pos.side)
            found.add((origin, at, frozenset(captured), crowned, passed_far_row and at[1] != far_rank(pos.side)))
        return
    for victim, landings in takes:
        now = captured | {victim}
        if king:
            going_on = [l for l in landings if king_takes(pos, l, now, origin)]
            landings = going_on or landings
        for landing in landings:
            on_far_row = not king and landing[1] == far_rank(pos.side)
            crowned = king or (on_far_row and pos.game.crown_mid_capture)
            sequences(pos, origin, landing, crowned, now, found, passed_far_row or (on_far_row and not crowned))


def choose(pos, found):
    """The sequences the game's capture choice leaves legal."""
    choice = pos.game.choice
    if choice in ("Majority", "MajorityKings"):
        most = max(len(s[2]) for s in found)
        found = {s for s in found if len(s[2]) == most}
    if choice == "MajorityKings":
        def kings_of(s):
            return sum(pos.pieces[v][1] for v in s[2])
        most = max(kings_of(s) for s in found)
        found = {s for s in found if kings_of(s) == most}
    if choice == "KingsFirst":
        by_kings = {s for s in found if pos.pieces[s[0]][1]}
        found = by_kings or found
    return found


def all_sequences(pos):
    found = set()
    for sq, (colour, king) in pos.pieces.items():
        if colour == pos.side:
            sequences(pos, sq, sq, king, frozenset(), found)
    return found


def legal_moves(pos):
    """Moves as (from, to, captured frozenset, king at the end)."""
    found = all_sequences(pos)
    if found:
        return {s[:4] for s in choose(pos, found)}
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
    return Position(pos.game, pieces, "B" if pos.side == "W" else "W")


def move_key(pos, move):
    """The move as damas writes it, in the game's numbers, captured squares in increasing order."""
    origin, to, captured, _ = move
    number = pos.game.number
    if not captured:
        return f"{number(origin)}-{number(to)}"
    return "x".join(str(n) for n in [number(origin), number(to)] + sorted(number(c) for c in captured))


def normal_key(text):
    """damas' move text with its captured squares put in increasing order."""
    if "x" not in text:
        return text
    parts = text.split("x")
    return "x".join(parts[:2] + [str(n) for n in sorted(int(p) for p in parts[2:])])


def perft(pos, depth):
    if depth == 0:
        return 1
    return sum(perft(after(pos, m), depth - 1) for m in legal_moves(pos))


def damas_divide(binary, game, fen, depth):
    out = subprocess.run([binary, "perft", "--variant", game, "--fen", fen, "--depth", str(depth), "--divide"],
                         capture_output=True, text=True, check=True).stdout
    lines = [line.split() for line in out.splitlines() if not line.startswith("perft")]
    return {normal_key(move): int(count) for move, count in lines}


def check(binary, pos):
    """None when damas agrees at this position, else the difference."""
    ours = legal_moves(pos)
    theirs = damas_divide(binary, pos.game.name, pos.fen(), 2)
    texts = {move_key(pos, m): m for m in ours}
    if len(texts) != len(ours) or set(texts) != set(theirs):
        return f"moves differ: here {sorted(texts)}, damas {sorted(theirs)}"
    for text, move in texts.items():
        if perft(after(pos, move), 1) != theirs[text]:
            return f"after {text}: {perft(after(pos, move), 1)} replies here, damas {theirs[text]}"
    return None


def play(binary, game, games, rng):
    """Random games of `game`; returns the tallies, or prints the difference and returns None."""
    t = dict(positions=0, captures=0, choice_pruned=0, crowned_on_the_way=0, passed_as_man=0, kings=0)
    for _ in range(games):
        pos = start(game)
        for _ply in range(150):
            moves = legal_moves(pos)
            if not moves:
                break
            difference = check(binary, pos)
            t["positions"] += 1
            if difference:
                print(f"{game.name}: {pos.fen()}: {difference}")
                return None
            found = all_sequences(pos)
            t["captures"] += bool(found)
            t["kings"] += any(k for _, k in pos.pieces.values())
            if found:
                t["choice_pruned"] += len({s[:4] for s in found}) > len(moves)
                t["crowned_on_the_way"] += any(
                    m[3] and m[2] and m[1][1] != far_rank(pos.side) and not pos.pieces[m[0]][1] for m in moves)
                t["passed_as_man"] += any(s[4] for s in choose(pos, found))
            pos = after(pos, rng.choice(sorted(moves, key=lambda m: move_key(pos, m))))
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--damas", default="build/release/damas")
    parser.add_argument("--variant", choices=list(RULES), help="one game (default: all six)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in [args.variant] if args.variant else list(RULES):
        t = play(args.damas, Game(name), args.games, random.Random(args.seed))
        if t is None:
            return 1
        print(f"{name}: {t['positions']} positions agree ({t['captures']} with captures, {t['kings']} with kings; "
              f"captures the choice rule cut down: {t['choice_pruned']}; a man crowned during a capture that ends "
              f"off the far row: {t['crowned_on_the_way']}; a man passing the far row as a man: {t['passed_as_man']})",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
