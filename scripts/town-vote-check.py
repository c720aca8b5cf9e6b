#!/usr/bin/env python3
"""Leave-one-out check of the import's town vote (docs/place-search.md, `TownAssigner`).

Reads an OSM extract with pyosmium (`pip install osmium`), independently of SkateRoute's importer:
every addressed node or way with `addr:city` is evidence for that town (weight 1, at the way's
node mean), every named city-limit sign for the town it names (weight 0.5, as an unsided sign;
the importer also sides signs, which this check leaves out). Each address's town is then predicted
from all the *other* evidence, and the script prints how many come out right, overall and per
town, for:

  wide      the sum of weight × exp(−d²/2σ²), σ = 1.5 km, within 3σ, least total 0.05 (before stop 42)
  near+wide the same sum at σ/3 = 500 m decides when its best town has at least 0.5; else wide
            (`TownAssigner.nearRatio`, `minNearVote`)
  nearest   the nearest other evidence's town (a naive baseline)

Towns are compared by the text of `addr:city`; districts are not folded into municipalities, so a
map whose addresses say "Monte-Carlo" and "Monaco" interchangeably scores low on every rule.

Usage: scripts/town-vote-check.py EXTRACT.osm.pbf
"""
import collections, math, sys

SIGMA = 1500.0
NEAR = SIGMA / 3
MIN_NEAR = 0.5
MIN_VOTE = 0.05
SIGN_WEIGHT = 0.5


def evidence(path):
    import osmium
    ev = []  # (town, lat, lon, weight, is_address)

    class H(osmium.SimpleHandler):
        def node(self, n):
            t = n.tags
            if "addr:city" in t:
                ev.append((t["addr:city"], n.location.lat, n.location.lon, 1.0, True))
            sign = t.get("traffic_sign", "")
            if ("city_limit" in sign or "DE:310" in sign) and t.get("name"):
                ev.append((t["name"].split("-")[0], n.location.lat, n.location.lon, SIGN_WEIGHT, False))

        def way(self, w):
            if "addr:city" not in w.tags:
                return
            pts = [x.location for x in w.nodes if x.location.valid()]
            if pts:
                ev.append((w.tags["addr:city"], sum(p.lat for p in pts) / len(pts), sum(p.lon for p in pts) / len(pts), 1.0, True))

    H().apply_file(path, locations=True)
    return ev


def predict(ev, i, rule):
    _, lat, lon, _, _ = ev[i]
    mlon = 111_320 * math.cos(math.radians(lat))
    wide, near, nearest = collections.Counter(), collections.Counter(), (math.inf, None)
    for j, (town, la, lo, w, _) in enumerate(ev):
        if j == i:
            continue
        d2 = ((lat - la) * 110_574) ** 2 + ((lon - lo) * mlon) ** 2
        if d2 < nearest[0]:
            nearest = (d2, town)
        if d2 > (3 * SIGMA) ** 2:
            continue
        wide[town] += w * math.exp(-d2 / (2 * SIGMA * SIGMA))
        near[town] += w * math.exp(-d2 / (2 * NEAR * NEAR))
    if rule == "nearest":
        return nearest[1]
    if rule == "near+wide" and near:
        town, v = near.most_common(1)[0]
        if v >= MIN_NEAR:
            return town
    if not wide:
        return None
    town, v = wide.most_common(1)[0]
    return town if v >= MIN_VOTE else None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    ev = evidence(sys.argv[1])
    addresses = [i for i, e in enumerate(ev) if e[4]]
    for rule in ("wide", "near+wide", "nearest"):
        per = collections.defaultdict(lambda: [0, 0])
        for i in addresses:
            per[ev[i][0]][1] += 1
            per[ev[i][0]][0] += predict(ev, i, rule) == ev[i][0]
        right = sum(a for a, _ in per.values())
        towns = ", ".join(f"{t} {a}/{n}" for t, (a, n) in sorted(per.items(), key=lambda kv: -kv[1][1]))
        print(f"{rule:10s} {right}/{len(addresses)} right; {towns}")


if __name__ == "__main__":
    main()
