//! Areas people think in, on the real files in `../shared/data/`: a relation of the file
//! (`in=relation/ID`) and a polygon (`poly=`). Each case of `tests/answers/areas/answers.json`
//! (libosmium's area assembler and shapely's point-in-polygon test, by
//! tests/answers/areas/make-answers.py) gives the same node, way and relation ids, read whole,
//! with few node locations kept, and by the blob index the relation's read notes; a relation's
//! outline has libosmium's rings and area.

mod common;

use pbf_explorer::{ring_area2, scan_file_prepared, scan_file_with_budget, Area, DecodeError, ElementType, FileScan, Inside, Query};
use serde_json::Value;

use common::read;

fn answers() -> Vec<Value> {
    common::listed("../tests/answers/areas/answers.json")
}

fn query_of(a: &Value) -> Query {
    let area: Area = serde_json::from_value(a["area"].clone()).unwrap();
    let mut q = Query::from_tags(a["q"].as_str().unwrap(), area).unwrap();
    q.inside = if a["inside"] == "all" { Inside::All } else { Inside::Any };
    q
}

fn ids(scan: &FileScan, t: ElementType) -> Vec<i64> {
    let mut ids: Vec<i64> = scan.matches.iter().filter(|m| m.element == t).map(|m| m.id).collect();
    ids.sort();
    ids
}

fn listed(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

fn assert_answer(scan: &FileScan, a: &Value, how: &str) {
    let label = format!("{} {} {:?} inside={} {how}", a["file"], a["area"].to_string().chars().take(40).collect::<String>(), a["q"], a["inside"]);
    assert_eq!(ids(scan, ElementType::Node), listed(&a["nodes"]), "{label}: nodes");
    assert_eq!(ids(scan, ElementType::Way), listed(&a["ways"]), "{label}: ways");
    assert_eq!(ids(scan, ElementType::Relation), listed(&a["relations"]), "{label}: relations");
}

#[test]
fn relations_and_polygons_as_areas_give_libosmiums_answers() {
    let answers = answers();
    assert!(answers.len() >= 8);
    for a in &answers {
        let bytes = read(a["file"].as_str().unwrap());
        let query = query_of(a).prepare().unwrap();
        for budget in [usize::MAX, 1000] {
            let scan = scan_file_with_budget(&bytes, &query, budget).unwrap();
            assert_answer(&scan, a, &format!("budget {budget}"));
            if let Some(outline) = a["outline"].as_object() {
                let parts = scan.outline.as_ref().expect("the relation's outline");
                let rings: Vec<Vec<[i32; 2]>> = parts.iter().flatten().map(|r| r.iter().map(|&[lon, lat]| [(lat * 1e7).round() as i32, (lon * 1e7).round() as i32]).collect()).collect();
                assert_eq!(rings.len() as u64, outline["rings"].as_u64().unwrap(), "rings of {}", a["area"]);
                let twice: f64 = parts.iter().map(|p| p.len()).scan(0, |at, n| { *at += n; Some((*at - n, n)) })
                    .map(|(first, n)| ring_area2(&rings[first]).abs() - rings[first + 1..first + n].iter().map(|h| ring_area2(h).abs()).sum::<f64>()).sum();
                assert_eq!(twice, outline["twice_area_e7"].as_f64().unwrap(), "area of {}", a["area"]);
            } else {
                assert!(scan.outline.is_none());
            }
        }
        // The relation's read notes the file's blob index, and the query goes by it.
        let mut indexed = query_of(a);
        indexed.index = true;
        let scan = scan_file_prepared(&bytes, &indexed.prepare().unwrap()).unwrap();
        assert_answer(&scan, a, "building the index");
        assert!(scan.index.is_some(), "an index for {}", a["area"]);
        let by_index = pbf_explorer::scan_file_indexed(&bytes, &query_of(a).prepare().unwrap(), scan.index.as_ref().unwrap()).unwrap();
        assert_answer(&by_index, a, "by the index");
    }
}

#[test]
fn a_relation_that_is_no_area_reads_nothing_more_and_says_why() {
    let bytes = read("malta.osm.pbf");
    let why = |id: i64| match scan_file_prepared(&bytes, &Query::from_tags("amenity", Area::Relation(id)).unwrap().prepare().unwrap()) {
        Err(DecodeError::NoArea(why)) => why,
        other => panic!("relation {id}: {:?}", other.map(|s| s.matches.len())),
    };
    assert_eq!(why(1), "relation 1 is not in the file");
    // A bus route of Malta: a relation, not an area.
    let route = scan_file_prepared(&bytes, &Query::from_tags("type=route route=bus", Area::Everywhere).unwrap().prepare().unwrap()).unwrap();
    let id = route.matches[0].id;
    assert!(why(id).starts_with(&format!("relation {id} (")) && why(id).ends_with("is a type=route relation: an area is a multipolygon or boundary relation"), "{}", why(id));
}

#[test]
fn a_whole_read_finds_the_files_named_boundaries_and_multipolygons() {
    let bytes = read("malta.osm.pbf");
    let query = Query::from_tags("amenity=cafe", Area::Everywhere).unwrap().prepare().unwrap();
    let mut plan = pbf_explorer::read_answer(&bytes, &query, usize::MAX).unwrap();
    let places = plan.take_places().expect("a whole read finds them all");
    let valletta = places.search("valletta", 5);
    assert_eq!((valletta[0].id, valletta[0].kind.as_str(), valletta[0].admin_level.as_deref()), (7510580, "boundary", Some("8")));
    assert_eq!(valletta[0].what, "boundary=administrative");
    assert!(places.len() > 75, "{}", places.len());
    // A relation as the area: the places come from the relation's whole read.
    let query = Query::from_tags("amenity=cafe", Area::Relation(7510580)).unwrap().prepare().unwrap();
    let mut plan = pbf_explorer::read_answer(&bytes, &query, usize::MAX).unwrap();
    assert_eq!(plan.take_places().map(|p| p.len()), Some(places.len()));
}

#[test]
fn by_a_blob_index_the_relations_read_takes_the_one_blob_that_holds_it() {
    let bytes = read("malta.osm.pbf");
    let mut whole = Query::from_tags("amenity", Area::Everywhere).unwrap();
    whole.index = true;
    let index = scan_file_prepared(&bytes, &whole.prepare().unwrap()).unwrap().index.unwrap();
    let mut plan = pbf_explorer::ReadPlan::new(&Query::from_tags("amenity", Area::Relation(7510580)).unwrap().prepare().unwrap(), usize::MAX);
    plan.use_index(index.clone());
    let Some(pbf_explorer::Read { blobs: pbf_explorer::Blobs::Listed(first), .. }) = plan.next_read().unwrap() else { panic!("a listed read") };
    assert_eq!(first.len(), 2, "the OSMHeader and one relation blob, of {} blobs", index.entries.len());
    assert!(index.entries.len() > 50);
}
