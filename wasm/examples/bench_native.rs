//! Native rows of `npm run bench`: this crate on one thread, and the `osmpbf` crate (single
//! thread `for_each`, all cores `par_map_reduce`) doing the same scan and query. osmpbf inflates
//! with zlib-rs here, as we do (flate2's `zlib-rs` feature, enabled in dev-dependencies).
//!
//! `cargo run --release --example bench_native -- FILE LAT LON RADIUS_M KEY=VALUE`
//! prints one JSON object of wall times in milliseconds.
use std::collections::HashSet;
use std::time::Instant;

use osmpbf::{BlobDecode, BlobReader, Element, ElementReader};
use rayon::prelude::*;
use pbf_explorer::{haversine_m, Area, EARTH_RADIUS_M};
use pbf_explorer::{PreparedQuery, Query};
use pbf_explorer::{scan_file, scan_file_prepared};

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, lat, lon, radius, tag] = &args[..] else {
        panic!("usage: bench_native FILE LAT LON RADIUS_M KEY=VALUE");
    };
    let (lat, lon, radius): (f64, f64, f64) = (lat.parse().unwrap(), lon.parse().unwrap(), radius.parse().unwrap());
    let (key, value) = tag.split_once('=').expect("KEY=VALUE");

    // Ours, one thread. The file is read into memory first (not timed), as a browser File is.
    let file = std::fs::read(path).unwrap();
    let t = Instant::now();
    let counts = scan_file_prepared(&file, &PreparedQuery::count_only()).unwrap().counts;
    let ours_scan = ms(t);
    let query = Query::from_tags(tag, Area::Circle { lat, lon, radius }).unwrap();
    let t = Instant::now();
    let ours_matches = scan_file(&file, &query).unwrap().matches.len();
    let ours_query = ms(t);

    // osmpbf, one thread: decode every element and count.
    let t = Instant::now();
    let mut n = 0u64;
    ElementReader::from_path(path).unwrap().for_each(|_| n += 1).unwrap();
    let osmpbf_scan_1 = ms(t);

    // osmpbf, all cores.
    let t = Instant::now();
    let n_par = ElementReader::from_path(path).unwrap().par_map_reduce(|_| 1u64, || 0, |a, b| a + b).unwrap();
    let osmpbf_scan_all = ms(t);

    // osmpbf, all cores, the same query in one pass as a careful user writes it: blobs decoded
    // in parallel (rayon), a bbox prefilter before the haversine test, in-area node ids and
    // candidate ways collected per blob and merged, ways resolved at the end.
    let has_tag = |mut tags: osmpbf::TagIter| tags.any(|(k, v)| k == key && v == value);
    let dlat = (radius / EARTH_RADIUS_M).to_degrees() * 1.01; // a hair wider: the exact test decides
    let dlon = dlat / lat.to_radians().cos();
    let inside = |y: f64, x: f64| (y - lat).abs() <= dlat && (x - lon).abs() <= dlon && haversine_m(lat, lon, y, x) <= radius;
    let t = Instant::now();
    #[derive(Default)]
    struct Found {
        nodes_in_area: HashSet<i64>,
        node_matches: u64,
        ways: Vec<Vec<i64>>,
    }
    let found = BlobReader::from_path(path)
        .unwrap()
        .par_bridge()
        .map(|blob| {
            let mut f = Found::default();
            if let BlobDecode::OsmData(block) = blob.unwrap().decode().unwrap() {
                for e in block.elements() {
                    match e {
                        Element::DenseNode(n) if inside(n.lat(), n.lon()) => {
                            f.nodes_in_area.insert(n.id());
                            f.node_matches += n.tags().any(|(k, v)| k == key && v == value) as u64;
                        }
                        Element::Node(n) if inside(n.lat(), n.lon()) => {
                            f.nodes_in_area.insert(n.id());
                            f.node_matches += has_tag(n.tags()) as u64;
                        }
                        Element::Way(w) if has_tag(w.tags()) => f.ways.push(w.refs().collect()),
                        _ => {}
                    }
                }
            }
            f
        })
        .reduce(Found::default, |mut a, b| {
            a.nodes_in_area.extend(b.nodes_in_area);
            a.node_matches += b.node_matches;
            a.ways.extend(b.ways);
            a
        });
    let way_matches = found.ways.iter().filter(|refs| refs.iter().any(|r| found.nodes_in_area.contains(r))).count() as u64;
    let node_matches = found.node_matches;
    let osmpbf_query_all = ms(t);

    let elements = counts.nodes + counts.ways + counts.relations;
    assert_eq!(n, elements, "osmpbf and this crate count the same elements");
    assert_eq!(n_par, elements);
    assert_eq!(node_matches + way_matches, ours_matches as u64, "osmpbf and this crate give the same answer");
    println!(
        "{{\"bytes\":{},\"elements\":{elements},\"matches\":{ours_matches},\"ours_scan_1\":{ours_scan:.1},\"ours_query_1\":{ours_query:.1},\
\"osmpbf_scan_1\":{osmpbf_scan_1:.1},\"osmpbf_scan_all\":{osmpbf_scan_all:.1},\"osmpbf_query_all\":{osmpbf_query_all:.1}}}",
        file.len()
    );
}
