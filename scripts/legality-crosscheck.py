#!/usr/bin/env python3
"""Independent cross-check of legality: plans 30 seeded Monaco routes (0.8-3 km) with the built
binary, maps their GPX track onto OSM ways read straight from the XML extract, and sums the metres
on ways a separate, simplified reading of the tags calls forbidden (motorway/trunk without sidewalk,
foot=no|use_sidepath, access=no|private, construction, road tunnels without sidewalk).
Usage: swift build -c release && python3 scripts/legality-crosscheck.py"""
import bz2, re, random, subprocess, math, xml.etree.ElementTree as ET
nodes={}; ways={}
for ev, el in ET.iterparse(bz2.open('../shared/data/maps/monaco-geofabrik-2026/monaco-latest.osm.bz2'), events=('end',)):
    if el.tag=='node': nodes[int(el.get('id'))]=(float(el.get('lat')),float(el.get('lon'))); el.clear()
    elif el.tag=='way':
        t={c.get('k'):c.get('v') for c in el if c.tag=='tag'}
        if 'highway' in t: ways[int(el.get('id'))]=( [int(c.get('ref')) for c in el if c.tag=='nd'], t)
        el.clear()
def forbidden(t):
    hw=t.get('highway',''); foot=t.get('foot',''); acc=t.get('access','')
    side = any(t.get(k,'') in ('both','left','right','yes') for k in ('sidewalk','sidewalk:both','sidewalk:left','sidewalk:right'))
    footok = foot in ('yes','designated','permissive')
    if hw in ('motorway','motorway_link','trunk','trunk_link') and not (side or footok): return 'motorway/trunk'
    if hw=='construction': return 'construction'
    if foot in ('no','use_sidepath') and not side: return 'foot='+foot
    if acc in ('no','private') and not (footok or side): return 'access='+acc
    motor = hw in ('primary','secondary','tertiary','unclassified','residential','service','primary_link','secondary_link','tertiary_link','living_street')
    if t.get('tunnel') in ('yes','building_passage') and motor and not (side or footok): return 'road tunnel'
    return None
seg={}
for wid,(refs,t) in ways.items():
    for a,b in zip(refs,refs[1:]): seg[(a,b)]=wid; seg[(b,a)]=wid
key={}
for nid,(la,lo) in nodes.items(): key[(round(la,6),round(lo,6))]=nid
hwnodes=[r for refs,t in ways.values() if t.get('highway') in ('footway','residential','pedestrian','service') for r in refs]
random.seed(7); tot=0; forb=0; reasons={}; n=0
while n<30:
    a,b=random.choice(hwnodes),random.choice(hwnodes)
    pa,pb=nodes[a],nodes[b]
    d=math.hypot((pa[0]-pb[0])*111000,(pa[1]-pb[1])*80000)
    if not 800<d<3000: continue
    out=subprocess.run(['.build/release/skateroute','plan','--no-store','--map','Maps/monaco.srmap','--from',f'{pa[0]},{pa[1]}','--to',f'{pb[0]},{pb[1]}','--format','gpx'],capture_output=True,text=True).stdout
    if '<trk>' not in out: continue
    n+=1
    pts=[(float(x),float(y)) for x,y in re.findall(r'<trkpt lat="([-\d.]+)" lon="([-\d.]+)"',out.split('<trk>')[1])]
    ids=[key.get((round(p[0],6),round(p[1],6))) for p in pts]
    for i in range(1,len(pts)):
        L=math.hypot((pts[i][0]-pts[i-1][0])*111000,(pts[i][1]-pts[i-1][1])*80000); tot+=L
        w=seg.get((ids[i-1],ids[i])) if ids[i-1] and ids[i] else None
        if w:
            r=forbidden(ways[w][1])
            if r: forb+=L; reasons[r]=reasons.get(r,0)+L
print(f'{n} routes, {tot/1000:.1f} km; on ways an independent tag reading calls forbidden: {forb:.0f} m', {k:round(v) for k,v in reasons.items()})
