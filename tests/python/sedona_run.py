"""Runs Spark SQL programs printed by `pbf-explorer sql --engine sedona` on local Spark with
Apache Sedona, and compares each one's rows with pbf-explorer's GeoJSON export of the same
query: the summaries a test asserts, as JSON, one per program in the order given.

Usage: sedona_run.py MANIFEST.json    (a list of {"program": PATH.sql, "geojson": PATH})

One Spark session (local, every core) runs them all, statement by statement as `spark-sql -f`
would: a program's literals never span lines, so its statements end at `;` + line break.
Sedona's jars come from SEDONA_JARS (comma-separated paths; scripts/setup.sh --tests fetches
them from Maven Central into test-results/sedona-jars).
"""
import glob
import json
import os
import sys

from sedona.spark import SedonaContext
from shapely import wkt
from shapely.geometry import shape

HERE = os.path.dirname(os.path.abspath(__file__))


def jars() -> str:
    given = os.environ.get("SEDONA_JARS")
    if given:
        return given
    found = sorted(glob.glob(os.path.join(HERE, "../../test-results/sedona-jars/*.jar")))
    if not found:
        sys.exit("Sedona's jars are missing: run scripts/setup.sh --tests (or set SEDONA_JARS)")
    return ",".join(found)


def session():
    config = (
        SedonaContext.builder()
        .master("local[*]")
        .config("spark.jars", jars())
        .config("spark.sql.extensions", "org.apache.sedona.sql.SedonaSqlExtensions")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "4g")
        # A small file on one machine: fewer shuffle partitions than Spark's 200 (speed only).
        .config("spark.sql.shuffle.partitions", "8")
        .getOrCreate()
    )
    config.sparkContext.setLogLevel("ERROR")
    return SedonaContext.create(config)


def statements(program: str) -> list[str]:
    """The program's statements, comment lines dropped."""
    out = []
    for chunk in program.split(";\n"):
        lines = [l for l in chunk.splitlines() if not l.startswith("--")]
        if "".join(lines).strip():
            out.append("\n".join(lines))
    return out


def same_geometry(ours, theirs) -> bool:
    if ours is None or theirs is None:
        return ours is None and theirs is None
    return ours.geom_type == theirs.geom_type and ours.equals_exact(theirs, 1e-9)


def compare(spark, program_path: str, geojson_path: str) -> dict:
    with open(program_path, encoding="utf-8") as f:
        *before, query = statements(f.read())
    for statement in before:
        spark.sql(statement)
    rows = spark.sql(f"SELECT osm_type, osm_id, ST_AsText(geometry) AS wkt FROM ({query.rstrip().rstrip(';')})").collect()
    with open(geojson_path, encoding="utf-8") as f:
        features = json.load(f)["features"]
    ours = {f"{ft['properties']['osm_type']}/{ft['properties']['osm_id']}": ft["geometry"] and shape(ft["geometry"]) for ft in features}
    theirs = {f"{r.osm_type}/{r.osm_id}": r.wkt and wkt.loads(r.wkt) for r in rows}
    unequal = [k for k, g in theirs.items() if k.startswith("way/") and k in ours and not same_geometry(ours[k], g)]
    return {
        "ids": sorted(theirs),
        "ours": sorted(ours),
        "rows": len(rows),
        "ways": sum(1 for k in theirs if k.startswith("way/")),
        "waysUnequal": unequal[:5],
        "firstUnequal": [[k, ours[k] and ours[k].wkt[:200], theirs[k] and theirs[k].wkt[:200]] for k in unequal[:1]],
    }


def main(manifest: str) -> None:
    with open(manifest, encoding="utf-8") as f:
        runs = json.load(f)
    spark = session()
    print(json.dumps([compare(spark, r["program"], r["geojson"]) for r in runs]))


if __name__ == "__main__":
    main(sys.argv[1])
