//! The field's shared words, used by every stage: an element's type, a tag, a relation's
//! member (OSM wiki, "Elements"; PBF Format, "Definition of OSMData fileblock").

use serde::Serialize;

/// An OSM tag as decoded text: (key, value). Invalid UTF-8 is replaced, never trusted.
pub type Tag = (String, String);

/// Tags from string pairs, for tests.
#[cfg(test)]
pub(crate) fn tags_of(list: &[(&str, &str)]) -> Vec<Tag> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// A member of a relation: the element's type (0 node, 1 way, 2 relation), id and role.
pub type Member = (u8, i64, String);

/// An element's type: node, way or relation (OSM wiki, Elements).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ElementType {
    Node,
    Way,
    Relation,
}

impl ElementType {
    /// `"node"` or `"way"`, as in OSM's own URLs.
    pub fn name(self) -> &'static str {
        match self {
            ElementType::Node => "node",
            ElementType::Way => "way",
            ElementType::Relation => "relation",
        }
    }

    /// The type numbered as the PBF numbers member types: 0 node, 1 way, else relation.
    pub fn from_code(code: u8) -> ElementType {
        match code {
            0 => ElementType::Node,
            1 => ElementType::Way,
            _ => ElementType::Relation,
        }
    }

    /// The map feature id of element `id` of this type: `id × 4 + type` (room for relations).
    /// It wraps for ids beyond ±2^61, which no OSM id comes near but a hostile file may hold
    /// (found by the `scan_file` fuzz target): such an element gets a wrong feature id, not a panic.
    pub fn feature_id(self, id: i64) -> i64 {
        id.wrapping_mul(4).wrapping_add(self as i64)
    }
}
