#!/bin/bash
# Writes, byte for byte (no re-serialisation), every document the Codable-based writers produce on
# real inputs into DIR: `map info --json` on the bundled map, `roughness --json` (with and without
# the series) on the four shipped rides' motion, the `ride --json` summaries and their NDJSON ride
# logs, and the ride.json + plan `synth` writes. Run it with the build before and after a change to
# a JSON writer and `cmp` the folders (issue 33: one JSON writer). Wall-clock fields are fixed
# with SOURCE_DATE_EPOCH; `ride` output keeps its timing fields, so those lines are dropped here.
# Usage: scripts/same-json-bytes.sh BIN DIR
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1; out=$2
mkdir -p "$out"
export SOURCE_DATE_EPOCH=1700000000
export XDG_CONFIG_HOME=$(mktemp -d) XDG_STATE_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
# Lines holding wall-clock figures (replay timings, the log's path) differ between any two runs.
unclock() { grep -vE '"(elapsed_ms|wall_s|log|log_path|created_at)"' || true; }
"$bin" map info --map Maps/monaco.srmap --json > "$out/map-info.json" 2>&1 || true
for r in Rides/*/; do
  n=$(basename "$r")
  "$bin" roughness "$r/motion.csv" --json > "$out/roughness-$n.json" 2>&1 || true
  "$bin" roughness "$r/motion.csv" --json --summary > "$out/roughness-summary-$n.json" 2>&1 || true
  "$bin" ride "$r" --map Maps/monaco.srmap --no-store --json --log "$out/ride-$n.ndjson" 2>&1 | unclock > "$out/ride-$n.json" || true
  # The log's header line names when it was written; sed keeps the rest of the line comparable.
  sed -i -E 's/"(started_at|created_at|written_at)":"[^"]*"/"\1":"-"/g' "$out/ride-$n.ndjson" 2>/dev/null || true
done
# Run inside DIR with a relative --out: the manifest records the command line.
bin=$(realpath "$bin"); maps=$(realpath Maps/monaco.srmap)
(cd "$out" && "$bin" synth --map "$maps" --from 43.7307,7.4215 --to 43.7390,7.4270 --seed 7 --out synth --start 2026-01-01T10:00:00Z > synth.txt 2>&1) || true
echo "$(find "$out" -type f | wc -l) files in $out"
