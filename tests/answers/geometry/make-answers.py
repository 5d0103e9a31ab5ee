#!/usr/bin/env python3
"""Writes the reference way geometries the Rust tests compare with (tests/answers/geometry/*.json).

For each query below, the way ids of the expected answer (../shared/data/expected/with-relations/,
computed by libosmium) are looked up with pyosmium (libosmium's Python binding, from PyPI:
`pip install osmium`), with node locations, and their vertices written as [lat_e7, lon_e7]
(1e-7 degrees, libosmium's own fixed-point values). Large answers get a digest per way:
[vertex count, sum of lat_e7, sum of lon_e7, first lat_e7, first lon_e7].
For the other relations (routes…), the lines of their member ways in member order, each as the
digest above (a member way not in the file, or with fewer than two located nodes, left out).
For the multipolygon relations of each answer, libosmium's area assembler (pyosmium's
`area` callback) gives [outer rings, inner rings, twice the area in (1e-7 degree)²] (the
shoelace sum on [lat_e7, lon_e7], shells minus holes), or null when it could not build one.
Only a test-data generator: the product does not use pyosmium.

    python3 tests/answers/geometry/make-answers.py [DATA_DIR]
"""
import json
import os
import sys

import osmium

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'shared', 'data')
out_dir = os.path.dirname(os.path.abspath(__file__))

# (output name, file, expected answer, digest only)
QUERIES = [
    ('malta.leisure-park-1000m', 'malta.osm.pbf', 'malta.leisure-park-1000m.json', False),
    ('malta.highway-primary-1000m', 'malta.osm.pbf', 'malta.highway-primary-1000m.json', False),
    ('helsinki.leisure-park-1000m', 'helsinki.osm.pbf', 'helsinki.leisure-park-1000m.json', False),
    ('helsinki.building-1000m', 'helsinki.osm.pbf', 'helsinki.building-1000m.json', True),
    ('helsinki.route-bus-1000m', 'helsinki.osm.pbf', 'helsinki.route-bus-1000m.json', True),
]


class Lookup(osmium.SimpleHandler):
    """Collects, in `found`, something for each element whose id is in `ids`."""

    def __init__(self, ids):
        super().__init__()
        self.ids = ids
        self.found = {}


class Ways(Lookup):
    def way(self, w):
        if w.id in self.ids:
            self.found[w.id] = [[n.location.y, n.location.x] for n in w.nodes if n.location.valid()]


class Areas(Lookup):
    def area(self, a):
        if a.from_way() or a.orig_id() not in self.ids:
            return
        twice = lambda ring: abs(sum(p.location.y * q.location.x - q.location.y * p.location.x for p, q in zip(ring, list(ring)[1:])))
        outer = inner = 0
        area2 = 0
        for o in a.outer_rings():
            outer += 1
            area2 += twice(list(o))
            for i in a.inner_rings(o):
                inner += 1
                area2 -= twice(list(i))
        self.found[a.orig_id()] = [outer, inner, area2]


def digest(v):
    return [len(v), sum(p[0] for p in v), sum(p[1] for p in v), v[0][0], v[0][1]]


class Relations(Lookup):
    def relation(self, r):
        if r.id in self.ids:
            self.found[r.id] = (r.tags.get('type'), [m.ref for m in r.members if m.type == 'w'])


def is_area_relation(kind):
    return kind in ('multipolygon', 'boundary')


def member_lines(file, relations):
    """Per relation that is not a multipolygon: the digest of each member way's line, in order."""
    routes = {i: ways for i, (kind, ways) in relations.items() if not is_area_relation(kind)}
    handler = Ways({w for ways in routes.values() for w in ways})
    handler.apply_file(file, locations=True)
    lines = lambda ways: [digest(handler.found[w]) for w in ways if len(handler.found.get(w, [])) >= 2]
    return {str(i): lines(ways) for i, ways in sorted(routes.items())}


def multipolygons(file, relations):
    """[outer, inner, area2] per relation that is a multipolygon; null when libosmium built none."""
    wanted = {i for i, (kind, _) in relations.items() if is_area_relation(kind)}
    handler = Areas(wanted)
    handler.apply_file(file, locations=True)
    return {str(i): handler.found.get(i) for i in sorted(wanted)}


os.makedirs(out_dir, exist_ok=True)
for name, file, expected, digests in QUERIES:
    with open(os.path.join(data, 'expected', 'with-relations', expected)) as f:
        answer = json.load(f)
        ids = set(answer['ways'])
    handler = Ways(ids)
    handler.apply_file(os.path.join(data, file), locations=True)
    if digests:
        ways = {str(i): digest(v) for i, v in sorted(handler.found.items())}
    else:
        ways = {str(i): v for i, v in sorted(handler.found.items())}
    relations = Relations(set(answer['relations']))
    relations.apply_file(os.path.join(data, file))
    areas = multipolygons(os.path.join(data, file), relations.found)
    routes = member_lines(os.path.join(data, file), relations.found)
    answer = {'file': file, 'expected': expected, 'digest': digests, 'ways': ways, 'multipolygons': areas, 'relation_lines': routes}
    with open(os.path.join(out_dir, name + '.json'), 'w') as f:
        json.dump(answer, f, separators=(',', ':'))
        f.write('\n')
    print(f'{name}: {len(ways)} ways, {len(areas)} multipolygons ({sum(v is None for v in areas.values())} not built), {len(routes)} other relations')
