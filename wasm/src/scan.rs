//! Decodes one `OSMData` PrimitiveBlock (spec: "Definition of OSMData fileblock") and, in the
//! same pass, counts its elements and picks what a query needs: matching nodes, ways whose
//! tags match (to be placed later from node locations), and the locations of every node in
//! the query's area.

use serde::{Deserialize, Serialize};

use crate::block::{Block, Dense, Element, Node, Packed, Relation, Way};
use crate::error::DecodeError;
use crate::expr::ElementKind;
use crate::info::{self, version_states, DenseInfoColumns, Meta, VersionState, VersionStates};
use crate::locations::{SortedIds, NO_LOCATION};
use crate::index::{Cells, IndexPart, RefBuckets, StringFilter, REF_BUCKET_SHIFT};
use crate::query::{BlockQuery, Inside, PreparedQuery};
use crate::varint::{self, Varints};

/// Element totals of a block (or, summed, of a file).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub nodes: u64,
    pub ways: u64,
    pub relations: u64,
    /// Tags on nodes, ways and relations together.
    pub tags: u64,
    /// Sum of the lengths of all ways' node-reference lists.
    pub way_refs: u64,
    /// Sum of the lengths of all relations' member lists.
    pub relation_members: u64,
}

impl Counts {
    /// Adds another block's totals to these.
    pub fn add(&mut self, o: &Counts) {
        self.nodes += o.nodes;
        self.ways += o.ways;
        self.relations += o.relations;
        self.tags += o.tags;
        self.way_refs += o.way_refs;
        self.relation_members += o.relation_members;
    }
}

/// An OSM tag as decoded text: (key, value). Invalid UTF-8 is replaced, never trusted.
pub type Tag = (String, String);

/// Tags from string pairs, for tests.
#[cfg(test)]
pub(crate) fn tags_of(list: &[(&str, &str)]) -> Vec<Tag> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// A node that carries the query's tags and lies in its area. `lat`/`lon` in degrees WGS84.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchedNode {
    pub id: i64,
    pub lat: f64,
    pub lon: f64,
    pub tags: Vec<Tag>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    pub meta: Option<Meta>,
}

/// A way that carries the query's tags. Whether it matches depends on node locations that
/// may sit in other blocks, so it is resolved once all blocks are in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WayCandidate {
    pub id: i64,
    pub tags: Vec<Tag>,
    /// Node ids, delta-decoded.
    pub refs: Vec<i64>,
    /// With `LocationsOnWays`: the mean `[lat, lon]` (degrees) of its nodes in the area.
    pub position: Option<[f64; 2]>,
    /// With `LocationsOnWays`: every node's `[lat_e7, lon_e7]` (1e-7 degrees), in ref order; else empty.
    pub vertices: Vec<[i32; 2]>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    pub meta: Option<Meta>,
}

/// A member of a relation: the element's type (0 node, 1 way, 2 relation), id and role.
pub type Member = (u8, i64, String);

/// A relation that carries the query's tags. Whether it matches depends on where its members
/// are, so it is resolved once all blocks are in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelationCandidate {
    pub id: i64,
    pub tags: Vec<Tag>,
    pub members: Vec<Member>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    pub meta: Option<Meta>,
}

/// Locations of the block's nodes that lie in the area, sorted by id. Coordinates are
/// 1e-7 degrees (OSM's own precision) so a node costs 16 bytes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AreaNodes {
    pub ids: Vec<i64>,
    pub lats_e7: Vec<i32>,
    pub lons_e7: Vec<i32>,
}

/// What a block holds, whatever the query: the facts a later, targeted read needs to know
/// whether this block can hold a node (its id range and bbox).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockSummary {
    /// Smallest and largest node id in the block (`i64::MAX`, `i64::MIN` when it has no node).
    pub min_node_id: i64,
    pub max_node_id: i64,
    /// Bbox of its nodes in 1e-7 degrees: `[min_lat, min_lon, max_lat, max_lon]`
    /// (inverted, min > max, when it has no node).
    pub bbox_e7: [i32; 4],
    /// Bbox of the nodes of its ways in 1e-7 degrees, [`crate::index::WORLD_E7`] when unknown
    /// (a scan does not know it; the blob index does).
    pub way_bbox_e7: [i32; 4],
    /// Smallest and largest way id in the block (`i64::MAX`, `i64::MIN` when it has no way).
    pub min_way_id: i64,
    pub max_way_id: i64,
    /// Smallest and largest relation id in the block (`i64::MAX`, `i64::MIN` when it has none).
    pub min_relation_id: i64,
    pub max_relation_id: i64,
    /// The newest element timestamp, seconds since the Unix epoch (`i64::MIN` when the block
    /// carries no metadata).
    pub max_timestamp: i64,
    /// The Blob's compression, an index into [`crate::blob::COMPRESSIONS`] (set by the caller
    /// that decompressed it).
    pub compression: u8,
}

impl Default for BlockSummary {
    fn default() -> Self {
        BlockSummary {
            min_node_id: i64::MAX,
            max_node_id: i64::MIN,
            bbox_e7: [i32::MAX, i32::MAX, i32::MIN, i32::MIN],
            way_bbox_e7: crate::index::WORLD_E7,
            min_way_id: i64::MAX,
            max_way_id: i64::MIN,
            min_relation_id: i64::MAX,
            max_relation_id: i64::MIN,
            max_timestamp: i64::MIN,
            compression: 0,
        }
    }
}

impl BlockSummary {
    #[inline]
    pub(crate) fn add_node_id(&mut self, id: i64) {
        self.min_node_id = self.min_node_id.min(id);
        self.max_node_id = self.max_node_id.max(id);
    }

    /// Widens the node bbox to hold a point (1e-7 degrees).
    #[inline]
    pub(crate) fn add_location(&mut self, lat_e7: i32, lon_e7: i32) {
        let b = &mut self.bbox_e7;
        b[0] = b[0].min(lat_e7);
        b[1] = b[1].min(lon_e7);
        b[2] = b[2].max(lat_e7);
        b[3] = b[3].max(lon_e7);
    }

    #[inline]
    pub(crate) fn add_node(&mut self, id: i64, lat_e7: i32, lon_e7: i32) {
        self.add_node_id(id);
        self.add_location(lat_e7, lon_e7);
    }

    /// Whether the block holds any node.
    pub fn has_nodes(&self) -> bool {
        self.min_node_id <= self.max_node_id
    }

    /// Whether the block holds any way.
    pub fn has_ways(&self) -> bool {
        self.min_way_id <= self.max_way_id
    }

    /// Whether the block holds any relation.
    pub fn has_relations(&self) -> bool {
        self.min_relation_id <= self.max_relation_id
    }

    /// Whether the block's way-id range can hold one of `wanted` (ascending).
    pub fn may_hold_way(&self, wanted: &[i64]) -> bool {
        let first = wanted.partition_point(|&id| id < self.min_way_id);
        first < wanted.len() && wanted[first] <= self.max_way_id
    }

    /// Whether the block's node-id range can hold one of `wanted` (ascending).
    pub fn may_hold_node(&self, wanted: &[i64]) -> bool {
        let first = wanted.partition_point(|&id| id < self.min_node_id);
        first < wanted.len() && wanted[first] <= self.max_node_id
    }
}

/// Everything a query takes from one block.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BlockScan {
    pub counts: Counts,
    pub summary: BlockSummary,
    pub nodes: Vec<MatchedNode>,
    pub ways: Vec<WayCandidate>,
    pub relations: Vec<RelationCandidate>,
    pub area_nodes: AreaNodes,
    /// Candidate ways left out by the query's [`PreparedQuery::area_filter`] (none of their
    /// nodes can be in the area): only their ids, for the assembler's rule that a later copy of
    /// a way replaces an earlier one, and its rescan of a file not sorted after all.
    #[serde(default)]
    pub ways_outside: Vec<i64>,
    /// History files: `(type, id)` (0 node, 1 way, 2 relation) of elements a version of which
    /// in this block is at or before the query's moment, where it may replace a version an
    /// earlier block ended with (see [`info::version_states`]).
    #[serde(default)]
    pub superseding: Vec<(u8, i64)>,
    /// What the blob index notes of this block, when the query asks ([`PreparedQuery::index`]).
    #[serde(default)]
    pub index: Option<IndexPart>,
}

/// Decodes the uncompressed data of an `OSMData` blob and scans it against `query`.
/// It is read in place ([`Block`]): strings of the block are slices of it.
///
/// Errors: [`DecodeError::Protobuf`]; [`DecodeError::StringIndexOutOfRange`];
/// [`DecodeError::Overflow`] when a delta sum or a scaled coordinate overflows 64 bits;
/// [`DecodeError::Inconsistent`] for parallel arrays of different lengths.
pub fn scan_block(data: &[u8], query: &PreparedQuery) -> Result<BlockScan, DecodeError> {
    let block = Block::read(data)?;
    let mut scanner = BlockScanner {
        query,
        table: &block.strings,
        tags: BlockQuery::bind(&query.expr, &block.strings),
        coords: Coords::of(&block),
        date_granularity: block.date_granularity as i64,
        as_of: query.as_of(),
        keys: Vec::new(),
        vals: Vec::new(),
        refs: query.index.then(RefBuckets::default),
        bucket_start: 0,
        last_cell: (i64::MIN, [0; 4]),
        out: BlockScan { index: query.index.then(|| IndexPart { strings: StringFilter::of(&block.strings), ..IndexPart::default() }), ..BlockScan::default() },
    };
    let current = |states: &Option<Vec<VersionState>>, i: usize| VersionState::of(states, i) == VersionState::Current;
    for group in &block.groups {
        if let Some(dense) = &group.dense {
            scanner.dense_nodes(dense)?;
        }
        let (states, first) = scanner.states(&group.nodes, |m| Node::read(m).map(|n| n.element))?.unzip();
        for (i, msg) in group.nodes.iter().enumerate() {
            scanner.node(&Node::read(msg)?, current(&states, i))?;
        }
        if let Some(id) = first.flatten() {
            scanner.supersede_node(id);
        }
        let (states, first) = scanner.states(&group.ways, |m| Way::read(m).map(|w| w.element))?.unzip();
        for (i, msg) in group.ways.iter().enumerate() {
            scanner.way(&Way::read(msg)?, current(&states, i))?;
        }
        scanner.out.superseding.extend(first.flatten().map(|id| (1, id)));
        let (states, first) = scanner.states(&group.relations, |m| Relation::read(m).map(|r| r.element))?.unzip();
        for (i, msg) in group.relations.iter().enumerate() {
            scanner.relation(&Relation::read(msg)?, current(&states, i))?;
        }
        scanner.out.superseding.extend(first.flatten().map(|id| (2, id)));
    }
    scanner.out.area_nodes.sort_by_id();
    if let (Some(part), Some(refs)) = (&mut scanner.out.index, scanner.refs) {
        part.ref_runs = refs.runs(); // the builder sorts and merges the bucket cells
    }
    Ok(scanner.out)
}

/// Decompresses an `OSMData` Blob (its bytes as framed in the file) and scans it with
/// [`scan_block`], noting the Blob's compression in the summary.
///
/// Errors: those of [`crate::blob::blob_data`] and of [`scan_block`].
pub fn scan_blob(blob: &[u8], query: &PreparedQuery) -> Result<BlockScan, DecodeError> {
    let (data, compression) = crate::blob::blob_data_and_compression(blob)?;
    let mut scan = scan_block(&data, query)?;
    scan.summary.compression = compression;
    Ok(scan)
}

/// The locations of the nodes of a block whose ids are in `wanted` (sorted ascending): the
/// targeted second read that places ways whose nodes were not kept during the first.
/// Tags are not read. Returns `(id, lat_e7, lon_e7)` in block order (1e-7 degrees). For a
/// history file (`as_of` set, see [`PreparedQuery::as_of`]) only the versions current then,
/// and a node deleted then as [`NO_LOCATION`].
///
/// Errors: as [`scan_block`].
pub fn locate_nodes(data: &[u8], wanted: &[i64], as_of: Option<i64>) -> Result<Vec<(i64, i32, i32)>, DecodeError> {
    let block = Block::read(data)?;
    let coords = Coords::of(&block);
    let date_granularity = block.date_granularity as i64;
    let mut found = Vec::new();
    let mut wanted = SortedIds::new(wanted);
    let mut keep = |id: i64, lat: i64, lon: i64, state: VersionState| -> Result<(), DecodeError> {
        if wanted.contains(id) {
            match state {
                VersionState::Current => {
                    let (y, x) = coords.locate(lat, lon)?.e7;
                    found.push((id, y, x));
                }
                VersionState::Deleted => found.push((id, NO_LOCATION, NO_LOCATION)),
                VersionState::NotCurrent => {}
            }
        }
        Ok(())
    };
    for group in &block.groups {
        if let Some(dense) = &group.dense {
            let info = dense.denseinfo.bytes();
            let states = as_of.map(|at| dense_versions(dense, &info, date_granularity).map(|v| version_states(&v, at).0)).transpose()?;
            let (id_bytes, lat_bytes, lon_bytes) = (dense.id.bytes(), dense.lat.bytes(), dense.lon.bytes());
            let mut ids = Varints::new(&id_bytes, "DenseNodes id");
            let mut lats = Varints::new(&lat_bytes, "DenseNodes lat");
            let mut lons = Varints::new(&lon_bytes, "DenseNodes lon");
            let (mut id, mut lat, mut lon, mut i) = (0i64, 0i64, 0i64, 0usize);
            while !ids.is_empty() {
                if lats.is_empty() || lons.is_empty() {
                    return Err(DecodeError::Inconsistent("DenseNodes id, lat and lon differ in length"));
                }
                ids.next_delta(&mut id)?;
                lats.next_delta(&mut lat)?;
                lons.next_delta(&mut lon)?;
                keep(id, lat, lon, VersionState::of(&states, i))?;
                i += 1;
            }
        }
        let states = as_of.map(|at| plain_versions(&group.nodes, |m| Node::read(m).map(|n| n.element), date_granularity).map(|v| version_states(&v, at).0)).transpose()?;
        for (i, msg) in group.nodes.iter().enumerate() {
            let node = Node::read(msg)?;
            keep(node.element.id, node.lat, node.lon, VersionState::of(&states, i))?;
        }
    }
    Ok(found)
}

/// The node refs of the ways of a block whose ids are in `wanted` (sorted ascending): the read
/// that finds the member ways of candidate relations. Tags are not read. For a history file
/// (`as_of` set) only the versions current then. Returns `(way id, refs)` in block order.
///
/// Errors: as [`scan_block`].
pub fn locate_ways(data: &[u8], wanted: &[i64], as_of: Option<i64>) -> Result<Vec<(i64, Vec<i64>)>, DecodeError> {
    let block = Block::read(data)?;
    let date_granularity = block.date_granularity as i64;
    let mut found = Vec::new();
    let mut wanted = SortedIds::new(wanted);
    for group in &block.groups {
        let states = as_of.map(|at| plain_versions(&group.ways, |m| Way::read(m).map(|w| w.element), date_granularity).map(|v| version_states(&v, at).0)).transpose()?;
        for (i, msg) in group.ways.iter().enumerate() {
            let way = Way::read(msg)?;
            if VersionState::of(&states, i) == VersionState::Current && wanted.contains(way.element.id) {
                found.push((way.element.id, varint::deltas(&way.refs.bytes(), "Way refs")?));
            }
        }
    }
    Ok(found)
}

/// (id, timestamp in seconds, visible) of each node of a DenseNodes group, from its DenseInfo
/// (defaults, a visible version of time 0, when it has none).
fn dense_versions(dense: &Dense, info: &[u8], date_granularity: i64) -> Result<Vec<(i64, i64, bool)>, DecodeError> {
    let id_bytes = dense.id.bytes();
    let mut ids = Varints::new(&id_bytes, "DenseNodes id");
    let mut columns = DenseInfoColumns::new(info, date_granularity)?;
    let (mut versions, mut id) = (Vec::new(), 0i64);
    while !ids.is_empty() {
        ids.next_delta(&mut id)?;
        let m = if info.is_empty() { info::RawMeta::default() } else { columns.next_meta()? };
        versions.push((id, m.timestamp, m.visible));
    }
    Ok(versions)
}

/// (id, timestamp in seconds, visible) of plain elements (encoded messages, read by `read` into
/// their [`Element`]), from their `Info`s: a missing or malformed one counts as a visible
/// version of time 0 (metadata never fails a query). Errors: those of `read`.
fn plain_versions<'a>(
    messages: &[&'a [u8]],
    read: impl Fn(&'a [u8]) -> Result<Element<'a>, DecodeError>,
    date_granularity: i64,
) -> Result<Vec<(i64, i64, bool)>, DecodeError> {
    messages
        .iter()
        .map(|&msg| {
            let element = read(msg)?;
            let m = info::decode_info(&element.info.bytes(), date_granularity).unwrap_or_default();
            Ok((element.id, m.timestamp, m.visible))
        })
        .collect()
}

/// Nanodegrees to 1e-7 degrees (OSM's own precision), rounded half away from zero,
/// saturating at the i32 range. In integers: every node pays for it, and a float division
/// and `round` cost 5 % of a read.
#[inline]
fn to_e7(nano: i64) -> i32 {
    let half = if nano < 0 { -50 } else { 50 };
    (nano.saturating_add(half) / 100).clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// A block's coordinate transform: degrees = 1e-9 × (offset + granularity × stored value).
struct Coords {
    granularity: i64,
    lat_offset: i64,
    lon_offset: i64,
    /// When the granularity and both offsets are whole multiples of 100 nanodegrees (nearly
    /// every file: 100, 0, 0): 1e-7 degrees per stored unit and the offsets in 1e-7 degrees, so
    /// 1e-7 degrees come without a division (a 64-bit division by a constant is a libcall in
    /// wasm32: 3 % of a read).
    e7_exact: Option<(i64, i64, i64)>,
}

/// A node's location in nanodegrees and in 1e-7 degrees, as `(lat, lon)` each.
#[derive(Clone, Copy)]
struct Location {
    nano: (i64, i64),
    e7: (i32, i32),
}

impl Coords {
    /// `granularity` in nanodegrees (an int32, as in the spec), offsets in nanodegrees.
    fn new(granularity: i32, lat_offset: i64, lon_offset: i64) -> Coords {
        let granularity = granularity as i64;
        let exact = granularity % 100 == 0 && lat_offset % 100 == 0 && lon_offset % 100 == 0;
        Coords { granularity, lat_offset, lon_offset, e7_exact: exact.then_some((granularity / 100, lat_offset / 100, lon_offset / 100)) }
    }

    fn of(block: &Block) -> Coords {
        Coords::new(block.granularity, block.lat_offset, block.lon_offset)
    }

    /// Returns (lat, lon) in nanodegrees. Errors: [`DecodeError::Overflow`].
    #[inline]
    fn nano(&self, lat: i64, lon: i64) -> Result<(i64, i64), DecodeError> {
        // The granularity is an int32: times a value within ±2^31 (every real coordinate) the
        // product fits 63 bits unchecked. A checked 64-bit multiply is a 128-bit libcall in wasm32.
        let scale = |offset: i64, v: i64| {
            let product = if v.unsigned_abs() <= i32::MAX as u64 { Some(self.granularity * v) } else { self.granularity.checked_mul(v) };
            product.and_then(|x| x.checked_add(offset))
        };
        match (scale(self.lat_offset, lat), scale(self.lon_offset, lon)) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(DecodeError::Overflow("coordinate")),
        }
    }

    /// The location of stored (lat, lon): nanodegrees, and 1e-7 degrees as [`to_e7`] rounds
    /// them. Errors: [`DecodeError::Overflow`].
    #[inline]
    fn locate(&self, lat: i64, lon: i64) -> Result<Location, DecodeError> {
        let nano = self.nano(lat, lon)?;
        let e7 = match self.e7_exact {
            // nano / 100 exactly, and it did not overflow as nano: neither does this.
            Some((step, lat_off, lon_off)) => (saturate_i32(lat * step + lat_off), saturate_i32(lon * step + lon_off)),
            None => (to_e7(nano.0), to_e7(nano.1)),
        };
        Ok(Location { nano, e7 })
    }
}

#[inline]
fn saturate_i32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// A way's mean location in the area (degrees), if placed, and its vertices (1e-7 degrees).
type WayPlacement = (Option<[f64; 2]>, Vec<[i32; 2]>);

struct BlockScanner<'a> {
    query: &'a PreparedQuery,
    table: &'a [&'a [u8]],
    tags: BlockQuery<'a, &'a [u8]>,
    coords: Coords,
    /// Milliseconds per stored timestamp unit (spec: `date_granularity`, default 1000).
    date_granularity: i64,
    /// History files: the moment versions are chosen at ([`PreparedQuery::as_of`]).
    as_of: Option<i64>,
    /// The ways' ref buckets, when the blob index is being built.
    refs: Option<RefBuckets>,
    /// Where the current id bucket's `(bucket, cell)` pairs start in the index part.
    bucket_start: usize,
    /// The last noted node's id bucket and its cell's bounds ([`Cells::cell_bounds`]): the next
    /// node in both needs nothing noted (most do: ids ascend, neighbours are near).
    last_cell: (i64, [i64; 4]),
    /// The current element's tags as (key, value) string-table indexes, decoded into buffers
    /// kept across elements.
    keys: Vec<u32>,
    vals: Vec<u32>,
    out: BlockScan,
}

impl BlockScanner<'_> {
    fn check_index(&self, index: u64) -> Result<(), DecodeError> {
        if index >= self.table.len() as u64 {
            return Err(DecodeError::StringIndexOutOfRange { index, table_len: self.table.len() });
        }
        Ok(())
    }

    /// Keeps the newest timestamp of an element's encoded `Info` in the block summary.
    #[inline]
    fn note_timestamp(&mut self, info: &Packed) {
        if !self.query.newest_timestamp {
            return;
        }
        if let Some(t) = info::info_timestamp(&info.bytes(), self.date_granularity) {
            self.out.summary.max_timestamp = self.out.summary.max_timestamp.max(t);
        }
    }

    /// For a history file, the state of each element of a group at the query's moment (their
    /// encoded `Info`s read; a missing or malformed one counts as a visible version of time
    /// 0), and the group's first id when that supersedes; None for other files.
    fn states<'b>(&self, messages: &[&'b [u8]], read: impl Fn(&'b [u8]) -> Result<Element<'b>, DecodeError>) -> Result<Option<VersionStates>, DecodeError> {
        let Some(at) = self.as_of else { return Ok(None) };
        Ok(Some(version_states(&plain_versions(messages, read, self.date_granularity)?, at)))
    }

    /// A matched element's metadata from its encoded `Info` (None without one, or when it is
    /// malformed: metadata never fails a query).
    fn meta(&self, info: &Packed) -> Option<Meta> {
        if info.is_empty() {
            return None;
        }
        let raw = info::decode_info(&info.bytes(), self.date_granularity).ok()?;
        Some(raw.resolve(self.table))
    }

    fn text(&self, index: u32) -> String {
        String::from_utf8_lossy(self.table[index as usize]).into_owned()
    }

    /// Decodes an element's tags into `self.keys`/`self.vals` ([`Element::tags_into`]), checks
    /// every index against the string table and returns how many tags there are.
    fn read_tags(&mut self, element: &Element) -> Result<u64, DecodeError> {
        element.tags_into(&mut self.keys, &mut self.vals)?;
        for &i in self.keys.iter().chain(&self.vals) {
            self.check_index(i as u64)?;
        }
        Ok(self.keys.len() as u64)
    }

    fn tag_list(&self, pairs: impl Iterator<Item = (u32, u32)>) -> Vec<Tag> {
        pairs.map(|(k, v)| (self.text(k), self.text(v))).collect()
    }

    /// Records a node's location if it is in the area, and the node itself if its tags match.
    #[inline]
    fn place_node<I: Iterator<Item = (u32, u32)>>(
        &mut self,
        id: i64,
        Location { nano: (lat_nano, lon_nano), e7: (lat_e7, lon_e7) }: Location,
        pairs: impl Fn() -> I,
    ) {
        if self.out.index.is_some() {
            // The bbox comes from the cells noted (see `note_node_cell`): a node in the last
            // noted cell is within it already.
            self.out.summary.add_node_id(id);
            let (bucket, [lat_lo, lon_lo, lat_hi, lon_hi]) = self.last_cell;
            let (lat, lon) = (lat_e7 as i64, lon_e7 as i64);
            if id >> REF_BUCKET_SHIFT != bucket || lat < lat_lo || lat >= lat_hi || lon < lon_lo || lon >= lon_hi {
                self.note_node_cell(id, lat_e7, lon_e7);
            }
        } else {
            self.out.summary.add_node(id, lat_e7, lon_e7);
        }
        let (lat, lon) = (lat_nano as f64 * 1e-9, lon_nano as f64 * 1e-9);
        if !self.query.collect || !self.query.area.contains(lat, lon) {
            return;
        }
        if self.query.area_nodes {
            let area = &mut self.out.area_nodes;
            area.ids.push(id);
            area.lats_e7.push(lat_e7);
            area.lons_e7.push(lon_e7);
        }
        if self.tags.possible() && self.tags.matches(ElementKind::Node, &pairs) {
            let tags = self.tag_list(pairs());
            self.out.nodes.push(MatchedNode { id, lat, lon, tags, meta: None });
        }
    }

    /// Notes a node's `(id bucket, cell)` pair for the blob index unless its bucket has it.
    fn note_node_cell(&mut self, id: i64, lat_e7: i32, lon_e7: i32) {
        let part = self.out.index.as_mut().expect("an index part");
        let pair = (id >> REF_BUCKET_SHIFT, Cells::cell_of(lat_e7, lon_e7));
        let bounds = Cells::cell_bounds(pair.1);
        self.last_cell = (pair.0, bounds);
        // The blob's bbox holds the node and its cell (the nodes that follow in the cell): at
        // most a cell coarser than the nodes' own, which the index's cells are anyway.
        // Cell bounds lie within ±180° (±1.8e9), so they fit an i32.
        let [lat_lo, lon_lo, lat_hi, lon_hi] = bounds.map(|v| v as i32);
        let summary = &mut self.out.summary;
        summary.add_location(lat_e7, lon_e7);
        summary.add_location(lat_lo, lon_lo);
        summary.add_location(lat_hi - 1, lon_hi - 1);
        // Ids ascend in a sorted file: only this bucket's few cells need checking.
        let start = self.bucket_start;
        if part.bucket_cells.get(start).is_none_or(|p| p.0 != pair.0) {
            self.bucket_start = part.bucket_cells.len();
            part.bucket_cells.push(pair);
        } else if !part.bucket_cells[start..].contains(&pair) {
            part.bucket_cells.push(pair);
        }
    }

    fn dense_nodes(&mut self, dense: &Dense) -> Result<(), DecodeError> {
        let (id_bytes, lat_bytes, lon_bytes) = (dense.id.bytes(), dense.lat.bytes(), dense.lon.bytes());
        let mut ids = Varints::new(&id_bytes, "DenseNodes id");
        let mut lats = Varints::new(&lat_bytes, "DenseNodes lat");
        let mut lons = Varints::new(&lon_bytes, "DenseNodes lon");
        // The keys_vals column decoded whole, into the buffer kept for element keys.
        let mut kv_buffer = std::mem::take(&mut self.keys);
        dense.keys_vals.indexes_into(&mut kv_buffer, "DenseNodes keys_vals")?;
        let kv = &kv_buffer[..];
        let info_bytes = dense.denseinfo.bytes();
        let info: &[u8] = &info_bytes;
        let (states, first) = self.dense_states(dense, info)?.unzip();
        // (index in out.nodes, index in this group) of each match, to fetch its metadata after.
        let mut matched = Vec::new();
        let (mut id, mut lat, mut lon, mut k, mut n) = (0i64, 0i64, 0i64, 0usize, 0u64);
        while !ids.is_empty() {
            ids.next_delta(&mut id)?;
            if lats.is_empty() || lons.is_empty() {
                return Err(DecodeError::Inconsistent("DenseNodes id, lat and lon differ in length"));
            }
            lats.next_delta(&mut lat)?;
            lons.next_delta(&mut lon)?;
            n += 1;
            // keys_vals: (key, value) index pairs for this node, then a 0; empty when no
            // node of the block has tags.
            let start = k;
            if !kv.is_empty() {
                loop {
                    match kv.get(k) {
                        None => return Err(DecodeError::Inconsistent("DenseNodes keys_vals ends early")),
                        Some(0) => break,
                        Some(&key) => {
                            let value = *kv.get(k + 1).ok_or(DecodeError::Inconsistent("DenseNodes keys_vals has a key without value"))?;
                            // A negative index was read as u32::MAX and fails the check.
                            self.check_index(key as u64)?;
                            self.check_index(value as u64)?;
                            k += 2;
                        }
                    }
                }
            }
            let pairs = &kv[start..k];
            if !kv.is_empty() {
                k += 1; // the 0 delimiter
            }
            self.out.counts.tags += (pairs.len() / 2) as u64;
            let location = self.coords.locate(lat, lon)?;
            if VersionState::of(&states, n as usize - 1) != VersionState::Current {
                self.out.summary.add_node(id, location.e7.0, location.e7.1);
                continue;
            }
            let before = self.out.nodes.len();
            self.place_node(id, location, || pairs.chunks_exact(2).map(|p| (p[0], p[1])));
            if self.out.nodes.len() > before {
                matched.push((before, n as usize - 1));
            }
        }
        if !lats.is_empty() || !lons.is_empty() {
            return Err(DecodeError::Inconsistent("DenseNodes id, lat and lon differ in length"));
        }
        self.out.counts.nodes += n;
        if let Some(newest) = self.query.newest_timestamp.then(|| info::dense_newest_timestamp(info, self.date_granularity)).flatten() {
            self.out.summary.max_timestamp = self.out.summary.max_timestamp.max(newest);
        }
        if let Some(id) = first.flatten() {
            self.supersede_node(id);
        }
        if !matched.is_empty() && !info.is_empty() {
            // Metadata never fails a query: a malformed DenseInfo leaves the matches without it.
            let _ = self.dense_meta(info, &matched);
        }
        self.keys = kv_buffer;
        Ok(())
    }

    /// For a history file, the state of each node of a DenseNodes group at the query's moment,
    /// and its first id when that supersedes (see [`info::version_states`]); None for other files.
    fn dense_states(&self, dense: &Dense, info: &[u8]) -> Result<Option<VersionStates>, DecodeError> {
        let Some(at) = self.as_of else { return Ok(None) };
        Ok(Some(version_states(&dense_versions(dense, info, self.date_granularity)?, at)))
    }

    /// History files: a DenseNodes group's first id supersedes an earlier block's versions of
    /// it; unless this block put it in the area, it gets a [`NO_LOCATION`] there, so an earlier
    /// block's location of it is not used.
    fn supersede_node(&mut self, id: i64) {
        self.out.superseding.push((0, id));
        let area = &mut self.out.area_nodes;
        if self.query.collect && self.query.area_nodes && !area.ids.contains(&id) {
            area.ids.push(id);
            area.lats_e7.push(NO_LOCATION);
            area.lons_e7.push(NO_LOCATION);
        }
    }

    /// Fills in the metadata of the matched nodes of a DenseNodes group: `matched` holds (index
    /// in `out.nodes`, index in the group), ascending. Only blocks with matches pay for this.
    fn dense_meta(&mut self, info: &[u8], matched: &[(usize, usize)]) -> Result<(), DecodeError> {
        let mut columns = DenseInfoColumns::new(info, self.date_granularity)?;
        let (mut read, mut raw) = (0, info::RawMeta::default());
        for &(out, index) in matched {
            while read <= index {
                raw = columns.next_meta()?;
                read += 1;
            }
            self.out.nodes[out].meta = Some(raw.resolve(self.table));
        }
        Ok(())
    }

    /// A plain node; `current`: false for a version of a history file that is not the one
    /// current at the query's moment (counted, never matched).
    fn node(&mut self, node: &Node, current: bool) -> Result<(), DecodeError> {
        self.out.counts.tags += self.read_tags(&node.element)?;
        self.out.counts.nodes += 1;
        self.note_timestamp(&node.element.info);
        let location = self.coords.locate(node.lat, node.lon)?;
        if !current {
            self.out.summary.add_node(node.element.id, location.e7.0, location.e7.1);
            return Ok(());
        }
        let before = self.out.nodes.len();
        let (keys, vals) = (std::mem::take(&mut self.keys), std::mem::take(&mut self.vals));
        self.place_node(node.element.id, location, || keys.iter().copied().zip(vals.iter().copied()));
        (self.keys, self.vals) = (keys, vals);
        if self.out.nodes.len() > before {
            self.out.nodes[before].meta = self.meta(&node.element.info);
        }
        Ok(())
    }

    /// A way; `current` as for [`Self::node`].
    fn way(&mut self, way: &Way, current: bool) -> Result<(), DecodeError> {
        self.out.counts.tags += self.read_tags(&way.element)?;
        self.out.counts.ways += 1;
        self.note_timestamp(&way.element.info);
        self.out.summary.min_way_id = self.out.summary.min_way_id.min(way.element.id);
        self.out.summary.max_way_id = self.out.summary.max_way_id.max(way.element.id);
        let refs = way.refs.bytes();
        self.out.counts.way_refs += if self.refs.is_some() { self.note_way_for_index(way, &refs)? } else { varint::count(&refs)? } as u64;
        let pairs = || self.keys.iter().copied().zip(self.vals.iter().copied());
        if !current || !self.query.collect || !self.tags.possible() || !self.tags.matches(ElementKind::Way, pairs) {
            return Ok(()); // refs are decoded only for ways that can match
        }
        let refs = varint::deltas(&refs, "Way refs")?;
        if way.lat.is_empty() && self.query.area_filter.as_ref().is_some_and(|f| !f.may_hold_any(&refs)) {
            self.out.ways_outside.push(way.element.id);
            return Ok(());
        }
        let tags = self.tag_list(pairs());
        let meta = self.meta(&way.element.info);
        if !way.lat.is_empty() {
            // LocationsOnWays: the way carries its nodes' locations, so place it right here.
            let (position, vertices) = self.way_locations(way, refs.len())?;
            if position.is_some() {
                self.out.ways.push(WayCandidate { id: way.element.id, tags, refs, position, vertices, meta });
            }
            return Ok(());
        }
        self.out.ways.push(WayCandidate { id: way.element.id, tags, refs, position: None, vertices: Vec::new(), meta });
        Ok(())
    }

    /// Notes where a way's nodes are for the blob index: the bbox of its own locations
    /// (LocationsOnWays), else the buckets of its refs. Returns how many refs it has.
    fn note_way_for_index(&mut self, way: &Way, refs: &[u8]) -> Result<usize, DecodeError> {
        if !way.lat.is_empty() {
            let (_, vertices) = self.way_locations(way, varint::count(refs)?)?;
            let refs = vertices.len(); // one per ref: way_locations checked the lengths
            let part = self.out.index.as_mut().expect("an index part with ref buckets");
            let b = part.way_bbox_e7.get_or_insert([i32::MAX, i32::MAX, i32::MIN, i32::MIN]);
            let cells = part.way_cells.get_or_insert_with(Cells::default);
            for [lat, lon] in vertices {
                *b = [b[0].min(lat), b[1].min(lon), b[2].max(lat), b[3].max(lon)];
                cells.add(Cells::cell_of(lat, lon));
            }
            return Ok(refs);
        }
        let buckets = self.refs.as_mut().expect("ref buckets");
        varint::for_each_delta(refs, "Way refs", |id| buckets.add(id))
    }

    /// From a way's own lat/lon arrays (LocationsOnWays): the mean location of its nodes in the
    /// area (degrees; None when none is, or with `inside=all` when one is not), and every node's
    /// `[lat_e7, lon_e7]`. `n`: how many refs the way has.
    fn way_locations(&self, way: &Way, n: usize) -> Result<WayPlacement, DecodeError> {
        let (lat_bytes, lon_bytes) = (way.lat.bytes(), way.lon.bytes());
        if varint::count(&lat_bytes)? != n || varint::count(&lon_bytes)? != n {
            return Err(DecodeError::Inconsistent("Way refs, lat and lon differ in length"));
        }
        let mut lats = Varints::new(&lat_bytes, "Way lat");
        let mut lons = Varints::new(&lon_bytes, "Way lon");
        let (mut lat, mut lon) = (0i64, 0i64);
        let (mut sum_lat, mut sum_lon, mut inside) = (0.0, 0.0, 0u32);
        let mut vertices = Vec::with_capacity(n);
        for _ in 0..n {
            lats.next_delta(&mut lat)?;
            lons.next_delta(&mut lon)?;
            let Location { nano: (lat_nano, lon_nano), e7: (lat_e7, lon_e7) } = self.coords.locate(lat, lon)?;
            vertices.push([lat_e7, lon_e7]);
            let (y, x) = (lat_nano as f64 * 1e-9, lon_nano as f64 * 1e-9);
            if self.query.area.contains(y, x) {
                sum_lat += y;
                sum_lon += x;
                inside += 1;
            }
        }
        let placed = inside > 0 && (self.query.inside == Inside::Any || inside as usize == n);
        Ok((placed.then(|| [sum_lat / inside as f64, sum_lon / inside as f64]), vertices))
    }

    /// A relation; `current` as for [`Self::node`].
    fn relation(&mut self, relation: &Relation, current: bool) -> Result<(), DecodeError> {
        self.out.counts.tags += self.read_tags(&relation.element)?;
        let (memids, type_bytes) = (relation.memids.bytes(), relation.types.bytes());
        let members = varint::count(&memids)?;
        let mut roles = Vec::new();
        relation.roles_sid.indexes_into(&mut roles, "Relation roles_sid")?;
        if roles.len() != members || varint::count(&type_bytes)? != members {
            return Err(DecodeError::Inconsistent("Relation memids, roles_sid and types differ in length"));
        }
        for &role in &roles {
            self.check_index(role as u64)?; // a negative one was read as u32::MAX and fails
        }
        self.out.counts.relations += 1;
        self.note_timestamp(&relation.element.info);
        self.out.summary.min_relation_id = self.out.summary.min_relation_id.min(relation.element.id);
        self.out.summary.max_relation_id = self.out.summary.max_relation_id.max(relation.element.id);
        self.out.counts.relation_members += members as u64;
        let pairs = || self.keys.iter().copied().zip(self.vals.iter().copied());
        if !current || !self.query.collect || !self.tags.possible() || !self.tags.matches(ElementKind::Relation, pairs) {
            return Ok(());
        }
        let ids = varint::deltas(&memids, "Relation memids")?;
        let mut types = Varints::new(&type_bytes, "Relation types");
        let mut list = Vec::with_capacity(members);
        for (&id, &role) in ids.iter().zip(&roles) {
            let t = types.next_u64()?;
            if t > 2 {
                return Err(DecodeError::Inconsistent("Relation member type is not node, way or relation"));
            }
            list.push((t as u8, id, self.text(role)));
        }
        let tags = self.tag_list(pairs());
        let meta = self.meta(&relation.element.info);
        self.out.relations.push(RelationCandidate { id: relation.element.id, tags, members: list, meta });
        Ok(())
    }
}

impl AreaNodes {
    /// Sorts the three arrays by id (blocks are usually sorted already; this checks first).
    fn sort_by_id(&mut self) {
        if self.ids.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
        let mut order: Vec<usize> = (0..self.ids.len()).collect();
        order.sort_unstable_by_key(|&i| self.ids[i]);
        self.ids = order.iter().map(|&i| self.ids[i]).collect();
        self.lats_e7 = order.iter().map(|&i| self.lats_e7[i]).collect();
        self.lons_e7 = order.iter().map(|&i| self.lons_e7[i]).collect();
    }

    /// Location `(lat_e7, lon_e7)` of node `id`, if it is among these.
    pub fn get(&self, id: i64) -> Option<(i32, i32)> {
        self.ids.binary_search(&id).ok().map(|i| (self.lats_e7[i], self.lons_e7[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::{to_e7, Coords};

    #[test]
    fn nanodegrees_round_half_away_from_zero_to_1e7_degrees() {
        let cases = [(0, 0), (49, 0), (50, 1), (149, 1), (150, 2), (-49, 0), (-50, -1), (-150, -2), (1_799_999_999_950, i32::MAX), (-899_999_999_951, i32::MIN), (1_234_567_850, 12_345_679)];
        for (nano, e7) in cases {
            assert_eq!(to_e7(nano), e7, "{nano} nanodegrees");
            assert_eq!(to_e7(nano), (nano as f64 / 100.0).round() as i32, "{nano}: as the float rule");
        }
        assert_eq!((to_e7(i64::MAX), to_e7(i64::MIN)), (i32::MAX, i32::MIN));
    }

    #[test]
    fn exact_transforms_give_what_rounding_gives() {
        // granularity and offsets in whole 1e-7 degrees take the path without a division; others round.
        let transforms = [(100, 0, 0), (200, 300, -500), (1000, 0, 0), (1, 0, 0), (100, 7, -3), (150, 0, 0)];
        for (g, lat_off, lon_off) in transforms {
            let coords = Coords::new(g, lat_off, lon_off);
            assert_eq!(coords.e7_exact.is_some(), g % 100 == 0 && lat_off % 100 == 0 && lon_off % 100 == 0);
            for (lat, lon) in [(0, 0), (1, -1), (899_999_999, -1_799_999_999), (-123_456_789, 987_654_321), (i32::MAX as i64, i32::MIN as i64), (50_000_000_000, -50_000_000_000)] {
                let location = coords.locate(lat, lon).expect("no overflow");
                let (y, x) = coords.nano(lat, lon).expect("no overflow");
                assert_eq!(location.nano, (y, x));
                assert_eq!(location.e7, (to_e7(y), to_e7(x)), "granularity {g}, offsets {lat_off} {lon_off}, stored {lat} {lon}");
            }
        }
    }
}
