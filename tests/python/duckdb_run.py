"""Runs a DuckDB program printed by `pbf-explorer sql --engine duckdb` and compares its rows with
pbf-explorer's GeoJSON export of the same query: the summary a test asserts, as JSON.

Usage: duckdb_run.py PROGRAM.sql GEOJSON

The program's `LOAD spatial;` finds the extension loaded already: this loads the file the
duckdb-ext-spatial package ships (DuckDB's own INSTALL downloads from elsewhere).
"""
import json
import sys

import duckdb

from geoparquet_check import geojson_wkt, spatial_extension


def main(program: str, geojson: str) -> None:
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{spatial_extension()}'")
    with open(program, encoding="utf-8") as f:
        sql = f.read()
    # The program's last statement is the query; the ones before it (LOAD) run first.
    *before, query = [s for s in sql.split(";\n") if s.strip() and not all(l.startswith("--") for l in s.strip().splitlines())]
    for statement in before:
        con.execute(statement)
    rows = con.execute(f"SELECT osm_type, osm_id, ST_AsText(geometry) FROM ({query.rstrip().rstrip(';')})").fetchall()
    with open(geojson, encoding="utf-8") as f:
        features = json.load(f)["features"]
    ours = geojson_wkt(con, features)
    ours_by_id = {f"{ft['properties']['osm_type']}/{ft['properties']['osm_id']}": w for ft, w in zip(features, ours)}
    theirs_by_id = {f"{t}/{i}": g for t, i, g in rows}
    ways_unequal = [k for k, g in theirs_by_id.items() if k.startswith("way/") and k in ours_by_id and ours_by_id[k] != g]
    print(json.dumps({
        "ids": sorted(theirs_by_id),
        "ours": sorted(ours_by_id),
        "rows": len(rows),
        "waysUnequal": ways_unequal[:5],
        "waysUnequalCount": len(ways_unequal),
        "ways": sum(1 for k in theirs_by_id if k.startswith("way/")),
        "firstUnequal": [[k, ours_by_id[k][:200], theirs_by_id[k][:200] if theirs_by_id[k] else None] for k in ways_unequal[:1]],
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
