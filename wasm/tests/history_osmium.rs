//! A history file written by libosmium (scripts/make-osmium-fixtures.sh: Malta with later
//! versions of Valletta's cafés applied by `osmium apply-changes --with-history`) answers, as
//! of a moment, exactly what the same query answers on osmium's own snapshot of that moment
//! (`osmium time-filter`), and before the changes exactly the libosmium answer of the data
//! README. Run the script first (scripts/test.sh does).

use std::path::PathBuf;

use pbf_explorer::Area;
use pbf_explorer::Query;
use pbf_explorer::scan_file;

fn history_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test-results/osmium")
}

fn read(name: &str) -> Vec<u8> {
    let path = history_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: run scripts/make-osmium-fixtures.sh first (needs osmium-tool)", path.display()))
}

/// The answer's ids as "n123", "w456", "r789", sorted.
fn ids(file: &[u8], text: &str, area: Area, at: Option<i64>) -> Vec<String> {
    let mut q = Query::from_tags(text, area).unwrap();
    q.at = at;
    let scan = scan_file(file, &q).unwrap();
    let mut ids: Vec<String> = scan.matches.iter().map(|m| format!("{}{}", ["n", "w", "r"][m.element as usize], m.id)).collect();
    ids.sort();
    ids
}

fn valletta() -> Area {
    Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 }
}

/// An area, made afresh for each use.
type AreaOf = fn() -> Area;

const JUNE_2024: i64 = 1_717_200_000;
const MID_JANUARY_2025: i64 = 1_736_899_200;

#[test]
fn as_of_a_moment_a_history_file_answers_what_osmiums_snapshot_answers() {
    let history = read("malta-history.osh.pbf");
    let queries: [(&str, AreaOf); 4] = [
        ("amenity=cafe", valletta),
        ("amenity=cafe or amenity=restaurant", valletta),
        ("amenity=cafe", || Area::Everywhere),
        ("building", valletta),
    ];
    for (snapshot, at) in [("malta-2024-06-01.osm.pbf", Some(JUNE_2024)), ("malta-2025-01-15.osm.pbf", Some(MID_JANUARY_2025)), ("malta-now.osm.pbf", None)] {
        let snapshot_file = read(snapshot);
        for (text, area) in &queries {
            let want = ids(&snapshot_file, text, area(), None);
            assert!(!want.is_empty(), "{snapshot}: {text} finds something");
            assert_eq!(ids(&history, text, area(), at), want, "{text} as of {at:?} vs osmium's {snapshot}");
        }
    }
}

#[test]
fn before_the_changes_the_answer_is_the_data_readmes() {
    let history = read("malta-history.osh.pbf");
    let dir = std::env::var_os("PBF_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"));
    let text = std::fs::read_to_string(dir.join("expected/with-relations/malta.cafe-1000m.json")).unwrap();
    let want: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut expected: Vec<String> = want["nodes"].as_array().unwrap().iter().map(|v| format!("n{v}")).chain(want["ways"].as_array().unwrap().iter().map(|v| format!("w{v}"))).collect();
    expected.sort();
    assert_eq!(ids(&history, "amenity=cafe", valletta(), Some(JUNE_2024)), expected);
    // And the changes show: of the 41 café nodes a third stay cafés (moved or not), and one is new.
    let now = ids(&history, "amenity=cafe", Area::Everywhere, None);
    assert!(now.contains(&"n9000000001".to_string()));
}
