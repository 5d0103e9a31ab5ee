//! Decodes the real files in `../shared/data/` and checks them against the facts listed in
//! its README (counts from other tools, and query answers computed with libosmium).
//! The data folder can be moved with `PBF_DATA_DIR`.

mod common;

use std::path::PathBuf;

use pbf_explorer::Area;
use pbf_explorer::{PreparedQuery, Query};
use pbf_explorer::ElementType;
use pbf_explorer::{scan_file, scan_file_prepared, scan_file_with_budget};
use serde_json::Value;

fn data_dir() -> PathBuf {
    std::env::var_os("PBF_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

fn read_json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn ids(v: &Value) -> Vec<i64> {
    let mut ids: Vec<i64> = v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
    ids.sort();
    ids
}

fn check_counts(name: &str) {
    let file = std::fs::read(data_dir().join(format!("{name}.osm.pbf"))).unwrap();
    let expected = read_json(data_dir().join(format!("expected/{name}.counts.json")));
    let scan = scan_file_prepared(&file, &PreparedQuery::count_only()).unwrap();
    let c = scan.counts;
    let got = [c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members];
    let want = ["nodes", "ways", "relations", "tags", "way_refs", "members"].map(|k| expected[k].as_u64().unwrap());
    assert_eq!(got, want, "{name}: [nodes, ways, relations, tags, way_refs, members]");
    assert!(scan.header.bbox.is_some() || name.contains("synthetic"), "{name} has a header bbox");
}

#[test]
fn helsinki_counts_match_the_data_readme() {
    check_counts("helsinki");
}

#[test]
fn malta_counts_match_the_data_readme() {
    check_counts("malta");
}

#[test]
fn malta_x20_synthetic_counts_match_the_data_readme() {
    check_counts("malta-x20-synthetic");
}

/// Every query in `tests/queries.json` (the table of the data README) gives exactly the
/// listed node and way ids.
#[test]
fn listed_queries_give_the_listed_ids() {
    let queries = read_json(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/queries.json"));
    for q in queries.as_array().unwrap() {
        let area = common::listed_area(q);
        let query = Query::from_tags(q["q"].as_str().unwrap(), area).unwrap();
        let file = std::fs::read(data_dir().join(q["file"].as_str().unwrap())).unwrap();
        let matches = scan_file(&file, &query).unwrap().matches;
        let of = |t: ElementType| {
            let mut ids: Vec<i64> = matches.iter().filter(|m| m.element == t).map(|m| m.id).collect();
            ids.sort();
            ids
        };
        let label = format!("{} {}", q["file"], q["q"]);
        match q["expected"].as_str() {
            Some(name) => {
                let want = read_json(data_dir().join("expected").join(name));
                assert_eq!(of(ElementType::Node), ids(&want["nodes"]), "{label}: node ids");
                assert_eq!(of(ElementType::Way), ids(&want["ways"]), "{label}: way ids");
                assert_eq!(nodes_and_ways(&matches), want["count"].as_u64().unwrap(), "{label}: count");
                // Each node where libosmium puts it, to 1e-7 degrees (tests/answers/positions/nodes.json).
                let positions = read_json(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/answers/positions/nodes.json"));
                for m in matches.iter().filter(|m| m.element == ElementType::Node) {
                    let at = &positions[format!("{} node {}", q["file"].as_str().unwrap(), m.id)];
                    let (lat, lon) = (at[0].as_i64().unwrap() as f64 * 1e-7, at[1].as_i64().unwrap() as f64 * 1e-7);
                    let (at_lat, at_lon) = (m.lat.expect("a node is placed"), m.lon.expect("a node is placed"));
                    assert!((at_lat - lat).abs() < 0.6e-7 && (at_lon - lon).abs() < 0.6e-7, "{label}: node {} at {at_lat},{at_lon} not {lat},{lon}", m.id);
                }
            }
            None => assert_eq!(nodes_and_ways(&matches), q["count"].as_u64().unwrap(), "{label}: count"),
        }
    }
}

/// Node and way ids of a query's answer, each sorted.
fn answer_ids(file: &[u8], query: &Query, budget: usize) -> (Vec<i64>, Vec<i64>) {
    let matches = scan_file_with_budget(file, &query.prepare().unwrap(), budget).unwrap().matches;
    let of = |t: ElementType| {
        let mut ids: Vec<i64> = matches.iter().filter(|m| m.element == t).map(|m| m.id).collect();
        ids.sort();
        ids
    };
    (of(ElementType::Node), of(ElementType::Way))
}

/// Whole-file answers (`expected/with-relations/*-all.json`), with every node location kept and
/// with a budget so small that the ways are placed by the targeted second read.
#[test]
fn whole_file_answers_match_with_and_without_the_second_read() {
    let file = std::fs::read(data_dir().join("malta.osm.pbf")).unwrap();
    for (tags, expected) in [("amenity=cafe", "malta.cafe-all.json"), ("building", "malta.building-all.json")] {
        let want = read_json(data_dir().join("expected/with-relations").join(expected));
        let query = Query::from_tags(tags, Area::Everywhere).unwrap();
        for budget in [usize::MAX, 1000] {
            let (nodes, ways) = answer_ids(&file, &query, budget);
            assert_eq!(nodes, ids(&want["nodes"]), "{tags} budget {budget}: node ids");
            assert_eq!(ways, ids(&want["ways"]), "{tags} budget {budget}: way ids");
        }
    }
}

/// The listed area queries give the same answer and the same way positions when the second
/// read has to place the ways.
#[test]
fn the_second_read_places_ways_where_the_first_would() {
    let file = std::fs::read(data_dir().join("malta.osm.pbf")).unwrap();
    let query = Query::from_tags("amenity=restaurant", Area::Bbox { min_lon: 14.50, min_lat: 35.88, max_lon: 14.53, max_lat: 35.91 }).unwrap();
    let kept = scan_file_with_budget(&file, &query.prepare().unwrap(), usize::MAX).unwrap().matches;
    let reread = scan_file_with_budget(&file, &query.prepare().unwrap(), 100).unwrap().matches;
    assert_eq!(kept.len(), 159);
    assert_eq!(kept, reread);
}

/// Every matched way's full geometry (all its nodes, inside the area or not) equals what
/// libosmium gives (`tests/answers/geometry/*.json`, made by `tests/answers/geometry/make-answers.py`):
/// the same vertices, to 1e-7 degrees, in the same order — also when the area's locations
/// overflow the budget and the ways are placed by the second read.
#[test]
fn way_geometry_matches_libosmium() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/answers/geometry");
    let malta = Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 };
    let helsinki = Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 };
    for (name, tags, area) in [
        ("malta.leisure-park-1000m", "leisure=park", malta.clone()),
        ("malta.highway-primary-1000m", "highway=primary", malta),
        ("helsinki.leisure-park-1000m", "leisure=park", helsinki.clone()),
        ("helsinki.building-1000m", "building", helsinki.clone()),
        ("helsinki.route-bus-1000m", "route=bus", helsinki),
    ] {
        let want = read_json(dir.join(format!("{name}.json")));
        let file = std::fs::read(data_dir().join(want["file"].as_str().unwrap())).unwrap();
        let query = Query::from_tags(tags, area).unwrap().prepare().unwrap();
        for budget in [usize::MAX, 100] {
            let scan = scan_file_with_budget(&file, &query, budget).unwrap();
            let mut checked = 0;
            for (m, shape) in scan.matches.iter().zip(&scan.shapes).filter(|(m, _)| m.element == ElementType::Way) {
                let label = format!("{name} budget {budget} way {}", m.id);
                let reference = &want["ways"][m.id.to_string()];
                assert!(!reference.is_null(), "{label}: not in the reference answer");
                let vertices = shape.as_ref().expect("a way has a shape").vertices();
                if want["digest"].as_bool().unwrap() {
                    assert_eq!(digest(&vertices), ids_in_order(reference), "{label}: digest");
                } else {
                    let expected: Vec<[i32; 2]> =
                        reference.as_array().unwrap().iter().map(|p| [p[0].as_i64().unwrap() as i32, p[1].as_i64().unwrap() as i32]).collect();
                    assert_eq!(vertices, expected, "{label}: vertices");
                }
                checked += 1;
            }
            assert_eq!(checked, want["ways"].as_object().unwrap().len(), "{name} budget {budget}: ways compared");
            // Relations other than multipolygons: the lines of their member ways, in member order.
            let lines = want["relation_lines"].as_object().unwrap();
            for (id, reference) in lines {
                let at = scan.matches.iter().position(|m| m.element == ElementType::Relation && m.id.to_string() == *id);
                let label = format!("{name} budget {budget} relation {id}");
                let got: Vec<Vec<i64>> = match scan.shapes[at.expect(&label)].as_ref() {
                    Some(pbf_explorer::Shape::MultiLineString(lines)) => lines.iter().map(|l| digest(l)).collect(),
                    other => panic!("{label}: {other:?} is not a MultiLineString"),
                };
                let want: Vec<Vec<i64>> = reference.as_array().unwrap().iter().map(ids_in_order).collect();
                assert_eq!(got, want, "{label}: member lines");
            }
            if name.contains("route") {
                assert_eq!(lines.len(), 147, "{name}: relations compared");
            }
        }
    }
}

/// A line's digest as `tests/answers/geometry/make-answers.py` writes it:
/// [vertex count, sum of lat_e7, sum of lon_e7, first lat_e7, first lon_e7].
fn digest(vertices: &[[i32; 2]]) -> Vec<i64> {
    let sum = |i: usize| vertices.iter().map(|v| v[i] as i64).sum::<i64>();
    vec![vertices.len() as i64, sum(0), sum(1), vertices[0][0] as i64, vertices[0][1] as i64]
}

/// A JSON array of integers, in its order.
fn ids_in_order(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

/// The answers with relations (`expected/with-relations/`): node, way and relation ids, with
/// every location kept and with a budget so small that the second read places everything.
#[test]
fn answers_with_relations_match_libosmium() {
    let malta = Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 };
    let helsinki = Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 };
    for (file, tags, area, expected) in [
        ("helsinki.osm.pbf", "leisure=park", helsinki.clone(), "helsinki.leisure-park-1000m.json"),
        ("helsinki.osm.pbf", "building", helsinki.clone(), "helsinki.building-1000m.json"),
        ("helsinki.osm.pbf", "shop", helsinki.clone(), "helsinki.shop-1000m.json"),
        ("helsinki.osm.pbf", "route=bus", helsinki, "helsinki.route-bus-1000m.json"),
        ("malta.osm.pbf", "leisure=park", malta, "malta.leisure-park-1000m.json"),
        ("malta.osm.pbf", "building", Area::Everywhere, "malta.building-all.json"),
    ] {
        let want = read_json(data_dir().join("expected/with-relations").join(expected));
        let bytes = std::fs::read(data_dir().join(file)).unwrap();
        let query = Query::from_tags(tags, area).unwrap().prepare().unwrap();
        for budget in [usize::MAX, 1000] {
            let scan = scan_file_with_budget(&bytes, &query, budget).unwrap();
            let of = |t: ElementType| {
                let mut ids: Vec<i64> = scan.matches.iter().filter(|m| m.element == t).map(|m| m.id).collect();
                ids.sort();
                ids
            };
            let label = format!("{expected} budget {budget}");
            assert_eq!(of(ElementType::Node), ids(&want["nodes"]), "{label}: nodes");
            assert_eq!(of(ElementType::Way), ids(&want["ways"]), "{label}: ways");
            assert_eq!(of(ElementType::Relation), ids(&want["relations"]), "{label}: relations");
            assert_eq!(scan.matches.len() as u64, want["count_with_relations"].as_u64().unwrap(), "{label}: count");
        }
    }
}

/// How many matches are nodes or ways (the answers of `expected/` leave relations out).
fn nodes_and_ways(matches: &[pbf_explorer::Match]) -> u64 {
    matches.iter().filter(|m| m.element != ElementType::Relation).count() as u64
}

/// The basemap drawn from the file (`tests/answers/basemap/`, from tests/answers/basemap/make-answers.py,
/// libosmium's locations): per class, the same number of features and of vertices, each
/// vertex inside the area.
#[test]
fn basemap_matches_libosmium() {
    const CLASSES: [&str; 9] = ["major-road", "minor-road", "path", "railway", "water", "waterway", "building", "green", "landuse"];
    for name in ["helsinki-1000m", "malta-1000m"] {
        let want = read_json(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/answers/basemap").join(format!("{name}.json")));
        let c = &want["circle"];
        let (lat, lon, radius) = (c[0].as_f64().unwrap(), c[1].as_f64().unwrap(), c[2].as_f64().unwrap());
        let bytes = std::fs::read(data_dir().join(want["file"].as_str().unwrap())).unwrap();
        let query = Query::from_tags("amenity=cafe", Area::Circle { lat, lon, radius }).unwrap().prepare().unwrap();
        let features = scan_file_with_budget(&bytes, &query, usize::MAX).unwrap().context.unwrap();
        let mut got = [[0u64; 2]; 9];
        let mut i = 0;
        while i < features.len() {
            let (class, n) = (features[i] as usize, features[i + 2] as usize);
            got[class][0] += 1;
            got[class][1] += n as u64;
            for v in features[i + 3..i + 3 + 2 * n].chunks(2) {
                let d = pbf_explorer::haversine_m(lat, lon, v[1] as f64 * 1e-7, v[0] as f64 * 1e-7);
                assert!(d <= radius + 0.01, "{name}: a vertex {d} m from the centre");
            }
            i += 3 + 2 * n;
        }
        for (class, label) in CLASSES.iter().enumerate() {
            let w = &want["classes"][label];
            assert_eq!(got[class], [w["features"].as_u64().unwrap(), w["vertices"].as_u64().unwrap()], "{name}: {label} [features, vertices]");
        }
    }
}

/// Every multipolygon relation of the answers in `tests/answers/geometry/` against libosmium's area
/// assembler: the same number of outer and inner rings and the same area within 1e-6
/// (relative); where libosmium built no area, ours is reported broken, with a reason.
#[test]
fn multipolygons_match_libosmium() {
    use pbf_explorer::{ring_area2, Shape};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/answers/geometry");
    let helsinki = Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 };
    let mut compared = 0;
    for (name, tags) in [("helsinki.leisure-park-1000m", "leisure=park"), ("helsinki.building-1000m", "building")] {
        let want = read_json(dir.join(format!("{name}.json")));
        let file = std::fs::read(data_dir().join(want["file"].as_str().unwrap())).unwrap();
        let query = Query::from_tags(tags, helsinki.clone()).unwrap().prepare().unwrap();
        let scan = scan_file_with_budget(&file, &query, usize::MAX).unwrap();
        for (id, reference) in want["multipolygons"].as_object().unwrap() {
            let at = scan.matches.iter().position(|m| m.element == ElementType::Relation && m.id.to_string() == *id);
            let label = format!("{name} relation {id}");
            let (m, shape) = (&scan.matches[at.expect(&label)], scan.shapes[at.unwrap()].as_ref());
            if reference.is_null() {
                assert!(m.problem.is_some(), "{label}: libosmium built no area, ours is not reported broken");
                continue;
            }
            assert_eq!(m.problem, None, "{label}");
            let polygons = match shape {
                Some(Shape::Polygon(rings)) => vec![rings.clone()],
                Some(Shape::MultiPolygon(polygons)) => polygons.clone(),
                other => panic!("{label}: {other:?} is not an area"),
            };
            let inner: usize = polygons.iter().map(|p| p.len() - 1).sum();
            let area2: f64 = polygons.iter().flat_map(|p| p.iter().enumerate()).map(|(i, r)| if i == 0 { ring_area2(r).abs() } else { -ring_area2(r).abs() }).sum();
            let r = ids_in_order(reference);
            assert_eq!([polygons.len() as i64, inner as i64], [r[0], r[1]], "{label}: [outer, inner] rings");
            assert!((area2 - r[2] as f64).abs() <= 1e-6 * r[2] as f64, "{label}: area {area2} vs {}", r[2]);
            compared += 1;
        }
    }
    assert_eq!(compared, 60, "multipolygons built by both");
}

/// Without the newest timestamp (the command line's query) a read gives the same answer and no
/// timestamp; a read that builds the blob index reads it anyway.
#[test]
fn the_newest_timestamp_can_be_left_out_and_nothing_else_changes() {
    let bytes = std::fs::read(data_dir().join("malta.osm.pbf")).unwrap();
    let json = |extra: &str| format!(r#"{{"q":"amenity=cafe","area":{{"circle":{{"lat":35.8989,"lon":14.5146,"radius":1000}}}}{extra}}}"#);
    let with = scan_file_prepared(&bytes, &Query::from_json(&json("")).unwrap().prepare().unwrap()).unwrap();
    let without = scan_file_prepared(&bytes, &Query::from_json(&json(r#","newest_timestamp":false"#)).unwrap().prepare().unwrap()).unwrap();
    assert!(with.facts.newest_timestamp.is_some());
    assert_eq!(without.facts.newest_timestamp, None);
    assert_eq!(with.counts, without.counts);
    assert!(!with.matches.is_empty());
    assert_eq!(with.matches, without.matches);
    let indexing = Query::from_json(&json(r#","newest_timestamp":false,"index":true"#)).unwrap().prepare().unwrap();
    assert!(indexing.newest_timestamp, "an index keeps each blob's newest timestamp");
}

/// The file facts of a read (id ranges, counts, blobs by compression) against what
/// `osmium fileinfo -e` says (`tests/answers/file-info/`, from tests/answers/file-info/make-answers.sh).
#[test]
fn file_facts_match_osmium_fileinfo() {
    for name in ["helsinki", "malta"] {
        let want = read_json(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/answers/file-info").join(format!("{name}.json")));
        let bytes = std::fs::read(data_dir().join(format!("{name}.osm.pbf"))).unwrap();
        let file = scan_file_prepared(&bytes, &PreparedQuery::count_only()).unwrap();
        let (facts, header) = (file.facts, file.header);
        assert_eq!(facts.newest_timestamp, want["newest_timestamp_epoch"].as_i64(), "{name}: newest timestamp");
        let h = &want["header"];
        assert_eq!(header.writing_program.as_deref(), h["writing_program"].as_str(), "{name}");
        assert_eq!(header.replication_timestamp, h["replication_timestamp_epoch"].as_i64(), "{name}");
        assert_eq!(header.replication_sequence_number.map(|n| n.to_string()).as_deref(), h["replication_sequence_number"].as_str(), "{name}");
        assert_eq!(header.replication_base_url.as_deref(), h["replication_base_url"].as_str(), "{name}");
        let bbox: Vec<f64> = h["bbox"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        for (got, want) in header.bbox.unwrap().iter().zip(&bbox) {
            assert!((got - want).abs() < 1e-7, "{name}: header bbox {:?} vs {bbox:?}", header.bbox);
        }
        let r = &facts.id_ranges;
        for (t, range) in [("nodes", r.node), ("ways", r.way), ("relations", r.relation)] {
            let (lo, hi) = (want["minid"][t].as_i64().unwrap(), want["maxid"][t].as_i64().unwrap());
            assert_eq!(range, Some([lo, hi]), "{name}: {t} id range");
        }
        assert_eq!([facts.counts.nodes, facts.counts.ways, facts.counts.relations], ["nodes", "ways", "relations"].map(|t| want["count"][t].as_u64().unwrap()), "{name}");
        assert_eq!(facts.blobs.keys().collect::<Vec<_>>(), vec!["zlib"], "{name}: every blob is zlib");
    }
}

/// Every match carries its version, timestamp, changeset and user as pyosmium reads them
/// (`tests/answers/file-info/helsinki-parking-meta.json`, tests/answers/file-info/make-meta-answers.py): DenseNodes'
/// DenseInfo for nodes, Info for ways and relations.
#[test]
fn matches_carry_their_metadata() {
    let want = read_json(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/answers/file-info/helsinki-parking-meta.json"));
    let bytes = std::fs::read(data_dir().join("helsinki.osm.pbf")).unwrap();
    let file = scan_file(&bytes, &Query::from_tags("amenity=parking", Area::Everywhere).unwrap()).unwrap();
    assert_eq!(file.matches.len(), want.as_object().unwrap().len());
    for m in &file.matches {
        let key = format!("{}/{}", ["node", "way", "relation"][m.element as usize], m.id);
        let meta = m.meta.as_ref().unwrap_or_else(|| panic!("{key} has no metadata"));
        let w = &want[&key];
        assert_eq!(
            (meta.version as i64, meta.timestamp, meta.changeset, meta.uid as i64, meta.user.as_str(), meta.visible),
            (w["version"].as_i64().unwrap(), w["timestamp"].as_i64().unwrap(), w["changeset"].as_i64().unwrap(), w["uid"].as_i64().unwrap(), w["user"].as_str().unwrap(), true),
            "{key}"
        );
    }
}
