#!/bin/sh
# Regenerates the injected-impact rows of docs/wheels-to-routes.md ("Figures") from the current
# engine: each case is written into a copy of Rides/seafront-larvotto 300 m in
# (scripts/inject-impact.py), replayed headless with --learn into a fresh store, then the
# detected hazards are listed and the ride's own plan is planned again on that store.
# Usage: scripts/injected-impact-table.sh [SKATEROUTE]   (default .build/debug/skateroute)
set -e
SR=${1:-.build/debug/skateroute}
T=$(mktemp -d)
for case in "pothole-4g 4 300" "crack-1.5g 1.5 300 15" "crack-1.5g-10ms 1.5 300 10" "jolt-0.8g 0.8 300 15" "none 0 300 15"; do
  set -- $case
  name=$1; shift
  python3 scripts/inject-impact.py Rides/seafront-larvotto "$T/$name" "$@" >/dev/null
  mkdir -p "$T/$name-data"
  "$SR" ride "$T/$name" --headless --learn --map Maps/monaco.srmap --data-dir "$T/$name-data" --log "$T/$name.ndjson" --json > "$T/$name.summary.json"
  echo "== $name"
  grep '"event":"transient"' "$T/$name.ndjson" || echo "(no transient line)"
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print('impacts:', json.dumps(s.get('impacts')), ' metres by class:', json.dumps(s.get('metres_by_class')))" "$T/$name.summary.json"
  # An hour after the ride (it starts 2026-05-01T10:00Z): detected hazards are live then.
  "$SR" hazards list --data-dir "$T/$name-data" --now 2026-05-01T11:00:00Z 2>&1 | head -5
  "$SR" plan --map Maps/monaco.srmap --from 43.7432,7.4318 --to 43.7488,7.4388 --mode smoothest --data-dir "$T/$name-data" \
    --now 2026-05-01T11:00:00Z --format json | python3 -c "import json,sys; p=json.load(sys.stdin); r=p.get('route', p); print('next plan: %.1f m, steps with hazards: %s' % (r['distance_m'], [(i + 1, x['hazard_score']) for i, x in enumerate(r['steps']) if x.get('hazard_score')]))"
done
rm -rf "$T"
