#!/bin/bash
# Writes seeded plans on any map into DIR (JSON and text, every mode), for byte-for-byte
# comparison of two builds: `diff -r` the folders. Wall-clock fields are dropped, as in
# same-outputs.sh. The ends are drawn uniformly in the box S,W,N,E (default: Heidelberg's
# streets), so some fall off the network and compare their error text instead.
# Usage: scripts/same-plans.sh BIN MAP DIR [SEED] [PAIRS] [S,W,N,E]
set -euo pipefail
bin=$1; map=$2; out=$3; seed=${4:-31}; pairs=${5:-40}; box=${6:-49.370,8.640,49.430,8.720}
mkdir -p "$out"
export XDG_CONFIG_HOME=$(mktemp -d) XDG_STATE_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d) SKATEROUTE_CACHE_DIR=$(mktemp -d)
strip_clock() { python3 "$(dirname "$0")/strip-clock.py"; }
python3 - "$seed" "$pairs" "$box" > "$out/pairs.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
s, w, n, e = map(float, sys.argv[3].split(","))
for _ in range(int(sys.argv[2])):
    a = (r.uniform(s, n), r.uniform(w, e))
    b = (r.uniform(s, n), r.uniform(w, e))
    print(f"{a[0]:.5f},{a[1]:.5f} {b[0]:.5f},{b[1]:.5f}")
PY
i=0
while read -r a b; do
  i=$((i+1))
  for m in smoothest chillFewCrossings fastMildRoughness nightSafe trickSpotCrawl; do
    "$bin" plan --map "$map" --from "$a" --to "$b" --mode "$m" --no-store --format json 2>&1 | strip_clock > "$out/plan-$i-$m.json" || true
    "$bin" plan --map "$map" --from "$a" --to "$b" --mode "$m" --no-store 2>&1 | grep -v '^created: ' > "$out/plan-$i-$m.txt" || true
  done
done < "$out/pairs.txt"
echo "$(ls "$out" | wc -l) outputs in $out"
