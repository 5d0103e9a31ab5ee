#!/usr/bin/env python3
"""Writes the node positions of every listed query's answer (tests/answers/positions/nodes.json):
"FILE node ID" -> [lat_e7, lon_e7] (1e-7 degrees, OSM's precision) as pyosmium (libosmium,
`pip install osmium`) reads them, for the nodes of the expected answers in tests/queries.json.
The native matches and the page's GeoJSON export are compared with these. Only a test-data
generator.

    python3 tests/answers/positions/make-answers.py [DATA_DIR]
"""
import json
import os
import sys

import osmium

here = os.path.dirname(__file__)
data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', '..', '..', '..', 'shared', 'data')
queries = json.load(open(os.path.join(here, '..', '..', 'queries.json')))
wanted = {}
for q in queries:
    if 'expected' in q:
        answer = json.load(open(os.path.join(data, 'expected', q['expected'])))
        wanted.setdefault(q['file'], set()).update(answer['nodes'])
positions = {}
for file, ids in sorted(wanted.items()):
    for o in osmium.FileProcessor(os.path.join(data, file), osmium.osm.NODE):
        if o.id in ids:
            positions[f'{file} node {o.id}'] = [o.location.y, o.location.x]
out = os.path.join(here, 'nodes.json')
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, 'w') as f:
    json.dump(positions, f, indent=0, sort_keys=True)
    f.write('\n')
print(out, len(positions))
