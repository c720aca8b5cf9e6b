#!/usr/bin/env python3
"""Walked flights whose words and grade disagree (issue 30: instructions without contradictions).

Plans seeded random pairs inside a box and lists every walk step whose instruction names a
direction ("walk up", "walk down") while its grade points the other way by more than 2 %. The
direction comes from the flight's `incline` tag when it has one, the grade from the conditioned
terrain; steps are untied in the elevation conditioner, so a tagged flight's ends can carry
heights that contradict the tag (stop 42: 4 of 36 such steps on 60 Monaco pairs).

Usage: scripts/stairs-direction-check.py SKATEROUTE MAP S,W,N,E PAIRS
  e.g. scripts/stairs-direction-check.py .build/release/skateroute Maps/monaco.srmap 43.726,7.410,43.748,7.438 60
"""
import json, random, subprocess, sys

SEED = 42
CONTRADICTION_PCT = 2.0     # a grade this far the other way contradicts the words


def seeded_plans(binary, map_path, box, pairs, fmt):
    """The parsed plans (`--format fmt`: json or geojson) of `pairs` seeded random pairs inside
    box (S, W, N, E); pairs that do not plan are skipped. stairs-tags-check.py plans the same."""
    s, w, n, e = box
    rng = random.Random(SEED)
    for _ in range(pairs):
        a = (rng.uniform(s, n), rng.uniform(w, e))
        b = (rng.uniform(s, n), rng.uniform(w, e))
        p = subprocess.run([binary, "plan", "--map", map_path, "--no-store", "--from", f"{a[0]:.5f},{a[1]:.5f}",
                            "--to", f"{b[0]:.5f},{b[1]:.5f}", "--format", fmt], capture_output=True, text=True)
        if p.returncode == 0:
            yield json.loads(p.stdout)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    binary, map_path = sys.argv[1], sys.argv[2]
    box = tuple(float(x) for x in sys.argv[3].split(","))
    directed = contradicted = 0
    seen = set()
    for plan in seeded_plans(binary, map_path, box, int(sys.argv[4]), "json"):
        for step in plan["steps"]:
            text = step["instruction"]
            if not step.get("walk") or (" up" not in text and " down" not in text):
                continue
            directed += 1
            g = step.get("grade_pct")
            if g is not None and ((" up" in text and g < -CONTRADICTION_PCT) or (" down" in text and g > CONTRADICTION_PCT)):
                contradicted += 1
                line = f"{text} — {step['distance_m']} m, {g:+.1f} %"
                if line not in seen:
                    seen.add(line)
                    print(line)
    print(f"walk steps with a direction (every plan's, repeats counted): {directed}; contradicted by their grade: {contradicted}")


if __name__ == "__main__":
    main()
