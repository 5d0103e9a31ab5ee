//! What several test files share.

#![allow(dead_code)] // each test file uses some of these

use std::path::PathBuf;

use pbf_explorer::{Area, Inside, Query};
use serde_json::Value;

/// The area of a listed query (`tests/queries.json`): its `bbox`, else its `near` and `radius`.
pub fn listed_area(q: &Value) -> Area {
    let f = |k: &str, i: usize| q[k][i].as_f64().unwrap();
    if q["bbox"].is_array() {
        Area::Bbox { min_lon: f("bbox", 0), min_lat: f("bbox", 1), max_lon: f("bbox", 2), max_lat: f("bbox", 3) }
    } else {
        Area::Circle { lat: f("near", 0), lon: f("near", 1), radius: q["radius"].as_f64().unwrap() }
    }
}

pub fn listed(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    serde_json::from_str::<Value>(&text).unwrap().as_array().unwrap().clone()
}

/// Every query the tests list: `tests/queries.json`, `tests/answers/language/answers.json`, the
/// polygon areas of `tests/answers/areas/answers.json`, the answers with relations and
/// whole-file queries, and rare tags: `(file, query)`.
pub fn every_listed_query() -> Vec<(String, Query)> {
    let mut out = Vec::new();
    for q in listed("../tests/queries.json").into_iter().chain(listed("../tests/answers/language/answers.json")) {
        let area = if q["near"].is_array() || q["bbox"].is_array() { listed_area(&q) } else { Area::Everywhere };
        let mut query = Query::from_tags(q["q"].as_str().unwrap(), area).unwrap();
        query.inside = if q["inside"] == "all" { Inside::All } else { Inside::Any };
        out.push((q["file"].as_str().unwrap().to_string(), query));
    }
    // The polygon areas of tests/answers/areas/answers.json.
    for a in listed("../tests/answers/areas/answers.json").into_iter().filter(|a| a["area"]["polygon"].is_array()) {
        let area: Area = serde_json::from_value(a["area"].clone()).unwrap();
        out.push((a["file"].as_str().unwrap().to_string(), Query::from_tags(a["q"].as_str().unwrap(), area).unwrap()));
    }
    let malta = Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 };
    let helsinki = Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 };
    let copy = Area::Circle { lat: 36.8989, lon: 15.7146, radius: 1000.0 };
    for (file, tags, area) in [
        ("helsinki.osm.pbf", "leisure=park", helsinki.clone()),
        ("helsinki.osm.pbf", "building", helsinki.clone()),
        ("helsinki.osm.pbf", "route=bus", helsinki),
        ("malta.osm.pbf", "highway=primary", malta.clone()),
        ("malta.osm.pbf", "building", Area::Everywhere),
        ("malta.osm.pbf", "amenity=cafe", Area::Everywhere),
        // Rare: in a few blobs only, or in none.
        ("malta.osm.pbf", "name=Starbucks", Area::Everywhere),
        ("malta.osm.pbf", "amenity=no-such-value", malta),
        ("malta-x20-synthetic.osm.pbf", "amenity=cafe", copy.clone()),
        ("malta-x20-synthetic.osm.pbf", "shop=bakery", copy),
        ("malta-x20-synthetic.osm.pbf", "historic=windmill", Area::Everywhere),
    ] {
        out.push((file.to_string(), Query::from_tags(tags, area).unwrap()));
    }
    out
}


/// `../shared/data`, or the folder `PBF_DATA_DIR` names.
pub fn data_dir() -> PathBuf {
    std::env::var_os("PBF_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

pub fn read(name: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}


/// A basemap's features (as `readContext` encodes them: kind, closed, vertex count, then the
/// vertices), in a fixed order: a read's order of blobs decides theirs.
pub fn basemap_features(context: &Result<Vec<i32>, String>) -> Result<Vec<Vec<i32>>, String> {
    let mut v = &context.clone()?[..];
    let mut out = Vec::new();
    while !v.is_empty() {
        let n = 3 + 2 * v[2] as usize;
        out.push(v[..n].to_vec());
        v = &v[n..];
    }
    out.sort();
    Ok(out)
}
