//! The JavaScript face of the decoder (wasm-bindgen). A decode worker holds a [`BlobScanner`]
//! and turns each Blob into a compact binary scan (postcard); the query worker holds a
//! [`QueryAssembler`] that merges those scans and answers the page: map changes, list rows,
//! single matches and the export; `layout` holds `optimize`'s and the area copies'. Every error
//! becomes a JS `Error` with the decoder's message.

use wasm_bindgen::prelude::*;

mod layout;
mod places;
mod elsewhere;
mod geoparquet;
mod scanner;
mod table;
pub use layout::{AreaCopy, FileLayout, FileOptimizer};
pub use places::PlaceList;
pub use scanner::BlobScanner;

use crate::assembly::geometry::Shape;
use crate::assembly::trim::{trim, ShownLimits, LIST_LIMITS, POPUP_LIMITS};
use crate::assembly::{csv_header, csv_row, feature, Assembler, CsvColumns, Match};
use crate::element::ElementType;
use crate::format::blob::blob_data;
use crate::format::frame::decode_blob_header;
use crate::format::header::decode_header;
use crate::index::FileIdentity;
use crate::query::Query;
use crate::assembly::read_plan::{Blobs, Decode, Found, PlannedBlob, ReadPlan};

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

/// A file's identity for its blob index (16 bytes, [`FileIdentity`]): `size` in bytes, `head`
/// and `tail` its first and last `min(size, 1 MiB)` bytes.
#[wasm_bindgen(js_name = fileIdentity)]
pub fn file_identity(size: f64, head: &[u8], tail: &[u8]) -> Vec<u8> {
    FileIdentity::of(size as u64, head, tail).to_bytes().to_vec()
}

/// The answer of one query and its read plan ([`ReadPlan`]), in the query worker: it says which
/// blobs to read next and what the decode workers look for, and takes their findings.
#[wasm_bindgen]
pub struct QueryAssembler {
    plan: ReadPlan,
    /// The query's JSON form as given (the decode workers' query is made from it).
    query_json: serde_json::Value,
    /// The wanted ids of the read under way.
    wanted: Vec<i64>,
    /// The tag columns of the CSV export under way.
    csv_columns: CsvColumns,
    /// The query's exact keys: the table's first tag columns.
    query_keys: Vec<String>,
    /// How many matches the last export piece held ([`QueryAssembler::exported_count`]).
    exported: u32,
}

impl QueryAssembler {
    /// The bounds of the query's area (`[min_lat, min_lon, max_lat, max_lon]`, degrees) when an
    /// area copy may serve it; None for the whole file, a moment (`at`, `from`: history files
    /// are not copied), or a relation whose outline is not read yet (the worker asks again with
    /// its outline once kept).
    fn copy_bounds(&self) -> Option<[f64; 4]> {
        let query = self.plan.query();
        let unknown = query.area.is_everywhere() || query.area.relation().is_some();
        (!unknown && query.at.is_none() && query.from.is_none()).then(|| query.area.bounds())
    }
}

/// Blobs of a read as `[index, offset, size, from, to]` each.
fn frames_of(blobs: &[PlannedBlob]) -> Vec<f64> {
    blobs.iter().flat_map(|b| [b.index as f64, b.offset as f64, b.size as f64, b.from as f64, b.to as f64]).collect()
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
    /// `query_json` as for [`BlobScanner::new`] (`null`: a read that only counts elements);
    /// `budget`: node locations kept before the node location pass takes over (0 for the
    /// default). Throws for an invalid query, with its syntax error's column.
    #[wasm_bindgen(constructor)]
    pub fn new(query_json: &str, budget: u32) -> Result<QueryAssembler, JsError> {
        let raw: serde_json::Value = serde_json::from_str(query_json).map_err(|e| JsError::new(&e.to_string()))?;
        let query_json = if raw.is_null() { serde_json::json!({ "q": "", "area": "everywhere", "count_only": true }) } else { raw };
        let query = Query::from_json(&query_json.to_string())?.prepare()?;
        #[cfg(feature = "test-trap")]
        if query.expr.keys().iter().any(|k| k == "test:trap-assembler") {
            test_trap();
        }
        let budget = if budget == 0 { crate::assembly::DEFAULT_LOCATION_BUDGET } else { budget as usize };
        let plan = ReadPlan::new(&query, budget);
        Ok(QueryAssembler { plan, query_json, wanted: Vec::new(), csv_columns: CsvColumns::default(), query_keys: query.expr.keys(), exported: 0 })
    }

    /// The bbox of the area copy to keep after this query (`docs/optimize.md`, "Area copies"):
    /// `[min_lat, min_lon, max_lat, max_lon]`, degrees; undefined for a query no copy serves
    /// ([`QueryAssembler::copy_bounds`]).
    #[wasm_bindgen(js_name = areaCopyBbox)]
    pub fn area_copy_bbox(&self) -> Option<Vec<f64>> {
        Some(crate::layout::copy_bbox(self.copy_bounds()?).to_vec())
    }

    /// Whether this query can be answered by the area copy of `bbox` (as
    /// [`QueryAssembler::area_copy_bbox`] gives it): a copy may serve it and its area lies within.
    #[wasm_bindgen(js_name = answersWithin)]
    pub fn answers_within(&self, bbox: &[f64]) -> bool {
        let (Some(bounds), Ok(bbox)) = (self.copy_bounds(), <[f64; 4]>::try_from(bbox)) else { return false };
        crate::layout::area_within(bounds, bbox)
    }

    /// Reads by `index` (a blob index file, `docs/blob-index.md`) of the file whose identity is
    /// `identity` ([`file_identity`]): the first read takes only the blobs it names. Call before
    /// the first [`QueryAssembler::next_read`]. `index` may be the head of a paged index alone
    /// (format 5, [`index_head_length`] bytes): reads of its pages (decode 4) then come first.
    ///
    /// Throws "the blob index is corrupt (…)" or "… of another file, or of this file before it
    /// changed" ([`crate::index::IndexError`]); the plan is then unchanged (a full read).
    #[wasm_bindgen(js_name = useIndex)]
    pub fn use_index(&mut self, index: &[u8], identity: &[u8]) -> Result<(), JsError> {
        let identity = FileIdentity::from_bytes(identity).ok_or_else(|| JsError::new("a file identity has 16 bytes"))?;
        Ok(self.plan.use_index_bytes(index, identity)?)
    }

    /// Takes the bytes of the index page of stub `stub` that a read of decode 4 named (with its
    /// offset and size in the index file).
    ///
    /// Throws "the blob index is corrupt (…)" when they are not that page. Before the first
    /// read has started (`indexStarted` false), `dropIndex` then makes the read a full one.
    #[wasm_bindgen(js_name = addIndexPage)]
    pub fn add_index_page(&mut self, stub: u32, bytes: &[u8]) -> Result<(), JsError> {
        Ok(self.plan.add_index_page(stub, bytes)?)
    }

    /// Whether the first read's plan is made (index pages asked for after it cannot be refused).
    #[wasm_bindgen(js_name = indexStarted)]
    pub fn index_started(&self) -> bool {
        self.plan.started()
    }

    /// Forgets the blob index before the first read has started: the read is then a full one.
    #[wasm_bindgen(js_name = dropIndex)]
    pub fn drop_index(&mut self) {
        self.plan.drop_index();
    }

    /// Has the full read note the file's blob index ([`QueryAssembler::blob_index`]). Call
    /// before the first [`QueryAssembler::next_read`]; not with `useIndex`.
    #[wasm_bindgen(js_name = buildIndex)]
    pub fn build_index(&mut self) {
        self.plan.build_index();
    }

    /// `"used"` when the read is by a blob index, `"building"` when it notes one, else undefined.
    #[wasm_bindgen(js_name = blobIndexState)]
    pub fn blob_index_state(&self) -> Option<String> {
        if self.plan.indexed() {
            Some("used".into())
        } else {
            self.plan.builds_index().then(|| "building".into())
        }
    }

    /// The next read ([`ReadPlan::next_read`]) as numbers: `[decode, whole, reread, then per blob
    /// index, offset, size, from, to]` — `decode` 0 scan, 1 locate ways, 2 locate nodes, 3
    /// basemap, 4 index pages (offset and size in the index file: see `addIndexPage`)
    /// ([`crate::assembly::read_plan::Decode`]); `whole` 1 for every frame of the file in file order (no
    /// blobs listed); `reread` 1 when the blobs were read before; `from..to` the blob's slice of
    /// [`QueryAssembler::wanted`]. Undefined once the answer is whole.
    ///
    /// Throws when the file had no OSMHeader.
    #[wasm_bindgen(js_name = nextRead)]
    pub fn next_read(&mut self) -> Result<Option<Vec<f64>>, JsError> {
        let Some(read) = self.plan.next_read()? else { return Ok(None) };
        let mut out = vec![read.decode.code() as f64, (read.blobs == Blobs::WholeFile) as u8 as f64, read.reread as u8 as f64];
        if let Blobs::Listed(blobs) = &read.blobs {
            out.extend(frames_of(blobs));
        }
        self.wanted = read.wanted;
        Ok(Some(out))
    }

    /// The ids the read under way looks for in one blob: its slice `from..to` (as
    /// [`QueryAssembler::next_read`] gives them) of them all, ascending (exact up to 2^53). One
    /// blob's at a time: a whole-file answer's second read wants tens of millions.
    ///
    /// Throws when `from..to` is not within them.
    #[wasm_bindgen(js_name = wantedOf)]
    pub fn wanted_of(&self, from: u32, to: u32) -> Result<Vec<f64>, JsError> {
        let ids = self.wanted.get(from as usize..to as usize).ok_or_else(|| JsError::new("no such slice of the wanted ids"))?;
        Ok(ids.iter().map(|&id| id as f64).collect())
    }

    /// Takes the OSMHeader frame's Blob (frame at byte `offset`, `size` bytes) and returns its
    /// HeaderInfo as JSON, as [`read_header`] does.
    ///
    /// Throws as `readHeader`, for a second OSMHeader, or for a history file read by an index.
    #[wasm_bindgen(js_name = addHeader)]
    pub fn add_header(&mut self, blob: &[u8], offset: f64, size: f64) -> Result<String, JsError> {
        let info = decode_header(&blob_data(blob)?)?;
        let json = serde_json::to_string(&info)?;
        self.plan.add_header(info, offset as u64, size as u64)?;
        Ok(json)
    }

    /// Adds what a decode worker returned for blob `index` (frame at byte `offset`, `size`
    /// bytes) in the read under way: a scan, what `locate`/`locateWays` found, or the i32s of
    /// `contextWays` (as bytes) for the basemap read, each ending with the Blob's checksum.
    /// After it, `takeIndexMismatch` says whether the blob index read by was given up.
    ///
    /// Throws for a reply of another kind than the read asked for, or cut short.
    #[wasm_bindgen(js_name = addBlob)]
    pub fn add_blob(&mut self, index: u32, offset: f64, size: f64, found: &[u8]) -> Result<(), JsError> {
        let at = found.len().checked_sub(8).ok_or_else(|| JsError::new("a decode reply without its Blob's checksum"))?;
        let (found, hash) = found.split_at(at);
        let blob_hash = u64::from_le_bytes(hash.try_into().expect("8 bytes"));
        let found = match self.plan.decode() {
            Some(Decode::Scan) => Found::Scan(postcard::from_bytes(found)?),
            Some(Decode::LocateWays) => Found::Ways(postcard::from_bytes(found)?),
            // A decode worker's `contextWays` i32s, as bytes (little-endian, as Wasm and every browser's typed arrays).
            Some(Decode::Basemap) => Found::Basemap(found.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()),
            _ => Found::Nodes(postcard::from_bytes(found)?),
        };
        Ok(self.plan.add(index, offset as u64, size as u64, blob_hash, found)?)
    }

    /// The outline of the relation that is the query's area, once read: GeoJSON MultiPolygon
    /// coordinates (`[lon, lat]` degrees) as JSON; undefined for other areas or before.
    pub fn outline(&self) -> Option<String> {
        self.plan.outline().and_then(|parts| serde_json::to_string(parts).ok())
    }

    /// The relation whose outline is the area, while its read is under way; undefined else.
    #[wasm_bindgen(js_name = findingRelation)]
    pub fn finding_relation(&self) -> Option<f64> {
        self.plan.finding_relation().map(|id| id as f64)
    }

    /// The file's named multipolygons and boundaries ([`PlaceList`]) when the read found them
    /// all (its first read was of the whole file, and is done), taken once; undefined else.
    #[wasm_bindgen(js_name = takePlaces)]
    pub fn take_places(&mut self) -> Option<PlaceList> {
        self.plan.take_places().map(PlaceList::new)
    }

    /// Why the blob index read by was given up at the last `addBlob` (a blob did not match its
    /// checksum), once; undefined while it holds. The driver then ends the read under way, drops
    /// the kept index and asks `nextRead` again: the whole file, the answer started afresh.
    #[wasm_bindgen(js_name = takeIndexMismatch)]
    pub fn take_index_mismatch(&mut self) -> Option<String> {
        self.plan.take_index_mismatch()
    }

    /// How many times the decode workers' query changed ([`ReadPlan::scan_query`]): when it
    /// moved, a driver passes on `scanQuery`, `scanAreaNodes` and `scanAreaFilter`.
    #[wasm_bindgen(js_name = scanVersion)]
    pub fn scan_version(&self) -> f64 {
        self.plan.scan_query().1 as f64
    }

    /// The decode workers' query as JSON for [`BlobScanner::new`].
    #[wasm_bindgen(js_name = scanQuery)]
    pub fn scan_query(&self) -> String {
        let scan = self.plan.scan_query().0;
        let mut json = self.query_json.clone();
        json["history"] = scan.history.into();
        json["index"] = scan.index.into();
        // A change view's reads are each of one moment.
        json["at"] = scan.at.into();
        json["from"] = serde_json::Value::Null;
        if let Some(relation) = self.plan.finding_relation() {
            json["q"] = format!("type:relation id:{relation}").into();
            json["inside"] = "any".into();
        }
        json["area"] = serde_json::to_value(scan.area.area()).unwrap_or_default();
        json.to_string()
    }

    /// Whether scans report the locations of the nodes in the area ([`BlobScanner::set_area_nodes`]).
    #[wasm_bindgen(js_name = scanAreaNodes)]
    pub fn scan_area_nodes(&self) -> bool {
        self.plan.scan_query().0.area_nodes
    }

    /// The decode workers' area filter as its 32-bit words for [`BlobScanner::set_area_filter`];
    /// empty for none.
    #[wasm_bindgen(js_name = scanAreaFilter)]
    pub fn scan_area_filter(&self) -> Vec<u32> {
        self.plan.scan_query().0.area_filter.as_ref().map(|f| f.words().to_vec()).unwrap_or_default()
    }

    /// Ends the read early (an error or a cancel): what was found stays ([`ReadPlan::stop`]).
    pub fn stop(&mut self) {
        self.plan.stop();
    }

    /// The blob index the full read noted, in its file format, for the file of `identity`
    /// ([`file_identity`]). Undefined when none was asked for or noted, or the read did not end
    /// whole. Call once the read is done.
    #[wasm_bindgen(js_name = blobIndex)]
    pub fn blob_index(&mut self, identity: &[u8]) -> Option<Vec<u8>> {
        Some(self.plan.blob_index(FileIdentity::from_bytes(identity)?)?.encode())
    }

    /// `[nodes, ways, relations, tags, way_refs, relation_members]` decoded so far.
    pub fn counts(&self) -> Vec<f64> {
        let c = self.plan.decoded();
        [c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members].map(|n| n as f64).to_vec()
    }

    /// The bbox of the matches' positions, `[west, south, east, north]` in degrees, for "zoom to
    /// data" (undefined with no placed match; [`Assembler::bounds`]).
    #[wasm_bindgen(js_name = answerBounds)]
    pub fn answer_bounds(&self) -> Option<Vec<f64>> {
        self.plan.answer().bounds().map(|b| b.to_vec())
    }

    /// The matches coloured by their values of `key`: JSON `{values: [[value, count]…], other,
    /// none, features: [feature id, class, …]}` with the `top` most frequent values
    /// ([`crate::assembly::style::StyleClasses`]).
    #[wasm_bindgen(js_name = styleClasses)]
    pub fn style_classes(&mut self, key: &str, top: u32) -> String {
        serde_json::to_string(&self.plan.answer_mut().style_classes(key, top as usize)).unwrap_or_default()
    }

    /// A change view's counts, `[created, modified, deleted]` (zeros for other answers).
    #[wasm_bindgen(js_name = changeCounts)]
    pub fn change_counts(&self) -> Vec<u32> {
        self.plan.answer().change_counts().map(|n| n as u32).to_vec()
    }

    /// Asks for the basemap read of the finished answer ([`ReadPlan::ask_basemap`]): the next
    /// `nextRead` is it (decode 3), and `takeBasemap` then gives its features. Returns the reason
    /// to show when there is none (no area, an area larger than a city, a history file…).
    #[wasm_bindgen(js_name = askBasemap)]
    pub fn ask_basemap(&mut self) -> Option<String> {
        self.plan.ask_basemap().err()
    }

    /// The area's node locations a basemap read's blobs are decoded with, for
    /// `BlobScanner.setContextNodes`: `[ids…, lats_e7…, lons_e7…]` (1e-7 degrees); empty when no
    /// basemap read is asked for. A driver passes them on when `scanVersion` moved.
    #[wasm_bindgen(js_name = scanBasemapNodes)]
    pub fn scan_basemap_nodes(&self) -> Vec<f64> {
        self.plan.basemap_nodes().map(|n| n.columns()).unwrap_or_default()
    }

    /// The basemap features the basemap read gave, taken once: i32s `class, kind, n, then n ×
    /// (lon_e7, lat_e7)` per feature (1e-7 degrees; `crate::basemap::context_ways`).
    #[wasm_bindgen(js_name = takeBasemap)]
    pub fn take_basemap(&mut self) -> Vec<i32> {
        self.plan.take_basemap()
    }

    /// What the read learnt about the file, as JSON: `{"blobs":{"zlib":n,…},"counts":{…},
    /// "id_ranges":{"node":[min,max]|null,"way":…,"relation":…}}` (the OSMData blobs read).
    #[wasm_bindgen(js_name = fileFacts)]
    pub fn file_facts(&self) -> String {
        serde_json::to_string(&self.plan.answer().file_facts()).unwrap_or_default()
    }

    /// The number of matches.
    pub fn count(&self) -> u32 {
        self.plan.answer().len() as u32
    }

    /// The map's changes since the last call, at most `max` added features, as numbers (see
    /// `Assembler::drain_changes`): `[r, r feature ids, then per addition: feature id, kind
    /// (0 Point, 1 LineString, 2 Polygon), n, n × (lon, lat)]`.
    #[wasm_bindgen(js_name = drainChanges)]
    pub fn drain_changes(&mut self, max: u32) -> Vec<f64> {
        self.plan.answer_mut().drain_changes(max as usize)
    }

    /// The map draws 1 match in this many: 1, or past `MAP_MAX_FEATURES` matches an even
    /// sample's rate (see `Assembler::drain_changes`).
    #[wasm_bindgen(js_name = mapSample)]
    pub fn map_sample(&self) -> u32 {
        self.plan.answer().map_sample() as u32
    }

    /// How many map changes wait to be drained.
    #[wasm_bindgen(js_name = pendingChanges)]
    pub fn pending_changes(&self) -> u32 {
        self.plan.answer().pending_changes() as u32
    }

    /// Matches `start .. start + count` of the list (label, then type and id) as a JSON array
    /// of `{"type","id","lat","lon","tags":[[k,v]…]}` (degrees WGS84), each cut to a list row's
    /// bounds (`trim::LIST_LIMITS`; its `cut` says what was left out), so that a reply stays
    /// small whatever the tags hold.
    pub fn rows(&mut self, start: u32, count: u32) -> String {
        serde_json::to_string(&shown(self.plan.answer_mut(), start, count, &LIST_LIMITS)).unwrap_or_else(|_| "[]".into())
    }

    /// One match as in [`QueryAssembler::rows`], cut to a popup's bounds (`trim::POPUP_LIMITS`)
    /// unless `whole` (the person asked to see all of it), or `undefined` when it is not one.
    /// Throws for a `type` other than `node`, `way` or `relation`.
    pub fn get(&self, r#type: &str, id: f64, whole: bool) -> Result<Option<String>, JsError> {
        let Some(mut m) = self.plan.answer().get(element_type(r#type)?, id as i64) else { return Ok(None) };
        if !whole {
            trim(&mut m, &POPUP_LIMITS);
        }
        Ok(serde_json::to_string(&m).ok())
    }

    /// Matches from `start` of the list, whole (never cut), as a JSON array like
    /// [`QueryAssembler::rows`]: a piece of the command line's text output. At most `count`, and
    /// none past the one that brings the piece to `max_bytes` (at least one, whatever its size);
    /// [`QueryAssembler::exported_count`] says how many.
    #[wasm_bindgen(js_name = exportRows)]
    pub fn export_rows(&mut self, start: u32, count: u32, max_bytes: u32) -> String {
        let (pieces, n) = exported(self.plan.answer_mut(), start, count, max_bytes, |m, _| serde_json::to_string(m).unwrap_or_default(), String::len);
        self.exported = n;
        format!("[{}]", pieces.join(","))
    }

    /// How many matches the last export piece (`exportRows`, `exportCsvRows`, `exportFeatures`) held.
    #[wasm_bindgen(js_name = exportedCount)]
    pub fn exported_count(&self) -> u32 {
        self.exported
    }

    /// Starts a CSV export (RFC 4180): its header line, whose tag columns
    /// [`QueryAssembler::export_csv_rows`] then follows.
    #[wasm_bindgen(js_name = exportCsvHeader)]
    pub fn export_csv_header(&mut self) -> String {
        let change = self.plan.query().from.is_some();
        self.csv_columns = CsvColumns::new(self.plan.answer_mut().tag_keys()).with_change(change);
        csv_header(&self.csv_columns)
    }

    /// Matches from `start` of the list as CSV lines (see `export_csv_header`), each with its
    /// full geometry (`Assembler::export_shape`), as UTF-8 bytes; at most `count`, bounded by
    /// `max_bytes` as [`QueryAssembler::export_rows`]. Bytes, not a string: a piece then costs
    /// the page no UTF-16 copy on its way into the export's `Blob`.
    #[wasm_bindgen(js_name = exportCsvRows)]
    pub fn export_csv_rows(&mut self, start: u32, count: u32, max_bytes: u32) -> Vec<u8> {
        let columns = &self.csv_columns;
        let (pieces, n) = exported(self.plan.answer_mut(), start, count, max_bytes, |m, shape| csv_row(m, shape, columns), String::len);
        self.exported = n;
        pieces.concat().into_bytes()
    }

    /// Matches from `start` of the list as GeoJSON Features (RFC 7946) with their full geometry
    /// (`Assembler::export_shape`; null for a match with none) and the tags, `osm_type`,
    /// `osm_id` and any `problem` as properties, one a line, as UTF-8 bytes: a piece of the
    /// export's `features` array, each feature after the list's first preceded by `,` and a line
    /// break. At most `count`, bounded by `max_bytes` as [`QueryAssembler::export_rows`].
    #[wasm_bindgen(js_name = exportFeatures)]
    pub fn export_features(&mut self, start: u32, count: u32, max_bytes: u32) -> Vec<u8> {
        #[cfg(feature = "test-trap")]
        if self.query_keys.iter().any(|k| k == "test:trap-export") {
            test_trap();
        }
        let (pieces, n) = exported(self.plan.answer_mut(), start, count, max_bytes, feature, String::len);
        self.exported = n;
        let mut out = String::with_capacity(pieces.iter().map(|p| p.len() + 2).sum());
        for (i, piece) in pieces.iter().enumerate() {
            if start > 0 || i > 0 {
                out.push_str(",\n");
            }
            out.push_str(piece);
        }
        out.into_bytes()
    }
}

/// Matches `start .. start + count` of `answer`'s list cut to `limits`, built one at a time.
fn shown(answer: &mut Assembler, start: u32, count: u32, limits: &ShownLimits) -> Vec<Match> {
    let keys = answer.row_keys(start as usize, count as usize);
    keys.into_iter()
        .filter_map(|(t, id)| {
            let mut m = answer.get(t, id)?;
            trim(&mut m, limits);
            Some(m)
        })
        .collect()
}

/// Matches from `start` of `answer`'s list, built and written one at a time by `write` with
/// their export shape (and, should that have found a broken multipolygon, the reason): at most
/// `count`, none after the one that brings the pieces' `size` to `max_bytes`. The pieces, and
/// how many matches of the list they cover.
fn exported<T>(answer: &mut Assembler, start: u32, count: u32, max_bytes: u32, write: impl Fn(&Match, Option<&Shape>) -> T, size: impl Fn(&T) -> usize) -> (Vec<T>, u32) {
    let (mut pieces, mut bytes, mut covered) = (Vec::new(), 0usize, 0u32);
    for (t, id) in answer.row_keys(start as usize, count as usize) {
        if bytes >= max_bytes as usize {
            break;
        }
        covered += 1;
        let Some(mut m) = answer.get(t, id) else { continue };
        let (shape, problem) = answer.export_shape(m.element, m.id);
        m.problem = m.problem.or(problem);
        let piece = write(&m, shape.as_ref());
        bytes += size(&piece);
        pieces.push(piece);
    }
    (pieces, covered)
}

/// The bytes of the head of the blob index that starts with `bytes` (16 bytes are enough), or 0
/// when it is no index this build reads.
#[wasm_bindgen(js_name = indexHeadLength)]
pub fn index_head_length(bytes: &[u8]) -> f64 {
    crate::index::IndexHead::head_len(bytes).unwrap_or(0) as f64
}

/// Bench only (feature `bench-inflate`): inflates the zlib data of one Blob with `inflater`
/// (`"zune-inflate"`, the product's path; `"zlib-rs"` or `"miniz_oxide"`) and returns the
/// inflated size in bytes, so `npm run bench` re-checks the choice of inflater in Wasm on every
/// run. Throws for a Blob without zlib data.
#[cfg(feature = "bench-inflate")]
#[wasm_bindgen(js_name = benchInflate)]
pub fn bench_inflate(blob: &[u8], inflater: &str) -> Result<u32, JsError> {
    use prost::Message;
    let blob = crate::format::proto::Blob::decode(blob).map_err(|e| JsError::new(&e.to_string()))?;
    let Some(crate::format::proto::blob::Data::ZlibData(data)) = blob.data else { return Err(JsError::new("not a zlib blob")) };
    let size = blob.raw_size.unwrap_or(0) as usize;
    match inflater {
        "zune-inflate" => Ok(crate::format::blob::blob_data_zlib_for_bench(&data, blob.raw_size)? as u32),
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
