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
strip_clock() { python3 scripts/strip-clock.py; }
# Monaco's bounding box, inset so both ends fall on streets: 30 seeded pairs × 5 modes.
scripts/same-plans.sh "$bin" "$map" "$out" "$seed" 30 43.7260,7.4120,43.7480,7.4360 >/dev/null
for r in Rides/*/; do
  n=$(basename "$r")
  "$bin" ride "$r" --map "$map" --json --log /dev/null 2>&1 | strip_clock > "$out/ride-$n.json" || true
done
echo "$(ls "$out" | wc -l) outputs in $out"
