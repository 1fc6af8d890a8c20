#!/usr/bin/env python3
"""bench/egdb/count_positions.py [INFO.txt]: the number of positions of every slice counted by
combinatorics alone, independently of the engine's index: white men stand on squares 5-32, black men
on 1-28 (a man on its crowning row is a king), kings anywhere, no two pieces on a square, either side
to move. With the output of `damas egdb info` as INFO, compares each slice's positions= with it and
exits 1 on a difference."""
import re
import sys
from math import comb

ONLY_WHITE_MEN, ONLY_BLACK_MEN, SHARED = 4, 4, 24  # squares 29-32, 1-4, 5-28


def placements(wm, wk, bm, bk):
    total = 0
    for a in range(min(wm, ONLY_WHITE_MEN) + 1):  # white men on 29-32
        white = comb(ONLY_WHITE_MEN, a) * comb(SHARED, wm - a)
        for b in range(min(bm, ONLY_BLACK_MEN) + 1):  # black men on 1-4
            black = comb(ONLY_BLACK_MEN, b) * comb(SHARED - (wm - a), bm - b)
            free = 32 - wm - bm
            total += white * black * comb(free, wk) * comb(free - wk, bk)
    return total


def main():
    if len(sys.argv) < 2:
        for n in range(2, 9):
            slices = [(wm, wk, bm, bk) for wm in range(n) for wk in range(n) for bm in range(n) for bk in range(n)
                      if wm + wk + bm + bk == n and wm + wk > 0 and bm + bk > 0]
            print(f"pieces={n} slices={len(slices)} positions={2 * sum(placements(*s) for s in slices)}")
        return
    differ = 0
    checked = 0
    for line in open(sys.argv[1]):
        m = re.match(r"slice wm=(\d+) wk=(\d+) bm=(\d+) bk=(\d+) stm=\w positions=(\d+)", line)
        if not m:
            continue
        want = placements(*(int(g) for g in m.groups()[:4]))
        checked += 1
        if want != int(m.group(5)):
            differ += 1
            print(f"differs: {line.strip()} (combinatorics: {want})")
    print(f"{checked} slice sides checked, {differ} differ")
    sys.exit(1 if differ or not checked else 0)


if __name__ == "__main__":
    main()
