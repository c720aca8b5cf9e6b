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

# Cobbles (issue 28's table, rows 4 and 5): seeded 0.3 g band noise (scripts/inject-impact.py
# cobbles) over the middle 44 % (28-72 %) of the ride's longest edge pass, then over all of it.
# The pass comes from a plain replay's log, so the rows follow the matcher if it changes.
"$SR" ride Rides/seafront-larvotto --headless --no-store --map Maps/monaco.srmap --log "$T/plain.ndjson" --json > /dev/null
set -- $(python3 -c "
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if '\"event\":\"edge_pass\"' in l]
e = max(p, key=lambda e: e['t'] - e['since'])
d = e['t'] - e['since']
print(e['edge'], e['way'], e['from_node'], e['to_node'], e['since'], e['t'], e['since'] + 0.28 * d, e['since'] + 0.72 * d, e['rms_g'], e['class'])" "$T/plain.ndjson")
edge=$1 way=$2 fromNode=$3 toNode=$4 since=$5 until=$6 c0=$7 c1=$8
echo "== cobble edge: $edge (way $way, nodes $fromNode-$toNode), ridden $since-$until s, plain replay $9 g ${10}"
for case in "cobbles-44pct $c0 $c1" "cobbles-whole $since $until"; do
  set -- $case
  name=$1; shift
  python3 scripts/inject-impact.py Rides/seafront-larvotto "$T/$name" cobbles "$@"
  mkdir -p "$T/$name-data"
  "$SR" ride "$T/$name" --headless --learn --map Maps/monaco.srmap --data-dir "$T/$name-data" --log "$T/$name.ndjson" --json > "$T/$name.summary.json"
  echo "== $name"
  echo "transient lines: $(grep -c '"event":"transient"' "$T/$name.ndjson" || true)"
  grep '"event":"transient"' "$T/$name.ndjson" || true
  python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
print('events:', s['events'], ' impacts:', json.dumps(s.get('impacts')), ' metres by class:', json.dumps(s.get('metres_by_class')))
print('robust rms:', s.get('robust_rms_g'), ' bumpiness:', json.dumps(s.get('bumpiness')))
for l in open(sys.argv[2]):
    if '\"event\":\"edge_pass\"' in l:
        e = json.loads(l)
        if e['edge'] == int(sys.argv[3]): print('edge pass: %s-%s s, %s g %s, %d windows, %d events' % (e['since'], e['t'], e['rms_g'], e['class'], e['windows'], e['events']))
" "$T/$name.summary.json" "$T/$name.ndjson" "$edge"
  # The stretches the store keeps for the edge (bins of at most 25 m, offsets from its from_node).
  python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute('SELECT fromOffset, toOffset, rms, windows FROM surfaceStretch WHERE wayId = ? AND fromNode = ? AND toNode = ? ORDER BY fromOffset', tuple(int(a) for a in sys.argv[2:5])):
    c = 'butter' if r[2] < 0.05 else 'okay' if r[2] < 0.12 else 'meh' if r[2] < 0.2 else 'crusty'
    print('stretch %5.1f-%5.1f m: %.3f g %s (%d windows)' % (r[0], r[1], r[2], c, r[3]))
" "$T/$name-data/skateroute.sqlite" "$way" "$fromNode" "$toNode"
  "$SR" plan --map Maps/monaco.srmap --from 43.7432,7.4318 --to 43.7488,7.4388 --mode smoothest --data-dir "$T/$name-data" \
    --now 2026-05-01T11:00:00Z --format json > "$T/$name.plan.json"
  # Whether the next plan still rides the cobbled edge: the ways of the plan's points between the
  # ones nearest the edge's first and last sample positions in the plain replay (a footway a few
  # metres beside it is another way).
  python3 -c "
import json, math, sys
p = json.load(open(sys.argv[1])); r = p.get('route', p)
on = [json.loads(l) for l in open(sys.argv[2]) if l.startswith('{\"class\"') and '\"event\"' not in l]
on = [q for q in on if q['edge'] == int(sys.argv[3])]
geo = r['geometry']
def near(q): return min(range(len(geo)), key=lambda i: math.hypot((geo[i][0] - q['lon']) * 80400, (geo[i][1] - q['lat']) * 111195))
i, j = sorted((near(on[0]), near(on[-1])))
ways = sorted({w for a, b, w in r['details']['way_id'] if a < j and b > i})
rides = int(sys.argv[4]) in ways
print('next plan: %.1f m, metres by class %s; along the cobbled edge it takes way(s) %s: %s' % (r['distance_m'], json.dumps(r.get('metres_by_class')), ways, 'rides it' if rides else 'moved off it'))
" "$T/$name.plan.json" "$T/plain.ndjson" "$edge" "$way"
done
rm -rf "$T"
