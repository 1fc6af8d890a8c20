#!/usr/bin/env python3
"""bench/egdb/probe_speed.py DAMAS POSITIONS DIR SECONDS [VARIANT] [PIECES...]: the search's speed with
the databases of DIR cut at each number of PIECES (default 5 6; 0 = no databases), in one run: every
position (one FEN a line, endgame_positions.py) is searched SECONDS on one thread once per setting,
the settings taken in turn (their order rotated from one position to the next), so that a change of
the machine's load falls on all of them. Prints per setting the nodes, the time, the nodes per
second and the mean depth reached."""
import re
import subprocess
import sys


def search(damas, fen, directory, pieces, seconds, variant):
    path = ["--egdb-path", "none"] if pieces == 0 else ["--egdb-path", directory, "--egdb-pieces", str(pieces)]
    out = subprocess.run([damas, "analyze", "--variant", variant, "--fen", fen, "--time", str(seconds),
                          "--book", "false", "--board", "no", "--threads", "1"] + path,
                         capture_output=True, text=True, check=True).stdout
    last = re.search(r"score (.+?) for the side to move, depth (\d+), (\d+) nodes in ([\d.]+) s", out)
    if not last:
        sys.exit(f"no search summary for {fen}:\n{out}")
    return int(last.group(2)), int(last.group(3)), float(last.group(4)), last.group(1)


def main():
    damas, positions, directory, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    variant = sys.argv[5] if len(sys.argv) > 5 else "brazilian"
    settings = [int(p) for p in sys.argv[6:]] or [5, 6]
    fens = [line.strip() for line in open(positions) if line.strip() and not line.startswith("#")]
    totals = {p: [0, 0, 0.0, 0] for p in settings}  # depth sum, nodes, seconds, searches
    for i, fen in enumerate(fens):
        order = settings[i % len(settings):] + settings[:i % len(settings)]
        for p in order:
            depth, nodes, time, _ = search(damas, fen, directory, p, seconds, variant)
            t = totals[p]
            t[0] += depth
            t[1] += nodes
            t[2] += time
            t[3] += 1
    print(f"{len(fens)} positions, {seconds} s each, {variant}, databases {directory}")
    print(f"{'pieces':>8} {'nodes':>12} {'seconds':>9} {'knps':>8} {'mean depth':>11}")
    for p in settings:
        depth, nodes, time, n = totals[p]
        name = "none" if p == 0 else str(p)
        print(f"{name:>8} {nodes:>12} {time:>9.2f} {nodes / time / 1000:>8.0f} {depth / n:>11.1f}")


if __name__ == "__main__":
    main()
