#!/usr/bin/env python3
"""Builds a planet-like test file: N copies of a real extract placed far apart on the globe, with
interleaved ids, merged in id order, so that every node blob spans every copy, as on the planet
(whose ids follow the order of mapping, not of place).

Copy k (0 … N-1) of element i (its id after `osmium renumber`, 1, 2, … per type) gets id i·N + k;
way node refs and relation member refs follow the same rule, so every reference stays whole.
Copy k is moved to cell k of a grid over the inhabited latitudes (8 columns), so the copies do not
overlap: a 1000 m query around copy 0's Valletta (see `VALLETTA`) answers what it does on the
extract. Tags and metadata are kept as they are.

    python3 scripts/make-planet-like.py [N=64] [IN=../shared/data/malta.osm.pbf] [OUT=bench/data/planet-like-N.osm.pbf]

Needs pyosmium (`pip install osmium`) and osmium-tool (`apt-get install osmium-tool`); the output
is not committed.
"""
import os
import subprocess
import sys
import tempfile

import osmium

COLUMNS = 8


def offset(k: int, centre: tuple[float, float]) -> tuple[float, float]:
    """Degrees (dlat, dlon) that move the extract centred at `centre` (lat, lon) to cell k of the grid."""
    row, col = divmod(k, COLUMNS)
    lat = -50.0 + 14.0 * row
    lon = -168.75 + 45.0 * col
    if k == 0:
        return 0.0, 0.0  # copy 0 stays where it is: queries on the extract answer the same there
    return lat - centre[0], lon - centre[1]


def copy(src: str, out: str, n: int, k: int, centre: tuple[float, float]) -> None:
    """Writes copy k of the renumbered file `src` to `out` (ids i·n + k, moved to cell k)."""
    dlat, dlon = offset(k, centre)
    new = lambda i: i * n + k
    with osmium.SimpleWriter(out, overwrite=True) as writer:
        for obj in osmium.FileProcessor(src):
            if obj.is_node():
                loc = obj.location
                moved = (loc.lon + dlon, loc.lat + dlat) if loc.valid() else None
                writer.add_node(obj.replace(id=new(obj.id), location=moved))
            elif obj.is_way():
                writer.add_way(obj.replace(id=new(obj.id), nodes=[new(r.ref) for r in obj.nodes]))
            else:
                members = [(m.type, new(m.ref), m.role) for m in obj.members]
                writer.add_relation(obj.replace(id=new(obj.id), members=members))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    data_dir = os.environ.get("PBF_DATA_DIR", os.path.join(os.path.dirname(root), "shared", "data"))
    src = sys.argv[2] if len(sys.argv) > 2 else os.path.join(data_dir, "malta.osm.pbf")
    out = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "bench", "data", f"planet-like-{n}.osm.pbf")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    box = osmium.io.Reader(src, osmium.osm.osm_entity_bits.NOTHING).header().box()
    centre = ((box.bottom_left.lat + box.top_right.lat) / 2, (box.bottom_left.lon + box.top_right.lon) / 2) if box.valid() else (0.0, 0.0)
    with tempfile.TemporaryDirectory() as work:
        renumbered = os.path.join(work, "renumbered.osm.pbf")
        subprocess.run(["osmium", "renumber", "--no-progress", "-O", "-o", renumbered, src], check=True)
        copies = []
        for k in range(n):
            path = os.path.join(work, f"copy-{k:03d}.osm.pbf")
            copy(renumbered, path, n, k, centre)
            copies.append(path)
        # Each copy is sorted by type then id (i·n + k grows with i): merged, they interleave.
        subprocess.run(["osmium", "merge", "--no-progress", "-O", "-o", out, *copies], check=True)
    print(out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
