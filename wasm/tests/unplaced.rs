//! Matches with no geometry are never dropped (`fixtures::members_missing`): with no area, tags
//! alone decide, so a way none of whose nodes is in the file and relations none of whose
//! members' nodes is are counted and listed, with no position and the reason; with an area they
//! cannot lie in it, and do not match.

use pbf_explorer::{testing::fixtures, scan_file, Area, ElementType, Query, NO_MEMBER_IN_FILE, NO_NODE_IN_FILE};

#[test]
fn with_no_area_elements_with_no_node_in_the_file_match_without_geometry() {
    let scan = scan_file(&fixtures::members_missing(), &Query::from_tags("amenity=cafe", Area::Everywhere).unwrap()).unwrap();
    let found = |t: ElementType, id: i64| {
        let at = scan.matches.iter().position(|m| m.element == t && m.id == id).unwrap_or_else(|| panic!("{t:?} {id} is a match"));
        (&scan.matches[at], &scan.shapes[at])
    };
    assert_eq!(scan.matches.len(), 4, "relation 32, of a member relation alone, is no match");
    for (t, id, why) in [(ElementType::Way, 20, NO_NODE_IN_FILE), (ElementType::Relation, 30, NO_MEMBER_IN_FILE)] {
        let (m, shape) = found(t, id);
        assert_eq!((m.lat, m.lon, m.problem.as_deref(), shape), (None, None, Some(why), &None), "{t:?} {id}");
    }
    let (half, shape) = found(ElementType::Relation, 31);
    assert_eq!((half.lat, half.problem.as_deref()), (Some(60.1699), None), "placed by the member in the file");
    assert!(shape.is_some());
}

#[test]
fn with_an_area_elements_with_no_node_in_the_file_do_not_match() {
    let near = Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 };
    let scan = scan_file(&fixtures::members_missing(), &Query::from_tags("amenity=cafe", near).unwrap()).unwrap();
    let mut found: Vec<(ElementType, i64)> = scan.matches.iter().map(|m| (m.element, m.id)).collect();
    found.sort_by_key(|&(t, id)| (t as u8, id));
    assert_eq!(found, [(ElementType::Node, 1), (ElementType::Relation, 31)]);
}
