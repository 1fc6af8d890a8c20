#!/usr/bin/env bash
# The two-ply openings the engine plays from the initial position with seeds 1..10 (issue 50):
# each seed answers the start and then its own first move, as two engines of that seed would in
# a game. Usage: bench/book/two-ply.sh DAMAS [VARIANT] [BOOK-MARGIN]
set -euo pipefail
damas=$1
variant=${2:-brazilian}
margin=${3:-8}
for seed in $(seq 1 10); do
  first=$(printf 'hub\ninit\nset-param name=variant value=%s\nset-param name=book-margin value=%s\npos\nlevel depth=1\ngo think\n' \
            "$variant" "$margin" | "$damas" hub --seed "$seed" | sed -n 's/^done move=\([^ ]*\).*/\1/p')
  second=$(printf 'hub\ninit\nset-param name=variant value=%s\nset-param name=book-margin value=%s\npos moves="%s"\nlevel depth=1\ngo think\n' \
             "$variant" "$margin" "$first" | "$damas" hub --seed "$seed" | sed -n 's/^done move=\([^ ]*\).*/\1/p')
  echo "$seed $first $second"
done
