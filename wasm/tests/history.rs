//! History files (required feature `HistoricalInformation`): the answer as of a moment, on the
//! file `fixtures::history` writes (several versions, deletions, moved nodes, and versions of
//! one element straddling two blocks), through the first read alone and through the targeted
//! second read (a location budget of one node).

use pbf_explorer::Area;
use pbf_explorer::ElementType;
use pbf_explorer::Shape;
use pbf_explorer::Query;
use pbf_explorer::{testing::fixtures, scan_file, scan_file_with_budget, FileScan};

const JULY_2020: i64 = 1_593_561_600;
const JULY_2021: i64 = 1_625_097_600;

fn near_centre() -> Area {
    Area::Circle { lat: 60.17, lon: 24.94, radius: 1000.0 }
}

fn answer(area: Area, at: Option<i64>, budget: Option<usize>) -> FileScan {
    let mut q = Query::from_tags("amenity=cafe", area).unwrap();
    q.at = at;
    let file = fixtures::history();
    match budget {
        None => scan_file(&file, &q).unwrap(),
        Some(b) => scan_file_with_budget(&file, &q.prepare().unwrap(), b).unwrap(),
    }
}

fn ids(scan: &FileScan) -> Vec<String> {
    let mut ids: Vec<String> = scan.matches.iter().map(|m| format!("{}{}", ["n", "w", "r"][m.element as usize], m.id)).collect();
    ids.sort();
    ids
}

#[test]
fn the_answer_is_as_of_the_moment_asked() {
    for budget in [None, Some(1)] {
        assert_eq!(ids(&answer(near_centre(), Some(JULY_2020), budget)), ["n1", "n2", "n5", "w10", "w11", "w12"], "July 2020, budget {budget:?}");
        assert_eq!(ids(&answer(near_centre(), Some(JULY_2021), budget)), ["w10"], "July 2021, budget {budget:?}");
        assert_eq!(ids(&answer(near_centre(), None, budget)), ["n7", "w10"], "now, budget {budget:?}");
        assert_eq!(ids(&answer(Area::Everywhere, None, budget)), ["n1", "n7", "w10", "w11"], "now, anywhere (way 11: its node deleted, matched by its tags alone), budget {budget:?}");
    }
}

#[test]
fn a_moved_node_is_where_it_was_at_that_moment() {
    let node1 = |scan: &FileScan| scan.matches.iter().find(|m| m.element == ElementType::Node && m.id == 1).and_then(|m| Some((m.lat?, m.lon?)));
    let close = |got: Option<(f64, f64)>, want: (f64, f64)| got.is_some_and(|(y, x)| (y - want.0).abs() < 1e-7 && (x - want.1).abs() < 1e-7);
    assert!(close(node1(&answer(near_centre(), Some(JULY_2020), None)), (60.17, 24.94)));
    assert!(close(node1(&answer(Area::Everywhere, None, None)), (60.25, 25.10)));
    // Way 10's line runs through node 3 where node 3 was: at B in 2020, 20 km away now.
    let way10 = |scan: &FileScan| {
        let at = scan.matches.iter().position(|m| m.element == ElementType::Way && m.id == 10).unwrap();
        scan.shapes[at].clone()
    };
    assert_eq!(way10(&answer(near_centre(), Some(JULY_2020), None)), Some(Shape::LineString(vec![[601_710_000, 249_410_000], [601_720_000, 249_420_000]])));
    assert_eq!(way10(&answer(near_centre(), None, None)), Some(Shape::LineString(vec![[603_000_000, 252_000_000], [601_720_000, 249_420_000]])));
}

#[test]
fn matches_carry_the_version_they_show() {
    let scan = answer(Area::Everywhere, None, None);
    let node1 = scan.matches.iter().find(|m| m.element == ElementType::Node && m.id == 1).unwrap();
    let meta = node1.meta.as_ref().unwrap();
    assert_eq!((meta.version, meta.timestamp, meta.user.as_str(), meta.visible), (3, 1_640_995_200, "mapper", true));
    assert_eq!(meta.changeset, 1000 + 1_640_995_200 / 86400);
    let scan = answer(near_centre(), Some(JULY_2020), None);
    let way12 = scan.matches.iter().find(|m| m.element == ElementType::Way && m.id == 12).unwrap();
    assert_eq!(way12.meta.as_ref().unwrap().version, 1);
}

#[test]
fn a_history_file_counts_every_version_and_says_it_is_one() {
    let scan = answer(Area::Everywhere, None, None);
    assert!(scan.header.is_history());
    assert_eq!((scan.counts.nodes, scan.counts.ways), (13, 4));
    assert_eq!(scan.facts.newest_timestamp, Some(1_651_363_200));
}
