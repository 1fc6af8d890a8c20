#!/usr/bin/env bash
# bench/sparring/run.sh NAME ENGINE [PARTNER] ["option.X=V ..."]: issue 40's sparring match (bench/safety.md):
# ENGINE (one build of damas, with the options given) against the standing sparring partner, a
# differently built damas: a full-width search (no ProbCut, no late move reductions; captures
# searched to the end by quiescence), run from PARTNER (default ENGINE). It sees every shot within
# its depth, which is what a pruned search can walk into.
# 5+0.05, one thread each, the 150 FMJD ballots in colour-reversed pairs, 400 games (ballots 1-50
# twice), no endgame databases and no book. Writes NAME.pdn, NAME.txt (appended) and NAME.log in the
# working folder; run again after an interruption and it resumes (damas match -resume).
# CONCURRENCY=1 plays one game at a time (two matches side by side on the 2 cores); default 2.
# DRAW_RULES=fmjd64 referees (and tells both engines) by those laws instead of the game's default.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
name=${1:?NAME}
engine=${2:?ENGINE}
partner=${3:-$engine}
read -r -a options <<<"${4:-}"
DAMAS_EGDB=none DAMAS_BOOK=none "$engine" match -engine cmd="$engine" args=hub name="$name" "${options[@]}" \
  -engine cmd="$partner" args=hub name=sparring option.probcut=false option.lmr=false \
  -each tc=5+0.05 option.threads=1 -openings file="$root/bench/fmjd64-150-ballots.txt" -rounds 200 \
  ${DRAW_RULES:+-draw-rules "$DRAW_RULES"} -concurrency "${CONCURRENCY:-2}" -pdnout "$name.pdn" -log "$name.log" -resume >>"$name.txt" 2>&1
