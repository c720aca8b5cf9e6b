#!/usr/bin/env python3
"""Independent cross-check of the surface table (issue 26 item 1): reads the OSM tags straight
from the .pbf with pyosmium (not SkateRoute's reader) and sums the metres of highway ways tagged
sett, cobblestone or an unpaved surface that SkateRoute's map classes better than crusty (target 0).
The map's classes come from `skateroute bench --braking --surface-audit DIR` (<name>-edges.tsv).
Usage: pip install osmium; python3 scripts/surface-crosscheck.py EXTRACT.pbf DIR/<name>-edges.tsv"""
import sys, collections, osmium

# Surface values that stop 50 mm urethane wheels whatever smoothness says (the list plus
# OSM's other unpaved values).
CRUSTY = {'sett', 'cobblestone', 'unhewn_cobblestone', 'cobblestone:flattened', 'grass_paver', 'gravel',
          'fine_gravel', 'compacted', 'dirt', 'earth', 'ground', 'grass', 'sand', 'mud', 'woodchips',
          'unpaved', 'pebblestone', 'rock', 'clay', 'bark_mulch'}

pbf, tsv = sys.argv[1], sys.argv[2]
tagged = {}
class H(osmium.SimpleHandler):
    def way(self, w):
        if 'highway' in w.tags and w.tags.get('surface') in CRUSTY:
            tagged[w.id] = (w.tags.get('surface'), w.tags.get('smoothness', '-'), w.tags.get('name', ''))
H().apply_file(pbf)

# The rule before issue 26 (smoothness replaced surface; woodchips read as wood): these
# smoothness values read better than crusty, as did woodchips without one.
OLD_BETTER = {'excellent', 'good', 'intermediate', 'bad'}
def old_better(surface, smoothness):
    return smoothness in OLD_BETTER or (smoothness == '-' and surface == 'woodchips')

total = 0.0; better = 0.0; old = 0.0; by = collections.Counter(); bad = collections.Counter()
with open(tsv) as f:
    next(f)
    for line in f:
        wid, metres, cls, src, surf, smooth = line.rstrip('\n').split('\t')
        wid = int(wid); metres = float(metres)
        if wid in tagged:
            total += metres; by[tagged[wid][0]] += metres
            if old_better(tagged[wid][0], tagged[wid][1]): old += metres
            if cls != 'crusty':
                better += metres; bad[(wid,) + tagged[wid] + (cls,)] += metres
print(f'{pbf}: {len(tagged)} highway ways tagged sett/cobblestone/unpaved (pyosmium), {total:.0f} m in the map')
print('  by surface: ' + ', '.join(f'{k} {v:.0f} m' for k, v in by.most_common()))
print(f'  classed better than crusty: {better:.0f} m (target 0); under the pre-issue-26 rule (smoothness replaces surface): {old:.0f} m')
for k, v in bad.most_common(10):
    print(f'    way {k[0]} surface={k[1]} smoothness={k[2]} "{k[3]}": {k[4]}, {v:.0f} m')
