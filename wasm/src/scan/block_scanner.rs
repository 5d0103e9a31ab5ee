//! The one pass over a block's elements that a scan makes: counts, the query's matches, the
//! area's node locations and what the blob index notes.

use crate::element::ElementType;
use crate::error::DecodeError;
use crate::format::block::{Block, Dense, Element, Node, Packed, Relation, Way};
use crate::format::info::{self, version_states, DenseInfoColumns, Meta, VersionState, VersionStates};
use crate::format::varint::{self, Varints};
use crate::ids::NO_LOCATION;
use crate::index::{Cells, IndexPart, RefBuckets, StringFilter, REF_BUCKET_SHIFT};
use crate::query::{BlockQuery, Inside, PreparedQuery};

use super::coords::Location;
use super::locate::{dense_versions, plain_versions};
use super::*;
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
        place_keys: if query.collect { place_keys(&block.strings) } else { None },
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

/// A way's mean location in the area (degrees), if placed, and its vertices (1e-7 degrees).
type WayPlacement = (Option<[f64; 2]>, Vec<[i32; 2]>);

pub(super) struct BlockScanner<'a> {
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
    /// The string-table indexes of `place` and `name`, when the block has both and the read
    /// notes places: its nodes with both tags are [`Place`]s.
    place_keys: Option<(u32, u32)>,
    out: BlockScan,
}

/// The indexes of `place` and `name` in a block's string table, when it holds both.
fn place_keys(table: &[&[u8]]) -> Option<(u32, u32)> {
    let at = |key: &[u8]| table.iter().position(|&s| s == key).map(|i| i as u32);
    Some((at(b"place")?, at(b"name")?))
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
        if let Some(keys) = self.place_keys {
            self.note_place_node(id, [lat, lon], keys, pairs());
        }
        if !self.query.collect || !self.query.area.contains(lat, lon) {
            return;
        }
        if self.query.area_nodes {
            let area = &mut self.out.area_nodes;
            area.ids.push(id);
            area.lats_e7.push(lat_e7);
            area.lons_e7.push(lon_e7);
        }
        if self.tags.possible() && self.tags.matches(ElementType::Node, id, &pairs) {
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
        if !current || !self.query.collect || !self.tags.possible() || !self.tags.matches(ElementType::Way, way.element.id, pairs) {
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
        if current && self.query.collect {
            self.note_place(relation.element.id, &type_bytes, members)?;
        }
        let pairs = || self.keys.iter().copied().zip(self.vals.iter().copied());
        if !current || !self.query.collect || !self.tags.possible() || !self.tags.matches(ElementType::Relation, relation.element.id, pairs) {
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

impl BlockScanner<'_> {
    /// Notes relation `id` as a [`Place`] when its tags (in `self.keys`/`self.vals`) make it a
    /// named multipolygon or boundary; `member_types` are its `members` members' types, encoded.
    fn note_place(&mut self, id: i64, member_types: &[u8], members: usize) -> Result<(), DecodeError> {
        let tag = |key: &[u8]| self.keys.iter().position(|&k| self.table[k as usize] == key).map(|i| self.vals[i]);
        let kind = match tag(b"type").map(|v| self.table[v as usize]) {
            Some(b"multipolygon") => "multipolygon",
            Some(b"boundary") => "boundary",
            _ => return Ok(()),
        };
        let Some(name) = tag(b"name") else { return Ok(()) };
        let admin_level = tag(b"admin_level").map(|v| self.text(v));
        let what = match tag(b"boundary") {
            Some(v) => format!("boundary={}", self.text(v)),
            None => self.keys.iter().zip(&self.vals).find(|(&k, _)| ![&b"type"[..], b"name", b"admin_level"].contains(&self.table[k as usize])).map_or_else(String::new, |(&k, &v)| format!("{}={}", self.text(k), self.text(v))),
        };
        let mut types = Varints::new(member_types, "Relation types");
        let mut ways = 0;
        for _ in 0..members {
            ways += (types.next_u64()? == 1) as u32;
        }
        self.out.places.push(Place { id, name: self.text(name), kind: kind.into(), what, admin_level, ways, at: None });
        Ok(())
    }

    /// Notes node `id` at `at` (`[lat, lon]`, degrees) as a [`Place`] when its tags (`pairs`,
    /// string-table indexes) hold both `place` and `name` (their indexes: `keys`).
    fn note_place_node(&mut self, id: i64, at: [f64; 2], (place_key, name_key): (u32, u32), pairs: impl Iterator<Item = (u32, u32)>) {
        let (mut place, mut name) = (None, None);
        for (k, v) in pairs {
            if k == place_key {
                place = Some(v);
            } else if k == name_key {
                name = Some(v);
            }
        }
        if let (Some(place), Some(name)) = (place, name) {
            let what = format!("place={}", self.text(place));
            self.out.places.push(Place { id, name: self.text(name), kind: "place".into(), what, admin_level: None, ways: 0, at: Some(at) });
        }
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
