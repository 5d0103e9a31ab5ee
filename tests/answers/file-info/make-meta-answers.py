#!/usr/bin/env python3
"""Writes the metadata answers (tests/answers/file-info/helsinki-parking-meta.json): version, timestamp
(seconds since the Unix epoch), changeset, uid and user of every element tagged amenity=parking
in the Helsinki file, keyed "type/id", as pyosmium (libosmium, `pip install osmium`) reads them.
The popup and the Rust matches' metadata are compared with these. Only a test-data generator.

    python3 tests/answers/file-info/make-meta-answers.py [DATA_DIR]
"""
import json
import os
import sys

import osmium

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'shared', 'data')
out = os.path.join(os.path.dirname(__file__), 'helsinki-parking-meta.json')
answers = {}
for o in osmium.FileProcessor(os.path.join(data, 'helsinki.osm.pbf')):
    if o.tags.get('amenity') == 'parking':
        kind = {'n': 'node', 'w': 'way', 'r': 'relation'}[o.type_str()]
        answers[f'{kind}/{o.id}'] = {
            'version': o.version, 'timestamp': int(o.timestamp.timestamp()), 'changeset': o.changeset,
            'uid': o.uid, 'user': o.user,
        }
with open(out, 'w') as f:
    json.dump(answers, f, indent=0, sort_keys=True)
    f.write('\n')
print(out, len(answers))
