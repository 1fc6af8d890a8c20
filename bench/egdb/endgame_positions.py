#!/usr/bin/env python3
"""bench/egdb/endgame_positions.py DAMAS GAMES.pdn[.gz] PIECES [COUNT [VARIANT]]: the first position of
each game with at most PIECES pieces on the board, one FEN a line: the start positions of the probe-speed measurement (probe_speed.sh).
The positions come from the engine itself (`damas analyze --moves ... --depth 1` prints the FEN),
so this script knows no rules; it finds the ply by bisection on the number of pieces."""
import gzip
import re
import subprocess
import sys

VARIANT = sys.argv[5] if len(sys.argv) > 5 else "brazilian"


def games(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        text = f.read()
    for block in re.split(r"\n\s*\n(?=\[)", text):
        fen = re.search(r'\[FEN "([^"]+)"\]', block)
        result = re.search(r'\[Result "([^"]+)"\]', block)
        body = re.sub(r"\[[^\]]*\]", "", block)
        body = re.sub(r"\{[^}]*\}", "", body)
        moves = [t for t in body.split() if re.fullmatch(r"\d+[-x]\d+(x\d+)*", t)]
        if result and moves and moves[-1] == result.group(1):
            moves.pop()
        if moves:
            yield (fen.group(1) if fen else None), moves  # None: the game's initial position


def fen_after(damas, start, moves):
    fen = ["--fen", start] if start else []
    out = subprocess.run([damas, "analyze", "--variant", VARIANT] + fen + ["--moves", " ".join(moves), "--depth", "1",
                          "--board", "no", "--egdb-path", "none", "--book", "false"],
                         capture_output=True, text=True, check=True).stdout
    return next(line for line in out.splitlines() if re.fullmatch(r"[WB]:[WB].*", line.strip())).strip()


def pieces(fen):
    return sum(len([s for s in part[1:].split(",") if s]) for part in fen.split(":")[1:3])


def main():
    damas, path, most = sys.argv[1], sys.argv[2], int(sys.argv[3])
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    found = 0
    for start, moves in games(path):
        moves.pop()  # the last position may be the end of the game, with nothing to search
        if not moves or pieces(fen_after(damas, start, moves)) > most:
            continue
        if start and pieces(start) <= most:
            continue
        low, high = 0, len(moves)  # pieces(after low) > most >= pieces(after high)
        while high - low > 1:
            mid = (low + high) // 2
            if pieces(fen_after(damas, start, moves[:mid])) > most:
                low = mid
            else:
                high = mid
        print(fen_after(damas, start, moves[:high]), flush=True)
        found += 1
        if found == count:
            break


if __name__ == "__main__":
    main()
