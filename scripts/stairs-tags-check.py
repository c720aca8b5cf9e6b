#!/usr/bin/env python3
"""Walked flights' words against their OSM `incline` tags, read independently with pyosmium (issue 30).

Plans the seeded pairs of `stairs-direction-check.py` (same seed, same box) as GeoJSON, matches
every walk step's points to OSM nodes of `highway=steps` ways (within 0.5 m), and for each flight
walked with an `incline` tag (up, down or a signed value) reads the direction the tag gives in
the walking direction. Prints one line per distinct flight walked: way id, tag, walked
along/against the drawing, the tag's direction, the step's word and grade; then how many steps
say a direction against their tag and how many have a grade against it by more than 2 %.

Usage: scripts/stairs-tags-check.py SKATEROUTE MAP PBF S,W,N,E PAIRS
  e.g. scripts/stairs-tags-check.py .build/debug/skateroute Maps/monaco.srmap \\
       ../shared/data/maps/monaco-geofabrik-2026/monaco-latest.osm.pbf 43.726,7.410,43.748,7.438 60
"""
import importlib.util, math, os, re, sys
import osmium

_spec = importlib.util.spec_from_file_location("stairs_direction_check", os.path.join(os.path.dirname(os.path.abspath(__file__)), "stairs-direction-check.py"))
direction_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(direction_check)
CONTRADICTION_PCT = 2.0     # a grade this far the other way contradicts the words
MATCH_M = 0.5               # a step's point this near an OSM node is that node


class Flights(osmium.SimpleHandler):
    """highway=steps ways with their tags and node positions."""
    def __init__(self, box):
        super().__init__()
        self.box, self.ways, self.cell = box, {}, {}

    def way(self, w):
        if w.tags.get("highway") != "steps":
            return
        try:
            pts = [(n.location.lat, n.location.lon) for n in w.nodes]
        except osmium.InvalidLocationError:
            return
        self.ways[w.id] = (dict(w.tags), pts)
        for i, p in enumerate(pts):
            self.cell.setdefault((round(p[0], 4), round(p[1], 4)), []).append((w.id, i))


def metres(a, b):
    dy = (a[0] - b[0]) * 111_195
    dx = (a[1] - b[1]) * 111_195 * math.cos(math.radians(a[0]))
    return math.hypot(dx, dy)


def nodes_at(f, p):
    out = []
    for dl in (-1e-4, 0, 1e-4):
        for dn in (-1e-4, 0, 1e-4):
            for wid, i in f.cell.get((round(p[0] + dl, 4), round(p[1] + dn, 4)), []):
                if metres(p, f.ways[wid][1][i]) <= MATCH_M:
                    out.append((wid, i))
    return out


def tag_sign(tag):
    if tag == "up": return 1
    if tag == "down": return -1
    m = re.match(r"^\s*(-?[0-9.,]+)\s*(%|°)?\s*$", tag or "")
    if m:
        v = float(m.group(1).replace(",", "."))
        return (v > 0) - (v < 0)
    return 0


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    binary, map_path, pbf = sys.argv[1:4]
    s, w, n, e = (float(x) for x in sys.argv[4].split(","))
    pairs = int(sys.argv[5])
    f = Flights((s, w, n, e))
    f.apply_file(pbf, locations=True)
    seen, against_text, against_grade, tagged_steps = {}, 0, 0, 0
    for plan in direction_check.seeded_plans(binary, map_path, (s, w, n, e), pairs, "geojson"):
        for feat in plan["features"]:
            st = feat.get("properties", {})
            if not st.get("walk") or feat["geometry"]["type"] != "LineString" or st.get("alternative", 0):
                continue
            text = st["instruction"]
            word = 1 if " up" in text else -1 if " down" in text else 0
            pts = [(c[1], c[0]) for c in feat["geometry"]["coordinates"]]
            matched = [nodes_at(f, q) for q in pts]
            # Signed metres walked along each tagged flight's drawing direction.
            walked = {}
            for k in range(1, len(pts)):
                for wid, i in matched[k - 1]:
                    for wid2, j in matched[k]:
                        if wid2 == wid and abs(i - j) == 1:
                            walked[wid] = walked.get(wid, 0) + (1 if j > i else -1) * metres(pts[k - 1], pts[k])
            tagsum = 0.0
            for wid, along in walked.items():
                tag = f.ways[wid][0].get("incline")
                sgn = tag_sign(tag)
                tagsum += sgn * along
                if sgn:
                    key = (wid, along > 0)
                    if key not in seen:
                        seen[key] = f"way {wid} incline={tag} walked {'along' if along > 0 else 'against'} its drawing: tag says " \
                                    f"{'up' if sgn * along > 0 else 'down'}; step: \"{text}\" {st['distance_m']} m, {st['grade_pct']:+.1f} %"
            if tagsum == 0:
                continue
            tagged_steps += 1
            if word and word * tagsum < 0: against_text += 1
            g = st.get("grade_pct")
            if g is not None and ((tagsum > 0 and g < -CONTRADICTION_PCT) or (tagsum < 0 and g > CONTRADICTION_PCT)): against_grade += 1
    for line in sorted(seen.values()):
        print(line)
    print(f"walk steps over incline-tagged flights: {tagged_steps}; words against the tag: {against_text}; "
          f"grade against the tag by more than {CONTRADICTION_PCT} %: {against_grade}; distinct flights walked: {len(seen)}")


if __name__ == "__main__":
    main()
