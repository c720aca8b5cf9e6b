# Copies a shipped ride folder with a pothole written into its motion (-0.8 g for 60 ms, then
# +HIT g for 15 ms) ALONG metres in, as RideImpactTests.injectedRide does; the shipped files are
# never changed. Usage: scripts/inject-impact.py SRC DST HIT ALONG [WIDTH_MS]
# With WIDTH_MS, a lone jolt instead: +HIT g for WIDTH_MS ms, no drop (a crack or a bump).
# Cobbles instead: scripts/inject-impact.py SRC DST cobbles FROM_S TO_S [RMS_G]: from ride second
# FROM_S to TO_S the vertical gets seeded Gaussian noise band-passed to COBBLE_BAND Hz (setts of
# 10-15 cm at 2-4 m/s strike at 15-40 Hz) with RMS_G g RMS (default 0.3: crusty, over 0.2 g).
import sys, math, shutil, os, xml.etree.ElementTree as ET, datetime
COBBLE_BAND = (8.0, 40.0)
COBBLE_SEED = 28
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
for f in ["ride.gpx", "plan.json", "ride.json"]: shutil.copy(os.path.join(src, f), dst)
if sys.argv[3] == "cobbles":
    import numpy as np
    t0, t1 = float(sys.argv[4]), float(sys.argv[5])
    rms = float(sys.argv[6]) if len(sys.argv) > 6 else 0.3
    lines = [l.rstrip("\n") for l in open(os.path.join(src, "motion.csv"))]
    rows = []
    for k, line in enumerate(lines):
        c = line.split(",")
        try: t = float(c[0]); float(c[3])
        except (ValueError, IndexError): continue
        if t0 <= t < t1: rows.append(k)
    ts = np.array([float(lines[k].split(",")[0]) for k in rows])
    rate = (len(ts) - 1) / (ts[-1] - ts[0])
    noise = np.random.default_rng(COBBLE_SEED).standard_normal(len(ts))
    spec = np.fft.rfft(noise)
    f = np.fft.rfftfreq(len(ts), 1 / rate)
    spec[(f < COBBLE_BAND[0]) | (f > COBBLE_BAND[1])] = 0
    band = np.fft.irfft(spec, len(ts))
    band *= rms / np.sqrt(np.mean(band ** 2))
    for k, v in zip(rows, band):
        c = lines[k].split(",")
        lines[k] = "%s,%s,%s,%.4f" % (c[0], c[1], c[2], float(c[3]) + v)
    open(os.path.join(dst, "motion.csv"), "w").write("\n".join(lines) + "\n")
    print("cobbles %.1f-%.1f s (%d samples at %.0f Hz), %.2f g RMS in %g-%g Hz" % (t0, t1, len(rows), rate, rms, *COBBLE_BAND))
    sys.exit(0)
hit, along = float(sys.argv[3]), float(sys.argv[4])
jolt = float(sys.argv[5]) / 1000 if len(sys.argv) > 5 else None
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
