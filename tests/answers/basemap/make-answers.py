#!/usr/bin/env python3
"""Writes the reference basemaps the Rust tests compare with (tests/answers/basemap/*.json).

For a 1000 m circle in each sample file, every way is read with pyosmium (libosmium's Python
binding, from PyPI: `pip install osmium`) with node locations, classed by the rule README's
"Basemap" section states, and drawn as that section says: a closed way of an area class as one
ring of its nodes inside the circle (three or more), any other way as one line per run of two
or more consecutive nodes inside it. Written per class: the number of features and of vertices.
Only a test-data generator: the product does not use pyosmium.

    python3 tests/answers/basemap/make-answers.py [DATA_DIR]
"""
import json
import math
import os
import sys

import osmium

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'shared', 'data')
out_dir = os.path.dirname(os.path.abspath(__file__))
EARTH_RADIUS_M = 6371008.8

# (output name, file, centre lat, lon, radius m)
AREAS = [
    ('helsinki-1000m', 'helsinki.osm.pbf', 60.1699, 24.9384, 1000.0),
    ('malta-1000m', 'malta.osm.pbf', 35.8989, 14.5146, 1000.0),
]

MAJOR = {'motorway', 'trunk', 'primary', 'secondary', 'tertiary'}
PATHS = {'footway', 'cycleway', 'path', 'steps', 'track', 'bridleway', 'corridor'}
RAIL = {'rail', 'light_rail', 'subway', 'tram', 'narrow_gauge', 'monorail', 'funicular'}
GREEN = {
    'leisure': {'park', 'garden', 'playground', 'pitch', 'golf_course', 'nature_reserve', 'dog_park'},
    'landuse': {'grass', 'forest', 'meadow', 'recreation_ground', 'village_green', 'cemetery', 'allotments', 'orchard'},
    'natural': {'wood', 'scrub', 'grassland', 'heath', 'wetland'},
}
PRIORITY = ['water', 'building', 'green', 'landuse', 'waterway', 'major-road', 'minor-road', 'path', 'railway']
AREA_CLASSES = {'water', 'building', 'green', 'landuse'}


def classes(tags):
    for k, v in tags:
        if k == 'highway' and v not in ('construction', 'proposed', 'abandoned', 'razed'):
            yield 'major-road' if v.removesuffix('_link') in MAJOR else 'path' if v in PATHS else 'minor-road'
        if k == 'railway' and v in RAIL:
            yield 'railway'
        if (k, v) == ('natural', 'water') or (k == 'waterway' and v in ('riverbank', 'dock')) or (k == 'landuse' and v in ('reservoir', 'basin')):
            yield 'water'
        if k == 'waterway' and v in ('river', 'stream', 'canal', 'drain', 'ditch'):
            yield 'waterway'
        if k == 'building' and v != 'no':
            yield 'building'
        if v in GREEN.get(k, ()):
            yield 'green'
        if k == 'landuse':
            yield 'landuse'


def haversine_m(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(a)))


class Basemap(osmium.SimpleHandler):
    def __init__(self, lat, lon, radius):
        super().__init__()
        self.inside = lambda n: n.location.valid() and haversine_m(lat, lon, n.location.lat, n.location.lon) <= radius
        self.totals = {c: {'features': 0, 'vertices': 0} for c in PRIORITY}

    def add(self, klass, vertices):
        self.totals[klass]['features'] += 1
        self.totals[klass]['vertices'] += vertices

    def way(self, w):
        found = sorted(set(classes((t.k, t.v) for t in w.tags)), key=PRIORITY.index)
        if not found:
            return
        klass = found[0]
        refs = list(w.nodes)
        inside = [self.inside(n) for n in refs]
        if klass in AREA_CLASSES and len(refs) > 3 and refs[0].ref == refs[-1].ref:
            ring = sum(inside[:-1])
            if ring >= 3:
                self.add(klass, ring + 1)
            return
        run = 0
        for yes in inside + [False]:
            if yes:
                run += 1
                continue
            if run >= 2:
                self.add(klass, run)
            run = 0


os.makedirs(out_dir, exist_ok=True)
for name, file, lat, lon, radius in AREAS:
    handler = Basemap(lat, lon, radius)
    handler.apply_file(os.path.join(data, file), locations=True)
    answer = {'file': file, 'circle': [lat, lon, radius], 'classes': handler.totals}
    with open(os.path.join(out_dir, name + '.json'), 'w') as f:
        json.dump(answer, f, indent=1)
        f.write('\n')
    print(name, handler.totals)
