//! Assembles a query's answer from the scans of its blocks, in whatever order they arrive
//! (workers finish blobs out of order, and a file need not be sorted).
//!
//! - A node matches when its block's scan says so (tags and area are tested there).
//! - A way whose tags match is placed at the mean of its nodes that lie in the area, and
//!   matches when there is at least one (a node missing from the file is not in the area).
//!   With `LocationsOnWays` the block already placed it.
//! - A relation whose tags match matches when one of its node members, or a node of one of its
//!   way members, lies in the area (member relations are listed, not followed); with no area,
//!   when one of those nodes is in the file (as libosmium-based answers count). Member ways that do not match themselves are found by a member read
//!   ([`Assembler::member_read`]) of the blobs whose way-id range holds them.
//! - An id met more than once (overlapping extracts concatenated) is answered from the copy in
//!   the latest blob in file order, for matches and node locations alike, whatever the order in
//!   which the blobs were decoded.
//!
//! Memory follows the answer, not the file: the locations of the nodes in the area are kept
//! only up to a budget (16 bytes each, [`LocationStore`]). Past it they are dropped, and once the
//! first read is over, [`Assembler::second_read`] names the few blobs whose id range and bbox can
//! hold a node of a candidate way; their locations come back through [`Assembler::add_locations`].
//! Lookups by id are O(log n). Within the budget, once every blob that can hold a node of the
//! area is in, a candidate way none of whose nodes is located can never match: it is dropped
//! then, and later ones as they arrive, instead of being kept until `finish`. An indexed read
//! knows those blobs from its plan ([`Assembler::use_index`]); a whole read expects them all by
//! its first blob of ways or relations, as in a file sorted by type then id ([`Assembler::expect_sorted`]).
//! Should a node of the area come after that (a file not sorted so), the blobs whose ways were
//! dropped are scanned again ([`Assembler::rescan_read`]): the answer never depends on the order.
//! From the same moment the decode workers' scans may leave such ways out themselves, by a
//! filter of the area's node ids ([`Assembler::take_area_filter_change`]); they name the ways
//! they left out, which count as dropped.
//!
//! Geometry ([`crate::geometry`]): once the ways that match are known ([`Assembler::finish`]),
//! [`Assembler::geometry_read`] names the blobs whose id range holds a node of a matched way
//! that is not located yet (outside the area), their locations come back through
//! [`Assembler::add_way_locations`], and [`Assembler::finish_geometry`] gives every matched way
//! its full `LineString` or `Polygon`. Answers over [`MAX_SHAPES`] matches keep ways as points.
//!
//! The assembler also keeps what the page shows: a queue of changes for the map
//! ([`Assembler::drain_changes`]) and the matches sorted by label, then type and id
//! ([`Assembler::rows`]).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::locations::{LocationStore, NO_LOCATION};
use serde::Serialize;

use crate::area::AreaTest;
use crate::area_filter::AreaFilter;
use crate::context::{ContextNodes, CONTEXT_MAX_AREA_KM2};
use crate::error::DecodeError;
use crate::geometry::{assemble_multipolygon, member_lines, way_shape, MemberWay, Shape};
use crate::info::Meta;
use crate::index::{BlobIndex, Cells, FileIdentity, IndexBuilder, IndexedPlan};
use crate::scan::{BlockScan, BlockSummary, Counts, Member, Tag, WayCandidate};

/// The kind of a matched element.
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

/// One answer to a query: an element and where it is drawn (degrees WGS84).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    #[serde(rename = "type")]
    pub element: ElementType,
    pub id: i64,
    pub lat: f64,
    pub lon: f64,
    pub tags: Vec<Tag>,
    /// A relation's members: `(type, id, role)`, type 0 node, 1 way, 2 relation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
    /// Why its geometry could not be built (a broken multipolygon), if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Metres from the area's centre to (`lat`, `lon`) (haversine), when the area is a circle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
}

/// One OSMData blob as the first read saw it: where it is in the file (bytes) and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlobEntry {
    /// Frame index in the file (0 is the OSMHeader).
    pub index: u32,
    /// Byte offset of the frame's length prefix, and the frame's length in bytes.
    pub offset: u64,
    pub size: u64,
    pub summary: BlockSummary,
}

/// What a read learnt about a file (see [`Assembler::file_facts`]).
#[derive(Debug, PartialEq, Serialize)]
pub struct FileFacts {
    /// OSMData blobs by compression name.
    pub blobs: std::collections::BTreeMap<String, u64>,
    pub counts: Counts,
    pub id_ranges: IdRanges,
    /// The newest element timestamp, seconds since the Unix epoch (None without metadata).
    pub newest_timestamp: Option<i64>,
}

/// Smallest and largest id of each element type, None when the file has none.
#[derive(Debug, PartialEq, Serialize)]
pub struct IdRanges {
    pub node: Option<[i64; 2]>,
    pub way: Option<[i64; 2]>,
    pub relation: Option<[i64; 2]>,
}

/// Node locations kept by default: 4 M (64 MiB of payload). A 1000 m circle in a city holds
/// tens of thousands; a whole country file holds far more, and then the second read takes over.
pub const DEFAULT_LOCATION_BUDGET: usize = 4_000_000;

/// Answers up to this many matches get the ways' full geometry; larger ones keep ways as points
/// (the page clusters them, and 400 000 building outlines would not stay fluid).
pub const MAX_SHAPES: usize = 10_000;

/// What the map and list were last told about one match.
#[derive(Default)]
struct Shown {
    /// The map has a feature for it.
    sent: bool,
    /// It waits in [`Assembler::drain_changes`]'s queue.
    queued: bool,
}

struct NodeEntry {
    blob: u32,
    lat: f64,
    lon: f64,
    tags: Vec<Tag>,
    meta: Option<Meta>,
    shown: Shown,
}

struct WayEntry {
    blob: u32,
    tags: Vec<Tag>,
    meta: Option<Meta>,
    refs: Vec<i64>,
    /// Placed by its own block (LocationsOnWays): never recomputed.
    fixed: bool,
    position: Option<[f64; 2]>,
    /// Its full geometry, once known (at once with LocationsOnWays, else by `finish_geometry`).
    shape: Option<Shape>,
    shown: Shown,
}

struct RelationEntry {
    blob: u32,
    tags: Vec<Tag>,
    meta: Option<Meta>,
    members: Vec<Member>,
    matched: bool,
    /// Mean `[lat, lon]` (degrees) of its members' nodes in the area (None when none is known).
    position: Option<[f64; 2]>,
    shape: Option<Shape>,
    problem: Option<String>,
    shown: Shown,
}

/// The blobs and node ids of the targeted second read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SecondRead {
    /// Blobs whose id range holds a wanted id and whose bbox meets the area, in file order.
    pub blobs: Vec<BlobEntry>,
    /// Ids wanted (nodes, or ways for the member read), ascending, without repeats.
    pub wanted: Vec<i64>,
}

/// Whether every node location of the area is in, so that a way none of whose nodes is
/// located can never match (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
enum AreaNodesSeen {
    /// Not known before the end of the read.
    Unknown,
    /// A whole read: all of them by its first blob of ways or relations, as the file is
    /// expected to be sorted by type then id.
    AtFirstWayBlob,
    /// An indexed read: all of them once these planned blobs are in.
    Awaiting(FxHashSet<u32>),
    /// All of them.
    All,
}

/// Where the decode workers' area filter stands (see [`Assembler::take_area_filter_change`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FilterState {
    /// None is given, or due.
    Off,
    /// The area's node locations are all in: a filter of them is due.
    Due,
    Given,
    /// Given, then a node of the area came after all: the filter is to be taken back.
    Withdrawn,
}

/// Collects block scans into an answer; see the module documentation for the rules.
pub struct Assembler {
    area: AreaTest,
    /// The file's element counts: the blobs read so far, or with an index the whole file's.
    pub counts: Counts,
    /// The elements of the blobs decoded so far (what a read's progress shows).
    pub decoded: Counts,
    blobs: Vec<BlobEntry>,
    nodes: FxHashMap<i64, NodeEntry>,
    ways: FxHashMap<i64, WayEntry>,
    relations: FxHashMap<i64, RelationEntry>,
    /// Node refs of member ways that are not candidates themselves: `(blob, refs)`.
    member_ways: MemberWays,
    locations: LocationStore,
    /// Locations of matched ways' nodes outside the area, from the geometry read.
    outside: LocationStore,
    budget: usize,
    overflowed: bool,
    /// `inside=all`: a way or relation matches only when every node of it is in the area.
    inside_all: bool,
    /// History files: the latest blob holding a version of `(type, id)` at or before the
    /// query's moment; what earlier blobs gave of it is dropped by `finish`.
    superseded: FxHashMap<(ElementType, i64), u32>,
    queue: Vec<(ElementType, i64)>,
    removed: Vec<i64>,
    matched: usize,
    /// Matches by (label, type, id); `sorted_valid` false when it must be rebuilt.
    sorted: Vec<(String, ElementType, i64)>,
    unsorted: Vec<(ElementType, i64)>,
    sorted_valid: bool,
    /// The list's order when not by label: (column, descending), see [`crate::table::order`].
    order: Option<(String, bool)>,
    /// Positions in `sorted` in that order, built for `sorted` as of `view_version`.
    view: Vec<usize>,
    view_version: u64,
    /// Bumped whenever `sorted` changes.
    sorted_version: u64,
    /// What the scans noted for a blob index (a full read that builds one).
    index_builder: Option<IndexBuilder>,
    /// The blobs and counts came from a blob index: scans add neither.
    indexed: bool,
    /// With an index, where each blob's ways' nodes are (by blob index), for the basemap read.
    way_cells: FxHashMap<u32, Cells>,
    area_nodes_seen: AreaNodesSeen,
    /// The highest blob index added, and the blobs (ascending) some of whose ways were dropped
    /// as unable to match: from the first drop on, blocks must come in file order (else an
    /// earlier copy of a dropped way could take its place).
    last_blob: Option<u32>,
    dropped_in: Vec<u32>,
    /// A node of the area came after the drops began (a file not sorted by type then id), or a
    /// way left out by the area filter has an earlier copy held: the blobs of `dropped_in` are
    /// to be scanned again.
    rescan: bool,
    area_filter: FilterState,
}

impl Assembler {
    /// An empty answer for a query over `area`, keeping at most `budget` node locations.
    pub fn new(area: AreaTest, budget: usize) -> Assembler {
        Assembler {
            area,
            counts: Counts::default(),
            decoded: Counts::default(),
            blobs: Vec::new(),
            nodes: FxHashMap::default(),
            ways: FxHashMap::default(),
            relations: FxHashMap::default(),
            member_ways: FxHashMap::default(),
            locations: LocationStore::default(),
            outside: LocationStore::default(),
            budget,
            overflowed: false,
            inside_all: false,
            superseded: FxHashMap::default(),
            queue: Vec::new(),
            removed: Vec::new(),
            matched: 0,
            sorted: Vec::new(),
            unsorted: Vec::new(),
            sorted_valid: true,
            order: None,
            view: Vec::new(),
            view_version: u64::MAX,
            sorted_version: 0,
            index_builder: None,
            indexed: false,
            way_cells: FxHashMap::default(),
            area_nodes_seen: AreaNodesSeen::Unknown,
            last_blob: None,
            dropped_in: Vec::new(),
            rescan: false,
            area_filter: FilterState::Off,
        }
    }

    /// A whole read of a file that is not a history file: expect it sorted by type, then id, as
    /// most are whether or not their header says so (OSM wiki, PBF Format: `Sort.Type_then_ID`).
    /// The area's node locations are then all in by its first blob of ways or relations, and
    /// candidate ways that cannot match are dropped from there on; if a node of the area comes
    /// after all, their blobs are scanned again ([`Assembler::rescan_read`]). Call before the
    /// first block; blocks must then come in file order.
    pub fn expect_sorted(&mut self) {
        if self.area_nodes_seen == AreaNodesSeen::Unknown {
            self.area_nodes_seen = AreaNodesSeen::AtFirstWayBlob;
        }
    }

    /// With `all`, a way or relation matches only when every node of it (its nodes; a relation's
    /// node members and the nodes of its member ways found in the file) lies in the area.
    pub fn with_inside_all(mut self, all: bool) -> Assembler {
        self.inside_all = all;
        self
    }

    /// Whether the area held more node locations than the budget (they are no longer kept, and
    /// scans need not report them).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The number of matches (nodes, and ways with a position).
    pub fn len(&self) -> usize {
        self.matched
    }

    /// Whether there is no match.
    pub fn is_empty(&self) -> bool {
        self.matched == 0
    }

    /// Node locations held now (for memory checks).
    pub fn locations_held(&self) -> usize {
        self.locations.len()
    }

    /// How many ways are held, matched or still candidates.
    pub fn ways_held(&self) -> usize {
        self.ways.len()
    }

    /// Adds the scan of blob `index` (frame `offset` and `size` in bytes). Blocks may come in
    /// any order until a way has been dropped as unable to match (an indexed read, or
    /// [`Assembler::expect_sorted`]); from then on in file order (else an earlier copy of that way
    /// could take its place). Errors: [`DecodeError::Inconsistent`] for a block out of that order.
    pub fn add_block(&mut self, index: u32, offset: u64, size: u64, scan: BlockScan) -> Result<(), DecodeError> {
        if !self.dropped_in.is_empty() && self.last_blob.is_some_and(|last| index <= last) {
            return Err(DecodeError::Inconsistent("blocks out of file order after ways were dropped"));
        }
        if self.area_nodes_seen == AreaNodesSeen::All && !scan.area_nodes.ids.is_empty() {
            // Not all in after all (a file not sorted by type then id): no more drops, and the
            // ways dropped so far are scanned again once the read is over.
            self.area_nodes_seen = AreaNodesSeen::Unknown;
            self.rescan = !self.dropped_in.is_empty();
            self.area_filter = if self.area_filter == FilterState::Given { FilterState::Withdrawn } else { FilterState::Off };
        }
        self.last_blob = Some(self.last_blob.map_or(index, |last| last.max(index)));
        if let Some(part) = scan.index {
            self.index_builder.get_or_insert_with(IndexBuilder::default).add(index, offset, size, scan.summary, part);
        }
        self.decoded.add(&scan.counts);
        if !self.indexed {
            self.counts.add(&scan.counts);
            self.blobs.push(BlobEntry { index, offset, size, summary: scan.summary });
        }
        for &(t, id) in &scan.superseding {
            let latest = self.superseded.entry((ElementType::from_code(t), id)).or_insert(index);
            *latest = (*latest).max(index);
        }
        if !self.overflowed {
            let a = scan.area_nodes;
            self.locations.add(index, a.ids, a.lats_e7, a.lons_e7);
            if self.locations.len() > self.budget {
                self.overflowed = true;
                self.locations.clear();
            }
        }
        if self.note_area_nodes(index, &scan.summary) {
            self.drop_ways_outside();
        }
        let all_located = self.area_nodes_seen == AreaNodesSeen::All && !self.overflowed;
        for n in scan.nodes {
            let Some(shown) = self.replaceable(ElementType::Node, n.id, index) else { continue };
            self.nodes.insert(n.id, NodeEntry { blob: index, lat: n.lat, lon: n.lon, tags: n.tags, meta: n.meta, shown });
            self.changed(ElementType::Node, n.id, true);
        }
        for w in scan.ways {
            self.add_way(index, w, all_located);
        }
        self.note_ways_outside(index, &scan.ways_outside);
        for r in scan.relations {
            let Some(shown) = self.replaceable(ElementType::Relation, r.id, index) else { continue };
            let was = shown.sent;
            let entry = RelationEntry { blob: index, tags: r.tags, meta: r.meta, members: r.members, matched: false, position: None, shape: None, problem: None, shown };
            self.relations.insert(r.id, entry);
            if was {
                self.changed(ElementType::Relation, r.id, false); // placed again by finish()
            }
        }
        Ok(())
    }

    /// Adds candidate way `w` of blob `index`, or drops it when `all_located` says it can no
    /// longer match.
    fn add_way(&mut self, index: u32, w: WayCandidate, all_located: bool) {
        let Some(shown) = self.replaceable(ElementType::Way, w.id, index) else { return };
        let fixed = w.position.is_some();
        // Placed now if that is cheap (or final); finish() places (or re-places) every way anyway.
        let position = if fixed || self.overflowed || !(all_located || self.locations.cheap_to_query()) {
            w.position
        } else {
            mean_location(&mut self.locations, &w.refs, self.inside_all)
        };
        if all_located && position.is_none() && !self.ways.contains_key(&w.id) {
            if self.dropped_in.last() != Some(&index) {
                self.dropped_in.push(index);
            }
            return;
        }
        let drawn = position.is_some();
        let shape = if fixed { way_shape(&w.tags, &w.refs, w.vertices) } else { None };
        self.ways.insert(w.id, WayEntry { blob: index, tags: w.tags, meta: w.meta, refs: w.refs, fixed, position, shape, shown });
        self.changed(ElementType::Way, w.id, drawn);
    }

    /// Notes the candidate ways of blob `index` that the decode workers' area filter left out
    /// (dropped, as [`Assembler::add_way`] would have). They are scanned again when the filter
    /// turns out to have been wrong (a node of the area came after it), and when one replaces a
    /// copy held from an earlier blob, which only its whole scan can do.
    fn note_ways_outside(&mut self, index: u32, ids: &[i64]) {
        if ids.is_empty() {
            return;
        }
        if self.dropped_in.last() != Some(&index) {
            self.dropped_in.push(index);
        }
        if self.area_nodes_seen != AreaNodesSeen::All || ids.iter().any(|id| self.ways.contains_key(id)) {
            self.rescan = true;
        }
    }

    /// Every node location of the area is in: a filter of them is due, unless they overflowed
    /// the budget or the area is everywhere (the filter would hold every node of the file, and
    /// leave out no way that has one).
    fn area_filter_due(&mut self) {
        if !self.overflowed && !self.area.is_everywhere() {
            self.area_filter = FilterState::Due;
        }
    }

    /// Whether the decode workers' area filter changed since the last call: `Some(Some(filter))`
    /// when every node location of the area is now in (and within the budget), so scans may
    /// leave out the ways that cannot match ([`crate::query::PreparedQuery::area_filter`]);
    /// `Some(None)` when a filter given is to be taken back (a node of the area came after all);
    /// None when nothing changed.
    pub fn take_area_filter_change(&mut self) -> Option<Option<AreaFilter>> {
        match self.area_filter {
            FilterState::Due if !self.overflowed => {
                self.area_filter = FilterState::Given;
                Some(Some(AreaFilter::from_ids(self.locations.ids(), self.locations.len())))
            }
            FilterState::Withdrawn => {
                self.area_filter = FilterState::Off;
                Some(None)
            }
            _ => None,
        }
    }

    /// What the rescan read must fetch: the blobs some of whose ways were dropped before a node
    /// of the area came after all (a file not sorted by type then id), in file order; None when
    /// the drops stand. Call once the first read is over, before the member read.
    pub fn rescan_read(&self) -> Option<Vec<BlobEntry>> {
        if !self.rescan {
            return None;
        }
        Some(self.blobs_where(|b| self.dropped_in.binary_search(&b.index).is_ok()))
    }

    /// Adds the candidate ways of the scan of blob `index` from the rescan read (the rest of
    /// the scan was added by the first read); the ways it kept then are kept as they are.
    pub fn add_rescanned_ways(&mut self, index: u32, scan: BlockScan) {
        for w in scan.ways {
            if self.ways.get(&w.id).is_none_or(|e| e.blob < index) {
                self.add_way(index, w, false);
            }
        }
    }

    /// Notes that blob `index` (of `summary`) is in; returns whether that completes the area's
    /// node locations (see [`AreaNodesSeen`]).
    fn note_area_nodes(&mut self, index: u32, summary: &BlockSummary) -> bool {
        let complete = match &mut self.area_nodes_seen {
            AreaNodesSeen::AtFirstWayBlob => summary.has_ways() || summary.has_relations(),
            AreaNodesSeen::Awaiting(blobs) => {
                blobs.remove(&index);
                blobs.is_empty()
            }
            AreaNodesSeen::Unknown | AreaNodesSeen::All => false,
        };
        if complete {
            self.area_nodes_seen = AreaNodesSeen::All;
            self.area_filter_due();
        }
        complete && !self.overflowed
    }

    /// Drops the candidate ways none of whose nodes is located (all the area's are in): they
    /// can never match. Those on the map or in its queue stay, for `finish` to take off.
    fn drop_ways_outside(&mut self) {
        let (locations, all, dropped_in) = (&mut self.locations, self.inside_all, &mut self.dropped_in);
        self.ways.retain(|_, w| {
            let keep = w.fixed || w.position.is_some() || w.shown.sent || w.shown.queued || mean_location(locations, &w.refs, all).is_some();
            if !keep {
                dropped_in.push(w.blob);
            }
            keep
        });
        dropped_in.sort_unstable();
        dropped_in.dedup();
        self.ways.shrink_to_fit();
    }

    /// The display state of `(t, id)`, if held.
    fn shown_mut(&mut self, t: ElementType, id: i64) -> Option<&mut Shown> {
        match t {
            ElementType::Node => self.nodes.get_mut(&id).map(|e| &mut e.shown),
            ElementType::Way => self.ways.get_mut(&id).map(|e| &mut e.shown),
            ElementType::Relation => self.relations.get_mut(&id).map(|e| &mut e.shown),
        }
    }

    /// The node refs of way `id`, if known (a candidate way, or a member way read for a relation).
    fn way_refs(&self, id: i64) -> Option<&[i64]> {
        way_refs(&self.ways, &self.member_ways, id)
    }

    /// Whether blob `index`'s copy of `(t, id)` replaces what is held (no copy, or one from an
    /// earlier blob): then the held copy's display state, else None.
    fn replaceable(&mut self, t: ElementType, id: i64, index: u32) -> Option<Shown> {
        let held = match t {
            ElementType::Node => self.nodes.get_mut(&id).map(|e| (e.blob, &mut e.shown)),
            ElementType::Way => self.ways.get_mut(&id).map(|e| (e.blob, &mut e.shown)),
            ElementType::Relation => self.relations.get_mut(&id).map(|e| (e.blob, &mut e.shown)),
        };
        match held {
            None => Some(Shown::default()),
            Some((blob, _)) if blob > index => None,
            Some((_, shown)) => {
                let shown = std::mem::take(shown);
                self.sorted_valid = false; // its label may change
                Some(shown)
            }
        }
    }

    /// Records that the match `(t, id)` changed; `drawn` is whether it is a match now.
    fn changed(&mut self, t: ElementType, id: i64, drawn: bool) {
        let shown = self.shown_mut(t, id).expect("just inserted");
        let (was_sent, was_queued) = (shown.sent, shown.queued);
        shown.sent = drawn;
        shown.queued = was_queued || drawn;
        if was_sent {
            self.removed.push(t.feature_id(id));
            self.matched -= 1;
            if !drawn {
                self.sorted_valid = false; // it leaves the list
            }
        } else if drawn {
            self.unsorted.push((t, id)); // it joins the list
        }
        if drawn {
            self.matched += 1;
            if !was_queued {
                self.queue.push((t, id));
            }
        }
    }

    /// The blob index the scans noted (when the query asked for one: [`crate::query::PreparedQuery::index`])
    /// for the file of `identity`, whose OSMHeader frame is at `header_frame` (offset, size).
    /// None when no scan noted anything.
    pub fn blob_index(&mut self, identity: FileIdentity, replication_timestamp: Option<i64>, header_frame: (u64, u64)) -> Option<BlobIndex> {
        Some(self.index_builder.take()?.finish(identity, replication_timestamp, header_frame, self.counts))
    }

    /// Starts an indexed read: every blob and the file's counts come from `index`, so the
    /// targeted reads and the basemap can plan from them; `plan` says which blobs the first
    /// read takes ([`BlobIndex::plan`]). When it skips node blobs of the area, ways are placed
    /// by the second read.
    pub fn use_index(&mut self, index: &BlobIndex, plan: &IndexedPlan) {
        self.blobs = index.entries.iter().map(|e| BlobEntry { index: e.index, offset: e.offset, size: e.size, summary: e.summary }).collect();
        self.counts = index.counts;
        self.indexed = true;
        self.way_cells = index.entries.iter().map(|e| (e.index, e.way_cells.clone())).collect();
        if !plan.area_nodes_complete {
            self.overflowed = true;
            self.locations.clear();
            return;
        }
        let area = &self.area;
        let node_blobs: FxHashSet<u32> =
            plan.entries.iter().map(|&i| &index.entries[i]).filter(|e| e.summary.has_nodes() && e.nodes_meet(area)).map(|e| e.index).collect();
        if node_blobs.is_empty() {
            self.area_nodes_seen = AreaNodesSeen::All;
            self.area_filter_due();
        } else {
            self.area_nodes_seen = AreaNodesSeen::Awaiting(node_blobs);
        }
    }

    /// The blobs that pass `keep`, in file order (a targeted read's plan).
    fn blobs_where(&self, keep: impl Fn(&BlobEntry) -> bool) -> Vec<BlobEntry> {
        let mut blobs: Vec<BlobEntry> = self.blobs.iter().filter(|b| keep(b)).copied().collect();
        blobs.sort_by_key(|b| b.index);
        blobs
    }

    /// What the first read learnt about the file: OSMData blobs by compression, element
    /// counts, the id range of each element type and the newest timestamp.
    pub fn file_facts(&self) -> FileFacts {
        let mut blobs = std::collections::BTreeMap::new();
        for b in &self.blobs {
            *blobs.entry(crate::blob::COMPRESSIONS[b.summary.compression as usize].to_string()).or_insert(0u64) += 1;
        }
        let range = |pick: fn(&BlockSummary) -> (i64, i64)| {
            let (lo, hi) = self.blobs.iter().map(|b| pick(&b.summary)).fold((i64::MAX, i64::MIN), |(a, b), (c, d)| (a.min(c), b.max(d)));
            (lo <= hi).then_some([lo, hi])
        };
        FileFacts {
            blobs,
            counts: self.counts,
            id_ranges: IdRanges {
                node: range(|s| (s.min_node_id, s.max_node_id)),
                way: range(|s| (s.min_way_id, s.max_way_id)),
                relation: range(|s| (s.min_relation_id, s.max_relation_id)),
            },
            newest_timestamp: self.blobs.iter().map(|b| b.summary.max_timestamp).max().filter(|&t| t > i64::MIN),
        }
    }

    /// What the basemap read ([`crate::context`]) needs: the area's node locations (ids
    /// ascending) and the blobs that hold ways, in file order. Errors with the reason to show
    /// when the basemap is skipped: no area, an area over [`CONTEXT_MAX_AREA_KM2`], or more
    /// nodes in it than the location budget.
    pub fn context_read(&mut self) -> Result<(ContextNodes, Vec<BlobEntry>), String> {
        let km2 = self.area.area_km2();
        if km2.is_infinite() {
            return Err("no basemap for a whole-file query: choose an area to see its streets".into());
        }
        if km2 > CONTEXT_MAX_AREA_KM2 {
            return Err(format!("no basemap: the area ({km2:.0} km²) is larger than a city (up to {CONTEXT_MAX_AREA_KM2:.0} km²)"));
        }
        if self.overflowed {
            return Err(format!("no basemap: the area holds more than {} nodes", self.budget));
        }
        let (ids, lats, lons) = self.locations.to_sorted();
        let mut blobs = self.blobs_where(|b| b.summary.has_ways() && self.area.meets_bbox_e7(b.summary.way_bbox_e7));
        blobs.retain(|b| self.way_cells.get(&b.index).is_none_or(|c| c.meet(&self.area)));
        Ok((ContextNodes::new(ids, lats, lons), blobs))
    }

    /// What the member read must fetch: the blobs whose way-id range holds a way member of a
    /// candidate relation whose node refs are not known yet, or None.
    pub fn member_read(&self) -> Option<SecondRead> {
        let mut wanted: Vec<i64> = self
            .relations
            .values()
            .flat_map(|r| r.members.iter().filter(|m| m.0 == 1).map(|m| m.1))
            .filter(|&id| self.way_refs(id).is_none())
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() {
            return None;
        }
        let blobs = self.blobs_where(|b| b.summary.may_hold_way(&wanted));
        Some(SecondRead { blobs, wanted })
    }

    /// Adds the member ways found by the member read in blob `index`: `(way id, node refs)`.
    pub fn add_member_ways(&mut self, index: u32, found: Vec<(i64, Vec<i64>)>) {
        for (id, refs) in found {
            match self.member_ways.get(&id) {
                Some((blob, _)) if *blob > index => {}
                _ => {
                    self.member_ways.insert(id, (index, refs));
                }
            }
        }
    }

    /// What the targeted second read must fetch, or None when nothing is missing (the node
    /// locations of the area were all kept).
    pub fn second_read(&self) -> Option<SecondRead> {
        if !self.overflowed {
            return None;
        }
        let mut wanted: Vec<i64> = self.ways.values().filter(|w| !w.fixed).flat_map(|w| w.refs.iter().copied()).collect();
        for r in self.relations.values() {
            wanted.extend(member_nodes(r, &self.ways, &self.member_ways));
        }
        wanted.sort_unstable();
        wanted.dedup();
        let blobs = self.blobs_where(|b| b.summary.may_hold_node(&wanted) && self.area.meets_bbox_e7(b.summary.bbox_e7));
        Some(SecondRead { blobs, wanted })
    }

    /// Adds node locations found by the second read in blob `index`: `(id, lat_e7, lon_e7)`
    /// in 1e-7 degrees. Only those in the area are kept.
    pub fn add_locations(&mut self, index: u32, found: &[(i64, i32, i32)]) {
        let mut inside: Vec<(i64, i32, i32)> =
            found.iter().copied().filter(|&(_, y, x)| y == NO_LOCATION || self.area.contains(y as f64 * 1e-7, x as f64 * 1e-7)).collect();
        inside.sort_by_key(|l| l.0);
        self.locations.add(
            index,
            inside.iter().map(|l| l.0).collect(),
            inside.iter().map(|l| l.1).collect(),
            inside.iter().map(|l| l.2).collect(),
        );
    }

    /// Places every way from all the locations now known: call once every blob (and the
    /// second read) is in. The changes go to the queue like any other.
    pub fn finish(&mut self) {
        self.drop_superseded();
        // In the order of their first refs: the lookups then walk the locations forwards (a
        // way's nodes mostly lie together) instead of jumping about as the map's order would.
        let mut ids: Vec<(i64, i64)> = self.ways.iter().filter(|(_, w)| !w.fixed).map(|(&id, w)| (w.refs.first().copied().unwrap_or(0), id)).collect();
        ids.sort_unstable();
        for (_, id) in ids {
            let way = self.ways.get_mut(&id).expect("listed above");
            let position = mean_location(&mut self.locations, &way.refs, self.inside_all);
            if way.position != position {
                way.position = position;
                self.changed(ElementType::Way, id, position.is_some());
            }
        }
        let ids: Vec<i64> = self.relations.keys().copied().collect();
        for id in ids {
            // The area test and the position: the members' nodes that lie in the area.
            let nodes = member_nodes(&self.relations[&id], &self.ways, &self.member_ways);
            let position = mean_location(&mut self.locations, &nodes, self.inside_all);
            let matched = position.is_some();
            let relation = self.relations.get_mut(&id).expect("listed");
            if relation.matched != matched || relation.position != position {
                relation.matched = matched;
                relation.position = position;
                self.changed(ElementType::Relation, id, matched);
            }
        }
    }

    /// History files: drops the candidates that a later blob's version replaces (their versions
    /// straddled two blocks), taking them off the map and the list.
    fn drop_superseded(&mut self) {
        let marks: Vec<((ElementType, i64), u32)> = self.superseded.iter().map(|(&k, &v)| (k, v)).collect();
        for ((t, id), latest) in marks {
            let held = match t {
                ElementType::Node => self.nodes.get(&id).map(|e| e.blob),
                ElementType::Way => self.ways.get(&id).map(|e| e.blob),
                ElementType::Relation => self.relations.get(&id).map(|e| e.blob),
            };
            if held.is_none_or(|blob| blob >= latest) {
                continue;
            }
            self.changed(t, id, false);
            self.queue.retain(|&q| q != (t, id));
            match t {
                ElementType::Node => drop(self.nodes.remove(&id)),
                ElementType::Way => drop(self.ways.remove(&id)),
                ElementType::Relation => drop(self.relations.remove(&id)),
            }
        }
    }

    /// What the geometry read must fetch: the blobs whose node-id range holds a node of a
    /// matched way that is not located yet, or None when nothing is missing (or the answer is
    /// over [`MAX_SHAPES`]). Call after [`Assembler::finish`].
    pub fn geometry_read(&mut self) -> Option<SecondRead> {
        if self.matched > MAX_SHAPES {
            return None;
        }
        let mut wanted: Vec<i64> = self.ways.values().filter(|w| !w.fixed && w.position.is_some()).flat_map(|w| w.refs.iter().copied()).collect();
        for r in self.relations.values().filter(|r| r.matched) {
            for &(_, member, _) in r.members.iter().filter(|m| m.0 == 1) {
                wanted.extend_from_slice(way_refs(&self.ways, &self.member_ways, member).unwrap_or_default());
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        wanted.retain(|&r| locate(&mut self.locations, &mut self.outside, r).is_none());
        if wanted.is_empty() {
            return None;
        }
        let blobs = self.blobs_where(|b| b.summary.may_hold_node(&wanted));
        Some(SecondRead { blobs, wanted })
    }

    /// Adds node locations found by the geometry read in blob `index`: `(id, lat_e7, lon_e7)`.
    pub fn add_way_locations(&mut self, index: u32, found: &[(i64, i32, i32)]) {
        let mut found = found.to_vec();
        found.sort_by_key(|l| l.0);
        self.outside.add(index, found.iter().map(|l| l.0).collect(), found.iter().map(|l| l.1).collect(), found.iter().map(|l| l.2).collect());
    }

    /// Gives every matched way its full geometry from the locations now known (nodes missing
    /// from the file are left out); the ways go to the map's queue again. Does nothing for an
    /// answer over [`MAX_SHAPES`].
    pub fn finish_geometry(&mut self) {
        if self.matched > MAX_SHAPES {
            return;
        }
        let ids: Vec<i64> = self.ways.iter().filter(|(_, w)| !w.fixed && w.position.is_some()).map(|(&id, _)| id).collect();
        for id in ids {
            let way = &self.ways[&id];
            let vertices = way.refs.iter().filter_map(|&r| locate(&mut self.locations, &mut self.outside, r)).collect();
            let shape = way_shape(&way.tags, &way.refs, vertices);
            let way = self.ways.get_mut(&id).expect("listed above");
            if way.shape != shape {
                way.shape = shape;
                self.changed(ElementType::Way, id, true);
            }
        }
        let ids: Vec<i64> = self.relations.iter().filter(|(_, r)| r.matched).map(|(&id, _)| id).collect();
        for id in ids {
            let (shape, problem) = self.relation_shape(id);
            let relation = self.relations.get_mut(&id).expect("listed above");
            if relation.shape != shape || relation.problem != problem {
                relation.shape = shape;
                relation.problem = problem;
                self.changed(ElementType::Relation, id, true);
            }
        }
    }

    /// Relation `id`'s geometry from the locations now known, and why a multipolygon is
    /// broken if it is (see [`crate::geometry`]).
    fn relation_shape(&mut self, id: i64) -> (Option<Shape>, Option<String>) {
        let r = &self.relations[&id];
        let (locations, outside) = (&mut self.locations, &mut self.outside);
        let mut ways: Vec<MemberWay> = Vec::new();
        for (_, member, role) in r.members.iter().filter(|m| m.0 == 1) {
            let Some(refs) = way_refs(&self.ways, &self.member_ways, *member) else { continue };
            let vertices = refs.iter().map(|&n| locate(locations, outside, n)).collect();
            ways.push(MemberWay { id: *member, role, refs, vertices });
        }
        let kind = r.tags.iter().find(|(k, _)| k == "type").map(|(_, v)| v.as_str());
        let fallback = || member_lines(&ways).or_else(|| r.position.map(|[y, x]| Shape::Point([e7(y), e7(x)])));
        if matches!(kind, Some("multipolygon" | "boundary")) {
            match assemble_multipolygon(&ways) {
                Ok(shape) => (Some(shape), None),
                Err(why) => (fallback(), Some(format!("broken multipolygon: {why}"))),
            }
        } else {
            (fallback(), None)
        }
    }

    /// The shape the match `(t, id)` is drawn and exported with: its geometry when known, else
    /// the point it is placed at. None when it is not a match.
    pub fn shape(&self, t: ElementType, id: i64) -> Option<Shape> {
        match t {
            ElementType::Node => self.nodes.get(&id).map(|n| Shape::Point([e7(n.lat), e7(n.lon)])),
            ElementType::Way => {
                let w = self.ways.get(&id)?;
                let [lat, lon] = w.position?;
                Some(w.shape.clone().unwrap_or(Shape::Point([e7(lat), e7(lon)])))
            }
            ElementType::Relation => {
                let r = self.relations.get(&id).filter(|r| r.matched)?;
                r.shape.clone().or_else(|| r.position.map(|[lat, lon]| Shape::Point([e7(lat), e7(lon)])))
            }
        }
    }

    /// Where the match `(t, id)` is placed (degrees WGS84), if it is one now.
    fn position(&self, t: ElementType, id: i64) -> Option<[f64; 2]> {
        match t {
            ElementType::Node => self.nodes.get(&id).map(|n| [n.lat, n.lon]),
            ElementType::Way => self.ways.get(&id)?.position,
            ElementType::Relation => self.relations.get(&id).filter(|r| r.matched)?.position,
        }
    }

    /// The match `(t, id)` if it is one now.
    pub fn get(&self, t: ElementType, id: i64) -> Option<Match> {
        let [lat, lon] = self.position(t, id)?;
        let (tags, members, problem, meta) = match t {
            ElementType::Node => self.nodes.get(&id).map(|n| (n.tags.clone(), Vec::new(), None, n.meta.clone()))?,
            ElementType::Way => self.ways.get(&id).map(|w| (w.tags.clone(), Vec::new(), None, w.meta.clone()))?,
            ElementType::Relation => self.relations.get(&id).map(|r| (r.tags.clone(), r.members.clone(), r.problem.clone(), r.meta.clone()))?,
        };
        Some(Match { element: t, id, lat, lon, tags, members, problem, meta, distance: self.area.distance_m(lat, lon) })
    }

    /// How many map changes wait to be drained.
    pub fn pending_changes(&self) -> usize {
        self.queue.len() + self.removed.len()
    }

    /// The map's changes since the last call, at most `max` added features (the rest wait for
    /// the next call), as numbers: `[r, r feature ids to remove, then for each feature to add:
    /// its feature id and its shape as [`Shape::encode`] writes it]` (degrees WGS84), to apply
    /// in that order. A feature id is [`ElementType::feature_id`]: the element's type and id can
    /// be read back from it.
    pub fn drain_changes(&mut self, max: usize) -> Vec<f64> {
        let take = self.queue.len().min(max);
        let mut out = Vec::with_capacity(1 + self.removed.len() + take * 5);
        out.push(self.removed.len() as f64);
        out.extend(self.removed.drain(..).map(|fid| fid as f64));
        let rest = self.queue.split_off(take);
        for (t, id) in std::mem::replace(&mut self.queue, rest) {
            self.shown_mut(t, id).expect("queued").queued = false;
            if let Some(shape) = self.shape(t, id) {
                out.push(t.feature_id(id) as f64);
                shape.encode(&mut out);
            }
        }
        out
    }

    /// `count` matches from position `start` in the stable order (label, then type and id),
    /// where the label is the `name` tag, else the first tag as `key=value`.
    pub fn rows(&mut self, start: usize, count: usize) -> Vec<Match> {
        self.sort();
        let Some((column, descending)) = &self.order else {
            return self.sorted.iter().skip(start).take(count).filter_map(|(_, t, id)| self.get(*t, *id)).collect();
        };
        if self.view_version != self.sorted_version {
            // From the position alone: a whole match (its tags cloned) per row would be wasted here.
            let distance = |t, id| self.position(t, id).and_then(|[lat, lon]| self.area.distance_m(lat, lon));
            self.view = crate::table::order(&self.sorted, |t, id| self.tags_of(t, id), distance, column, *descending);
            self.view_version = self.sorted_version;
        }
        self.view.iter().skip(start).take(count).filter_map(|&i| self.get(self.sorted[i].1, self.sorted[i].2)).collect()
    }

    /// Orders the list by `column` (`type`, `id`, `distance` from a circle's centre, `name` or a
    /// tag key; None: by label, the default), ties in label order; a missing tag sorts last either way.
    pub fn set_order(&mut self, column: Option<String>, descending: bool) {
        self.order = column.map(|c| (c, descending));
        self.view_version = u64::MAX;
    }

    /// The tags of a match (or of a candidate that is not one yet).
    pub fn tags_of(&self, t: ElementType, id: i64) -> Option<&[Tag]> {
        match t {
            ElementType::Node => self.nodes.get(&id).map(|n| n.tags.as_slice()),
            ElementType::Way => self.ways.get(&id).map(|w| w.tags.as_slice()),
            ElementType::Relation => self.relations.get(&id).map(|r| r.tags.as_slice()),
        }
    }

    /// Tag statistics of the answer (see [`crate::table::tag_stats`]).
    pub fn tag_stats(&mut self, key: Option<&str>, top: usize) -> crate::table::TagStats {
        self.sort();
        let items = self.sorted.iter().filter_map(|&(_, t, id)| Some((t, self.tags_of(t, id)?)));
        crate::table::tag_stats(items, key, top)
    }

    fn sort(&mut self) {
        if !self.sorted_valid {
            self.sorted_version += 1;
            self.sorted.clear();
            self.unsorted.clear();
            let nodes = self.nodes.keys().map(|&id| (ElementType::Node, id));
            let ways = self.ways.iter().filter(|(_, w)| w.position.is_some()).map(|(&id, _)| (ElementType::Way, id));
            let relations = self.relations.iter().filter(|(_, r)| r.matched).map(|(&id, _)| (ElementType::Relation, id));
            self.unsorted.extend(nodes.chain(ways).chain(relations));
            self.sorted_valid = true;
        }
        if self.unsorted.is_empty() {
            return;
        }
        self.sorted_version += 1;
        let mut fresh: Vec<(String, ElementType, i64)> =
            self.unsorted.drain(..).collect::<Vec<_>>().into_iter().filter_map(|(t, id)| Some((self.label(t, id)?, t, id))).collect();
        fresh.sort_unstable();
        // Merge: O(n + k) for k new rows, not a full sort each time rows are asked for.
        let old = std::mem::take(&mut self.sorted);
        let mut merged = Vec::with_capacity(old.len() + fresh.len());
        let (mut a, mut b) = (old.into_iter().peekable(), fresh.into_iter().peekable());
        loop {
            let take_a = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => x <= y,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            merged.push(if take_a { a.next() } else { b.next() }.expect("peeked"));
        }
        merged.dedup();
        self.sorted = merged;
    }

    fn label(&self, t: ElementType, id: i64) -> Option<String> {
        Some(label_of(self.tags_of(t, id)?))
    }

    /// Every tag key of the matches, sorted: the CSV export's tag columns.
    pub fn tag_keys(&mut self) -> Vec<String> {
        self.sort();
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        for &(_, t, id) in &self.sorted {
            seen.extend(self.tags_of(t, id).into_iter().flatten().map(|(k, _)| k.as_str()));
        }
        let mut keys: Vec<String> = seen.into_iter().map(String::from).collect();
        keys.sort_unstable();
        keys
    }

    /// Every match, in the list's order.
    pub fn all(&mut self) -> Vec<Match> {
        self.rows(0, usize::MAX)
    }
}

/// Node refs of member ways by id, with the blob each came from.
type MemberWays = FxHashMap<i64, (u32, Vec<i64>)>;

/// The node refs of way `id`: a candidate way's, or a member way's read for a relation.
fn way_refs<'a>(ways: &'a FxHashMap<i64, WayEntry>, members: &'a MemberWays, id: i64) -> Option<&'a [i64]> {
    ways.get(&id).map(|w| w.refs.as_slice()).or_else(|| members.get(&id).map(|m| m.1.as_slice()))
}

/// Where node `id` is, `[lat_e7, lon_e7]`: in the area's locations, else in those the geometry
/// read found outside it.
fn locate(locations: &mut LocationStore, outside: &mut LocationStore, id: i64) -> Option<[i32; 2]> {
    locations.get(id).or_else(|| outside.get(id)).map(|(y, x)| [y, x])
}

/// The node ids of a relation's members: its node members and its member ways' nodes (those
/// whose refs are known), in member order.
fn member_nodes(r: &RelationEntry, ways: &FxHashMap<i64, WayEntry>, member_ways: &MemberWays) -> Vec<i64> {
    let mut nodes = Vec::new();
    for &(t, member, _) in &r.members {
        match t {
            0 => nodes.push(member),
            1 => nodes.extend_from_slice(way_refs(ways, member_ways, member).unwrap_or_default()),
            _ => {}
        }
    }
    nodes
}

/// Mean `[lat, lon]` (degrees) of the referenced nodes whose location is held, or None (also
/// with `all` when one is not held: `inside=all`).
fn mean_location(locations: &mut LocationStore, refs: &[i64], all: bool) -> Option<[f64; 2]> {
    let (mut lat, mut lon, mut n) = (0i64, 0i64, 0i64);
    for (y, x) in refs.iter().filter_map(|&id| locations.get(id)) {
        lat += y as i64;
        lon += x as i64;
        n += 1;
    }
    (n > 0 && (!all || n as usize == refs.len())).then(|| [lat as f64 / n as f64 * 1e-7, lon as f64 / n as f64 * 1e-7])
}

/// The list label of an element: its `name`, else its first tag as `key=value`.
pub fn label_of(tags: &[Tag]) -> String {
    match tags.iter().find(|(k, _)| k == "name") {
        Some((_, name)) => name.clone(),
        None => tags.first().map(|(k, v)| format!("{k}={v}")).unwrap_or_default(),
    }
}

/// A match as a GeoJSON Feature (RFC 7946) for the export, with `shape` as its geometry and the
/// tags, `osm_type` and `osm_id` as properties.
pub fn feature(m: &Match, shape: &Shape) -> String {
    let geometry = shape.to_geojson();
    let mut props = serde_json::Map::new();
    for (k, v) in &m.tags {
        props.insert(k.clone(), v.clone().into());
    }
    props.insert("osm_type".into(), m.element.name().into());
    props.insert("osm_id".into(), m.id.into());
    let props = serde_json::Value::Object(props).to_string();
    format!("{{\"type\":\"Feature\",\"properties\":{props},\"geometry\":{geometry}}}")
}

/// The tag columns of a CSV export: distinct keys in order, and each key's column, so that a
/// row places its values in one pass over its own tags (a large answer has hundreds of keys).
#[derive(Debug, Default)]
pub struct CsvColumns {
    keys: Vec<String>,
    column: FxHashMap<String, usize>,
}

impl CsvColumns {
    /// Columns for `keys` (distinct, e.g. [`Assembler::tag_keys`]), in that order.
    pub fn new(keys: Vec<String>) -> CsvColumns {
        let column = keys.iter().enumerate().map(|(i, k)| (k.clone(), i)).collect();
        CsvColumns { keys, column }
    }
}

/// The CSV export's header (RFC 4180): `osm_type,osm_id,lat,lon,geometry` then one column per
/// tag key of `columns`.
pub fn csv_header(columns: &CsvColumns) -> String {
    let mut out = String::from("osm_type,osm_id,lat,lon,geometry");
    for k in &columns.keys {
        out.push(',');
        push_csv_field(&mut out, k);
    }
    out + "\r\n"
}

/// One CSV row for a match (see [`csv_header`]): a point on its geometry (degrees,
/// [`Shape::representative_point`]: inside an area, on a line), its geometry as WKT, and its
/// value for each tag column (empty when it has no such tag; the first when it repeats a key).
pub fn csv_row(m: &Match, shape: &Shape, columns: &CsvColumns) -> String {
    let [lat, lon] = shape.representative_point().map(|v| v as f64 * 1e-7);
    // The row's own few values by column (the first of a repeated key), the empty columns
    // between them written as runs of commas.
    let mut values: Vec<(usize, &str)> = m.tags.iter().filter_map(|(k, v)| Some((*columns.column.get(k.as_str())?, v.as_str()))).collect();
    values.sort_by_key(|&(i, _)| i);
    values.dedup_by_key(|&mut (i, _)| i);
    let mut out = format!("{},{},{lat:.7},{lon:.7},", m.element.name(), m.id);
    push_csv_field(&mut out, &shape.to_wkt());
    let mut done = 0; // columns whose comma is written
    for (i, value) in values {
        push_commas(&mut out, i + 1 - done);
        push_csv_field(&mut out, value);
        done = i + 1;
    }
    push_commas(&mut out, columns.keys.len() - done);
    out + "\r\n"
}

/// Appends `n` commas.
fn push_commas(out: &mut String, mut n: usize) {
    const COMMAS: &str = ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,";
    while n > 0 {
        let k = n.min(COMMAS.len());
        out.push_str(&COMMAS[..k]);
        n -= k;
    }
}

/// Appends a CSV field (RFC 4180 §2): quoted, with quotes doubled, when it holds a comma, a
/// quote or a line break. Tag values are untrusted text; they stay text.
fn push_csv_field(out: &mut String, text: &str) {
    if text.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// Degrees to 1e-7 degrees (OSM's precision), rounded.
fn e7(deg: f64) -> i32 {
    (deg * 1e7).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::area::Area;
    use crate::scan::{AreaNodes, MatchedNode};

    fn tags(name: &str) -> Vec<Tag> {
        vec![("amenity".into(), "cafe".into()), ("name".into(), name.into())]
    }

    fn block(nodes: &[(i64, f64, f64)], matched: &[(i64, &str)], ways: &[(i64, &[i64])]) -> BlockScan {
        let mut scan = BlockScan::default();
        let e7 = |d: f64| (d * 1e7).round() as i32;
        scan.area_nodes = AreaNodes {
            ids: nodes.iter().map(|n| n.0).collect(),
            lats_e7: nodes.iter().map(|n| e7(n.1)).collect(),
            lons_e7: nodes.iter().map(|n| e7(n.2)).collect(),
        };
        for &(id, lat, lon) in nodes {
            scan.summary.add_node(id, e7(lat), e7(lon));
        }
        for &(id, name) in matched {
            let &(_, lat, lon) = nodes.iter().find(|n| n.0 == id).unwrap();
            scan.nodes.push(MatchedNode { id, lat, lon, tags: tags(name), meta: None });
        }
        for &(id, refs) in ways {
            scan.ways.push(WayCandidate { id, tags: tags("w"), refs: refs.to_vec(), position: None, vertices: Vec::new(), meta: None });
            scan.summary.min_way_id = scan.summary.min_way_id.min(id);
            scan.summary.max_way_id = scan.summary.max_way_id.max(id);
        }
        scan
    }

    fn everywhere() -> AreaTest {
        Area::Everywhere.prepare().unwrap()
    }

    #[test]
    fn ways_are_placed_whatever_the_blob_order() {
        let nodes = block(&[(1, 1.0, 2.0), (2, 3.0, 4.0)], &[], &[]);
        let ways = block(&[], &[], &[(10, &[1, 2, 99])]);
        for order in [[0, 1], [1, 0]] {
            let mut a = Assembler::new(everywhere(), 100);
            for i in order {
                let scan = if i == 0 { nodes.clone() } else { ways.clone() };
                a.add_block(i as u32 + 1, 0, 0, scan).unwrap();
            }
            a.finish();
            let m = a.get(ElementType::Way, 10).expect("placed");
            assert!((m.lat - 2.0).abs() < 1e-9 && (m.lon - 3.0).abs() < 1e-9);
            assert_eq!(a.len(), 1);
        }
    }

    #[test]
    fn the_later_blob_wins_for_duplicate_ids_in_any_order() {
        let early = block(&[(1, 1.0, 1.0)], &[(1, "early")], &[]);
        let late = block(&[(1, 2.0, 2.0)], &[(1, "late")], &[]);
        for swap in [false, true] {
            let mut a = Assembler::new(everywhere(), 100);
            let (x, y) = if swap { ((5, late.clone()), (2, early.clone())) } else { ((2, early.clone()), (5, late.clone())) };
            a.add_block(x.0, 0, 0, x.1).unwrap();
            a.add_block(y.0, 0, 0, y.1).unwrap();
            let m = a.get(ElementType::Node, 1).unwrap();
            assert_eq!((m.lat, label_of(&m.tags).as_str()), (2.0, "late"));
            assert_eq!(a.len(), 1);
            assert_eq!(a.all().len(), 1);
        }
    }

    /// The area filter: given once the area's nodes are all in; a way it left out that replaces
    /// an earlier copy, and every way it left out once a node of the area comes after all, are
    /// scanned again whole (the rescan read), so the answer is the one without it.
    #[test]
    fn the_area_filter_is_given_taken_back_and_its_left_out_ways_rescanned() {
        let area = || Area::Circle { lat: 0.0, lon: 0.0, radius: 1000.0 }.prepare().unwrap();
        let outside = |ids: &[i64]| BlockScan { ways_outside: ids.to_vec(), ..block(&[], &[], &[]) };
        let start = || {
            let mut a = Assembler::new(area(), 100);
            a.expect_sorted();
            a.add_block(1, 100, 10, block(&[(1, 0.0, 0.0)], &[], &[])).unwrap();
            assert_eq!(a.take_area_filter_change(), None, "not before the first blob of ways");
            a.add_block(2, 110, 10, block(&[], &[], &[(10, &[1])])).unwrap();
            let filter = a.take_area_filter_change().expect("a change").expect("a filter");
            assert!(filter.may_hold(1));
            assert_eq!(a.take_area_filter_change(), None, "given once");
            a
        };
        // A later copy of way 10, none of whose nodes is in the area, left out by the filter.
        let mut a = start();
        a.add_block(3, 120, 10, outside(&[10])).unwrap();
        assert_eq!(a.rescan_read().unwrap().iter().map(|b| b.index).collect::<Vec<_>>(), vec![3]);
        a.add_rescanned_ways(3, block(&[], &[], &[(10, &[99])]));
        a.finish();
        assert!(a.is_empty(), "the later copy replaced the matching one");
        // A node of the area after the filter was given: it is taken back, and the ways it left out are scanned again.
        let mut a = start();
        a.add_block(3, 120, 10, outside(&[11])).unwrap();
        assert!(a.rescan_read().is_none(), "nothing to scan again while the filter holds");
        a.add_block(4, 130, 10, block(&[(2, 0.0, 0.0)], &[], &[])).unwrap();
        assert_eq!(a.take_area_filter_change(), Some(None));
        assert_eq!(a.rescan_read().unwrap().iter().map(|b| b.index).collect::<Vec<_>>(), vec![3]);
        a.add_rescanned_ways(3, block(&[], &[], &[(11, &[2])]));
        a.finish();
        assert!(a.get(ElementType::Way, 11).is_some(), "way 11 matches by the node that came late");
        // No filter of a whole file's nodes: it would leave out nothing.
        let mut a = Assembler::new(everywhere(), 100);
        a.expect_sorted();
        a.add_block(1, 100, 10, block(&[(1, 0.0, 0.0)], &[], &[])).unwrap();
        a.add_block(2, 110, 10, block(&[], &[], &[(10, &[1])])).unwrap();
        assert_eq!(a.take_area_filter_change(), None);
    }

    #[test]
    fn past_the_budget_locations_are_dropped_and_the_second_read_names_the_blobs() {
        let mut a = Assembler::new(everywhere(), 2);
        a.add_block(1, 100, 10, block(&[(1, 1.0, 1.0), (2, 1.0, 1.0)], &[], &[])).unwrap();
        a.add_block(2, 110, 10, block(&[(3, 1.0, 1.0), (4, 3.0, 3.0)], &[], &[])).unwrap();
        a.add_block(3, 120, 10, block(&[(5, 1.0, 1.0)], &[], &[])).unwrap();
        a.add_block(4, 130, 10, block(&[], &[], &[(10, &[3, 4])])).unwrap();
        assert!(a.overflowed());
        assert_eq!(a.locations_held(), 0);
        assert!(a.get(ElementType::Way, 10).is_none());
        let plan = a.second_read().unwrap();
        assert_eq!(plan.wanted, vec![3, 4]);
        assert_eq!(plan.blobs.iter().map(|b| b.index).collect::<Vec<_>>(), vec![2]);
        a.add_locations(2, &[(3, 10_000_000, 10_000_000), (4, 30_000_000, 30_000_000)]);
        a.finish();
        let m = a.get(ElementType::Way, 10).unwrap();
        assert!((m.lat - 2.0).abs() < 1e-9);
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let m = Match { element: ElementType::Node, id: 7, lat: 1.5, lon: 2.0, tags: vec![("name".into(), "a, \"b\"\nc".into())], members: vec![], problem: None, meta: None, distance: None };
        let keys = CsvColumns::new(vec!["amenity".to_string(), "name".to_string(), "x,y".to_string()]);
        assert_eq!(csv_header(&keys), "osm_type,osm_id,lat,lon,geometry,amenity,name,\"x,y\"\r\n");
        assert_eq!(csv_row(&m, &Shape::Point([15_000_000, 20_000_000]), &keys), "node,7,1.5000000,2.0000000,POINT (2 1.5),,\"a, \"\"b\"\"\nc\",\r\n");
        // Values go to their key's column whatever the tags' order; a repeated key keeps its first value.
        let m = Match { tags: vec![("x,y".into(), "1".into()), ("amenity".into(), "cafe".into()), ("x,y".into(), "2".into())], ..m };
        assert_eq!(csv_row(&m, &Shape::Point([15_000_000, 20_000_000]), &keys), "node,7,1.5000000,2.0000000,POINT (2 1.5),cafe,,1\r\n");
    }

    #[test]
    fn changes_are_drained_once_and_rows_are_sorted_by_label() {
        let mut a = Assembler::new(everywhere(), 100);
        a.add_block(1, 0, 0, block(&[(1, 1.0, 1.0), (2, 1.0, 1.0), (3, 1.0, 1.0)], &[(1, "b"), (2, "a"), (3, "b")], &[])).unwrap();
        let first = a.drain_changes(2);
        assert_eq!(first.len(), 1 + 2 * 4, "nothing removed, two of the three added");
        assert_eq!(first[0], 0.0);
        assert_eq!((first[1] as i64 % 4, first[2], first[3], first[4]), (ElementType::Node as i64, 0.0, 1.0, 1.0));
        assert_eq!(a.drain_changes(usize::MAX).len(), 1 + 4, "the third");
        assert_eq!(a.drain_changes(usize::MAX), vec![0.0]);
        let ids: Vec<i64> = a.rows(0, 10).iter().map(|m| m.id).collect();
        assert_eq!(ids, vec![2, 1, 3]);
        assert_eq!(a.rows(1, 1)[0].id, 1);
    }

    #[test]
    fn a_matched_way_gets_its_full_geometry_from_the_geometry_read() {
        let area = Area::Circle { lat: 0.0, lon: 0.0, radius: 1000.0 }.prepare().unwrap();
        let mut a = Assembler::new(area, 100);
        // Node 1 lies in the area; node 2, one degree east, does not (its block holds it, the
        // first read kept only the area's locations).
        let mut nodes = block(&[(1, 0.0, 0.0)], &[], &[]);
        nodes.summary.add_node(2, 0, 10_000_000);
        a.add_block(1, 100, 10, nodes).unwrap();
        a.add_block(2, 110, 10, block(&[], &[], &[(10, &[1, 2])])).unwrap();
        a.finish();
        assert_eq!(a.shape(ElementType::Way, 10), Some(Shape::Point([0, 0])), "a point until its geometry is known");
        let plan = a.geometry_read().unwrap();
        assert_eq!((plan.wanted.clone(), plan.blobs.iter().map(|b| b.index).collect::<Vec<_>>()), (vec![2], vec![1]));
        a.add_way_locations(1, &[(2, 0, 10_000_000)]);
        a.drain_changes(usize::MAX);
        a.finish_geometry();
        assert_eq!(a.shape(ElementType::Way, 10), Some(Shape::LineString(vec![[0, 0], [0, 10_000_000]])));
        let changes = a.drain_changes(usize::MAX);
        assert_eq!(changes, vec![1.0, 41.0, 41.0, 1.0, 2.0, 0.0, 0.0, 1.0, 0.0], "removed as a point, added as a line");
        assert!(a.geometry_read().is_none(), "nothing missing any more");
    }
}
