#!/usr/bin/env python3
"""Numeric `incline` tags against the DEM, read independently of SkateRoute's importer.

Usage: scripts/incline-dem-check.py EXTRACT.osm.pbf DEM_DIR [NOISE_M]

pyosmium reads every highway way with a numeric incline (not steps, bridges or tunnels); the
SRTM tiles in DEM_DIR (NxxEyyy.hgt or .hgt.zip) are sampled bilinearly at the way's two ends.
The tag's rise over the way (grade x length) is compared with the DEM's: ways that differ by
more than NOISE_M (default 5, 3" SRTM's noise) are split into the same way up but steeper (a
blurred DEM: SkateRoute keeps the tag), the same way up but gentler, and the other way round or
level (SkateRoute smooths those from the DEM: TerrainConditioning.inclineContradictionNoiseShare).
"""
import glob, math, re, struct, sys, zipfile

import osmium

pbf, dem_dir = sys.argv[1], sys.argv[2]
noise = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
tiles = {}


def tile(lat, lon):
    key = (math.floor(lat), math.floor(lon))
    if key not in tiles:
        la, lo = key
        name = ("N" if la >= 0 else "S") + "%02d" % abs(la) + ("E" if lo >= 0 else "W") + "%03d" % abs(lo)
        data = None
        for f in sorted(glob.glob(f"{dem_dir}/{name}*.hgt*")):
            if f.endswith(".zip"):
                z = zipfile.ZipFile(f)
                data = z.read([n for n in z.namelist() if n.lower().endswith(".hgt")][0])
            else:
                data = open(f, "rb").read()
            break
        tiles[key] = data
    return tiles[key], key


def height(lat, lon):
    data, (la, lo) = tile(lat, lon)
    if data is None:
        return None
    n = int(math.sqrt(len(data) // 2))
    y, x = (la + 1 - lat) * (n - 1), (lon - lo) * (n - 1)
    x0, y0 = int(x), int(y)
    fx, fy = x - x0, y - y0

    def post(r, c):
        r, c = min(max(r, 0), n - 1), min(max(c, 0), n - 1)
        v = struct.unpack_from(">h", data, 2 * (r * n + c))[0]
        return None if v == -32768 else v

    p = [post(y0, x0), post(y0, x0 + 1), post(y0 + 1, x0), post(y0 + 1, x0 + 1)]
    if None in p:
        return None
    return p[0] * (1 - fx) * (1 - fy) + p[1] * fx * (1 - fy) + p[2] * (1 - fx) * fy + p[3] * fx * fy


def grade(raw):
    m = re.fullmatch(r"\s*([+-]?\d+(?:[.,]\d+)?)\s*%?\s*", raw)
    return float(m.group(1).replace(",", ".")) if m else None


checked, far = 0, []


class Ways(osmium.SimpleHandler):
    def way(self, w):
        global checked
        t = w.tags
        if "highway" not in t or "incline" not in t or t.get("highway") == "steps" or "bridge" in t or "tunnel" in t:
            return
        g = grade(t["incline"])
        if g is None:
            return
        pts = [(n.lat, n.lon) for n in w.nodes]
        length = sum(math.hypot((b[0] - a[0]) * 111320, (b[1] - a[1]) * 111320 * math.cos(math.radians(a[0])))
                     for a, b in zip(pts, pts[1:]))
        ha, hb = height(*pts[0]), height(*pts[-1])
        if ha is None or hb is None or length <= 0:
            return
        checked += 1
        tag_rise, dem_rise = g / 100 * length, hb - ha
        if abs(tag_rise - dem_rise) > noise:
            far.append((abs(tag_rise - dem_rise), w.id, t.get("name", ""), g, length, tag_rise, dem_rise))


Ways().apply_file(pbf, locations=True)
steeper = [r for r in far if r[5] * r[6] > 0 and abs(r[5]) > abs(r[6])]
gentler = [r for r in far if r[5] * r[6] > 0 and abs(r[5]) <= abs(r[6])]
against = [r for r in far if r[5] * r[6] <= 0]
print(f"{pbf.split('/')[-1]}: {checked} highway ways with a numeric incline and DEM heights at both ends;"
      f" {len(far)} differ from the DEM by more than {noise:g} m:"
      f" {len(steeper)} the same way up but steeper, {len(gentler)} the same way up but gentler,"
      f" {len(against)} the other way round or level")
for r in sorted(against, reverse=True)[:10]:
    print(f"  way {r[1]} {r[2] or '(unnamed)'}: incline {r[3]:g} % over {r[4]:.0f} m claims {r[5]:+.1f} m, the DEM {r[6]:+.1f} m")
