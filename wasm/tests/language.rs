//! The query language on the real files in `../shared/data/`:
//! - each query of `tests/answers/language/answers.json` (answers computed with pyosmium from predicates
//!   written apart from our parser, by tests/answers/language/make-answers.py) gives the same node, way
//!   and relation ids, with every location kept and with the second read;
//! - the per-block evaluation (string-table indexes, memoised regular expressions, blocks ruled
//!   out) agrees with the plain evaluation of the expression over each element's decoded tags.

use std::path::PathBuf;

use pbf_explorer::Area;
use pbf_explorer::ElementType;
use pbf_explorer::{Inside, Query};
use pbf_explorer::scan_file_with_budget;
use serde_json::Value;

fn data_dir() -> PathBuf {
    std::env::var_os("PBF_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

fn answers() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/answers/language/answers.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn area_of(a: &Value) -> Area {
    let f = |v: &Value| v.as_f64().unwrap();
    if let Some(near) = a.get("near") {
        return Area::Circle { lat: f(&near[0]), lon: f(&near[1]), radius: f(&a["radius"]) };
    }
    if let Some(b) = a.get("bbox") {
        return Area::Bbox { min_lon: f(&b[0]), min_lat: f(&b[1]), max_lon: f(&b[2]), max_lat: f(&b[3]) };
    }
    Area::Everywhere
}

fn query_of(a: &Value, text: &str) -> Query {
    let mut q = Query::from_tags(text, area_of(a)).unwrap();
    q.inside = if a["inside"] == "all" { Inside::All } else { Inside::Any };
    q
}

fn ids(scan: &pbf_explorer::FileScan, t: ElementType) -> Vec<i64> {
    let mut ids: Vec<i64> = scan.matches.iter().filter(|m| m.element == t).map(|m| m.id).collect();
    ids.sort();
    ids
}

fn listed(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

#[test]
fn the_listed_queries_give_the_listed_ids() {
    let answers = answers();
    assert!(answers.len() >= 10);
    for a in &answers {
        let bytes = std::fs::read(data_dir().join(a["file"].as_str().unwrap())).unwrap();
        let query = query_of(a, a["q"].as_str().unwrap()).prepare().unwrap();
        for budget in [usize::MAX, 1000] {
            let scan = scan_file_with_budget(&bytes, &query, budget).unwrap();
            let label = format!("{} {:?} inside={} budget {budget}", a["file"], a["q"], a["inside"]);
            assert_eq!(ids(&scan, ElementType::Node), listed(&a["nodes"]), "{label}: nodes");
            assert_eq!(ids(&scan, ElementType::Way), listed(&a["ways"]), "{label}: ways");
            assert_eq!(ids(&scan, ElementType::Relation), listed(&a["relations"]), "{label}: relations");
        }
    }
}

#[test]
fn block_evaluation_agrees_with_the_plain_one() {
    for a in &answers() {
        let bytes = std::fs::read(data_dir().join(a["file"].as_str().unwrap())).unwrap();
        let query = query_of(a, a["q"].as_str().unwrap());
        // Everything the area holds (the empty query is always true), filtered plainly.
        let all = scan_file_with_budget(&bytes, &query_of(a, "").prepare().unwrap(), usize::MAX).unwrap();
        let mut want: Vec<(ElementType, i64)> = all
            .matches
            .iter()
            .filter(|m| {
                let kind = match m.element {
                    ElementType::Node => ElementType::Node,
                    ElementType::Way => ElementType::Way,
                    ElementType::Relation => ElementType::Relation,
                };
                let tags: Vec<(&[u8], &[u8])> = m.tags.iter().map(|(k, v)| (k.as_bytes(), v.as_bytes())).collect();
                query.expr.eval_tags(kind, m.id, &tags)
            })
            .map(|m| (m.element, m.id))
            .collect();
        want.sort_by_key(|&(t, id)| (t as u8, id));
        let scan = scan_file_with_budget(&bytes, &query.prepare().unwrap(), usize::MAX).unwrap();
        let mut got: Vec<(ElementType, i64)> = scan.matches.iter().map(|m| (m.element, m.id)).collect();
        got.sort_by_key(|&(t, id)| (t as u8, id));
        assert_eq!(got, want, "{} {:?}", a["file"], a["q"]);
    }
}
