//! Multipolygon assembly on a file written by the crate's own writer (`fixtures::multipolygons`):
//! a valid one with a hole and a shell of two ways, and two broken ones that are reported with
//! a reason and drawn as their lines (OSM wiki "Relation:multipolygon").

use pbf_explorer::Area;
use pbf_explorer::ElementType;
use pbf_explorer::{ring_area2, Shape};
use pbf_explorer::Query;
use pbf_explorer::{testing::fixtures, scan_file};

#[test]
fn valid_and_broken_multipolygons() {
    let query = Query::from_tags("leisure=park", Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 }).unwrap();
    let scan = scan_file(&fixtures::multipolygons(), &query).unwrap();
    let relation = |id: i64| {
        let at = scan.matches.iter().position(|m| m.element == ElementType::Relation && m.id == id).expect("matched");
        (scan.matches[at].problem.clone(), scan.shapes[at].clone().expect("drawn"))
    };
    let (problem, shape) = relation(100);
    assert_eq!(problem, None);
    let Shape::Polygon(rings) = shape else { panic!("100 is one polygon: {shape:?}") };
    assert_eq!(rings.len(), 2, "a shell and its hole");
    assert!(ring_area2(&rings[0]) > 0.0 && ring_area2(&rings[1]) < 0.0, "shell ccw, hole cw");
    // 2 × 2 minus 1 × 1 thousandths of a degree, twice, in (1e-7 degree)².
    assert_eq!(ring_area2(&rings[0]) + ring_area2(&rings[1]), 2.0 * (20_000.0 * 20_000.0 - 10_000.0 * 10_000.0));

    let (problem, shape) = relation(101);
    assert_eq!(problem.as_deref(), Some("broken multipolygon: a ring is not closed: it ends at node 11"));
    assert!(matches!(shape, Shape::MultiLineString(ref lines) if lines.len() == 1 && lines[0].len() == 3));

    let (problem, shape) = relation(102);
    assert_eq!(problem.as_deref(), Some("broken multipolygon: rings cross at 60.1709000,24.9424000"));
    assert!(matches!(shape, Shape::MultiLineString(ref lines) if lines.len() == 1 && lines[0].len() == 5));
}
