//! Valid but pathological data (`testing::pathological`) is answered in bounded time: a
//! multipolygon with 10 000 holes, a way of 100 000 nodes, a route of 50 000 member ways,
//! relations that contain themselves or each other, and a member missing from the file.

use std::time::{Duration, Instant};

use pbf_explorer::testing::pathological::{pathological, FOOTWAY_NODES, HOLES, ROUTE_WAYS};
use pbf_explorer::{scan_file, Area, ElementType, FileScan, Query, Shape, NO_MEMBER_IN_FILE};

/// Far above what each query takes (a few hundred ms in a release build), far below a hang.
const BOUND: Duration = Duration::from_secs(5);

fn answer(file: &[u8], tags: &str, area: Area) -> FileScan {
    let started = Instant::now();
    let scan = scan_file(file, &Query::from_tags(tags, area).unwrap()).unwrap();
    assert!(started.elapsed() < BOUND, "{tags}: {:?}", started.elapsed());
    scan
}

fn only(scan: &FileScan) -> (&pbf_explorer::Match, &Shape) {
    assert_eq!(scan.matches.len(), 1);
    (&scan.matches[0], scan.shapes[0].as_ref().expect("drawn"))
}

#[test]
fn pathological_but_valid_input_is_answered_in_bounded_time() {
    let file = pathological();
    let near = || Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 };
    for area in [Area::Everywhere, near()] {
        let park = answer(&file, "leisure=park", area);
        let (m, shape) = only(&park);
        assert_eq!((m.element, m.id, &m.problem), (ElementType::Relation, 1, &None));
        assert!(matches!(shape, Shape::Polygon(rings) if rings.len() == 1 + HOLES), "a shell and its holes");
    }
    let footway = answer(&file, "highway=footway", Area::Everywhere);
    assert!(matches!(only(&footway).1, Shape::LineString(line) if line.len() == FOOTWAY_NODES));
    let route = answer(&file, "route=hiking", Area::Everywhere);
    let vertices = match only(&route).1 {
        Shape::MultiLineString(lines) => lines.iter().map(Vec::len).sum::<usize>(),
        Shape::LineString(line) => line.len(),
        other => panic!("a route is its lines: {other:?}"),
    };
    assert!(vertices > ROUTE_WAYS, "every member way drawn: {vertices} vertices");
    let cycles = answer(&file, "test=cycle", Area::Everywhere);
    let mut ids: Vec<i64> = cycles.matches.iter().map(|m| m.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, [3, 4, 5], "member relations are listed, not followed");
    let missing = answer(&file, "test=missing", Area::Everywhere);
    assert_eq!(only_unplaced(&missing), (6, NO_MEMBER_IN_FILE));
}

fn only_unplaced(scan: &FileScan) -> (i64, &str) {
    assert_eq!((scan.matches.len(), &scan.shapes[..]), (1, &[None][..]));
    (scan.matches[0].id, scan.matches[0].problem.as_deref().unwrap())
}

#[test]
fn tags_of_megabytes_are_answered_whole() {
    use pbf_explorer::testing::huge_tags::{huge_tags, LONG_NAMED, MANY_TAGS, NAME_BYTES};
    let scan = answer(&huge_tags(), "amenity=cafe", Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 });
    assert_eq!(scan.matches.len(), LONG_NAMED + 1);
    let longest = scan.matches.iter().flat_map(|m| m.tags.iter()).map(|(_, v)| v.len()).max();
    assert_eq!(longest, Some(NAME_BYTES));
    assert_eq!(scan.matches.iter().map(|m| m.tags.len()).max(), Some(MANY_TAGS));
}
