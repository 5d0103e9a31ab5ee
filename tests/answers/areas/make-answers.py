#!/usr/bin/env python3
"""Writes the answers the area tests compare with (tests/answers/areas/answers.json).

For each case below, the area is either a relation of the file, assembled by libosmium's area
assembler (pyosmium's `area` callback, from PyPI: `pip install osmium shapely`), or a polygon
given here; the point-in-polygon test is shapely's `covers` (the outline included). The answer
follows docs/query-language.md: a node matches when its tags do and it lies in the area; a way
when its tags do and one of its nodes does (with inside=all, all of its nodes in the file, at
least one); a relation when its tags do and one node member or one node of a member way does.
Each case also records the outline's ring count and twice its area in (1e-7 degree)^2, so the
Rust test checks that the same multipolygon was assembled. Only a test-data generator: the
product does not use pyosmium or shapely.

    python3 tests/answers/areas/make-answers.py [DATA_DIR]
"""
import json
import os
import sys

import osmium
from shapely.geometry import MultiPolygon, Point, Polygon
from shapely.prepared import prep

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'shared', 'data')
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'answers.json')


def has(tags, key, value=None):
    return key in tags and (value is None or tags[key] == value)


# (file, area, query text as our language writes it, the same as a Python test, inside)
# area: {"relation": id} or {"polygon": GeoJSON MultiPolygon coordinates [lon, lat]}
CASES = [
    ('malta.osm.pbf', {'relation': 7510580}, 'amenity=restaurant', lambda t: has(t, 'amenity', 'restaurant'), 'any'),
    ('malta.osm.pbf', {'relation': 7510580}, 'building', lambda t: has(t, 'building'), 'any'),
    ('malta.osm.pbf', {'relation': 6181422}, 'highway=primary', lambda t: has(t, 'highway', 'primary'), 'any'),
    ('malta.osm.pbf', {'relation': 6181422}, 'highway=primary', lambda t: has(t, 'highway', 'primary'), 'all'),
    ('malta.osm.pbf', {'relation': 7510580}, 'highway', lambda t: has(t, 'highway'), 'all'),
    ('malta.osm.pbf', {'relation': 7510569}, 'amenity', lambda t: has(t, 'amenity'), 'any'),
    ('malta.osm.pbf', {'relation': 2101121}, 'tourism', lambda t: has(t, 'tourism'), 'any'),
    ('malta.osm.pbf', {'polygon': [[[[14.505, 35.895], [14.52, 35.895], [14.525, 35.905], [14.51, 35.91], [14.505, 35.895]],
                                    [[14.51, 35.898], [14.515, 35.898], [14.515, 35.902], [14.51, 35.902], [14.51, 35.898]]],
                                   [[[14.48, 35.88], [14.49, 35.88], [14.485, 35.89], [14.48, 35.88]]]]},
     'amenity=restaurant or shop', lambda t: has(t, 'amenity', 'restaurant') or has(t, 'shop'), 'any'),
    ('helsinki.osm.pbf', {'polygon': [[[[24.93, 60.165], [24.95, 60.165], [24.95, 60.175], [24.93, 60.175], [24.93, 60.165]]]]},
     'amenity=cafe', lambda t: has(t, 'amenity', 'cafe'), 'any'),
]


class Outlines(osmium.SimpleHandler):
    """libosmium's multipolygon of each relation asked for."""

    def __init__(self, ids):
        super().__init__()
        self.ids = ids
        self.found = {}

    def area(self, a):
        if a.from_way() or a.orig_id() not in self.ids:
            return
        parts = []
        for outer in a.outer_rings():
            rings = [[(n.lon, n.lat) for n in outer]] + [[(n.lon, n.lat) for n in inner] for inner in a.inner_rings(outer)]
            e7 = [[(n.x, n.y) for n in outer]] + [[(n.x, n.y) for n in inner] for inner in a.inner_rings(outer)]
            parts.append((rings, e7))
        self.found[a.orig_id()] = parts


def twice_area(ring):
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1])))


class Elements(osmium.SimpleHandler):
    """Every node's location, every way's nodes and tags, every relation's members and tags."""

    def __init__(self):
        super().__init__()
        self.nodes, self.ways, self.relations = {}, {}, {}

    def node(self, n):
        self.nodes[n.id] = (n.location.lon, n.location.lat, dict(n.tags))

    def way(self, w):
        self.ways[w.id] = ([n.ref for n in w.nodes], dict(w.tags))

    def relation(self, r):
        self.relations[r.id] = ([(m.type, m.ref) for m in r.members], dict(r.tags))


def answer(elements, covers, test, inside):
    def node_in(ref):
        n = elements.nodes.get(ref)
        return n is not None and covers(Point(n[0], n[1]))

    def nodes_in(refs):
        known = [r for r in refs if r in elements.nodes]
        return any(node_in(r) for r in refs) if inside == 'any' else bool(known) and all(node_in(r) for r in known)

    nodes = sorted(i for i, (x, y, t) in elements.nodes.items() if test(t) and covers(Point(x, y)))
    ways = sorted(i for i, (refs, t) in elements.ways.items() if test(t) and nodes_in(refs))
    relations = []
    for i, (members, t) in elements.relations.items():
        if not test(t):
            continue
        refs = [ref for kind, ref in members if kind == 'n']
        for kind, ref in members:
            if kind == 'w' and ref in elements.ways:
                refs += elements.ways[ref][0]
        if nodes_in(refs):
            relations.append(i)
    return {'nodes': nodes, 'ways': ways, 'relations': sorted(relations)}


results = []
for name in sorted({c[0] for c in CASES}):
    path = os.path.join(data, name)
    cases = [c for c in CASES if c[0] == name]
    wanted = {c[1]['relation'] for c in cases if 'relation' in c[1]}
    outlines = Outlines(wanted)
    outlines.apply_file(path, locations=True)
    elements = Elements()
    elements.apply_file(path)
    for _, area, q, test, inside in cases:
        if 'relation' in area:
            parts = outlines.found[area['relation']]
            shape = MultiPolygon([(rings[0], rings[1:]) for rings, _ in parts])
            outline = {'rings': sum(len(e7) for _, e7 in parts),
                       'twice_area_e7': sum(twice_area(e7[0]) - sum(twice_area(h) for h in e7[1:]) for _, e7 in parts)}
        else:
            shape = MultiPolygon([Polygon(p[0], p[1:]) for p in area['polygon']])
            outline = None
        covers = prep(shape).covers
        found = answer(elements, covers, test, inside)
        results.append({'file': name, 'area': area, 'q': q, 'inside': inside, 'outline': outline, **found})
        print(name, area if 'relation' in area else 'polygon', q, inside, {k: len(v) for k, v in found.items()}, file=sys.stderr)

with open(out, 'w') as f:
    json.dump(results, f, indent=1)
    f.write('\n')
