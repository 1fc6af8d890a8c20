#!/bin/sh
# Feature ablation: the built-in weights against the same weights with one feature switched off.
# usage: bench/eval/ablate.sh [damas binary] [nodes per move] [openings file]
# Prints one line per feature: the Elo the feature is worth (A = with it, B = without).
set -e
damas=${1:-build/release/damas}
nodes=${2:-3000}
openings=${3:-bench/openings-wide.txt}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

feature() {  # name, then "weight value" pairs
  name=$1; shift
  : > "$dir/$name.txt"
  while [ $# -gt 0 ]; do echo "$1 $2" >> "$dir/$name.txt"; shift 2; done
  result=$("$damas" selfplay -q --a "hash=8" --b "hash=8 eval-file=$dir/$name.txt" --nodes "$nodes" \
           --openings "$openings" | grep -E "^(games|Elo)" | tr '\n' ' ')
  echo "$name: $result"
}

feature simplify simplify_percent 0
feature advance advance_opening 0 advance_endgame 0
feature centre centre_man 0 centre_king 0
feature back_row back_row 0
feature runaway runaway 0 runaway_per_row 0
feature king_long_diagonal king_long_diagonal 0
feature blocked_man blocked_man 0
feature trapped_man trapped_man 0
feature safe_mobility safe_mobility 0
feature no_safe_move no_safe_move 0
feature wing_imbalance wing_imbalance 0
feature lone_king lone_king_divisor 1
