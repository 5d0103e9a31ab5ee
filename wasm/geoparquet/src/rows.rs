//! The rows of a GeoParquet export as the decoder hands them to the writer: one [`Row`] per
//! match, in pieces encoded with postcard (the two sides are separate Wasm modules and share no
//! memory). One definition for both sides, so neither can read the other's bytes wrongly.

use serde::{Deserialize, Serialize};

/// What an export's columns are, fixed before its first row (the Parquet schema).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Columns {
    /// The query's keys, a string column each (a match's value of that tag, the first of a
    /// repeated key), by their exported names (distinct, none an own column's name).
    pub keys: Vec<String>,
    /// A `change` column (a change view's export: `created`, `modified`, `deleted`, …).
    pub change: bool,
    /// `version`, `timestamp`, `changeset`, `uid` and `user` columns (the file carries them).
    pub meta: bool,
    /// JSON of the export's file and query, kept in the file's key-value metadata under
    /// `pbf_explorer` (as GeoJSON's foreign member `metadata`).
    pub metadata: String,
}

/// One match.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// `node`, `way` or `relation`.
    pub osm_type: String,
    pub osm_id: i64,
    /// Every tag, in the element's order, keys as they are (the map column keeps them apart
    /// from the own columns).
    pub tags: Vec<(String, String)>,
    /// Its value for each of [`Columns::keys`], in that order.
    pub keys: Vec<Option<String>>,
    /// Why it has no geometry, or a broken one.
    pub problem: Option<String>,
    /// Its class in a change view.
    pub change: Option<String>,
    pub meta: Option<RowMeta>,
    /// Its geometry as ISO WKB (little-endian, 2D, x = longitude and y = latitude in degrees
    /// WGS84); none when it has none.
    pub geometry: Option<Vec<u8>>,
    /// `[xmin, ymin, xmax, ymax]` of `geometry` in degrees.
    pub bbox: Option<[f64; 4]>,
}

/// An element version's metadata (PBF `Info`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RowMeta {
    pub version: i32,
    /// Seconds since the Unix epoch.
    pub timestamp: i64,
    pub changeset: i64,
    pub uid: i32,
    pub user: String,
}

/// `value` as bytes for the other module.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("postcard writes any of these types into a Vec")
}

/// What [`encode`] wrote.
/// # Errors
/// When `bytes` are not such a value (postcard's message).
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("GeoParquet rows: {e}"))
}
