#!/usr/bin/env bash
# bench/sprt/run.sh NAME "option.X=V ..." [ENGINE]: the SPRT of bench/sprt.md for one search change:
# NAME (ENGINE with the options given) against the same ENGINE with its defaults, 5+0.05, one
# thread each, two games at a time, the 150 FMJD ballots in colour-reversed pairs, no endgame
# databases and no opening book (the ballots are the openings), elo0=0 elo1=5 alpha=beta=0.05.
# Writes NAME.pdn, NAME.txt (appended) and NAME.log in the working folder; run again after an
# interruption and it resumes (damas match -resume).
# ENGINE defaults to build/release/damas; copy it elsewhere first if you will rebuild meanwhile.
# OPENINGS=FILE in the environment plays another opening file (e.g. bench/book-unbalanced-300.txt).
# BASE=ENGINE2 plays NAME against another binary (a change without an option: ENGINE is the new
# build, ENGINE2 main's); the options still go to NAME only.
# CONCURRENCY=1 plays one game at a time (two tests side by side on the 2 cores); default 2.
# BOUNDS="elo0=-5 elo1=0" makes it a non-regression test (a change accepted for another reason, e.g.
# safety, must not be measurably weaker); the default is "elo0=0 elo1=5" (it must gain).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
name=${1:?NAME}
read -r -a options <<<"${2:?options, e.g. option.futility=true}"
engine=${3:-$root/build/release/damas}
openings=${OPENINGS:-$root/bench/fmjd64-150-ballots.txt}
base=${BASE:-$engine}
read -r -a bounds <<<"${BOUNDS:-elo0=0 elo1=5}"
DAMAS_EGDB=none DAMAS_BOOK=none "$engine" match -engine cmd="$engine" args=hub name="$name" "${options[@]}" \
  -engine cmd="$base" args=hub name=base -each tc=5+0.05 option.threads=1 \
  -openings file="$openings" -rounds 3000 -concurrency "${CONCURRENCY:-2}" \
  -sprt "${bounds[@]}" alpha=0.05 beta=0.05 -pdnout "$name.pdn" -log "$name.log" -resume >>"$name.txt" 2>&1
