#!/usr/bin/python3
"""Prints gpxpy's reading of every GPX file under a folder, one signature a file, in the form
`GPXMatchesGpxpyTests.expected` (Tests/SkateRideTests/GPXReaderTests.swift) holds and compares our
reader against. gpxpy is an independent parser (Debian's python3-gpxpy, hence /usr/bin/python3:
a pyenv or venv python3 does not see it).

Usage: scripts/gpxpy-signatures.py [DIR]      (DIR defaults to ../shared/data/gpx)
       scripts/gpxpy-signatures.py --swift [DIR]   the same as Swift `Expected(...)` lines

A signature is what a replay reads from the file, in file order:
  src=track|route        the points read: every track point when the file has any, else the
                         route points (the rule our reader applies since issue 15)
  segs=[..]              points per non-empty <trkseg> (per <rte> for a route)
  timed=K/N              points with a <time> out of all read
  first=, last=          time of the first and last timed point, seconds since 1970 to the
                         microsecond (gpxpy's datetime resolution), or nil
  ele=, eleSum=          points with an elevation and their sum
  lat=, lon=             coordinate sums (shortest round-trip repr, as Swift prints a Double)
  name=                  the first non-empty <name> of a route or track (routes come first in
                         GPX's schema order)
or `no points` when the file has neither.
"""
import datetime, os, sys

import gpxpy

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def seconds(t):
    """Seconds since 1970 for a gpxpy time; a time without a zone is UTC, as in our reader."""
    if t.tzinfo is None:
        t = t.replace(tzinfo=datetime.timezone.utc)
    d = t - EPOCH
    return (d.days * 86400 + d.seconds) + d.microseconds / 1e6


def signature(path):
    with open(path, encoding="utf-8") as f:
        gpx = gpxpy.parse(f)
    segments = [s.points for t in gpx.tracks for s in t.segments if s.points]
    src = "track"
    if not segments:
        segments = [r.points for r in gpx.routes if r.points]
        src = "route"
    if not segments:
        return "no points"
    points = [p for s in segments for p in s]
    times = [seconds(p.time) for p in points if p.time is not None]
    ele = [p.elevation for p in points if p.elevation is not None]
    lat = lon = ele_sum = 0.0
    for p in points:
        lat += p.latitude
        lon += p.longitude
    for e in ele:
        ele_sum += e
    names = [x.name.strip() for x in list(gpx.routes) + list(gpx.tracks) if x.name and x.name.strip()]
    fmt = lambda t: "%.6f" % t if t is not None else "nil"
    return "src=%s segs=[%s] timed=%d/%d first=%s last=%s ele=%d eleSum=%r lat=%r lon=%r name=%s" % (
        src, ", ".join(str(len(s)) for s in segments), len(times), len(points),
        fmt(times[0] if times else None), fmt(times[-1] if times else None),
        len(ele), ele_sum, lat, lon, names[0] if names else "nil")


def main():
    args = sys.argv[1:]
    swift = "--swift" in args
    args = [a for a in args if a != "--swift"]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = args[0] if args else os.path.join(here, "..", "shared", "data", "gpx")
    files = sorted(os.path.relpath(os.path.join(d, f), root)
                   for d, _, fs in os.walk(root) for f in fs if f.endswith(".gpx"))
    for rel in files:
        try:
            sig = signature(os.path.join(root, rel))
        except Exception as e:  # gpxpy refuses the file
            sig = "gpxpy error: %s" % type(e).__name__
        if swift:
            print('        Expected("%s",\n                 "%s"),' % (rel, sig.replace("\\", "\\\\").replace('"', '\\"')))
        else:
            print("%s\t%s" % (rel, sig))


if __name__ == "__main__":
    main()
