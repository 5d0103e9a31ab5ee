#!/usr/bin/env python3
"""Writes the answers of the query-language tests (tests/answers/language/answers.json).

Each query below is written twice: as text in our query language (what the tests type), and as
a Python predicate on an element's type and tags (written here by hand from the README's
definitions, so the parser is not its own judge). pyosmium (libosmium's Python binding, from PyPI:
`pip install osmium`) reads the files with node locations; an element matches as README
"Query semantics" says: a node in the area; a way with a node in the area (with `inside=all`,
every node of it in the area); a relation with a node member, or a node of a member way, in the
area (with `inside=all`: all of them that are in the file, and at least one). With no area, a
way or relation needs one of those nodes in the file. Only a test-data generator: the product
does not use pyosmium.

    python3 tests/answers/language/make-answers.py [DATA_DIR]
"""
import json
import math
import os
import re
import sys

import osmium

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'shared', 'data')
out = os.path.join(os.path.dirname(__file__), 'answers.json')
EARTH_RADIUS_M = 6371008.8
MALTA = {'near': [35.8989, 14.5146], 'radius': 1000}
HELSINKI = {'near': [60.1699, 24.9384], 'radius': 1000}

# (file, query text, area, inside, predicate(kind, tags))
QUERIES = [
    ('malta.osm.pbf', 'amenity=cafe or amenity=restaurant', MALTA, 'any',
     lambda k, t: t.get('amenity') in ('cafe', 'restaurant')),
    ('helsinki.osm.pbf', 'shop and not shop=supermarket', HELSINKI, 'any',
     lambda k, t: 'shop' in t and t['shop'] != 'supermarket'),
    ('helsinki.osm.pbf', 'name~/^star/i', {}, 'any',
     lambda k, t: 'name' in t and re.search('^star', t['name'], re.I) is not None),
    ('malta.osm.pbf', 'addr:* !name', MALTA, 'any',
     lambda k, t: any(key.startswith('addr:') for key in t) and 'name' not in t),
    ('helsinki.osm.pbf', 'type:way building!=yes building', HELSINKI, 'any',
     lambda k, t: k == 'way' and 'building' in t and t['building'] != 'yes'),
    ('helsinki.osm.pbf', 'highway=bus_stop or (public_transport=platform and bus=yes)', HELSINKI, 'any',
     lambda k, t: t.get('highway') == 'bus_stop' or (t.get('public_transport') == 'platform' and t.get('bus') == 'yes')),
    ('malta.osm.pbf', 'highway=primary', MALTA, 'all',
     lambda k, t: t.get('highway') == 'primary'),
    ('malta.osm.pbf', 'amenity~"^(cafe|bar)$" cuisine', MALTA, 'any',
     lambda k, t: re.search('^(cafe|bar)$', t.get('amenity', '')) is not None and 'amenity' in t and 'cuisine' in t),
    ('malta.osm.pbf', '"name:en"~Church', {}, 'any',
     lambda k, t: 'Church' in t.get('name:en', '')),
    ('helsinki.osm.pbf', 'type:relation type=multipolygon', HELSINKI, 'any',
     lambda k, t: k == 'relation' and t.get('type') == 'multipolygon'),
    ('helsinki.osm.pbf', 'leisure=park', HELSINKI, 'all',
     lambda k, t: t.get('leisure') == 'park'),
    ('malta.osm.pbf', 'tourism=hotel OR tourism=hostel', {'bbox': [14.50, 35.88, 14.53, 35.91]}, 'any',
     lambda k, t: t.get('tourism') in ('hotel', 'hostel')),
    # The page's refinements from the tag statistics: a value kept, and a value excluded.
    ('malta.osm.pbf', '(amenity=cafe or amenity=restaurant) and cuisine=italian', MALTA, 'any',
     lambda k, t: t.get('amenity') in ('cafe', 'restaurant') and t.get('cuisine') == 'italian'),
    ('malta.osm.pbf', '(amenity=cafe or amenity=restaurant) and not cuisine=italian', MALTA, 'any',
     lambda k, t: t.get('amenity') in ('cafe', 'restaurant') and t.get('cuisine') != 'italian'),
]


def area_test(area):
    if 'near' in area:
        (lat0, lon0), radius = area['near'], area['radius']

        def inside(lat, lon):
            p1, p2 = math.radians(lat0), math.radians(lat)
            a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon - lon0) / 2) ** 2
            return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(a))) <= radius
        return inside
    if 'bbox' in area:
        w, s, e, n = area['bbox']
        return lambda lat, lon: w <= lon <= e and s <= lat <= n
    return lambda lat, lon: True


class Answer(osmium.SimpleHandler):
    """One pass with locations: nodes and ways decided at once, relations once all ways are seen."""

    def __init__(self, inside, predicate, all_nodes):
        super().__init__()
        self.inside, self.predicate, self.all_nodes = inside, predicate, all_nodes
        self.in_area = {}  # node id -> in the area (for every node of the file)
        self.way_nodes = {}  # way id -> [in the area, per node]
        self.relations = []
        self.nodes, self.ways = [], []

    def node(self, n):
        self.in_area[n.id] = self.inside(n.location.lat, n.location.lon)
        if self.in_area[n.id] and self.predicate('node', dict(n.tags)):
            self.nodes.append(n.id)

    def placed(self, flags):
        """One node in the area, or with inside=all every one (a node missing from the file is not in it)."""
        return (len(flags) > 0 and all(flags)) if self.all_nodes else any(flags)

    def way(self, w):
        flags = [self.in_area.get(r.ref, False) for r in w.nodes]
        self.way_nodes[w.id] = flags
        if self.predicate('way', dict(w.tags)) and self.placed(flags):
            self.ways.append(w.id)

    def relation(self, r):
        if self.predicate('relation', dict(r.tags)):
            self.relations.append((r.id, [(m.type, m.ref) for m in r.members]))

    def relation_ids(self):
        found = []
        for rid, members in self.relations:
            flags = []
            for t, ref in members:
                if t == 'n':
                    flags.append(self.in_area.get(ref, False))
                elif t == 'w':
                    flags.extend(self.way_nodes.get(ref, []))  # a way missing from the file is left out
            if self.placed(flags):
                found.append(rid)
        return found


answers = []
for file, text, area, inside, predicate in QUERIES:
    handler = Answer(area_test(area), predicate, inside == 'all')
    handler.apply_file(os.path.join(data, file), locations=True)
    nodes, ways, relations = sorted(handler.nodes), sorted(handler.ways), sorted(handler.relation_ids())
    answers.append({'file': file, 'q': text, **area, 'inside': inside, 'nodes': nodes, 'ways': ways, 'relations': relations,
                    'count': len(nodes) + len(ways) + len(relations)})
    print(f'{file} {text!r} {area} inside={inside}: {len(nodes)} nodes, {len(ways)} ways, {len(relations)} relations')
with open(out, 'w') as f:
    json.dump(answers, f, separators=(',', ':'))
    f.write('\n')
