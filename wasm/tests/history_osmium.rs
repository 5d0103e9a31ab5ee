//! A history file written by libosmium (scripts/make-osmium-fixtures.sh: Malta with later
//! versions of Valletta's cafés applied by `osmium apply-changes --with-history`) answers, as
//! of a moment, exactly what the same query answers on osmium's own snapshot of that moment
//! (`osmium time-filter`), and before the changes exactly the libosmium answer of the data
//! README. Its change view between two moments equals the difference of the same query's
//! answers on osmium's snapshots of them: created (only in the later one), deleted (only in the
//! earlier one, with the geometry it had there), modified (in both, in another version),
//! unchanged left out. Run the script first (scripts/test.sh does).

use std::collections::BTreeMap;
use std::path::PathBuf;

use pbf_explorer::{scan_file, Area, FileScan, Match, Query};

fn history_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test-results/osmium")
}

fn read(name: &str) -> Vec<u8> {
    let path = history_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: run scripts/make-osmium-fixtures.sh first (needs osmium-tool)", path.display()))
}

/// The answer's ids as "n123", "w456", "r789", sorted.
fn ids(file: &[u8], text: &str, area: Area, at: Option<i64>) -> Vec<String> {
    let mut ids: Vec<String> = scan(file, text, area, None, at).matches.iter().map(key).collect();
    ids.sort();
    ids
}

fn valletta() -> Area {
    Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 }
}

/// An area, made afresh for each use.
type AreaOf = fn() -> Area;

/// The queries asked at each moment: the changed cafés, and buildings the changes leave alone;
/// in Valletta's boundary too (relation 7510580, read first as of the later moment).
fn queries() -> [(&'static str, AreaOf); 5] {
    let in_valletta = || Area::Relation(7510580);
    [("amenity=cafe", valletta), ("amenity=cafe or amenity=restaurant", valletta), ("amenity=cafe", || Area::Everywhere), ("building", valletta), ("amenity=cafe or amenity=restaurant", in_valletta)]
}

const JUNE_2024: i64 = 1_717_200_000;
const MID_JANUARY_2025: i64 = 1_736_899_200;

#[test]
fn as_of_a_moment_a_history_file_answers_what_osmiums_snapshot_answers() {
    let history = read("malta-history.osh.pbf");
    let queries = queries();
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

fn scan(file: &[u8], text: &str, area: Area, from: Option<i64>, at: Option<i64>) -> FileScan {
    let mut q = Query::from_tags(text, area).unwrap();
    (q.from, q.at) = (from, at);
    scan_file(file, &q).unwrap()
}

fn key(m: &Match) -> String {
    format!("{}{}", ["n", "w", "r"][m.element as usize], m.id)
}

/// Each match of a snapshot's answer: its version and shape as GeoJSON.
fn versions(file: &[u8], text: &str, area: Area) -> BTreeMap<String, (i32, String)> {
    let found = scan(file, text, area, None, None);
    let shapes = found.shapes.iter().map(|s| s.as_ref().map(|s| s.to_geojson()).unwrap_or_default());
    found.matches.iter().zip(shapes).map(|(m, shape)| (key(m), (m.meta.as_ref().expect("a version").version, shape))).collect()
}

#[test]
fn what_changed_between_two_moments_is_the_difference_of_osmiums_snapshots() {
    let history = read("malta-history.osh.pbf");
    let queries = queries();
    let moments = [
        ("malta-2024-06-01.osm.pbf", JUNE_2024, "malta-2025-01-15.osm.pbf", Some(MID_JANUARY_2025)),
        ("malta-2025-01-15.osm.pbf", MID_JANUARY_2025, "malta-now.osm.pbf", None),
        ("malta-2024-06-01.osm.pbf", JUNE_2024, "malta-now.osm.pbf", None),
    ];
    let mut seen = BTreeMap::new();
    for (before_name, from, after_name, at) in moments {
        let (before_file, after_file) = (read(before_name), read(after_name));
        for (text, area) in &queries {
            let (before, after) = (versions(&before_file, text, area()), versions(&after_file, text, area()));
            let mut want = BTreeMap::new();
            for (id, (version, _)) in &after {
                match before.get(id) {
                    None => drop(want.insert(id.clone(), "created")),
                    Some((then, _)) if then != version => drop(want.insert(id.clone(), "modified")),
                    Some(_) => {}
                }
            }
            want.extend(before.keys().filter(|id| !after.contains_key(*id)).map(|id| (id.clone(), "deleted")));
            let found = scan(&history, text, area(), Some(from), at);
            let got: BTreeMap<String, &str> = found.matches.iter().map(|m| (key(m), m.change.expect("classed").name())).collect();
            assert_eq!(got, want, "{text}: {before_name} → {after_name}");
            for (m, shape) in found.matches.iter().zip(&found.shapes) {
                if m.change.unwrap().name() == "deleted" {
                    let then = &before[&key(m)].1;
                    assert_eq!(&shape.as_ref().map(|s| s.to_geojson()).unwrap_or_default(), then, "{} is drawn where it was", key(m));
                }
            }
            for class in want.values() {
                *seen.entry(*class).or_insert(0) += 1;
            }
        }
    }
    // The fixture exercises every class, ways among the deleted.
    assert!(seen.len() == 3 && seen.values().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn a_change_view_needs_a_history_file_and_two_moments_in_order() {
    let plain = read("malta-now.osm.pbf");
    let mut q = Query::from_tags("amenity=cafe", valletta()).unwrap();
    q.from = Some(JUNE_2024);
    let error = scan_file(&plain, &q).err().expect("refused").to_string();
    assert!(error.contains("needs a history file"), "{error}");
    q.at = Some(JUNE_2024);
    let error = q.prepare().err().expect("refused").to_string();
    assert!(error.contains("must come before"), "{error}");
}
