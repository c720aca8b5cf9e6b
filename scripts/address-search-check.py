#!/usr/bin/env python3
"""House-number search against the OSM extract read independently (pyosmium), two ways:

  present  "STREET NUMBER[, CITY]" for seeded addresses the extract holds: right when the
           build resolves it within PRESENT_RADIUS_M of that address object
  missing  the same streets with a number no address on them carries ("STREET 9991, CITY"):
           right when the build resolves it to a place named STREET (the street itself, or a
           square of that name) within MISSING_RADIUS_M of one of the street's addresses;
           "no match" and another street's number are wrong, a list is ambiguous

Each answer is classed right / ambiguous (listed, nothing planned) / wrong. The build is asked
with `skateroute search TEXT --map MAP --json`.

Usage: scripts/address-search-check.py SKATEROUTE MAP.srmap EXTRACT.pbf [N] [SEED]
"""
import json, math, random, subprocess, sys

import osmium

PRESENT_RADIUS_M = 100     # a house number stands at its door on its street, up to 80 m from the
                           # address point (PlaceSearch.addressToStreetRadius), plus 20 m
MISSING_RADIUS_M = 1500    # a street piece of that name near the street's own addresses
MISSING_NUMBER = "9991"    # a house number no address in either extract carries


def metres(a, b):
    dy = (a[0] - b[0]) * 111_195
    dx = (a[1] - b[1]) * 111_195 * math.cos(math.radians(a[0]))
    return math.hypot(dx, dy)


def addresses(pbf):
    """(street, number, city or None, (lat, lon)) for nodes and ways (way: mean of its nodes)."""
    out = []
    for o in osmium.FileProcessor(pbf).with_locations():
        t = o.tags
        if "addr:housenumber" not in t or "addr:street" not in t:
            continue
        if o.is_node():
            at = (o.location.lat, o.location.lon)
        elif o.is_way():
            pts = [(n.location.lat, n.location.lon) for n in o.nodes if n.location.valid()]
            if not pts:
                continue
            at = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        else:
            continue
        out.append((t["addr:street"], t["addr:housenumber"], t.get("addr:city"), at))
    return out


def ask(binary, map_path, text):
    r = subprocess.run([binary, "search", text, "--map", map_path, "--json"], capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return {"resolution": "error", "stderr": r.stderr.strip()}


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    binary, map_path, pbf = args[:3]
    n = int(args[3]) if len(args) > 3 else 40
    seed = int(args[4]) if len(args) > 4 else 42
    all_addr = addresses(pbf)
    by_street = {}
    for a in all_addr:
        by_street.setdefault((a[0], a[2]), []).append(a)
    rng = random.Random(seed)
    sample = rng.sample(all_addr, min(n, len(all_addr)))
    tally = {"present": {"right": 0, "ambiguous": 0, "wrong": 0}, "missing": {"right": 0, "ambiguous": 0, "wrong": 0}}
    def classify(kind, text, judge):
        """Asks `text`; a found answer is judged by `judge(resolved) -> (right?, where)`."""
        r = ask(binary, map_path, text)
        if r.get("resolution") == "found":
            right, where = judge(r["resolved"])
            verdict = "right" if right else "wrong"
        else:
            verdict = "ambiguous" if r.get("resolution") == "ambiguous" else "wrong"
            where = r.get("resolution", "?")
        tally[kind][verdict] += 1
        print(f"{kind:8s} {verdict:9s} {text:45s} {where}")

    for street, number, city, _ in sample:
        suffix = f", {city}" if city else ""
        mine = by_street.get((street, city), [])

        def present(got):
            # The same address is often mapped twice (an entrance node and the building).
            d = min(metres((got["lat"], got["lon"]), a[3]) for a in mine if a[1] == number)
            return d <= PRESENT_RADIUS_M, f"{got['name']} {d:.0f} m"

        def missing(got):
            near = min(metres((got["lat"], got["lon"]), a[3]) for a in mine)
            return got["name"] == street and near <= MISSING_RADIUS_M, f"{got['name']} ({got['kind']}) {near:.0f} m"

        classify("present", f"{street} {number}{suffix}", present)
        classify("missing", f"{street} {MISSING_NUMBER}{suffix}", missing)
    for k, v in tally.items():
        print(f"{k}: right {v['right']} / ambiguous listed {v['ambiguous']} / wrong {v['wrong']} of {sum(v.values())}")


if __name__ == "__main__":
    main()
