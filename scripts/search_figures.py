#!/usr/bin/env python3
"""Search correctness on 30 real names across Monaco and Heidelberg (issue 27, must-have 4), and
6 village street names that name their town (stop 42: the town vote's near scale).

Expected places come from an independent read of the OpenStreetMap extracts with pyosmium
(`pip install osmium`): every object carrying the expected name inside the expected area. A
build is asked what each text resolves to through `skateroute spots --near TEXT --json` (the
resolver `plan --from/--to` uses; present in builds before and after the search change), and
each answer is classed:

  right      resolved within RIGHT_RADIUS_M of an expected object (or, for texts whose right
             answer is a list — a name found in several towns — listed as ambiguous)
  ambiguous  listed as ambiguous where one place was expected (safe: nothing is planned)
  wrong      resolved elsewhere, resolved where a list was expected, or not found

Usage: scripts/search_figures.py SKATEROUTE MONACO.srmap HEIDELBERG.srmap [--data ../shared/data]
"""
import json, math, os, subprocess, sys

RIGHT_RADIUS_M = 500        # a resolved end this close to the named object is the right place
TOWN_RADIUS_M = 3000        # a town-level answer ("Mannheim Hauptbahnhof" → Mannheim) this close to the area

HD = (49.38, 49.43, 8.64, 8.73)          # Heidelberg proper (Altstadt, Bergheim, Weststadt, Neuenheim)
MA = (49.46, 49.50, 8.44, 8.50)          # Mannheim centre
MC = (43.72, 43.76, 7.40, 7.45)          # Monaco

# (map, query, expected): {"name": OSM name, "area": box} | {"list": True} | {"town": box}
CASES = [
    ("monaco", "Stade Louis II", {"name": "Stade Louis II", "area": MC}),
    ("monaco", "stade louis ii", {"name": "Stade Louis II", "area": MC}),
    ("monaco", "Jardin Exotique", {"name": "Jardin Exotique", "area": MC}),
    ("monaco", "Place du Casino", {"name": "Place du Casino", "area": MC}),
    ("monaco", "Musée Océanographique", {"name": "Musée Océanographique", "area": MC}),
    ("monaco", "Avenue de la Costa", {"name": "Avenue de la Costa", "area": MC}),
    ("monaco", "Café de Paris", {"name": "Café de Paris", "area": MC}),
    ("monaco", "Rue Grimaldi", {"name": "Rue Grimaldi", "area": MC}),
    ("monaco", "Place d'Armes", {"name": "Place d'Armes", "area": MC}),
    ("monaco", "Port Hercule", {"name": "Port Hercule", "area": MC}),
    ("monaco", "Larvotto", {"name": "Larvotto", "area": MC}),
    ("monaco", "Boulevard des Moulins", {"name": "Boulevard des Moulins", "area": MC}),
    ("monaco", "Rue Princesse Caroline", {"name": "Rue Princesse Caroline", "area": MC}),
    ("heidelberg", "Bismarckplatz", {"name": "Bismarckplatz", "area": HD}),
    ("heidelberg", "Bismarckplatz, Heidelberg", {"name": "Bismarckplatz", "area": HD}),
    ("heidelberg", "Bismarckplatz, Mannheim", {"name": "Bismarckplatz", "area": MA}),
    ("heidelberg", "Mannheim Hauptbahnhof", {"town": MA}),
    ("heidelberg", "Heidelberg Hauptbahnhof", {"name": "Heidelberg Hauptbahnhof", "area": HD}),
    ("heidelberg", "Hauptstraße", {"list": True}),
    ("heidelberg", "Universitätsplatz", {"name": "Universitätsplatz", "area": HD}),
    ("heidelberg", "Kornmarkt", {"name": "Kornmarkt", "area": HD}),
    ("heidelberg", "Karlsplatz", {"name": "Karlsplatz", "area": HD}),
    ("heidelberg", "Alte Brücke", {"name": "Alte Brücke", "area": HD}),
    ("heidelberg", "Bergheimer Straße", {"name": "Bergheimer Straße", "area": HD}),
    ("heidelberg", "Neuenheimer Landstraße", {"name": "Neuenheimer Landstraße", "area": HD}),
    ("heidelberg", "Mönchhofstraße", {"name": "Mönchhofstraße", "area": HD}),
    ("heidelberg", "Friedrich-Ebert-Anlage", {"name": "Friedrich-Ebert-Anlage", "area": HD}),
    ("heidelberg", "Sofienstraße, Heidelberg", {"name": "Sofienstraße", "area": HD}),
    ("heidelberg", "Marktplatz", {"list": True}),
    ("heidelberg", "Bahnhofstraße", {"list": True}),
]

# Villages beside Heidelberg whose few addresses a big neighbour's outvoted (stop 42): hand-drawn
# boxes around each built-up area, checked against the extract's own addr:city positions.
EPP = (49.390, 49.415, 8.605, 8.645)     # Eppelheim
DOS = (49.440, 49.465, 8.645, 8.690)     # Dossenheim
SCH = (49.425, 49.445, 8.795, 8.825)     # Schönau
LEI = (49.330, 49.360, 8.670, 8.710)     # Leimen
NST = (49.395, 49.420, 8.820, 8.860)     # Neckarsteinach

TOWN_CASES = [
    ("heidelberg", "Hauptstraße, Eppelheim", {"name": "Hauptstraße", "area": EPP}),
    ("heidelberg", "Hauptstraße, Dossenheim", {"name": "Hauptstraße", "area": DOS}),
    ("heidelberg", "Hauptstraße, Schönau", {"name": "Hauptstraße", "area": SCH}),
    ("heidelberg", "Hauptstraße, Neckarsteinach", {"name": "Hauptstraße", "area": NST}),
    ("heidelberg", "Heidelberger Straße, Dossenheim", {"name": "Heidelberger Straße", "area": DOS}),
    ("heidelberg", "Rohrbacher Straße, Leimen", {"name": "Rohrbacher Straße", "area": LEI}),
]

PBF = {"monaco": "maps/monaco-geofabrik-2026/monaco-latest.osm.pbf", "heidelberg": "maps/heidelberg-ors-2024/heidelberg.test.pbf"}


def metres(a, b):
    dy = (a[0] - b[0]) * 110_574
    dx = (a[1] - b[1]) * 111_320 * math.cos(math.radians(a[0]))
    return math.hypot(dx, dy)


def inside(p, box):
    return box[0] <= p[0] <= box[1] and box[2] <= p[1] <= box[3]


def expected_objects(data):
    """Positions of every object named as a case expects, per map, by pyosmium."""
    import osmium
    out = {}
    for key, rel in PBF.items():
        names = {c[2]["name"] for c in CASES + TOWN_CASES if c[0] == key and "name" in c[2]}
        found = {n: [] for n in names}

        class H(osmium.SimpleHandler):
            def node(self, n):
                nm = n.tags.get("name")
                if nm in found:
                    found[nm].append((n.location.lat, n.location.lon))

            def way(self, w):
                nm = w.tags.get("name")
                if nm in found:
                    try:
                        pts = [(x.location.lat, x.location.lon) for x in w.nodes]
                    except osmium.InvalidLocationError:
                        return
                    found[nm].append((sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)))

        H().apply_file(os.path.join(data, rel), locations=True)
        out[key] = found
    return out


def resolve(binary, map_path, text):
    """('found', (lat, lon)) | ('ambiguous', None) | ('not_found', None)."""
    p = subprocess.run([binary, "spots", "--near", text, "--json", "--no-store", "--radius", "1", "--map", map_path],
                       capture_output=True, text=True)
    if p.returncode == 0:
        near = json.loads(p.stdout)["near"]
        return "found", (near["lat"], near["lon"])
    return ("ambiguous" if "ambiguous" in p.stderr else "not_found"), None


def main():
    args = sys.argv[1:]
    data = "../shared/data"
    if "--data" in args:
        i = args.index("--data"); data = args[i + 1]; del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    binary, maps = args[0], {"monaco": args[1], "heidelberg": args[2]}
    objects = expected_objects(data)
    for title, cases in (("30 names", CASES), ("village names with their town", TOWN_CASES)):
        print(f"# {title}")
        run(binary, maps, objects, cases)


def run(binary, maps, objects, cases):
    tally = {"right": 0, "ambiguous": 0, "wrong": 0}
    for key, text, exp in cases:
        verdict, at = resolve(binary, maps[key], text)
        if "list" in exp:
            cls = "right" if verdict == "ambiguous" else "wrong"
        elif verdict == "ambiguous":
            cls = "ambiguous"
        elif verdict != "found":
            cls = "wrong"
        elif "town" in exp:
            box = exp["town"]
            cls = "right" if metres(at, ((box[0] + box[1]) / 2, (box[2] + box[3]) / 2)) <= TOWN_RADIUS_M or inside(at, box) else "wrong"
        else:
            targets = [p for p in objects[key][exp["name"]] if inside(p, exp["area"])]
            cls = "right" if targets and min(metres(at, p) for p in targets) <= RIGHT_RADIUS_M else "wrong"
        tally[cls] += 1
        where = f"{at[0]:.5f},{at[1]:.5f}" if at else verdict
        print(f"{cls:9s}  {key:10s}  {text:28s}  {where}")
    print(f"right {tally['right']} / ambiguous listed {tally['ambiguous']} / wrong {tally['wrong']} of {len(cases)}")


if __name__ == "__main__":
    main()
