#!/usr/bin/env python3
"""Clock saved by the opening book, from a `damas match -debug` log (bench/book.md).

For each game, the book engine's clock when it first searches (after its last book move) minus the
bookless engine's clock after the same number of its own moves. Requests are matched by the moves
of their `pos` line, so games played side by side (-concurrency 2) do not mix.
Usage: clock_saved.py LOG [BOOK_NAME NOBOOK_NAME]
"""
import re
import statistics
import sys

LINE = re.compile(r'^\[(?P<engine>[^\]]+)\] (?P<dir>[<>]) (?P<text>.*)$')


def requests(path):
    """Yields (engine, moves tuple, clock seconds, answered from the book)."""
    pending = {}
    with open(path, encoding='utf-8', errors='replace') as log:
        for raw in log:
            m = LINE.match(raw.rstrip('\n'))
            if not m:
                continue
            engine, text = m['engine'], m['text']
            state = pending.setdefault(engine, {})
            if m['dir'] == '>' and text.startswith('pos '):
                moves = re.search(r'moves="([^"]*)"', text)
                state.clear()
                state['moves'] = tuple(moves.group(1).split()) if moves else ()
            elif m['dir'] == '>' and text.startswith('level '):
                clock = re.search(r'time=([0-9.]+)', text)
                state['clock'] = float(clock.group(1)) if clock else None
            elif m['dir'] == '<' and text.startswith('info ') and 'book=true' in text:
                state['book'] = True
            elif m['dir'] == '<' and text.startswith('done ') and 'moves' in state and state.get('clock') is not None:
                yield engine, state['moves'], state['clock'], state.get('book', False)
                state.clear()


def main():
    path = sys.argv[1]
    book_name, nobook_name = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ('book', 'nobook')
    by_key = {}
    book_requests = []
    for engine, moves, clock, from_book in requests(path):
        by_key[(engine, moves)] = (clock, from_book)
        if engine == book_name:
            book_requests.append((moves, clock, from_book))
    saved, book_moves = [], []
    for moves, clock, from_book in book_requests:
        n = len(moves)
        if from_book or n < 2 or not by_key.get((book_name, moves[:-2]), (0, False))[1]:
            continue  # not the first search after a book move
        if n % 2 == 0:  # the book engine is White; Black at ply n+1 has made as many moves
            rivals = [c for (e, mv), (c, _) in by_key.items() if e == nobook_name and len(mv) == n + 1 and mv[:n] == moves]
        else:
            rivals = [c for (e, mv), (c, _) in by_key.items() if e == nobook_name and mv == moves[:-1]]
        if rivals:
            saved.append(clock - rivals[0])
            book_moves.append(n // 2)
    if not saved:
        print('no game with a book move followed by a search')
        return 1
    print(f'games {len(saved)}  book moves a game: mean {statistics.mean(book_moves):.1f} '
          f'median {statistics.median(book_moves)}')
    print(f'clock saved (s): mean {statistics.mean(saved):.3f} median {statistics.median(saved):.3f} '
          f'10% {sorted(saved)[len(saved) // 10]:.3f} 90% {sorted(saved)[len(saved) * 9 // 10]:.3f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
