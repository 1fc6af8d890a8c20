#!/usr/bin/env bash
# bench/match/final-run.sh NEW START TC ROUNDS: issue 20's final match, the main under test (NEW)
# against the main on which the issue began (START, 351e17b built in a worktree), both with one
# thread, no endgame databases and the default (seed) draw laws, the 150 FMJD ballots in
# colour-reversed pairs, two games at a time; ROUNDS pairs (1000 = 2000 games). Writes
# final-TC.pdn, final-TC.txt (appended) and final-TC.log in the working folder; run the same
# command again after an interruption and it resumes (damas match -resume).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
new=${1:?NEW engine binary}
start=${2:?START engine binary}
tc=${3:?time control, e.g. 5+0.05}
rounds=${4:?rounds (pairs of games)}
name="final-$tc"
DAMAS_EGDB=none "$new" match -engine cmd="$new" args=hub name=main \
  -engine cmd="$start" args=hub name=start-351e17b -each tc="$tc" option.threads=1 \
  -openings file="$root/bench/fmjd64-150-ballots.txt" -rounds "$rounds" -concurrency 2 \
  -pdnout "$name.pdn" -log "$name.log" -resume >>"$name.txt" 2>&1
