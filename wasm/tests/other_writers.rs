//! Files written by libosmium, not by our own writer (scripts/make-osmium-fixtures.sh writes them
//! into test-results/osmium/ with osmium-tool): each shared file with lz4 blobs, raw blobs, plain
//! (non-dense) nodes, no metadata, LocationsOnWays, and unsorted (ways and relations before the
//! nodes) gives the data README's counts and, for every listed query, the same matches at the
//! same places as the original; Malta with duplicate ids (two overlapping extracts concatenated)
//! gives each id once, as the original. Run the script first (scripts/test.sh does).

mod common;

use std::path::PathBuf;

use pbf_explorer::{PreparedQuery, Query};
use pbf_explorer::ElementType;
use pbf_explorer::{scan_file, scan_file_prepared};
use serde_json::Value;

fn data_dir() -> PathBuf {
    std::env::var_os("PBF_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

fn read(path: PathBuf) -> Vec<u8> {
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: run scripts/make-osmium-fixtures.sh first (needs osmium-tool)", path.display()))
}

fn json(path: PathBuf) -> Value {
    serde_json::from_slice(&read(path)).unwrap()
}

/// The variants osmium writes, and the blob compression each must show.
const VARIANTS: [(&str, &str); 6] = [("lz4", "lz4"), ("none", "raw"), ("plain-nodes", "zlib"), ("no-metadata", "zlib"), ("locations-on-ways", "zlib"), ("unsorted", "zlib")];

/// A match as (type, id, lat, lon), sorted.
fn answer(file: &[u8], query: &Query) -> Vec<(u8, i64, f64, f64)> {
    let mut out: Vec<(u8, i64, f64, f64)> = scan_file(file, query).unwrap().matches.iter().map(|m| (m.element as u8, m.id, m.lat.expect("placed"), m.lon.expect("placed"))).collect();
    out.sort_by_key(|a| (a.0, a.1));
    out
}

#[test]
fn files_written_by_osmium_give_the_same_counts_and_answers() {
    let queries = json(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/queries.json"));
    for name in ["helsinki", "malta"] {
        let original = read(data_dir().join(format!("{name}.osm.pbf")));
        let counts = json(data_dir().join(format!("expected/{name}.counts.json")));
        for (variant, compression) in VARIANTS {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../test-results/osmium/{name}.{variant}.osm.pbf"));
            let file = read(path);
            let label = format!("{name}.{variant}");
            let scan = scan_file_prepared(&file, &PreparedQuery::count_only()).unwrap();
            let c = scan.counts;
            let want = ["nodes", "ways", "relations", "tags", "way_refs", "members"].map(|k| counts[k].as_u64().unwrap());
            assert_eq!([c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members], want, "{label}: counts");
            assert_eq!(scan.facts.blobs.keys().collect::<Vec<_>>(), vec![compression], "{label}: blob compression");
            assert_eq!(scan.facts.newest_timestamp.is_none(), variant == "no-metadata", "{label}: newest timestamp");
            for q in queries.as_array().unwrap().iter().filter(|q| q["file"] == format!("{name}.osm.pbf")) {
                let area = common::listed_area(q);
                let query = Query::from_tags(q["q"].as_str().unwrap(), area).unwrap();
                let (got, want) = (answer(&file, &query), answer(&original, &query));
                assert_eq!(got.iter().map(|m| (m.0, m.1)).collect::<Vec<_>>(), want.iter().map(|m| (m.0, m.1)).collect::<Vec<_>>(), "{label}: {}", q["q"]);
                for (g, w) in got.iter().zip(&want) {
                    assert!((g.2 - w.2).abs() < 1e-7 && (g.3 - w.3).abs() < 1e-7, "{label}: {} {:?} placed at {g:?}, the original at {w:?}", q["q"], (g.0, g.1));
                }
            }
        }
    }
}

fn ids(v: &Value) -> Vec<i64> {
    let mut ids: Vec<i64> = v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
    ids.sort_unstable();
    ids
}

/// Duplicate ids (README "Duplicate ids": the version in the later blob wins, each id is answered
/// once). The two extracts hold the same versions, so every listed query and the whole-file
/// answers (`expected/with-relations/*-all.json`) are the original's, each element once.
#[test]
fn a_file_with_duplicate_ids_answers_each_element_once() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test-results/osmium");
    let file = read(dir.join("malta.duplicates.osm.pbf"));
    let original = read(data_dir().join("malta.osm.pbf"));
    let counts = json(data_dir().join("expected/malta.counts.json"));
    let scan = scan_file_prepared(&file, &PreparedQuery::count_only()).unwrap();
    assert!(scan.counts.nodes > counts["nodes"].as_u64().unwrap() + 100_000, "the overlap is there twice: {} nodes", scan.counts.nodes);
    let queries = json(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/queries.json"));
    for q in queries.as_array().unwrap().iter().filter(|q| q["file"] == "malta.osm.pbf") {
        let query = Query::from_tags(q["q"].as_str().unwrap(), common::listed_area(q)).unwrap();
        assert_eq!(answer(&file, &query), answer(&original, &query), "{}", q["q"]);
    }
    for (tags, expected) in [("amenity=cafe", "malta.cafe-all.json"), ("building", "malta.building-all.json")] {
        let want = json(data_dir().join("expected/with-relations").join(expected));
        let matches = scan_file(&file, &Query::from_tags(tags, pbf_explorer::Area::Everywhere).unwrap()).unwrap().matches;
        let of = |kind: ElementType| {
            let mut ids: Vec<i64> = matches.iter().filter(|m| m.element == kind).map(|m| m.id).collect();
            ids.sort_unstable();
            ids
        };
        assert_eq!((of(ElementType::Node), of(ElementType::Way)), (ids(&want["nodes"]), ids(&want["ways"])), "{tags} everywhere: node and way ids, each once");
    }
}

/// The `id`s of `<kind id="…"` in the lines of `osc` that `keep` accepts.
fn osc_ids(osc: &str, kind: &str, keep: impl Fn(&str) -> bool) -> Vec<i64> {
    let start = format!("<{kind} id=\"");
    osc.lines().filter(|l| keep(l)).filter_map(|l| l.split(&start).nth(1)?.split('"').next()?.parse().ok()).collect()
}

/// Duplicate ids whose versions differ: the second extract carries changes.osc's later versions
/// (cafés near Valletta retagged to restaurants, moved 5 km north, deleted, one created). README
/// "Duplicate ids": where several blobs hold a matching version, the later blob's wins; a later
/// version that does not match does not withdraw an earlier one that does.
#[test]
fn with_duplicate_ids_the_later_blobs_matching_version_wins() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test-results/osmium");
    let file = read(dir.join("malta.duplicates-changed.osm.pbf"));
    let original = read(data_dir().join("malta.osm.pbf"));
    let osc = String::from_utf8(read(dir.join("changes.osc"))).unwrap();
    let (create, modify) = osc.split_once("<modify>").unwrap();
    let retagged = osc_ids(modify.split_once("<delete>").unwrap().0, "node", |l| l.contains(r#"k="amenity" v="restaurant""#));
    let created = osc_ids(create, "node", |_| true);
    assert!(retagged.len() > 10 && created.len() == 1, "changes.osc: {} retagged, {created:?} created", retagged.len());
    let valletta = pbf_explorer::Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 };
    // Cafés: the first extract's matching versions stay; the created café joins them.
    let cafe = Query::from_tags("amenity=cafe", valletta.clone()).unwrap();
    let mut want = answer(&original, &cafe);
    want.push((ElementType::Node as u8, created[0], 35.8989, 14.5146));
    want.sort_by_key(|a| (a.0, a.1));
    let got = answer(&file, &cafe);
    assert_eq!(got.iter().map(|m| (m.0, m.1)).collect::<Vec<_>>(), want.iter().map(|m| (m.0, m.1)).collect::<Vec<_>>(), "amenity=cafe 1000 m: ids");
    for (g, w) in got.iter().zip(&want) {
        assert!((g.2 - w.2).abs() < 1e-7 && (g.3 - w.3).abs() < 1e-7, "{:?} placed at {g:?}, expected {w:?}", (g.0, g.1));
    }
    // Any amenity: both versions of a retagged café match, and the later one's tags are answered.
    let amenity = scan_file(&file, &Query::from_tags("amenity", valletta).unwrap()).unwrap().matches;
    for id in &retagged {
        let m = amenity.iter().find(|m| m.element == ElementType::Node && m.id == *id).unwrap_or_else(|| panic!("node {id} answered"));
        assert!(m.tags.contains(&("amenity".into(), "restaurant".into())), "node {id}: the later version's tags, got {:?}", m.tags);
    }
}
