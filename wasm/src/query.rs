//! A query: tags that must all be present, and an [`Area`]. Tags are matched per
//! PrimitiveBlock by string-table index, so strings are compared once per block, not per element.

use serde::Deserialize;

use crate::area::{Area, AreaTest};
use crate::error::DecodeError;

/// One tag condition: `key=value`, or a bare `key` (any value) when `value` is `None`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TagFilter {
    pub key: String,
    pub value: Option<String>,
}

/// Tags (all required) plus an area. Relations are never matched.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Query {
    pub tags: Vec<TagFilter>,
    pub area: Area,
}

impl TagFilter {
    /// Parses `key=value` or `key`. Errors: [`DecodeError::Query`] for an empty key.
    pub fn parse(text: &str) -> Result<TagFilter, DecodeError> {
        let (key, value) = match text.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (text, None),
        };
        if key.is_empty() {
            return Err(DecodeError::Query(format!("tag \"{text}\" has no key")));
        }
        Ok(TagFilter { key: key.to_string(), value })
    }
}

impl Query {
    /// Builds a query from space-separated tags (`amenity=restaurant cuisine`) and an area.
    ///
    /// Errors: [`DecodeError::Query`] for a tag without a key.
    pub fn from_tags(tags: &str, area: Area) -> Result<Query, DecodeError> {
        let tags = tags.split_whitespace().map(TagFilter::parse).collect::<Result<_, _>>()?;
        Ok(Query { tags, area })
    }

    /// Parses the JSON form the web workers send: `{"tags":[{"key":"amenity","value":"cafe"}],
    /// "area":{"circle":{"lat":60.17,"lon":24.94,"radius":1000}}}` (or `"everywhere"`, or
    /// `{"bbox":{"min_lon":…,"min_lat":…,"max_lon":…,"max_lat":…}}`).
    ///
    /// Errors: [`DecodeError::Query`] for malformed JSON or an invalid area or tag.
    pub fn from_json(json: &str) -> Result<Query, DecodeError> {
        let query: Query = serde_json::from_str(json).map_err(|e| DecodeError::Query(e.to_string()))?;
        query.prepare()?;
        Ok(query)
    }

    /// Checks the query and prepares it for scanning blocks.
    ///
    /// Errors: [`DecodeError::Query`] as for [`Area::prepare`], or for a tag with an empty key.
    pub fn prepare(&self) -> Result<PreparedQuery, DecodeError> {
        if let Some(t) = self.tags.iter().find(|t| t.key.is_empty()) {
            return Err(DecodeError::Query(format!("tag with value {:?} has no key", t.value)));
        }
        Ok(PreparedQuery { tags: self.tags.clone(), area: self.area.prepare()?, collect: true, area_nodes: true })
    }
}

/// A checked query, ready to be bound to each block's string table.
#[derive(Debug, Clone)]
pub struct PreparedQuery {
    pub tags: Vec<TagFilter>,
    pub area: AreaTest,
    /// False for a plain count: no matches, no node locations.
    pub collect: bool,
    /// Whether to report the locations of the nodes in the area ([`crate::scan::AreaNodes`]);
    /// the assembler turns this off once it has more of them than it keeps.
    pub area_nodes: bool,
}

impl PreparedQuery {
    /// A query that only counts elements and tags (a full decode, nothing kept).
    pub fn count_only() -> PreparedQuery {
        let area = Area::Everywhere.prepare().expect("the whole world is a valid area");
        PreparedQuery { tags: Vec::new(), area, collect: false, area_nodes: false }
    }
}

/// The query's tags as string-table indexes of one block. An index list per condition,
/// since nothing in the spec forbids a writer from repeating a string in the table.
pub struct BlockTags {
    keys: Vec<Vec<u32>>,
    values: Vec<Option<Vec<u32>>>,
    /// False when some key or value is absent from the table: nothing in the block matches.
    pub possible: bool,
}

impl BlockTags {
    /// Looks the query's strings up in a block's string table (`table[i]` is string `i`).
    pub fn bind<S: AsRef<[u8]>>(tags: &[TagFilter], table: &[S]) -> BlockTags {
        let indexes_of = |s: &str| -> Vec<u32> {
            let bytes = s.as_bytes();
            table.iter().enumerate().filter(|(_, t)| t.as_ref() == bytes).map(|(i, _)| i as u32).collect()
        };
        let keys: Vec<Vec<u32>> = tags.iter().map(|t| indexes_of(&t.key)).collect();
        let values: Vec<Option<Vec<u32>>> = tags.iter().map(|t| t.value.as_deref().map(indexes_of)).collect();
        let possible = keys.iter().all(|k| !k.is_empty()) && values.iter().flatten().all(|v| !v.is_empty());
        BlockTags { keys, values, possible }
    }

    /// Whether an element whose tags are the (key, value) index pairs yielded by `pairs`
    /// satisfies every condition. `pairs` is called once per condition.
    #[inline]
    pub fn matches<I: Iterator<Item = (u32, u32)>>(&self, pairs: impl Fn() -> I) -> bool {
        if !self.possible {
            return false;
        }
        self.keys.iter().zip(&self.values).all(|(keys, values)| {
            pairs().any(|(k, v)| keys.contains(&k) && values.as_ref().is_none_or(|vals| vals.contains(&v)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tags_and_binds_them_to_a_string_table() {
        let q = Query::from_tags("amenity=cafe  cuisine", Area::Everywhere).unwrap();
        assert_eq!(q.tags[1], TagFilter { key: "cuisine".into(), value: None });
        let table: Vec<Vec<u8>> = ["", "amenity", "cafe", "cuisine", "pizza"].iter().map(|s| s.as_bytes().to_vec()).collect();
        let bound = BlockTags::bind(&q.tags, &table);
        assert!(bound.matches(|| [(1, 2), (3, 4)].into_iter()));
        assert!(!bound.matches(|| [(1, 2)].into_iter()));
        assert!(!bound.matches(|| [(1, 4), (3, 4)].into_iter()));
        assert!(Query::from_tags("=x", Area::Everywhere).is_err());
    }

    #[test]
    fn parses_the_worker_json_form() {
        let q = Query::from_json(r#"{"tags":[{"key":"shop","value":null}],"area":{"circle":{"lat":1,"lon":2,"radius":3}}}"#).unwrap();
        assert_eq!(q.area, Area::Circle { lat: 1.0, lon: 2.0, radius: 3.0 });
        assert!(Query::from_json(r#"{"tags":[],"area":{"circle":{"lat":100,"lon":2,"radius":3}}}"#).is_err());
    }
}
