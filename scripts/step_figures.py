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
  on+across     a step on a named way next to a step "across" a square of the same name
  false turns   turn steps (left, right, sharp, U-turn) where the plan's own line, read as a chord
                15 m before and 15 m after the step's start, turns less than 20 degrees: a turn the
                rider cannot see (a jog of a few metres between two nodes)
  --show prints each split square and false turn with its pair and mode.

Usage: scripts/step_figures.py SKATEROUTE [--map MAP] [--pairs 30] [--seed 30] [--box S,W,N,E]
  Heidelberg proper: --map hd.srmap --box 49.38,8.64,49.43,8.73
Run it with the build before and after a change and compare the lines.
"""
import json, math, random, subprocess, sys

MC = (43.725, 43.750, 7.405, 7.440)   # Monaco's built-up strip (lat0, lat1, lon0, lon1)
MODES = ["smoothest", "fastMildRoughness", "chillFewCrossings", "nightSafe", "trickSpotCrawl"]
PHRASES = ["Continue", "Bear left", "Turn left", "Turn sharp left", "Bear right", "Turn right", "Turn sharp right", "Make a U-turn"]
COMPASS = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]


def bare(instr):
    s = instr.replace(" (walk the steps)", "")
    return s in PHRASES or s in ["Depart " + c for c in COMPASS]


TURNS = {"left", "right", "sharp_left", "sharp_right", "uturn", "u_turn"}
CHORD_M, FALSE_TURN_DEG = 15.0, 20.0


def metres(a, b):
    k = math.cos(math.radians((a[1] + b[1]) / 2))
    return math.hypot((b[0] - a[0]) * k, b[1] - a[1]) * 111195.0


def bearing(a, b):
    k = math.cos(math.radians((a[1] + b[1]) / 2))
    return math.degrees(math.atan2((b[0] - a[0]) * k, b[1] - a[1]))


def point_at(geom, cum, d):
    """The point `d` metres along the line (clamped to its ends)."""
    d = max(0.0, min(cum[-1], d))
    for i in range(1, len(geom)):
        if cum[i] >= d:
            seg = cum[i] - cum[i - 1]
            t = 0 if seg == 0 else (d - cum[i - 1]) / seg
            return (geom[i - 1][0] + t * (geom[i][0] - geom[i - 1][0]), geom[i - 1][1] + t * (geom[i][1] - geom[i - 1][1]))
    return tuple(geom[-1][:2])


def chord_turn(geom, cum, at):
    a, m, b = point_at(geom, cum, at - CHORD_M), point_at(geom, cum, at), point_at(geom, cum, at + CHORD_M)
    if metres(a, m) < 1 or metres(m, b) < 1:
        return None
    t = bearing(m, b) - bearing(a, m)
    return (t + 180) % 360 - 180


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__); sys.exit(2)
    exe, extra, show = args[0], [], False
    pairs, seed, box = 30, 30, MC
    i = 1
    while i < len(args):
        if args[i] == "--map": extra += ["--map", args[i + 1]]; i += 2
        elif args[i] == "--pairs": pairs = int(args[i + 1]); i += 2
        elif args[i] == "--seed": seed = int(args[i + 1]); i += 2
        elif args[i] == "--box":
            b = [float(x) for x in args[i + 1].split(",")]; box = (b[0], b[2], b[1], b[3]); i += 2
        elif args[i] == "--show": show = True; i += 1
        else: print("unknown argument", args[i]); sys.exit(2)
    rng = random.Random(seed)
    ends = []
    for _ in range(pairs):
        p = [(round(rng.uniform(box[0], box[1]), 5), round(rng.uniform(box[2], box[3]), 5)) for _ in range(2)]
        ends.append(p)
    steps = unnamed = bare_n = walk_bad = repeats = advice = across2 = on_across = false_turns = 0
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
            prev_street = None
            geom = [g[:2] for g in plan["geometry"]]
            cum = [0.0]
            for i in range(1, len(geom)):
                cum.append(cum[-1] + metres(geom[i - 1], geom[i]))
            # Step starts along the plan's own geometry, scaled so the steps' metres sum to it.
            total = sum(st["distance_m"] for st in plan["steps"]) or 1
            at = 0.0
            for st in plan["steps"]:
                start = at * cum[-1] / total
                at += st["distance_m"]
                if st["maneuver"] in TURNS and len(geom) > 1:
                    t = chord_turn(geom, cum, start)
                    if t is not None and abs(t) < FALSE_TURN_DEG:
                        false_turns += 1
                        if show: print("false turn %+.0f deg: %s %s->%s %r" % (t, mode, a, b, st["instruction"]))
                if st["maneuver"] == "arrive":
                    continue
                steps += 1
                if bare(st["instruction"]): bare_n += 1
                if not st.get("street"): unnamed += 1
                if st["walk"] != (st.get("walk_m", 0) > 0): walk_bad += 1
                if st["instruction"] == prev:
                    repeats += 1
                    if show: print("repeat: %s %s->%s %r" % (mode, a, b, st["instruction"]))
                if "instead" in st.get("legality_reason", ""): advice += 1
                prev = st["instruction"]
                sq = st["instruction"].split(" across ", 1)[1].split(" and leave it")[0] if " across " in st["instruction"] else None
                if sq and sq == prev_sq:
                    across2 += 1
                    if show: print("split square: %s %s->%s %r" % (mode, a, b, st["instruction"]))
                if (sq and prev_street == sq) or (prev_sq and st.get("street") == prev_sq and not sq):
                    on_across += 1
                    if show: print("on+across: %s %s->%s %r" % (mode, a, b, st["instruction"]))
                prev_sq = sq
                prev_street = st.get("street")
            advice += sum(1 for n in plan["notes"] if "instead" in n)
    print("%d plans (%d pairs x %d modes), %.1f km: %d steps, %.2f steps/km, %d unnamed, %d bare, %d walk!=walk_m, %d repeats, %d advice, %d across x2, %d on+across, %d false turns"
          % (plans, pairs, len(MODES), km, steps, steps / km if km else 0, unnamed, bare_n, walk_bad, repeats, advice, across2, on_across, false_turns))


main()
