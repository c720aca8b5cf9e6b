#!/bin/bash
# Writes the outputs a refactor must not change into DIR: 150 seeded plans on the bundled map
# (30 seeded pairs × 5 modes, JSON and text) and the headless replays of the four shipped rides
# (JSON summaries). Run it with the build before and after a change and `diff -r` the two folders:
# a change meant to move code, not behaviour, must give no difference. Wall-clock fields
# (created_at, timings, the text's created: line) are dropped; everything else is compared byte for byte.
# Usage: scripts/same-outputs.sh BIN DIR [SEED]   (MAP=file.srmap in the environment: another map than Maps/monaco.srmap)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1; out=$2; seed=${3:-33}; map=${MAP:-Maps/monaco.srmap}
mkdir -p "$out"
export XDG_CONFIG_HOME=$(mktemp -d) XDG_STATE_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
strip_clock() { python3 -c '
import json, sys
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in ("created_at", "elapsed_ms", "wall_s", "log", "log_path", "id")}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
try:
    print(json.dumps(clean(json.load(sys.stdin)), indent=1, sort_keys=True))
except Exception as e:
    print("not JSON:", e)
'; }
# Monaco's bounding box, inset so both ends fall on streets: 30 seeded pairs.
python3 - "$seed" > "$out/pairs.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
for _ in range(30):
    a = (r.uniform(43.7260, 43.7480), r.uniform(7.4120, 7.4360))
    b = (r.uniform(43.7260, 43.7480), r.uniform(7.4120, 7.4360))
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
for r in Rides/*/; do
  n=$(basename "$r")
  "$bin" ride "$r" --map "$map" --json --log /dev/null 2>&1 | strip_clock > "$out/ride-$n.json" || true
done
echo "$(ls "$out" | wc -l) outputs in $out"
