//! Native rows of `npm run bench`: this crate on one thread, and the `osmpbf` crate (single
//! thread `for_each`, all cores `par_map_reduce`) doing the same scan and query.
//!
//! `cargo run --release --example bench_native -- FILE LAT LON RADIUS_M KEY=VALUE`
//! prints one JSON object of wall times in milliseconds.
use std::collections::HashMap;
use std::time::Instant;

use osmpbf::{Element, ElementReader};
use pbf_explorer::area::{haversine_m, Area};
use pbf_explorer::query::{PreparedQuery, Query};
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

    // osmpbf, all cores, the same query in two passes: node locations in the area, then ways.
    let has_tag = |mut tags: osmpbf::TagIter| tags.any(|(k, v)| k == key && v == value);
    let inside = |y: f64, x: f64| haversine_m(lat, lon, y, x) <= radius;
    let t = Instant::now();
    let (locations, node_matches) = ElementReader::from_path(path)
        .unwrap()
        .par_map_reduce(
            |e| {
                let (id, y, x, tagged) = match e {
                    Element::DenseNode(n) => (n.id(), n.lat(), n.lon(), n.tags().any(|(k, v)| k == key && v == value)),
                    Element::Node(n) => (n.id(), n.lat(), n.lon(), has_tag(n.tags())),
                    _ => return (HashMap::new(), 0u64),
                };
                if !inside(y, x) {
                    return (HashMap::new(), 0);
                }
                (HashMap::from([(id, (y, x))]), tagged as u64)
            },
            || (HashMap::new(), 0),
            |(mut a, na), (b, nb)| {
                a.extend(b);
                (a, na + nb)
            },
        )
        .unwrap();
    let way_matches = ElementReader::from_path(path)
        .unwrap()
        .par_map_reduce(
            |e| match e {
                Element::Way(w) if has_tag(w.tags()) && w.refs().any(|r| locations.contains_key(&r)) => 1u64,
                _ => 0,
            },
            || 0,
            |a, b| a + b,
        )
        .unwrap();
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
