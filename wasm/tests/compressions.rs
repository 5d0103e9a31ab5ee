//! Every compression on the real files: `helsinki.osm.pbf` and `malta.osm.pbf` re-encoded with
//! zstd, lz4 and raw blobs (`encode::reencode`) give exactly the counts and the answers of their
//! zlib originals, for every listed query on them.

use std::path::PathBuf;

use pbf_explorer::Area;
use pbf_explorer::testing::encode::{reencode, Compression};
use pbf_explorer::{PreparedQuery, Query};
use pbf_explorer::{scan_file, scan_file_prepared};
use serde_json::Value;

fn data_dir() -> PathBuf {
    std::env::var_os("PBF_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

/// The listed queries on `file` (tests/queries.json).
fn queries(file: &str) -> Vec<Query> {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/queries.json")).unwrap();
    let list: Vec<Value> = serde_json::from_str(&text).unwrap();
    let f = |v: &Value| v.as_f64().unwrap();
    list.iter()
        .filter(|q| q["file"] == file)
        .map(|q| {
            let area = match (q.get("near"), q.get("bbox")) {
                (Some(n), _) => Area::Circle { lat: f(&n[0]), lon: f(&n[1]), radius: f(&q["radius"]) },
                (_, Some(b)) => Area::Bbox { min_lon: f(&b[0]), min_lat: f(&b[1]), max_lon: f(&b[2]), max_lat: f(&b[3]) },
                _ => Area::Everywhere,
            };
            Query::from_tags(q["q"].as_str().unwrap(), area).unwrap()
        })
        .collect()
}

#[test]
fn zstd_lz4_and_raw_twins_answer_as_the_zlib_original() {
    for file in ["helsinki.osm.pbf", "malta.osm.pbf"] {
        let original = std::fs::read(data_dir().join(file)).unwrap();
        let counts = scan_file_prepared(&original, &PreparedQuery::count_only()).unwrap().counts;
        let queries = queries(file);
        assert!(!queries.is_empty());
        let answers: Vec<Vec<(String, i64)>> = queries.iter().map(|q| ids(&original, q)).collect();
        for compression in [Compression::Zstd, Compression::Lz4, Compression::Raw] {
            let twin = reencode(&original, compression).unwrap();
            let label = format!("{file} as {compression:?}");
            assert_eq!(scan_file_prepared(&twin, &PreparedQuery::count_only()).unwrap().counts, counts, "{label}: counts");
            for (q, want) in queries.iter().zip(&answers) {
                assert_eq!(&ids(&twin, q), want, "{label}: {}", q.text);
            }
        }
    }
}

fn ids(file: &[u8], q: &Query) -> Vec<(String, i64)> {
    scan_file(file, q).unwrap().matches.iter().map(|m| (m.element.name().to_string(), m.id)).collect()
}
