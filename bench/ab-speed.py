#!/usr/bin/env python3
"""Interleaved A/B timing of two damas binaries on one command: user CPU seconds per run.

Usage: bench/ab-speed.py OLD NEW PAIRS ARGS...   e.g. bench/ab-speed.py old/damas new/damas 80 perft --depth 10
Runs OLD and NEW alternately (the order swapped every pair) and prints the medians and the new/old
ratios: the median ratio, and the geometric mean and median of the ratios of each pair. On a loaded
machine run OLD against a copy of itself the same way to see the noise.
"""
import math
import resource
import statistics as st
import subprocess
import sys


def user_seconds(binary, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    old, new, pairs, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    t_old, t_new = [], []
    for i in range(pairs):
        order = (old, new) if i % 2 == 0 else (new, old)
        t = {binary: user_seconds(binary, args) for binary in order}
        t_old.append(t[old])
        t_new.append(t[new])
    ratios = [n / o for o, n in zip(t_old, t_new)]
    print(f"{' '.join(args)}: {pairs} pairs, user s old median {st.median(t_old):.3f}, new median "
          f"{st.median(t_new):.3f}; new/old: median ratio {st.median(t_new) / st.median(t_old):.4f}, "
          f"paired geo-mean {math.exp(st.mean(map(math.log, ratios))):.4f}, paired median {st.median(ratios):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
