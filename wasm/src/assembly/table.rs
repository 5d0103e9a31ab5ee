//! The answer as a table: its order by any column, its columns, and tag statistics (counts by
//! element type, the most frequent keys, and the most frequent values of one key), as taginfo
//! shows them for the planet, here for one answer.

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::element::ElementType;
use crate::element::Tag;

/// A cell's sort key: numbers by value, text by code point, a missing tag last in either direction.
#[derive(PartialEq, PartialOrd)]
enum Cell<'a> {
    Number(f64),
    Text(&'a str),
}

fn cell(text: &str) -> Cell<'_> {
    match text.trim().parse::<f64>() {
        Ok(n) if n.is_finite() => Cell::Number(n),
        _ => Cell::Text(text),
    }
}

/// The positions of `rows` (types and ids in their label order) sorted by `column`: `type`,
/// `id`, `distance`, `change`, `name`, or a tag key; ties keep the label order. `tags` gives a
/// row's tags, `own` its value of `distance` (metres from the area's centre, None: no centre)
/// or `change` (the class number, None: no change view).
pub fn order<'a>(
    rows: impl Iterator<Item = (ElementType, i64)>,
    tags: impl Fn(ElementType, i64) -> Option<&'a [Tag]>,
    own: impl Fn(ElementType, i64) -> Option<f64>,
    column: &str,
    descending: bool,
) -> Vec<usize> {
    let value = |t: ElementType, id: i64| -> Option<Cell<'a>> {
        tags(t, id)?.iter().find(|(k, _)| k == column).map(|(_, v)| cell(v))
    };
    let mut keyed: Vec<(Option<Cell>, usize)> = rows
        .enumerate()
        .map(|(i, (t, id))| {
            let key = match column {
                "type" => Some(Cell::Number(t as u8 as f64)),
                "id" => Some(Cell::Number(id as f64)),
                "distance" | "change" => own(t, id).map(Cell::Number),
                _ => value(t, id),
            };
            (key, i)
        })
        .collect();
    keyed.sort_by(|(a, i), (b, j)| {
        let by_key = match (a, b) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(_), None) => std::cmp::Ordering::Less,
            (Some(x), Some(y)) => {
                // Numbers before text; within a kind, by value.
                let o = match (x, y) {
                    (Cell::Number(p), Cell::Number(q)) => p.total_cmp(q),
                    (Cell::Text(p), Cell::Text(q)) => p.cmp(q),
                    (Cell::Number(_), Cell::Text(_)) => std::cmp::Ordering::Less,
                    (Cell::Text(_), Cell::Number(_)) => std::cmp::Ordering::Greater,
                };
                if descending { o.reverse() } else { o }
            }
        };
        by_key.then(i.cmp(j))
    });
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// Tag statistics of an answer.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct TagStats {
    /// Matches by type: `[nodes, ways, relations]`.
    pub types: [u64; 3],
    /// The most frequent keys with the number of matches that carry them, most frequent first
    /// (ties by key).
    pub keys: Vec<(String, u64)>,
    /// For the key asked about: its most frequent values with their counts.
    pub values: Vec<(String, u64)>,
    /// Keys over [`STATS_TEXT_BYTES`] met (each time), and values of the key asked about over
    /// it: not listed (a list entry is a refinement to click; a cut text would refine wrongly).
    pub long_keys: u64,
    pub long_values: u64,
}

/// Bytes of a key or value the statistics list; longer ones are only counted.
pub const STATS_TEXT_BYTES: usize = 200;

/// Counts over `items` (each match's type and tags): types, the `top` most frequent keys, and
/// the `top` most frequent values of `key` when given.
pub fn tag_stats<'a>(items: impl Iterator<Item = (ElementType, &'a [Tag])>, key: Option<&str>, top: usize) -> TagStats {
    let mut stats = TagStats::default();
    let mut keys: FxHashMap<&str, u64> = FxHashMap::default();
    let mut values: FxHashMap<&str, u64> = FxHashMap::default();
    for (t, tags) in items {
        stats.types[t as usize] += 1;
        for (k, v) in tags {
            if k.len() > STATS_TEXT_BYTES {
                stats.long_keys += 1;
            } else {
                *keys.entry(k).or_default() += 1;
            }
            if Some(k.as_str()) == key {
                if v.len() > STATS_TEXT_BYTES {
                    stats.long_values += 1;
                } else {
                    *values.entry(v).or_default() += 1;
                }
            }
        }
    }
    let most = |counts: FxHashMap<&str, u64>| {
        let mut list: Vec<(String, u64)> = counts.into_iter().map(|(s, n)| (s.to_string(), n)).collect();
        list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        list.truncate(top);
        list
    };
    stats.keys = most(keys);
    stats.values = most(values);
    stats
}

/// The table's tag columns after type, id and name: the query's own keys, then the most
/// frequent other keys of the answer (from `stats`), `max` in all.
pub fn columns(query_keys: &[String], stats: &TagStats, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for k in query_keys.iter().chain(stats.keys.iter().map(|(k, _)| k)) {
        if k != "name" && !out.contains(k) && out.len() < max {
            out.push(k.clone());
        }
    }
    out
}

/// Whether a row passes the table's filter: `needle` (lowercased) is found, ignoring case, in
/// the element's type, its id, or a key or value of one of its tags.
pub fn row_passes(t: ElementType, id: i64, tags: &[Tag], needle: &str) -> bool {
    let holds = |hay: &str| contains_ignoring_case(hay, needle);
    holds(t.name()) || id.to_string().contains(needle) || tags.iter().any(|(k, v)| holds(k) || holds(v))
}

/// Whether `hay` holds `needle` (already lowercase) ignoring case: bytewise for an ASCII
/// needle (no copy of `hay`), else on `hay` lowercased.
fn contains_ignoring_case(hay: &str, needle: &str) -> bool {
    if needle.is_ascii() {
        let n = needle.as_bytes();
        return n.is_empty() || hay.as_bytes().windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    hay.to_lowercase().contains(needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::element::tags_of as tags;

    #[test]
    fn orders_by_a_column_numbers_by_value_and_missing_last() {
        let rows: Vec<(ElementType, i64)> = vec![(ElementType::Way, 3), (ElementType::Node, 1), (ElementType::Node, 2), (ElementType::Node, 4)];
        let all: Vec<(i64, Vec<Tag>)> = vec![(3, tags(&[("levels", "10")])), (1, tags(&[("levels", "9")])), (2, tags(&[])), (4, tags(&[("levels", "x")]))];
        let of = |_: ElementType, id: i64| all.iter().find(|(i, _)| *i == id).map(|(_, t)| t.as_slice());
        let metres = |_: ElementType, id: i64| [None, Some(50.0), Some(7.5), Some(300.0)].get(id as usize - 1).copied().flatten();
        assert_eq!(order(rows.iter().copied(), of, metres, "levels", false), vec![1, 0, 3, 2], "9 < 10 < text, missing last");
        assert_eq!(order(rows.iter().copied(), of, metres, "levels", true), vec![3, 0, 1, 2], "descending, missing still last");
        assert_eq!(order(rows.iter().copied(), of, metres, "id", true), vec![3, 0, 2, 1]);
        assert_eq!(order(rows.iter().copied(), of, metres, "type", false), vec![1, 2, 3, 0]);
        assert_eq!(order(rows.iter().copied(), of, metres, "distance", false), vec![0, 2, 3, 1], "7.5 < 50 < 300, none last");
    }

    #[test]
    fn a_row_passes_the_filter_by_type_id_key_or_value_ignoring_case() {
        let t = tags(&[("amenity", "cafe"), ("name", "Café Cordina")]);
        assert!(row_passes(ElementType::Node, 42, &t, "cordina"), "value, other case");
        assert!(row_passes(ElementType::Node, 42, &t, "café"), "non-ASCII needle");
        assert!(row_passes(ElementType::Node, 42, &t, "AMEN".to_lowercase().as_str()), "key");
        assert!(row_passes(ElementType::Way, 42, &t, "way"), "type");
        assert!(row_passes(ElementType::Node, 1042, &t, "04"), "id");
        assert!(!row_passes(ElementType::Node, 42, &t, "restaurant"));
    }

    #[test]
    fn counts_types_keys_and_values() {
        let a = tags(&[("amenity", "cafe"), ("name", "A")]);
        let b = tags(&[("amenity", "cafe")]);
        let c = tags(&[("amenity", "bar"), ("cuisine", "x")]);
        let items = [(ElementType::Node, a.as_slice()), (ElementType::Way, b.as_slice()), (ElementType::Node, c.as_slice())];
        let stats = tag_stats(items.into_iter(), Some("amenity"), 2);
        assert_eq!(stats.types, [2, 1, 0]);
        assert_eq!(stats.keys, vec![("amenity".to_string(), 3), ("cuisine".to_string(), 1)]);
        assert_eq!(stats.values, vec![("cafe".to_string(), 2), ("bar".to_string(), 1)]);
        assert_eq!(columns(&["amenity".into()], &stats, 2), vec!["amenity".to_string(), "cuisine".to_string()]);
        assert_eq!((stats.long_keys, stats.long_values), (0, 0));
    }

    #[test]
    fn long_keys_and_values_are_counted_not_listed() {
        let long = "W".repeat(STATS_TEXT_BYTES + 1);
        let a = tags(&[("name", long.as_str()), (long.as_str(), "x")]);
        let b = tags(&[("name", "Kahvila")]);
        let items = [(ElementType::Node, a.as_slice()), (ElementType::Node, b.as_slice())];
        let stats = tag_stats(items.into_iter(), Some("name"), 10);
        assert_eq!(stats.keys, vec![("name".to_string(), 2)]);
        assert_eq!(stats.values, vec![("Kahvila".to_string(), 1)]);
        assert_eq!((stats.long_keys, stats.long_values), (1, 1));
    }
}
