#!/usr/bin/env python3
"""Clock profile of each engine from a `damas match --debug` log (bench/safety.md, "The clock").

For every search request the engine's clock (`level time=`) and how many of its own moves the game
has seen (from the `moves` of its `pos` line). Prints, per engine, the mean clock before its own
move 1, 10, 20, ... over the games still running, with the number of games in brackets.
Usage: clock_profile.py LOG [--moves 1,10,20,30,40,60,80]
"""
import argparse
import collections
import re

LINE = re.compile(r'^\[(?P<engine>[^\]]+)\] (?P<dir>[<>]) (?P<text>.*)$')
MOVES = re.compile(r'moves="([^"]*)"')
CLOCK = re.compile(r'time=([0-9.]+)')
INC = re.compile(r'inc=([0-9.]+)')


def requests(path):
    """Yields (engine, own move number, clock seconds, increment) for each search request."""
    pending = {}
    with open(path, encoding='utf-8', errors='replace') as log:
        for raw in log:
            m = LINE.match(raw.rstrip('\n'))
            if not m or m['dir'] != '>':
                continue
            engine, text = m['engine'], m['text']
            if text.startswith('pos '):
                moves = MOVES.search(text)
                pending[engine] = len(moves.group(1).split()) if moves else 0
            elif text.startswith('level ') and engine in pending:
                clock, inc = CLOCK.search(text), INC.search(text)
                if clock:
                    yield engine, pending.pop(engine) // 2 + 1, float(clock.group(1)), float(inc.group(1)) if inc else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('log')
    parser.add_argument('--moves', default='1,10,20,30,40,60,80')
    args = parser.parse_args()
    marks = [int(n) for n in args.moves.split(',')]
    clocks = collections.defaultdict(lambda: collections.defaultdict(list))
    for engine, move, clock, _ in requests(args.log):
        clocks[engine][move].append(clock)
    for engine, by_move in sorted(clocks.items()):
        cells = []
        for n in marks:
            seen = by_move.get(n, [])
            cells.append(f'move {n}: {sum(seen) / len(seen):.2f} s ({len(seen)})' if seen else f'move {n}: -')
        print(f'{engine}: ' + ', '.join(cells))


if __name__ == '__main__':
    main()
