//! The decode worker's face of the decoder: a [`BlobScanner`] turns each Blob into a compact
//! binary scan (postcard), each reply ending with the Blob's checksum ([`hashed`]).

use wasm_bindgen::prelude::*;

use crate::basemap::ContextNodes;
use crate::format::blob::blob_data;
use crate::index::blob_hash;
use crate::query::area_filter::AreaFilter;
use crate::query::{PreparedQuery, Query};
use crate::scan::{locate_nodes, scan_blob};
#[cfg(feature = "test-trap")]
use super::test_trap;

/// A query bound once per decode worker, then applied to each `OSMData` blob.
#[wasm_bindgen]
pub struct BlobScanner {
    query: PreparedQuery,
    /// The area's node locations the basemap is drawn from (see `setContextNodes`).
    context: ContextNodes,
}

#[wasm_bindgen]
impl BlobScanner {
    /// `query_json` is the form documented at `Query::from_json`, or `null` to only count
    /// elements. Throws for an invalid query.
    #[wasm_bindgen(constructor)]
    pub fn new(query_json: &str) -> Result<BlobScanner, JsError> {
        let query = match query_json.trim() {
            "null" => PreparedQuery::count_only(),
            json => Query::from_json(json)?.prepare()?,
        };
        Ok(BlobScanner { query, context: ContextNodes::default() })
    }

    /// Whether scans report the locations of the nodes in the area (on by default).
    #[wasm_bindgen(js_name = setAreaNodes)]
    pub fn set_area_nodes(&mut self, on: bool) {
        self.query.area_nodes = on && self.query.collect;
    }

    /// Sets the area filter [`QueryAssembler::area_filter_change`] gave (its 32-bit words): scans
    /// then leave out the candidate ways none of whose nodes can be in the area. Empty, or not a
    /// filter's words: none.
    #[wasm_bindgen(js_name = setAreaFilter)]
    pub fn set_area_filter(&mut self, words: Vec<u32>) {
        self.query.area_filter = AreaFilter::from_words(words).filter(|_| self.query.collect);
    }

    /// Inflates and scans one `OSMData` Blob (its bytes as framed in the file) and returns the
    /// scan encoded for [`QueryAssembler::add_blob`], the Blob's checksum after it ([`hashed`]).
    ///
    /// Throws for a corrupt or unsupported Blob or PrimitiveBlock (see `DecodeError`).
    pub fn scan(&self, blob: &[u8]) -> Result<Vec<u8>, JsError> {
        #[cfg(feature = "test-trap")]
        if self.query.expr.keys().iter().any(|k| k == "test:trap") {
            test_trap();
        }
        Ok(hashed(postcard::to_allocvec(&scan_blob(blob, &self.query)?)?, blob))
    }

    /// The locations of the nodes of a Blob whose ids are in `wanted` (ascending, exact up to
    /// 2^53), encoded for [`QueryAssembler::add_blob`] ([`hashed`]). Throws as [`BlobScanner::scan`].
    pub fn locate(&self, blob: &[u8], wanted: &[f64]) -> Result<Vec<u8>, JsError> {
        let wanted: Vec<i64> = wanted.iter().map(|&id| id as i64).collect();
        let found = locate_nodes(&blob_data(blob)?, &wanted, self.query.as_of())?;
        Ok(hashed(postcard::to_allocvec(&found)?, blob))
    }

    /// Inflates `blob` and returns the node refs of its ways whose ids are in `wanted`
    /// (ascending), encoded for [`QueryAssembler::add_blob`] ([`hashed`]). Throws as `scan` does.
    #[wasm_bindgen(js_name = locateWays)]
    pub fn locate_ways(&self, blob: &[u8], wanted: &[f64]) -> Result<Vec<u8>, JsError> {
        let wanted: Vec<i64> = wanted.iter().map(|&id| id as i64).collect();
        Ok(hashed(postcard::to_allocvec(&crate::scan::locate_ways(&blob_data(blob)?, &wanted, self.query.as_of())?)?, blob))
    }

    /// Sets the node locations basemap ways are drawn from, as
    /// [`QueryAssembler::scan_basemap_nodes`] gives them: `[ids…, lats_e7…, lons_e7…]`.
    #[wasm_bindgen(js_name = setContextNodes)]
    pub fn set_context_nodes(&mut self, nodes: &[f64]) {
        self.context = ContextNodes::from_columns(nodes);
    }

    /// Inflates `blob` and returns its basemap features (encoding: `crate::basemap::context_ways`),
    /// then the Blob's checksum as two i32s, low half first ([`hashed`]). Throws as `scan` does.
    #[wasm_bindgen(js_name = contextWays)]
    pub fn context_ways(&self, blob: &[u8]) -> Result<Vec<i32>, JsError> {
        let mut features = crate::basemap::context_ways(&blob_data(blob)?, &self.context)?;
        let hash = blob_hash(blob);
        features.extend([hash as u32 as i32, (hash >> 32) as u32 as i32]);
        Ok(features)
    }
}

/// `found` followed by the 8 bytes (little-endian) of the Blob's checksum
/// ([`crate::index::blob_hash`]): every decode reply carries it, for a read by a blob index to
/// check each blob against the index ([`QueryAssembler::add_blob`]).
fn hashed(mut found: Vec<u8>, blob: &[u8]) -> Vec<u8> {
    found.extend_from_slice(&blob_hash(blob).to_le_bytes());
    found
}
