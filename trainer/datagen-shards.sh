#!/bin/sh
# Plays training-data shards K = FIRST .. LAST of `damas datagen --shard K/1000` into DIR, WORKERS
# shards at a time (one thread each). Resumable: a shard is written to DIR/shard-K.bin.part and
# renamed when complete, and a shard whose file exists is skipped, so an interrupted run is
# finished by running the same command again. Deterministic: the same arguments give the same files.
#
#   trainer/datagen-shards.sh DIR SEED FIRST LAST WORKERS [datagen options...]
set -eu
if [ $# -lt 5 ]; then
  echo "usage: $0 DIR SEED FIRST LAST WORKERS [datagen options...]" >&2
  exit 2
fi
dir=$1 seed=$2 first=$3 last=$4 workers=$5
shift 5
damas=${DAMAS:-build/release/damas}
mkdir -p "$dir"

play_shards() {  # worker w plays shards first+w, first+w+workers, ...
  k=$((first + $1))
  while [ "$k" -le "$last" ]; do
    out="$dir/shard-$k.bin"
    if [ ! -f "$out" ]; then
      "$damas" datagen -o "$out.part" --games 300 --nodes 5000 --seed "$seed" --shard "$k/1000" "$@" \
        > "$dir/shard-$k.log" 2>&1
      mv "$out.part" "$out"
    fi
    k=$((k + workers))
  done
}

w=0
while [ "$w" -lt "$workers" ]; do
  play_shards "$w" "$@" &
  w=$((w + 1))
done
wait
