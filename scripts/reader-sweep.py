#!/usr/bin/env python3
"""Mutation sweep over a reader family through the CLI (issue 29 closing figures): tried / clean /
crash / hang. Clean = exit 0, or a non-zero exit with a one-line `skateroute:` error and no signal;
for `osm`, an exit-0 import must also pass `map verify`.
Usage: scripts/reader-sweep.py gpx|plan|osm SEED COUNT .build/debug/skateroute"""
import os, random, subprocess, sys, tempfile
family, seed, n, binary = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rng = random.Random(seed)
SEED_OSM = """<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
 <node id="1" lat="43.7400" lon="7.4200"/>
 <node id="2" lat="43.7410" lon="7.4210"><tag k="highway" v="crossing"/></node>
 <node id="3" lat="43.7418" lon="7.4222"/>
 <node id="4" lat="44.9000" lon="7.4200"/>
 <node id="5" lat="43.7420" lon="7.4230"><tag k="highway" v="elevator"/><tag k="name" v="Lift"/></node>
 <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="footway"/><tag k="name" v="Rue A"/></way>
 <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="residential"/></way>
 <way id="12"><nd ref="3"/><nd ref="5"/><tag k="highway" v="footway"/><tag k="layer" v="-1"/></way>
</osm>
"""
seeds = {
    "gpx": lambda: open(f"{root}/Rides/old-town-rocher/ride.gpx", "rb").read(),
    # skateroute plan --map Maps/monaco.srmap --from "Place du Casino" --to "Stade Louis II" --format json > /tmp/plan.json
    "plan": lambda: open(os.environ.get("SWEEP_PLAN", "/tmp/plan.json"), "rb").read(),
    "osm": lambda: SEED_OSM.encode(),
}
def mutate(b):
    b = bytearray(b)
    for _ in range(rng.randint(1, 8)):
        op = rng.randint(0, 5); i = rng.randrange(max(1, len(b)))
        if op == 0 and b: b[i] = rng.randrange(256)
        elif op == 1: b[i:i] = bytes(rng.choice([b"<", b">", b"\"", b"&", b"[", b"]", b"{", b"}", b"1e308", b"-", b"\x00", b"\xc2\x9b", b"NaN", b"99999999999"]))
        elif op == 2: del b[i:i + rng.randint(1, 64)]
        elif op == 3: b = b[:i]
        elif op == 4: b[i:i] = b[rng.randrange(max(1, len(b))):][:rng.randint(1, 200)] * rng.randint(1, 50)
        else: b[i:i] = str(rng.choice([1e300, -1e300, 1e19, 32767, -32768, 0.0])).encode()
    return bytes(b)
seed_bytes = seeds[family]()
tmp = tempfile.mkdtemp(prefix="reader-sweep-")
counts = {"tried": 0, "clean": 0, "crash": 0, "hang": 0}
for k in range(n):
    data = mutate(seed_bytes)
    if family == "gpx":
        p = f"{tmp}/m.gpx"; open(p, "wb").write(data)
        cmd = [binary, "ride", p, "--headless", "--no-store", "--assume-speed", "12", "--map", f"{root}/Maps/monaco.srmap", "--log", f"{tmp}/log.ndjson"]
    elif family == "osm":
        p = f"{tmp}/m.osm"; open(p, "wb").write(data)
        if os.path.exists(f"{tmp}/m.srmap"): os.remove(f"{tmp}/m.srmap")
        cmd = [binary, "import", "--osm", p, "--out", f"{tmp}/m.srmap"]
    else:
        p = f"{tmp}/m.json"; open(p, "wb").write(data)
        cmd = [binary, "ride", f"{root}/Rides/old-town-rocher/ride.gpx", "--plan", p, "--headless", "--no-store", "--map", f"{root}/Maps/monaco.srmap", "--log", f"{tmp}/log.ndjson"]
    counts["tried"] += 1
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=120)
        err = [l for l in r.stderr.decode("utf-8", "replace").splitlines() if l.startswith("skateroute:")]
        if r.returncode < 0 or r.returncode >= 128: counts["crash"] += 1; print("CRASH", k, r.returncode, file=sys.stderr); open(f"{tmp}/crash-{k}", "wb").write(data)
        elif family == "osm" and r.returncode == 0:
            v = subprocess.run([binary, "map", "verify", "--map", f"{tmp}/m.srmap"], capture_output=True, timeout=120)
            if v.returncode == 0: counts["clean"] += 1
            else: counts["crash"] += 1; print("UNLOADABLE", k, v.stderr[:300], file=sys.stderr); open(f"{tmp}/unloadable-{k}", "wb").write(data)
        elif r.returncode == 0 or len(err) == 1: counts["clean"] += 1
        else: counts["crash"] += 1; print("MESSY", k, r.returncode, r.stderr[:300], file=sys.stderr)
    except subprocess.TimeoutExpired:
        counts["hang"] += 1; open(f"{tmp}/hang-{k}", "wb").write(data)
print(family, f"seed {seed}", counts)
