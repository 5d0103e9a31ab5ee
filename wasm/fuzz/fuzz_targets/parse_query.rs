//! Query text and the workers' JSON form of a query (its area: circle, bbox, polygon parts)
//! into the parser and the query's preparation (regular expressions, the polygon test), then
//! into each other tool's translation (osmium, DuckDB, Spark SQL, Overpass QL). None may
//! panic, loop or take unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbf_explorer::{duckdb_sql, osmium_tags_filter, overpass_ql, sedona_sql, Area, Query};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for query in [Query::from_tags(text, Area::Everywhere), Query::from_json(text)].into_iter().flatten() {
        let _ = query.prepare();
        let _ = osmium_tags_filter(&query.expr);
        let _ = duckdb_sql(&query, "f.osm.pbf");
        let _ = sedona_sql(&query, "f.osm.pbf");
        let _ = overpass_ql(&query);
    }
});
