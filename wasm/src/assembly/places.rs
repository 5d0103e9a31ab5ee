//! The places a person can name as the query's area: the file's multipolygon and boundary
//! relations that have a `name`, and its nodes with `place=*` and a `name`, noted by the scans
//! of a first read ([`Place`], [`crate::scan`]) and searched by name ([`Places::search`]).

use rustc_hash::FxHashMap;
pub use crate::scan::Place;

/// The places a read found, by whether a node and id (a later copy of an element replaces an earlier one).
#[derive(Debug, Clone, Default)]
pub struct Places {
    by_id: FxHashMap<(bool, i64), Place>,
}

/// A `place=*` value's rank, the larger places first (OSM wiki, Key:place); others last.
fn place_rank(what: &str) -> u32 {
    const ORDER: [&str; 12] = ["country", "state", "region", "province", "county", "city", "town", "island", "village", "suburb", "quarter", "neighbourhood"];
    let value = what.strip_prefix("place=").unwrap_or(what);
    ORDER.iter().position(|&v| v == value).map_or(ORDER.len() as u32, |i| i as u32)
}

impl Places {
    /// Adds the places a block's scan noted.
    pub fn add(&mut self, places: Vec<Place>) {
        for place in places {
            self.by_id.insert((place.at.is_some(), place.id), place);
        }
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// At most `max` places whose name holds `text` (ignoring case): names equal to it first,
    /// then names starting with it, then the others; within each, boundaries, then place
    /// nodes, then multipolygons; the lower `admin_level` first (a country before its towns),
    /// the larger `place` first (a city before a village); then by name and id.
    pub fn search(&self, text: &str, max: usize) -> Vec<&Place> {
        let text = text.trim().to_lowercase();
        let mut found: Vec<(u8, u8, u32, &Place)> = self
            .by_id
            .values()
            .filter_map(|p| {
                let name = p.name.to_lowercase();
                let rank = if name == text { 0 } else if name.starts_with(&text) { 1 } else if name.contains(&text) { 2 } else { return None };
                let kind = match p.kind.as_str() { "boundary" => 0, "place" => 1, _ => 2 };
                let level = if p.at.is_some() { place_rank(&p.what) } else { p.admin_level.as_deref().and_then(|l| l.parse().ok()).unwrap_or(u32::MAX) };
                Some((rank, kind, level, p))
            })
            .collect();
        found.sort_by(|a, b| (a.0, a.1, a.2, &a.3.name, a.3.id).cmp(&(b.0, b.1, b.2, &b.3.name, b.3.id)));
        found.into_iter().take(max).map(|(_, _, _, p)| p).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(id: i64, name: &str, kind: &str, level: Option<&str>) -> Place {
        Place { id, name: name.into(), kind: kind.into(), what: String::new(), admin_level: level.map(Into::into), ways: 1, at: None }
    }

    #[test]
    fn exact_names_then_prefixes_then_the_rest_boundaries_first() {
        let mut places = Places::default();
        places.add(vec![
            place(1, "Valletta Waterfront", "multipolygon", None),
            place(2, "Valletta", "boundary", Some("8")),
            place(3, "Il-Belt Valletta Park", "multipolygon", None),
            place(4, "valletta", "multipolygon", None),
            place(5, "Mdina", "boundary", Some("8")),
            place(6, "Valletta Region", "boundary", Some("4")),
        ]);
        let ids: Vec<i64> = places.search(" VALLETTA", 10).iter().map(|p| p.id).collect();
        assert_eq!(ids, vec![2, 4, 6, 1, 3]);
        assert_eq!(places.search("valletta", 2).len(), 2);
        places.add(vec![place(5, "L-Imdina", "boundary", Some("8"))]);
        assert_eq!(places.search("imdina", 5)[0].id, 5);
        assert_eq!(places.len(), 6);
        // Same name, no admin_level: the boundary first, whatever the ids.
        places.add(vec![place(10, "Mdina Gate", "multipolygon", None), place(11, "Mdina Gate", "boundary", None)]);
        assert_eq!(places.search("mdina gate", 5)[0].id, 11);
    }

    #[test]
    fn place_nodes_come_after_boundaries_the_larger_first_and_keep_their_ids_apart() {
        let node = |id: i64, name: &str, what: &str| Place { id, name: name.into(), kind: "place".into(), what: what.into(), admin_level: None, ways: 0, at: Some([35.9, 14.5]) };
        let mut places = Places::default();
        places.add(vec![
            place(2, "Valletta", "boundary", Some("8")),
            node(2, "Valletta", "place=city"), // a node and a relation may share an id
            node(7, "Valletta", "place=locality"),
            place(4, "Valletta", "multipolygon", None),
            node(8, "Valletta", "place=village"),
        ]);
        assert_eq!(places.len(), 5);
        let found: Vec<(i64, bool)> = places.search("valletta", 10).iter().map(|p| (p.id, p.at.is_some())).collect();
        assert_eq!(found, vec![(2, false), (2, true), (8, true), (7, true), (4, false)]);
    }
}
