//! The place search's nodes: every node of Malta with both a `place` and a `name` tag, as
//! osmium writes them (`osmium tags-filter n/place` to OPL: scripts/make-osmium-fixtures.sh),
//! is noted by the scan with its name, its `place` value and its location, and no other node is.
//! Run the script first (scripts/test.sh does).

use std::collections::BTreeMap;
use std::path::PathBuf;

use pbf_explorer::{frames, scan_blob, Area, Query};

mod common;

/// An OPL field's text with its `%hex%` escapes undone (osmium's OPL format).
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut parts = text.split('%');
    out.push_str(parts.next().unwrap_or(""));
    for (i, part) in parts.enumerate() {
        if i % 2 == 0 {
            out.push(char::from_u32(u32::from_str_radix(part, 16).unwrap()).unwrap());
        } else {
            out.push_str(part);
        }
    }
    out
}

#[test]
fn the_scan_notes_every_named_place_node_as_osmium_lists_it() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test-results/osmium");
    let opl = std::fs::read_to_string(dir.join("malta-places.opl")).expect("run scripts/make-osmium-fixtures.sh first (needs osmium-tool)");
    // osmium's: id → (name, place value, lat, lon) of each node with both tags.
    let mut want: BTreeMap<i64, (String, String, f64, f64)> = BTreeMap::new();
    for line in opl.lines().filter(|l| l.starts_with('n')) {
        let field = |c: char| line.split(' ').find(|f| f.starts_with(c)).map(|f| &f[1..]).unwrap_or("");
        let tags: BTreeMap<String, String> = field('T').split(',').filter(|t| !t.is_empty()).filter_map(|t| t.split_once('=')).map(|(k, v)| (unescape(k), unescape(v))).collect();
        if let (Some(name), Some(place)) = (tags.get("name"), tags.get("place")) {
            let id: i64 = line[1..line.find(' ').unwrap()].parse().unwrap();
            want.insert(id, (name.clone(), place.clone(), field('y').parse().unwrap(), field('x').parse().unwrap()));
        }
    }
    assert!(want.len() > 50, "Malta has named place nodes: {}", want.len());
    let data = common::read("malta.osm.pbf");
    let query = Query::from_tags("amenity=cafe", Area::Everywhere).unwrap().prepare().unwrap();
    let mut got: BTreeMap<i64, (String, String, f64, f64)> = BTreeMap::new();
    for frame in frames(&data).map(|f| f.unwrap()).filter(|f| f.kind == "OSMData") {
        for place in scan_blob(frame.blob, &query).unwrap().places.into_iter().filter(|p| p.kind == "place") {
            let [lat, lon] = place.at.expect("a place node has its location");
            got.insert(place.id, (place.name, place.what.trim_start_matches("place=").to_string(), lat, lon));
        }
    }
    assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>());
    for (id, (name, place, lat, lon)) in &want {
        let g = &got[id];
        assert_eq!((&g.0, &g.1), (name, place), "node {id}");
        assert!((g.2 - lat).abs() < 1e-7 && (g.3 - lon).abs() < 1e-7, "node {id}: {g:?} vs {lat} {lon}");
    }
}
