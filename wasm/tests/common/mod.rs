//! What several test files share.

use pbf_explorer::Area;
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
