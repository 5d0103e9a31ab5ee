//! The JavaScript face of the decoder (wasm-bindgen). A decode worker holds a [`BlobScanner`]
//! and turns each Blob into a compact binary scan (postcard); the query worker holds a
//! [`QueryAssembler`] that merges those scans and answers the page: map changes, list rows,
//! single matches and the export. Every error becomes a JS `Error` with the decoder's message.

use wasm_bindgen::prelude::*;

use crate::area_filter::AreaFilter;
use crate::assemble::{csv_header, csv_row, feature, Assembler, BlobEntry, CsvColumns, ElementType, SecondRead};
use crate::blob::blob_data;
use crate::context::ContextNodes;
use crate::frame::decode_blob_header;
use crate::header::decode_header;
use crate::index::{BlobIndex, FileIdentity};
use crate::query::{PreparedQuery, Query};
use crate::scan::{locate_nodes, scan_blob, BlockScan};

/// Decodes an `OSMHeader` frame's Blob and returns its HeaderInfo as JSON:
/// `{"bbox":[minlon,minlat,maxlon,maxlat]|null,"required_features":[…],…}` (degrees WGS84).
///
/// Throws for a corrupt Blob, an unsupported compression, or an unsupported required feature.
#[wasm_bindgen(js_name = readHeader)]
pub fn read_header(blob: &[u8]) -> Result<String, JsError> {
    let info = decode_header(&blob_data(blob)?)?;
    Ok(serde_json::to_string(&info)?)
}

/// Decodes an encoded `BlobHeader` (spec "File format") and returns
/// `{"type": string, "datasize": bytes}` as JSON. `offset` (bytes) is for messages only.
///
/// Throws for a corrupt BlobHeader or a `datasize` over the spec's 32 MiB cap.
#[wasm_bindgen(js_name = readBlobHeader)]
pub fn read_blob_header(bytes: &[u8], offset: f64) -> Result<String, JsError> {
    let header = decode_blob_header(bytes, offset as u64)?;
    Ok(serde_json::json!({ "type": header.r#type, "datasize": header.datasize }).to_string())
}

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
    /// scan encoded for [`QueryAssembler::add_block`].
    ///
    /// Throws for a corrupt or unsupported Blob or PrimitiveBlock (see `DecodeError`).
    pub fn scan(&self, blob: &[u8]) -> Result<Vec<u8>, JsError> {
        #[cfg(feature = "test-trap")]
        if self.query.expr.keys().iter().any(|k| k == "test:trap") {
            test_trap();
        }
        Ok(postcard::to_allocvec(&scan_blob(blob, &self.query)?)?)
    }

    /// The locations of the nodes of a Blob whose ids are in `wanted` (ascending, exact up to
    /// 2^53), encoded for [`QueryAssembler::add_locations`]. Throws as [`BlobScanner::scan`].
    pub fn locate(&self, blob: &[u8], wanted: &[f64]) -> Result<Vec<u8>, JsError> {
        let wanted: Vec<i64> = wanted.iter().map(|&id| id as i64).collect();
        let found = locate_nodes(&blob_data(blob)?, &wanted, self.query.as_of())?;
        Ok(postcard::to_allocvec(&found)?)
    }

    /// Inflates `blob` and returns the node refs of its ways whose ids are in `wanted`
    /// (ascending), encoded for [`QueryAssembler::add_member_ways`]. Throws as `scan` does.
    #[wasm_bindgen(js_name = locateWays)]
    pub fn locate_ways(&self, blob: &[u8], wanted: &[f64]) -> Result<Vec<u8>, JsError> {
        let wanted: Vec<i64> = wanted.iter().map(|&id| id as i64).collect();
        Ok(postcard::to_allocvec(&crate::scan::locate_ways(&blob_data(blob)?, &wanted, self.query.as_of())?)?)
    }

    /// Sets the node locations basemap ways are drawn from, as
    /// [`QueryAssembler::context_nodes`] gives them: `[ids…, lats_e7…, lons_e7…]`.
    #[wasm_bindgen(js_name = setContextNodes)]
    pub fn set_context_nodes(&mut self, nodes: &[f64]) {
        self.context = ContextNodes::from_columns(nodes);
    }

    /// Inflates `blob` and returns its basemap features (encoding: `crate::context::context_ways`).
    /// Throws as `scan` does.
    #[wasm_bindgen(js_name = contextWays)]
    pub fn context_ways(&self, blob: &[u8]) -> Result<Vec<i32>, JsError> {
        Ok(crate::context::context_ways(&blob_data(blob)?, &self.context)?)
    }
}

/// A file's identity for its blob index (16 bytes, [`FileIdentity`]): `size` in bytes, `head`
/// and `tail` its first and last `min(size, 1 MiB)` bytes.
#[wasm_bindgen(js_name = fileIdentity)]
pub fn file_identity(size: f64, head: &[u8], tail: &[u8]) -> Vec<u8> {
    FileIdentity::of(size as u64, head, tail).to_bytes().to_vec()
}

/// The answer of one query, assembled in the query worker from the decode workers' scans.
#[wasm_bindgen]
pub struct QueryAssembler {
    inner: Assembler,
    plan: Option<SecondRead>,
    /// The tag columns of the CSV export under way.
    csv_columns: CsvColumns,
    /// The query's exact keys: the table's first tag columns.
    query_keys: Vec<String>,
    /// The basemap read's nodes until taken, or why there is no basemap.
    context_nodes: Vec<f64>,
    context_note: Option<String>,
    /// The query, for planning an indexed read.
    query: PreparedQuery,
}

/// Blobs of a read's plan as `[index, offset, size, 0, 0]` each (the layout of the targeted
/// reads' plans, with no wanted ids).
fn frames_of(blobs: &[BlobEntry]) -> Vec<f64> {
    blobs.iter().flat_map(|b| [b.index as f64, b.offset as f64, b.size as f64, 0.0, 0.0]).collect()
}

fn element_type(name: &str) -> Result<ElementType, JsError> {
    match name {
        "node" => Ok(ElementType::Node),
        "way" => Ok(ElementType::Way),
        "relation" => Ok(ElementType::Relation),
        _ => Err(JsError::new(&format!("unknown element type {name:?}"))),
    }
}

#[wasm_bindgen]
impl QueryAssembler {
    /// `query_json` as for [`BlobScanner::new`] (not `null`); `budget`: node locations kept
    /// before the second read takes over (0 for the default). Throws for an invalid query.
    #[wasm_bindgen(constructor)]
    pub fn new(query_json: &str, budget: u32) -> Result<QueryAssembler, JsError> {
        let query = Query::from_json(query_json)?.prepare()?;
        let budget = if budget == 0 { crate::assemble::DEFAULT_LOCATION_BUDGET } else { budget as usize };
        let inner = Assembler::new(query.area.clone(), budget).with_inside_all(query.inside == crate::query::Inside::All);
        Ok(QueryAssembler { inner, plan: None, csv_columns: CsvColumns::default(), context_nodes: Vec::new(), context_note: None, query_keys: query.expr.keys(), query })
    }

    /// Starts an indexed read from `index` (a blob index file, `docs/blob-index.md`) of the file
    /// whose identity is `identity` ([`file_identity`]). Returns the frames the first read
    /// takes as `[index, offset, size, 0, 0]` each, the OSMHeader's first; the targeted reads
    /// and the basemap plan from the index too. Call before any `addBlock`; not for history
    /// files.
    ///
    /// Throws "the blob index is corrupt (…)" or "… of another file, or of this file before it
    /// changed" ([`crate::index::IndexError`]); the assembler is then unchanged.
    #[wasm_bindgen(js_name = useIndex)]
    pub fn use_index(&mut self, index: &[u8], identity: &[u8]) -> Result<Vec<f64>, JsError> {
        let identity = FileIdentity::from_bytes(identity).ok_or_else(|| JsError::new("a file identity has 16 bytes"))?;
        let index = BlobIndex::decode(index)?.check(identity)?;
        let plan = index.plan(&self.query);
        self.inner.use_index(&index, &plan);
        let (offset, size) = index.header_frame;
        let mut out = vec![0.0, offset as f64, size as f64, 0.0, 0.0];
        for &i in &plan.entries {
            let e = &index.entries[i];
            out.extend([e.index as f64, e.offset as f64, e.size as f64, 0.0, 0.0]);
        }
        Ok(out)
    }

    /// The blob index the full read's scans noted (the query had `"index": true`), in its file
    /// format, for the file of `identity` ([`file_identity`]); `replication_timestamp` is the
    /// header's (seconds since the epoch, NaN for none), `header_offset` and `header_size` its
    /// frame's (bytes). Undefined when no scan noted anything. Call once the read is done.
    #[wasm_bindgen(js_name = blobIndex)]
    pub fn blob_index(&mut self, identity: &[u8], replication_timestamp: f64, header_offset: f64, header_size: f64) -> Option<Vec<u8>> {
        let identity = FileIdentity::from_bytes(identity)?;
        let ts = (!replication_timestamp.is_nan()).then_some(replication_timestamp as i64);
        Some(self.inner.blob_index(identity, ts, (header_offset as u64, header_size as u64))?.encode())
    }

    /// A whole read of a file that is not a history file: candidate ways that cannot match are
    /// dropped from its first blob of ways on, as if it were sorted by type then id
    /// (`Assembler::expect_sorted`). Call before the first `addBlock`.
    #[wasm_bindgen(js_name = expectSorted)]
    pub fn expect_sorted(&mut self) {
        self.inner.expect_sorted();
    }

    /// Adds the scan of blob `index` (frame at byte `offset`, `size` bytes); blobs come in
    /// file order. Returns whether the area's node locations overflowed the budget (scans may
    /// then leave them out).
    #[wasm_bindgen(js_name = addBlock)]
    pub fn add_block(&mut self, index: u32, offset: f64, size: f64, scan: &[u8]) -> Result<bool, JsError> {
        let scan: BlockScan = postcard::from_bytes(scan)?;
        self.inner.add_block(index, offset as u64, size as u64, scan)?;
        Ok(self.inner.overflowed())
    }

    /// The decode workers' area filter, when it changed with the blobs added so far
    /// ([`Assembler::take_area_filter_change`]): its 32-bit words for
    /// [`BlobScanner::set_area_filter`], empty when it is to be taken back; undefined when it
    /// did not change. Call after each [`QueryAssembler::add_block`].
    #[wasm_bindgen(js_name = areaFilterChange)]
    pub fn area_filter_change(&mut self) -> Option<Vec<u32>> {
        self.inner.take_area_filter_change().map(|f| f.map(|f| f.words().to_vec()).unwrap_or_default())
    }

    /// `[nodes, ways, relations, tags, way_refs, relation_members]` decoded so far.
    pub fn counts(&self) -> Vec<f64> {
        let c = &self.inner.decoded;
        [c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members].map(|n| n as f64).to_vec()
    }

    /// Plans the rescan read (the first read over, before the member read): the blobs whose
    /// dropped ways must be scanned again because the file was not sorted by type then id
    /// (`Assembler::rescan_read`), as [`QueryAssembler::plan_context_read`] lists them; empty
    /// when the drops stand. Their scans go to [`QueryAssembler::add_rescanned_ways`].
    #[wasm_bindgen(js_name = planRescanRead)]
    pub fn plan_rescan_read(&self) -> Vec<f64> {
        frames_of(&self.inner.rescan_read().unwrap_or_default())
    }

    /// Adds the ways of a scan (as for [`QueryAssembler::add_block`]) of blob `index` from the rescan read.
    #[wasm_bindgen(js_name = addRescannedWays)]
    pub fn add_rescanned_ways(&mut self, index: u32, scan: &[u8]) -> Result<(), JsError> {
        self.inner.add_rescanned_ways(index, postcard::from_bytes(scan)?);
        Ok(())
    }

    /// Plans the targeted second read; returns its blobs as a flat array of
    /// `[index, offset, size, from, to]` per blob (`from..to` is the blob's slice of
    /// [`QueryAssembler::wanted`]), empty when nothing is missing.
    #[wasm_bindgen(js_name = planSecondRead)]
    pub fn plan_second_read(&mut self) -> Vec<f64> {
        self.plan = self.inner.second_read();
        self.plan_blobs()
    }

    /// Plans the geometry read (after [`QueryAssembler::finish`]): the blobs that hold nodes of
    /// matched ways not located yet, as [`QueryAssembler::plan_second_read`] lists them. What
    /// `locate` finds there goes to [`QueryAssembler::add_way_locations`].
    #[wasm_bindgen(js_name = planMemberRead)]
    pub fn plan_member_read(&mut self) -> Vec<f64> {
        self.plan = self.inner.member_read();
        self.plan_blobs_by(|s| (s.min_way_id, s.max_way_id))
    }

    /// Adds what [`BlobScanner::locate_ways`] found in blob `index` during the member read.
    #[wasm_bindgen(js_name = addMemberWays)]
    pub fn add_member_ways(&mut self, index: u32, found: &[u8]) -> Result<(), JsError> {
        self.inner.add_member_ways(index, postcard::from_bytes(found)?);
        Ok(())
    }

    #[wasm_bindgen(js_name = planGeometryRead)]
    pub fn plan_geometry_read(&mut self) -> Vec<f64> {
        self.plan = self.inner.geometry_read();
        self.plan_blobs()
    }

    fn plan_blobs(&self) -> Vec<f64> {
        self.plan_blobs_by(|s| (s.min_node_id, s.max_node_id))
    }

    /// The plan's blobs, each with its slice of `wanted` by the id range `range` gives.
    fn plan_blobs_by(&self, range: impl Fn(&crate::scan::BlockSummary) -> (i64, i64)) -> Vec<f64> {
        let Some(plan) = &self.plan else { return Vec::new() };
        let mut out = Vec::with_capacity(plan.blobs.len() * 5);
        for b in &plan.blobs {
            let (min, max) = range(&b.summary);
            let from = plan.wanted.partition_point(|&id| id < min);
            let to = plan.wanted.partition_point(|&id| id <= max);
            out.extend([b.index as f64, b.offset as f64, b.size as f64, from as f64, to as f64]);
        }
        out
    }

    /// Plans the basemap read (after the answer is done): the blobs that hold ways, as
    /// [`QueryAssembler::plan_second_read`] lists them (`from`, `to` unused); empty when the
    /// basemap is skipped, and then [`QueryAssembler::context_note`] says why.
    #[wasm_bindgen(js_name = planContextRead)]
    pub fn plan_context_read(&mut self) -> Vec<f64> {
        self.context_note = None;
        match self.inner.context_read() {
            Ok((nodes, blobs)) => {
                self.context_nodes = nodes.columns();
                frames_of(&blobs)
            }
            Err(note) => {
                self.context_note = Some(note);
                Vec::new()
            }
        }
    }

    /// Why the last [`QueryAssembler::plan_context_read`] planned no read, if it did not.
    #[wasm_bindgen(js_name = contextNote)]
    pub fn context_note(&self) -> Option<String> {
        self.context_note.clone()
    }

    /// The area's node locations for `BlobScanner.setContextNodes`, taken once:
    /// `[ids…, lats_e7…, lons_e7…]` (1e-7 degrees).
    #[wasm_bindgen(js_name = contextNodes)]
    pub fn context_nodes(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.context_nodes)
    }

    /// The node ids the second read looks for, ascending.
    pub fn wanted(&self) -> Vec<f64> {
        self.plan.as_ref().map(|p| p.wanted.iter().map(|&id| id as f64).collect()).unwrap_or_default()
    }

    /// Adds what [`BlobScanner::locate`] found in blob `index`.
    #[wasm_bindgen(js_name = addLocations)]
    pub fn add_locations(&mut self, index: u32, found: &[u8]) -> Result<(), JsError> {
        let found: Vec<(i64, i32, i32)> = postcard::from_bytes(found)?;
        self.inner.add_locations(index, &found);
        Ok(())
    }

    /// Adds what [`BlobScanner::locate`] found in blob `index` during the geometry read.
    #[wasm_bindgen(js_name = addWayLocations)]
    pub fn add_way_locations(&mut self, index: u32, found: &[u8]) -> Result<(), JsError> {
        let found: Vec<(i64, i32, i32)> = postcard::from_bytes(found)?;
        self.inner.add_way_locations(index, &found);
        Ok(())
    }

    /// Places every way once all blobs are in (see `Assembler::finish`).
    pub fn finish(&mut self) {
        self.plan = None;
        self.inner.finish();
    }

    /// Gives the matched ways their full geometry once the geometry read is in (see
    /// `Assembler::finish_geometry`).
    #[wasm_bindgen(js_name = finishGeometry)]
    pub fn finish_geometry(&mut self) {
        self.plan = None;
        self.inner.finish_geometry();
    }

    /// Orders the list's rows by `column` (`type`, `id`, `name` or a tag key; empty: by label).
    #[wasm_bindgen(js_name = orderBy)]
    pub fn order_by(&mut self, column: &str, descending: bool) {
        self.inner.set_order((!column.is_empty()).then(|| column.to_string()), descending);
    }

    /// What the read learnt about the file, as JSON: `{"blobs":{"zlib":n,…},"counts":{…},
    /// "id_ranges":{"node":[min,max]|null,"way":…,"relation":…}}` (the OSMData blobs read).
    #[wasm_bindgen(js_name = fileFacts)]
    pub fn file_facts(&self) -> String {
        serde_json::to_string(&self.inner.file_facts()).unwrap_or_default()
    }

    /// Tag statistics of the answer as JSON: `{"types":[nodes,ways,relations],
    /// "keys":[[key,count]…],"values":[[value,count]…],"columns":[key…]}` — the `top` most
    /// frequent keys, the `top` most frequent values of `key` (empty: none), and the table's tag
    /// columns (the query's keys, then the most frequent others; 6 at most).
    #[wasm_bindgen(js_name = tagStats)]
    pub fn tag_stats(&mut self, key: &str, top: u32) -> String {
        let stats = self.inner.tag_stats((!key.is_empty()).then_some(key), top as usize);
        let columns = crate::table::columns(&self.query_keys, &stats, 6);
        serde_json::json!({ "types": stats.types, "keys": stats.keys, "values": stats.values, "columns": columns }).to_string()
    }

    /// The number of matches.
    pub fn count(&self) -> u32 {
        self.inner.len() as u32
    }

    /// The map's changes since the last call, at most `max` added features, as numbers (see
    /// `Assembler::drain_changes`): `[r, r feature ids, then per addition: feature id, kind
    /// (0 Point, 1 LineString, 2 Polygon), n, n × (lon, lat)]`.
    #[wasm_bindgen(js_name = drainChanges)]
    pub fn drain_changes(&mut self, max: u32) -> Vec<f64> {
        self.inner.drain_changes(max as usize)
    }

    /// How many map changes wait to be drained.
    #[wasm_bindgen(js_name = pendingChanges)]
    pub fn pending_changes(&self) -> u32 {
        self.inner.pending_changes() as u32
    }

    /// Matches `start .. start + count` of the list (label, then type and id) as a JSON array
    /// of `{"type","id","lat","lon","tags":[[k,v]…]}` (degrees WGS84).
    pub fn rows(&mut self, start: u32, count: u32) -> String {
        serde_json::to_string(&self.inner.rows(start as usize, count as usize)).unwrap_or_else(|_| "[]".into())
    }

    /// One match as in [`QueryAssembler::rows`], or `undefined` when it is not one.
    /// Throws for a `type` other than `node` or `way`.
    pub fn get(&self, r#type: &str, id: f64) -> Result<Option<String>, JsError> {
        let m = self.inner.get(element_type(r#type)?, id as i64);
        Ok(m.and_then(|m| serde_json::to_string(&m).ok()))
    }

    /// Matches `start .. start + count` of the list as GeoJSON Features (RFC 7946) with their
    /// geometry (see `Assembler::shape`) and the tags, `osm_type` and `osm_id` as properties,
    /// joined by commas: a piece of the export.
    #[wasm_bindgen(js_name = exportCsvHeader)]
    /// Starts a CSV export (RFC 4180): its header line, whose tag columns
    /// [`QueryAssembler::export_csv_rows`] then follows.
    pub fn export_csv_header(&mut self) -> String {
        self.csv_columns = CsvColumns::new(self.inner.tag_keys());
        csv_header(&self.csv_columns)
    }

    /// Matches `start .. start + count` of the list as CSV lines (see `export_csv_header`).
    #[wasm_bindgen(js_name = exportCsvRows)]
    pub fn export_csv_rows(&mut self, start: u32, count: u32) -> String {
        let rows = self.inner.rows(start as usize, count as usize);
        rows.iter().filter_map(|m| Some(csv_row(m, &self.inner.shape(m.element, m.id)?, &self.csv_columns))).collect()
    }

    #[wasm_bindgen(js_name = exportFeatures)]
    pub fn export_features(&mut self, start: u32, count: u32) -> String {
        let rows = self.inner.rows(start as usize, count as usize);
        rows.iter().filter_map(|m| Some(feature(m, &self.inner.shape(m.element, m.id)?))).collect::<Vec<_>>().join(",")
    }
}

/// Bench only (feature `bench-inflate`): inflates the zlib data of one Blob with `inflater`
/// (`"zune-inflate"`, the product's path; `"zlib-rs"` or `"miniz_oxide"`) and returns the
/// inflated size in bytes, so `npm run bench` re-checks the choice of inflater in Wasm on every
/// run. Throws for a Blob without zlib data.
#[cfg(feature = "bench-inflate")]
#[wasm_bindgen(js_name = benchInflate)]
pub fn bench_inflate(blob: &[u8], inflater: &str) -> Result<u32, JsError> {
    use prost::Message;
    let blob = crate::proto::Blob::decode(blob).map_err(|e| JsError::new(&e.to_string()))?;
    let Some(crate::proto::blob::Data::ZlibData(data)) = blob.data else { return Err(JsError::new("not a zlib blob")) };
    let size = blob.raw_size.unwrap_or(0) as usize;
    match inflater {
        "zune-inflate" => Ok(crate::blob::blob_data_zlib_for_bench(&data, blob.raw_size)? as u32),
        "zlib-rs" => {
            let mut out = vec![0u8; size.max(1)];
            let (inflated, code) = zlib_rs::decompress_slice(&mut out, &data, zlib_rs::InflateConfig::default());
            if code != zlib_rs::ReturnCode::Ok {
                return Err(JsError::new(&format!("zlib-rs: {code:?}")));
            }
            Ok(inflated.len() as u32)
        }
        "miniz_oxide" => {
            let out = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&data, size.max(1))
                .map_err(|e| JsError::new(&format!("miniz_oxide: {e:?}")))?;
            Ok(out.len() as u32)
        }
        _ => Err(JsError::new("inflater is zune-inflate, zlib-rs or miniz_oxide")),
    }
}

/// A real Wasm trap (`unreachable`), for the test build only (feature `test-trap`).
#[cfg(feature = "test-trap")]
fn test_trap() -> ! {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
    #[cfg(not(target_arch = "wasm32"))]
    std::process::abort();
}
