#!/usr/bin/env python3
"""Step-list figures on seeded Monaco pairs (issue 30, "figures for the closing note").

Plans PAIRS seeded coordinate pairs inside Monaco (or the box --box S,W,N,E) with a build's `skateroute plan --format json`
(every mode) and counts, over all plans:

  steps/km      steps (not the arrive step) per kilometre of route
  unnamed       steps on unnamed ways (`street` empty), described by what they are
  bare          steps whose instruction names nothing: a bare maneuver ("Turn right", "Depart
                north", "Bear left (walk the steps)") on an unnamed way
  walk≠walk_m   steps with `walk` false but `walk_m` > 0, or `walk` true and `walk_m` 0
  repeats       consecutive steps with the same instruction
  across x2     consecutive steps "across" the same square (one square crossed in several steps)
  advice        steps or notes that advise riding elsewhere ("instead")

Usage: scripts/step_figures.py SKATEROUTE [--map MAP] [--pairs 30] [--seed 30] [--box S,W,N,E]
  Heidelberg proper: --map hd.srmap --box 49.38,8.64,49.43,8.73
Run it with the build before and after a change and compare the lines.
"""
import json, random, subprocess, sys

MC = (43.725, 43.750, 7.405, 7.440)   # Monaco's built-up strip (lat0, lat1, lon0, lon1)
MODES = ["smoothest", "fastMildRoughness", "chillFewCrossings", "nightSafe", "trickSpotCrawl"]
PHRASES = ["Continue", "Bear left", "Turn left", "Turn sharp left", "Bear right", "Turn right", "Turn sharp right", "Make a U-turn"]
COMPASS = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]


def bare(instr):
    s = instr.replace(" (walk the steps)", "")
    return s in PHRASES or s in ["Depart " + c for c in COMPASS]


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__); sys.exit(2)
    exe, extra = args[0], []
    pairs, seed, box = 30, 30, MC
    i = 1
    while i < len(args):
        if args[i] == "--map": extra += ["--map", args[i + 1]]; i += 2
        elif args[i] == "--pairs": pairs = int(args[i + 1]); i += 2
        elif args[i] == "--seed": seed = int(args[i + 1]); i += 2
        elif args[i] == "--box":
            b = [float(x) for x in args[i + 1].split(",")]; box = (b[0], b[2], b[1], b[3]); i += 2
        else: print("unknown argument", args[i]); sys.exit(2)
    rng = random.Random(seed)
    ends = []
    for _ in range(pairs):
        p = [(round(rng.uniform(box[0], box[1]), 5), round(rng.uniform(box[2], box[3]), 5)) for _ in range(2)]
        ends.append(p)
    steps = unnamed = bare_n = walk_bad = repeats = advice = across2 = 0
    km = 0.0
    plans = 0
    for mode in MODES:
        for a, b in ends:
            out = subprocess.run([exe, "plan", "--from", "%s,%s" % a, "--to", "%s,%s" % b, "--mode", mode, "--format", "json"] + extra,
                                 capture_output=True, text=True)
            if out.returncode != 0:
                continue
            plan = json.loads(out.stdout)
            plans += 1
            km += plan["distance_m"] / 1000
            prev = None
            prev_sq = None
            for st in plan["steps"]:
                if st["maneuver"] == "arrive":
                    continue
                steps += 1
                if bare(st["instruction"]): bare_n += 1
                if not st.get("street"): unnamed += 1
                if st["walk"] != (st.get("walk_m", 0) > 0): walk_bad += 1
                if st["instruction"] == prev: repeats += 1
                if "instead" in st.get("legality_reason", ""): advice += 1
                prev = st["instruction"]
                sq = st["instruction"].split(" across ", 1)[1].split(" and leave it")[0] if " across " in st["instruction"] else None
                if sq and sq == prev_sq: across2 += 1
                prev_sq = sq
            advice += sum(1 for n in plan["notes"] if "instead" in n)
    print("%d plans (%d pairs x %d modes), %.1f km: %d steps, %.2f steps/km, %d unnamed, %d bare, %d walk!=walk_m, %d repeats, %d advice, %d across x2"
          % (plans, pairs, len(MODES), km, steps, steps / km if km else 0, unnamed, bare_n, walk_bad, repeats, advice, across2))


main()
