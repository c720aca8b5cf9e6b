#!/usr/bin/env python3
"""Where a plan from a house number starts: for 40 seeded addresses of the extract (read with
pyosmium, as scripts/address-search-check.py does), plans "STREET NUMBER, CITY" → TO and counts
the plans whose first step is on the address's own street.

Usage: scripts/address-door-check.py SKATEROUTE MAP.srmap EXTRACT.pbf TO [N] [SEED]
"""
import importlib.util, os, random, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("address_search_check", os.path.join(here, "address-search-check.py"))
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)


def main():
    args = sys.argv[1:]
    if len(args) < 4:
        sys.exit(__doc__)
    binary, map_path, pbf, to = args[:4]
    n = int(args[4]) if len(args) > 4 else 40
    seed = int(args[5]) if len(args) > 5 else 42
    addrs = check.addresses(pbf)
    sample = random.Random(seed).sample(addrs, min(n, len(addrs)))
    on = off = other = 0
    for street, number, city, _ in sample:
        text = f"{street} {number}" + (f", {city}" if city else "")
        r = subprocess.run([binary, "plan", "--map", map_path, "--from", text, "--to", to], capture_output=True, text=True)
        first = [l for l in r.stdout.splitlines() if re.match(r"\s+1\s", l)]
        if r.returncode != 0 or not first or "house number match" not in r.stdout:
            other += 1
            continue
        if street in first[0]:
            on += 1
        else:
            off += 1
            print(f"elsewhere: {text} | {first[0].strip()[:90]}")
    print(f"first step on the address's street {on}, elsewhere {off}, not planned from a house number {other}")


if __name__ == "__main__":
    main()
