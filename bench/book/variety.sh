#!/usr/bin/env bash
# bench/book/variety.sh [ENGINE] [BOOK]: the variety of bench/book.md. 100 self-play games of ENGINE
# from the initial position (50 openings of the start position, each with both colours) with the
# opening book on and its default margin and seed (seed 0: a new choice every game), each game cut
# at ply 10 (--max-plies: the moves out of the book are searched for 0.1 s); prints how many
# different positions the games reached at ply 10, the most frequent first.
# ENGINE defaults to build/release/damas, BOOK to bench/<VARIANT>.book; MARGIN=M in the environment
# sets book-margin, VARIANT=russian plays the Russian game (default brazilian).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
engine=${1:-$root/build/release/damas}
variant=${VARIANT:-brazilian}
book=${2:-$root/bench/$variant.book}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for _ in $(seq 50); do echo "W:W21-32:B1-12 | start"; done >"$work/start.txt"
options="book=true book-file=$book${MARGIN:+ book-margin=$MARGIN}"
DAMAS_EGDB=none "$engine" selfplay --variant "$variant" --a "$options" --b "$options" --openings "$work/start.txt" \
  --movetime 0.1 --max-plies 10 --pdn "$work/games.pdn" -q >/dev/null
# The moves of each game (PDN move numbers, tags, comments and results left out), one game a line.
python3 - "$work/games.pdn" >"$work/moves.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for game in re.split(r'\n(?=\[Event )', text):
    body = re.sub(r'\[[^\]]*\]|\{[^}]*\}', ' ', game)
    moves = re.findall(r'\b\d+(?:[-x]\d+)+\b', body)
    if moves:
        print(' '.join(moves[:10]))
PY
while read -r moves; do
  "$engine" book probe "$book" --moves "$moves" | head -1 | cut -d: -f1-3
done <"$work/moves.txt" | sort | uniq -c | sort -rn >"$work/positions.txt"
echo "$(wc -l <"$work/moves.txt") games, $(wc -l <"$work/positions.txt") different positions at ply 10"
head -5 "$work/positions.txt"
