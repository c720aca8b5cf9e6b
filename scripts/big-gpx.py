#!/usr/bin/env python3
"""Writes a GPX 1.1 track of N points at 1 Hz wandering around Monaco (issue 29 row 9 timings).
Usage: scripts/big-gpx.py 2000000 /tmp/big2m.gpx   (append a line `<<<bad` to time the reading alone)."""
import sys, math
n = int(sys.argv[1]); out = sys.argv[2]
t0 = 1_730_359_200
with open(out, "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="gen" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>big</name><trkseg>\n')
    for i in range(n):
        lat = 43.7384 + 0.002 * math.sin(i / 500.0); lon = 7.4246 + 0.002 * math.cos(i / 700.0)
        s = t0 + i; d, r = divmod(s, 86400); h, r = divmod(r, 3600); m, sec = divmod(r, 60)
        import datetime
        day = datetime.date(1970, 1, 1) + datetime.timedelta(days=d)
        f.write(f'<trkpt lat="{lat:.6f}" lon="{lon:.6f}"><ele>{50 + (i % 40)}</ele><time>{day.isoformat()}T{h:02d}:{m:02d}:{sec:02d}Z</time></trkpt>\n')
    f.write('</trkseg></trk></gpx>\n')
