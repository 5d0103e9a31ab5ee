"""Reads a GeoParquet export of pbf-explorer with DuckDB's spatial extension and pyarrow, and
compares it with the GeoJSON export of the same answer: the summary a test asserts, as JSON.

Usage: geoparquet_check.py PARQUET GEOJSON

DuckDB and pyarrow come from PyPI (scripts/setup.sh --tests puts them in test-results/venv);
the spatial extension is the file the duckdb-ext-spatial package ships, loaded by path.
"""
import glob
import json
import os
import sys

import duckdb
import pyarrow.parquet as pq


def spatial_extension() -> str:
    """The extension file of the installed duckdb-ext-spatial package."""
    import duckdb_ext  # the package's top-level folder

    found = glob.glob(os.path.join(os.path.dirname(duckdb_ext.__file__ or duckdb_ext.__path__[0]), "**", "spatial.duckdb_extension"), recursive=True)
    if not found:
        raise SystemExit("duckdb-ext-spatial ships no spatial.duckdb_extension here")
    return found[0]


def geojson_wkt(con: duckdb.DuckDBPyConnection, features: list) -> list:
    """Each GeoJSON feature's geometry as WKT (None for a null one), written by DuckDB in one query."""
    geometries = [json.dumps(ft["geometry"]) if ft["geometry"] else None for ft in features]
    return [r[0] for r in con.execute(
        "SELECT ST_AsText(ST_GeomFromGeoJSON(g)) FROM (SELECT unnest(?) g, generate_subscripts(?, 1) i) ORDER BY i",
        [geometries, geometries],
    ).fetchall()]


def main(parquet: str, geojson: str) -> None:
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{spatial_extension()}'")
    # Ours, as DuckDB reads it: the geometry column is GEOMETRY when the `geo` metadata is right.
    column_types = dict((row[0], row[1]) for row in con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [parquet]).fetchall())
    rows = con.execute(
        "SELECT osm_type, osm_id, ST_AsText(geometry), bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax,"
        " ST_XMin(geometry), ST_YMin(geometry), ST_XMax(geometry), ST_YMax(geometry), tags, problem"
        " FROM read_parquet(?)",
        [parquet],
    ).fetchall()
    with open(geojson, encoding="utf-8") as f:
        features = json.load(f)["features"]
    wkt = geojson_wkt(con, features)
    ids = [f"{r[0]}/{r[1]}" for r in rows]
    geojson_ids = [f"{ft['properties']['osm_type']}/{ft['properties']['osm_id']}" for ft in features]
    unequal = [ids[i] for i in range(min(len(rows), len(features))) if rows[i][2] != wkt[i]]
    bbox_wrong = [ids[i] for i, r in enumerate(rows) if r[2] is not None and tuple(r[3:7]) != tuple(r[7:11])]
    bbox_null_wrong = [ids[i] for i, r in enumerate(rows) if r[2] is None and r[3] is not None]
    # Every tag of the GeoJSON feature (its keys there may carry `tag:`) is in the map, as is.
    own = {"osm_type", "osm_id", "problem", "change"}
    tags_lost = [ids[i] for i, r in enumerate(rows[: len(features)]) if len(r[11]) != len(set(features[i]["properties"]) - own)]
    names = [r[0] for r in con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [parquet]).fetchall()]
    changes = [r[0] for r in con.execute("SELECT change FROM read_parquet(?)", [parquet]).fetchall()] if "change" in names else None
    metadata = pq.read_metadata(parquet)
    table = pq.read_table(parquet)
    kv = metadata.metadata or {}
    print(json.dumps({
        "rows": len(rows),
        "firstTags": rows[0][11] if rows else None,
        "geojsonRows": len(features),
        "idsEqual": ids == geojson_ids,
        "geometryUnequal": unequal[:5],
        "geometryUnequalCount": len(unequal),
        "bboxWrong": bbox_wrong[:5],
        "bboxNullWrong": bbox_null_wrong[:5],
        "tagsLost": tags_lost[:5],
        "changesEqual": changes == [ft["properties"].get("change") for ft in features] if changes is not None else None,
        "changes": sorted(set(changes)) if changes is not None else None,
        "nullGeometries": sum(1 for r in rows if r[2] is None),
        "problems": sum(1 for r in rows if r[12] is not None),
        "duckdbTypes": column_types,
        "geo": json.loads(kv[b"geo"]) if b"geo" in kv else None,
        "pbfExplorer": json.loads(kv[b"pbf_explorer"]) if b"pbf_explorer" in kv else None,
        "rowGroups": metadata.num_row_groups,
        "pyarrowRows": table.num_rows,
        "pyarrowColumns": table.schema.names,
        "duckdbTypesSeen": sorted({r[0] for r in con.execute("SELECT DISTINCT ST_GeometryType(geometry)::VARCHAR FROM read_parquet(?) WHERE geometry IS NOT NULL", [parquet]).fetchall()}),
        "extent": con.execute("SELECT ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e) FROM (SELECT ST_Extent_Agg(geometry) e FROM read_parquet(?))", [parquet]).fetchone(),
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
