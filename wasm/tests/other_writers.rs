//! Files written by libosmium, not by our own writer (scripts/make-osmium-fixtures.sh writes them
//! into test-results/osmium/ with osmium-tool): each shared file with lz4 blobs, raw blobs, plain
//! (non-dense) nodes, no metadata, and LocationsOnWays gives the data README's counts and, for
//! every listed query, the same matches at the same places as the original. Run the script first
//! (scripts/test.sh does).

mod common;

use std::path::PathBuf;

use pbf_explorer::query::{PreparedQuery, Query};
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
const VARIANTS: [(&str, &str); 5] = [("lz4", "lz4"), ("none", "raw"), ("plain-nodes", "zlib"), ("no-metadata", "zlib"), ("locations-on-ways", "zlib")];

/// A match as (type, id, lat, lon), sorted.
fn answer(file: &[u8], query: &Query) -> Vec<(u8, i64, f64, f64)> {
    let mut out: Vec<(u8, i64, f64, f64)> = scan_file(file, query).unwrap().matches.iter().map(|m| (m.element as u8, m.id, m.lat, m.lon)).collect();
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
