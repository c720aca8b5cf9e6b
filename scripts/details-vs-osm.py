#!/usr/bin/env python3
"""Checks plan path details against the OSM file, read independently with pyosmium.

usage: scripts/details-vs-osm.py --osm extract.osm.pbf plan.json [plan.json ...]

For every plan in each JSON document (the plan and its alternatives), each `details` interval of
`way_id`, `surface` and `smoothness` is checked against the OSM way's own tags and geometry:

- way_id: the way exists and every geometry point of the interval lies within TOLERANCE_M of the
  way's polyline (so the id names the way actually ridden);
- surface / smoothness: for every way_id interval overlapping it, the OSM way's raw tag equals the
  detail's value (null = untagged).

Prints agreeing / total per key and the share. Lifts mapped as OSM nodes carry negative way ids in
SkateRoute and are counted apart (no OSM way to compare with). Needs `pip install osmium`.
"""
import argparse
import json
import math
import sys

import osmium

# Metres: plan coordinates are rounded to 1e-6 degrees (about 0.1 m); cut points lie on segments.
TOLERANCE_M = 1.0
KEYS = ("way_id", "surface", "smoothness")


def load_ways(path, wanted):
    """OSM ways by id (only `wanted`): their tags and node coordinates."""
    ways = {}

    class H(osmium.SimpleHandler):
        def way(self, w):
            if w.id in wanted:
                ways[w.id] = {
                    "tags": {t.k: t.v for t in w.tags},
                    "coords": [(n.lon, n.lat) for n in w.nodes if n.location.valid()],
                }

    H().apply_file(path, locations=True)
    return ways


def point_segment_m(p, a, b):
    """Distance in metres from p to segment ab (lon, lat), in a local equirectangular frame."""
    k = math.cos(math.radians(p[1])) * 111_320.0
    ax, ay = (a[0] - p[0]) * k, (a[1] - p[1]) * 110_540.0
    bx, by = (b[0] - p[0]) * k, (b[1] - p[1]) * 110_540.0
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / L))
    x, y = ax + t * dx, ay + t * dy
    return math.hypot(x, y)


def on_way(p, coords):
    if len(coords) == 1:
        return point_segment_m(p, coords[0], coords[0]) <= TOLERANCE_M
    return any(point_segment_m(p, coords[i], coords[i + 1]) <= TOLERANCE_M for i in range(len(coords) - 1))


def plans_of(doc):
    yield doc
    for a in doc.get("alternatives", []) or []:
        yield a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--osm", required=True)
    ap.add_argument("plans", nargs="+")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    docs = [json.load(open(p)) for p in args.plans]
    plans = [p for d in docs for p in plans_of(d)]
    wanted = {iv[2] for p in plans for iv in p["details"]["way_id"] if iv[2] > 0}
    ways = load_ways(args.osm, wanted)
    agree = {k: 0 for k in KEYS}
    total = {k: 0 for k in KEYS}
    lifts = 0
    for p in plans:
        geom = p["geometry"]
        wid = p["details"]["way_id"]
        for a, b, w in wid:
            if w <= 0:
                lifts += 1
                continue
            total["way_id"] += 1
            ok = w in ways and all(on_way(tuple(geom[i][:2]), ways[w]["coords"]) for i in range(a, b + 1))
            agree["way_id"] += ok
            if not ok and args.verbose:
                print(f"way_id {w} points {a}-{b}: {'not in file' if w not in ways else 'off the way'}", file=sys.stderr)
        for key in ("surface", "smoothness"):
            for a, b, v in p["details"][key]:
                # Every way ridden over these points (overlap of at least one segment).
                over = [w for (c, d, w) in wid if w > 0 and min(b, d) > max(a, c)]
                if not over:
                    continue
                total[key] += 1
                ok = all(w in ways and ways[w]["tags"].get(key) == v for w in over)
                agree[key] += ok
                if not ok and args.verbose:
                    print(f"{key} {v!r} points {a}-{b}: OSM {[ways.get(w, {}).get('tags', {}).get(key) for w in over]}", file=sys.stderr)
    print(f"{len(plans)} plans (with alternatives) from {len(docs)} documents; {lifts} lift intervals without an OSM way")
    for k in KEYS:
        share = agree[k] / total[k] * 100 if total[k] else 0.0
        print(f"  {k}: {agree[k]} of {total[k]} intervals agree with the OSM file ({share:.1f} %)")


if __name__ == "__main__":
    main()
