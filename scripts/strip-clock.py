#!/usr/bin/env python3
"""Reads one JSON document on stdin and prints it with wall-clock fields dropped (created_at,
timings, log paths, ids) and keys sorted, so two builds' outputs compare byte for byte; input that
is not JSON prints one "not JSON:" line. Used by same-plans.sh and same-outputs.sh."""
import json, sys

WALL_CLOCK_KEYS = ("created_at", "elapsed_ms", "wall_s", "log", "log_path", "id")


def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in WALL_CLOCK_KEYS}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v


try:
    print(json.dumps(clean(json.load(sys.stdin)), indent=1, sort_keys=True))
except Exception as e:
    print("not JSON:", e)
