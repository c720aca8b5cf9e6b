# Copies a shipped ride folder with a pothole written into its motion (-0.8 g for 60 ms, then
# +HIT g for 15 ms) ALONG metres in, as RideImpactTests.injectedRide does; the shipped files are
# never changed. Usage: scripts/inject-impact.py SRC DST HIT ALONG [WIDTH_MS]
# With WIDTH_MS, a lone jolt instead: +HIT g for WIDTH_MS ms, no drop (a crack or a bump).
import sys, math, shutil, os, xml.etree.ElementTree as ET, datetime
src, dst, hit, along = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
jolt = float(sys.argv[5]) / 1000 if len(sys.argv) > 5 else None
os.makedirs(dst, exist_ok=True)
for f in ["ride.gpx", "plan.json", "ride.json"]: shutil.copy(os.path.join(src, f), dst)
ns = {"g": "http://www.topografix.com/GPX/1/1"}
pts = []
for p in ET.parse(os.path.join(src, "ride.gpx")).getroot().iterfind(".//g:trkpt", ns):
    t = datetime.datetime.fromisoformat(p.find("g:time", ns).text.replace("Z", "+00:00")).timestamp()
    pts.append((float(p.get("lat")), float(p.get("lon")), t))
def dist(a, b):
    R = 6371008.8; la = math.radians((a[0] + b[0]) / 2)
    return R * math.hypot(math.radians(b[0] - a[0]), math.radians(b[1] - a[1]) * math.cos(la))
kept, acc, tat = [], 0.0, None
for p in pts:
    if kept:
        d = dist(kept[-1], p)
        if d > 8 * max(1, p[2] - kept[-1][2]): continue
        acc += d
        if acc >= along and tat is None: tat = p[2] - pts[0][2]
    kept.append(p)
def pulse(t, dt, start, width, amp):
    a, b = max(start, t - dt), min(start + width, t)
    if b <= a: return 0.0
    k = math.pi / width
    return amp * (math.cos(k * (a - start)) - math.cos(k * (b - start))) / k / dt
out = []
for line in open(os.path.join(src, "motion.csv")):
    c = line.rstrip("\n").split(",")
    try: t = float(c[0]); az = float(c[3])
    except (ValueError, IndexError): out.append(line.rstrip("\n")); continue
    if jolt is None: az += pulse(t, 0.01, tat - 0.06, 0.06, -0.8) + pulse(t, 0.01, tat, 0.015, hit)
    else: az += pulse(t, 0.01, tat, jolt, hit)
    out.append("%s,%s,%s,%.4f" % (c[0], c[1], c[2], az))
open(os.path.join(dst, "motion.csv"), "w").write("\n".join(out) + "\n")
print("%s at t=%.2f s" % ("pothole" if jolt is None else "jolt", tat))
