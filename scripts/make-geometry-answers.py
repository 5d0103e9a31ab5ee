#!/usr/bin/env python3
"""Writes the reference way geometries the Rust tests compare with (tests/geometry/*.json).

For each query below, the way ids of the expected answer (../shared/data/expected/with-relations/,
computed by libosmium) are looked up with pyosmium (libosmium's Python binding, from PyPI:
`pip install osmium`), with node locations, and their vertices written as [lat_e7, lon_e7]
(1e-7 degrees, libosmium's own fixed-point values). Large answers get a digest per way:
[vertex count, sum of lat_e7, sum of lon_e7, first lat_e7, first lon_e7].
Only a test-data generator: the product does not use pyosmium.

    python3 scripts/make-geometry-answers.py [DATA_DIR]
"""
import json
import os
import sys

import osmium

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'data')
out_dir = os.path.join(os.path.dirname(__file__), '..', 'tests', 'geometry')

# (output name, file, expected answer, digest only)
QUERIES = [
    ('malta.leisure-park-1000m', 'malta.osm.pbf', 'malta.leisure-park-1000m.json', False),
    ('malta.highway-primary-1000m', 'malta.osm.pbf', 'malta.highway-primary-1000m.json', False),
    ('helsinki.leisure-park-1000m', 'helsinki.osm.pbf', 'helsinki.leisure-park-1000m.json', False),
    ('helsinki.building-1000m', 'helsinki.osm.pbf', 'helsinki.building-1000m.json', True),
]


class Ways(osmium.SimpleHandler):
    def __init__(self, ids):
        super().__init__()
        self.ids = ids
        self.found = {}

    def way(self, w):
        if w.id in self.ids:
            self.found[w.id] = [[n.location.y, n.location.x] for n in w.nodes if n.location.valid()]


os.makedirs(out_dir, exist_ok=True)
for name, file, expected, digest in QUERIES:
    with open(os.path.join(data, 'expected', 'with-relations', expected)) as f:
        ids = set(json.load(f)['ways'])
    handler = Ways(ids)
    handler.apply_file(os.path.join(data, file), locations=True)
    if digest:
        ways = {str(i): [len(v), sum(p[0] for p in v), sum(p[1] for p in v), v[0][0], v[0][1]] for i, v in sorted(handler.found.items())}
    else:
        ways = {str(i): v for i, v in sorted(handler.found.items())}
    answer = {'file': file, 'expected': expected, 'digest': digest, 'ways': ways}
    with open(os.path.join(out_dir, name + '.json'), 'w') as f:
        json.dump(answer, f, separators=(',', ':'))
        f.write('\n')
    print(f'{name}: {len(ways)} ways')
