//! The JavaScript face of the decoder (wasm-bindgen): one call per blob, so a Web Worker can
//! decode the frames the main thread hands it. Results cross as typed arrays and one small
//! JSON string of matches; every error becomes a JS `Error` with the decoder's message.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::blob::blob_data;
use crate::header::decode_header;
use crate::query::{PreparedQuery, Query};
use crate::scan::{scan_block, BlockScan, MatchedNode, WayCandidate};

/// Decodes an `OSMHeader` frame's Blob and returns its HeaderInfo as JSON:
/// `{"bbox":[minlon,minlat,maxlon,maxlat]|null,"required_features":[…],…}` (degrees WGS84).
///
/// Throws for a corrupt Blob, an unsupported compression, or an unsupported required feature.
#[wasm_bindgen(js_name = readHeader)]
pub fn read_header(blob: &[u8]) -> Result<String, JsError> {
    let info = decode_header(&blob_data(blob)?)?;
    Ok(serde_json::to_string(&info)?)
}

/// A query bound once per worker, then applied to each `OSMData` blob.
#[wasm_bindgen]
pub struct BlobScanner {
    query: PreparedQuery,
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
        Ok(BlobScanner { query })
    }

    /// Inflates and scans one `OSMData` Blob (its bytes as framed in the file).
    ///
    /// Throws for a corrupt or unsupported Blob or PrimitiveBlock (see `DecodeError`).
    pub fn scan(&self, blob: &[u8]) -> Result<BlobResult, JsError> {
        Ok(BlobResult { scan: scan_block(blob_data(blob)?, &self.query)? })
    }
}

/// What one blob gave. The caller must `free()` it after reading.
#[wasm_bindgen]
pub struct BlobResult {
    scan: BlockScan,
}

#[derive(Serialize)]
struct MatchesJson<'a> {
    nodes: &'a [MatchedNode],
    ways: &'a [WayCandidate],
}

#[wasm_bindgen]
impl BlobResult {
    /// `[nodes, ways, relations, tags, way_refs, relation_members]` of the block.
    pub fn counts(&self) -> Vec<f64> {
        let c = &self.scan.counts;
        [c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members].map(|n| n as f64).to_vec()
    }

    /// `{"nodes":[{"id","lat","lon","tags":[[k,v]…]}…],"ways":[{"id","tags","refs":[…],"position":[lat,lon]|null}…]}`.
    #[wasm_bindgen(js_name = matchesJson)]
    pub fn matches_json(&self) -> String {
        let m = MatchesJson { nodes: &self.scan.nodes, ways: &self.scan.ways };
        serde_json::to_string(&m).unwrap_or_else(|_| r#"{"nodes":[],"ways":[]}"#.into())
    }

    /// Ids of the block's nodes in the area, ascending (exact up to 2^53).
    #[wasm_bindgen(js_name = areaNodeIds)]
    pub fn area_node_ids(&self) -> Vec<f64> {
        self.scan.area_nodes.ids.iter().map(|&id| id as f64).collect()
    }

    /// Latitudes of those nodes in 1e-7 degrees.
    #[wasm_bindgen(js_name = areaNodeLats)]
    pub fn area_node_lats(&self) -> Vec<i32> {
        self.scan.area_nodes.lats_e7.clone()
    }

    /// Longitudes of those nodes in 1e-7 degrees.
    #[wasm_bindgen(js_name = areaNodeLons)]
    pub fn area_node_lons(&self) -> Vec<i32> {
        self.scan.area_nodes.lons_e7.clone()
    }
}
