//! Assembles a query's answer from the scans of its blocks, in whatever order they arrive
//! (workers finish blobs out of order, and a file need not be sorted).
//!
//! - A node matches when its block's scan says so (tags and area are tested there).
//! - A way whose tags match is placed at the mean of its nodes that lie in the area, and
//!   matches when there is at least one (a node missing from the file is not in the area).
//!   With `LocationsOnWays` the block already placed it.
//! - A relation whose tags match matches when one of its node members, or a node of one of its
//!   way members, lies in the area (member relations are listed, not followed). Member ways
//!   that do not match themselves are found by a member read ([`Assembler::member_read`]) of
//!   the blobs whose way-id range holds them.
//! - With no area, tags alone decide: a way or relation none of whose nodes is in the file (at
//!   an extract's edge) still matches, with no position or geometry and the reason why
//!   ([`NO_NODE_IN_FILE`], [`NO_MEMBER_IN_FILE`]): it is counted, listed and exported, never
//!   dropped. A relation whose members are all relations is placed by none, and is no match.
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
//! Geometry ([`crate::assembly::geometry`]): once the ways that match are known ([`Assembler::finish`]),
//! [`Assembler::geometry_read`] names the blobs whose id range holds a node of a matched way
//! that is not located yet (outside the area), their locations come back through
//! [`Assembler::add_way_locations`], and [`Assembler::finish_geometry`] gives every matched way
//! its full `LineString` or `Polygon`. Answers over [`MAX_SHAPES`] matches are drawn with ways
//! as points, but exported with their full geometry ([`Assembler::export_shape`]).
//!
//! The assembler also keeps what the page shows: a queue of changes for the map
//! ([`Assembler::drain_changes`]; past [`MAP_MAX_FEATURES`] matches, of an even sample of them) and the matches sorted by label, then type and id
//! ([`Assembler::rows`]).

use rustc_hash::{FxHashMap, FxHashSet};

use serde::Serialize;

use crate::basemap::{ContextNodes, CONTEXT_MAX_AREA_KM2};
use crate::element::{ElementType, Member, Tag};
use crate::error::DecodeError;
use crate::format::info::Meta;
use crate::index::{BlobIndex, Cells, FileIdentity, IndexBuilder, IndexEntry, IndexedPlan, STUB_BASE};
use crate::query::area::AreaTest;
use crate::query::area_filter::AreaFilter;
use crate::scan::{BlockScan, WayCandidate};
use crate::summary::{BlockSummary, Counts};
use geometry::{assemble_multipolygon, member_lines, way_shape, MemberWay, Shape};
use locations::{LocationStore, NO_LOCATION};
use refs::Refs;
use std::borrow::Cow;

mod area_read;
mod blob_hashes;
pub mod changes;
pub mod places;
mod export;
mod list;
mod map_sample;
mod merge;
mod planned_read;
mod refs;
pub mod geometry;
pub mod locations;
pub mod read_plan;
mod reads;
mod shapes;
pub mod style;
pub mod table;
pub mod trim;
mod views;

pub use changes::Change;
pub use export::{csv_header, csv_row, feature, parquet_columns, parquet_row, CsvColumns};
pub use map_sample::MAP_MAX_FEATURES;
pub use views::label_of;
use map_sample::MapSample;

/// One answer to a query: an element and where it is drawn (degrees WGS84).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    #[serde(rename = "type")]
    pub element: ElementType,
    pub id: i64,
    /// None for a match that has no location: with no area, tags alone decide, and none of its
    /// nodes (a relation: its members' nodes) is in the file.
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub tags: Vec<Tag>,
    /// A relation's members: `(type, id, role)`, type 0 node, 1 way, 2 relation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
    /// Why its geometry could not be built, if so: a broken multipolygon (then drawn as its
    /// ways), or [`NO_NODE_IN_FILE`] / [`NO_MEMBER_IN_FILE`] (then it has no geometry).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Metres from the area's centre to (`lat`, `lon`) (haversine), when the area is a circle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// In a change view ([`changes`]): what happened to it between the two moments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
    /// What was left out when the match is shown cut ([`trim::trim`]); never in exports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<trim::Cut>,
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

/// Why a way that matches by its tags alone (no area) has no geometry.
pub const NO_NODE_IN_FILE: &str = "no geometry: none of its nodes is in the file";
/// Why a relation that matches by its tags alone (no area) has no geometry.
pub const NO_MEMBER_IN_FILE: &str = "no geometry: none of its members' nodes is in the file";

/// Answers up to this many matches get the ways' full geometry; larger ones keep ways as points
/// (the page clusters them, and 400 000 building outlines would not stay fluid).
pub const MAX_SHAPES: usize = 10_000;

/// A node's or way's tags, shared by every match that has the same ones (see
/// [`Assembler::shared_tags`]).
type TagSet = std::sync::Arc<[Tag]>;

/// What the map and list were last told about one match.
#[derive(Default)]
struct Shown {
    /// The map has a feature for it.
    sent: bool,
    /// It waits in [`Assembler::drain_changes`]'s queue.
    queued: bool,
    /// The map has been given it (and not told to remove it since).
    on_map: bool,
}

struct NodeEntry {
    blob: u32,
    lat: f64,
    lon: f64,
    tags: TagSet,
    meta: Option<Meta>,
    shown: Shown,
}

struct WayEntry {
    blob: u32,
    tags: TagSet,
    /// Boxed, as the shape: most ways have none, or have it only late.
    meta: Option<Box<Meta>>,
    refs: Refs,
    /// Placed by its own block (LocationsOnWays): never recomputed.
    fixed: bool,
    position: Option<[f64; 2]>,
    /// A match with no position: no area, and none of its nodes is in the file.
    unplaced: bool,
    /// Its full geometry, once known (at once with LocationsOnWays, else by `finish_geometry`).
    shape: Option<Box<Shape>>,
    shown: Shown,
}

impl WayEntry {
    /// Whether it is a match now: placed, or matched by its tags alone.
    fn is_match(&self) -> bool {
        self.position.is_some() || self.unplaced
    }
}

struct RelationEntry {
    blob: u32,
    tags: Vec<Tag>,
    meta: Option<Meta>,
    members: Vec<Member>,
    /// Mean `[lat, lon]` (degrees) of its members' nodes in the area (None when none is known).
    position: Option<[f64; 2]>,
    /// Matched with no position: no area, and none of its members' nodes is in the file.
    unplaced: bool,
    shape: Option<Shape>,
    problem: Option<String>,
    shown: Shown,
}

impl RelationEntry {
    /// Whether it is a match now: placed, or matched by its tags alone.
    fn is_match(&self) -> bool {
        self.position.is_some() || self.unplaced
    }
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
    ways: Ways,
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
    /// Every tag set of the nodes and ways held, once (see [`Assembler::shared_tags`]).
    tag_sets: FxHashSet<TagSet>,
    queue: Vec<(ElementType, i64)>,
    removed: Vec<i64>,
    /// Which matches the map draws (all, up to [`MAP_MAX_FEATURES`]).
    map_sample: MapSample,
    /// The sample was raised since the last drain: the features it now leaves out are to be
    /// removed.
    map_sample_raised: bool,
    matched: usize,
    /// Matches by (label, type, id); `sorted_valid` false when it must be rebuilt.
    sorted: list::SortedRows,
    unsorted: Vec<(ElementType, i64)>,
    sorted_valid: bool,
    /// The list's order when not by label: (column, descending), see [`crate::assembly::table::order`].
    order: Option<(String, bool)>,
    /// The list's filter, lowercased ([`Assembler::set_filter`]); None: every match.
    filter: Option<String>,
    /// Positions in `sorted` in that order and passing the filter, built for `sorted` as of `view_version`.
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
    /// With an index, where each blob's nodes are (by blob index), for the geometry read.
    node_cells: FxHashMap<u32, Cells>,
    /// With an index, the blobs whose relations' members are placed: their `way_cells` hold
    /// where those members' nodes are ([`crate::index::IndexEntry::relations_placed`]).
    members_placed: FxHashSet<u32>,
    /// With an index, the blobs holding ways with no node in the file (not ruled out by place).
    unplaced_ways: FxHashSet<u32>,
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
    /// A change view's classes, by match ([`Assembler::keep_changes`]); empty otherwise.
    changes: FxHashMap<(ElementType, i64), Change>,
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
            tag_sets: FxHashSet::default(),
            queue: Vec::new(),
            removed: Vec::new(),
            map_sample: MapSample::default(),
            map_sample_raised: false,
            matched: 0,
            sorted: list::SortedRows::default(),
            unsorted: Vec::new(),
            sorted_valid: true,
            order: None,
            filter: None,
            view: Vec::new(),
            view_version: u64::MAX,
            sorted_version: 0,
            index_builder: None,
            indexed: false,
            way_cells: FxHashMap::default(),
            node_cells: FxHashMap::default(),
            members_placed: FxHashSet::default(),
            unplaced_ways: FxHashSet::default(),
            area_nodes_seen: AreaNodesSeen::Unknown,
            last_blob: None,
            dropped_in: Vec::new(),
            rescan: false,
            area_filter: FilterState::Off,
            changes: FxHashMap::default(),
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

    /// `tags` as the set held for every node and way that has them: answers of millions repeat
    /// a few sets (`building=yes`) over and over, kept once each (`docs/decisions.md`).
    fn shared_tags(&mut self, tags: Vec<Tag>) -> TagSet {
        if let Some(set) = self.tag_sets.get(tags.as_slice()) {
            return set.clone();
        }
        let set: TagSet = tags.into();
        self.tag_sets.insert(set.clone());
        set
    }

    /// The ids of the ways `keep` selects, in the order of their first refs: looking up their
    /// nodes one way after another then walks the locations forwards (a way's nodes mostly lie
    /// together) instead of jumping about as the table's order would.
    fn ways_by_first_ref(&self, keep: impl Fn(&WayEntry) -> bool) -> Vec<i64> {
        let mut ids: Vec<(i64, i64)> = self.ways.iter().filter(|(_, w)| keep(w)).map(|(&id, w)| (w.refs.first().unwrap_or(0), id)).collect();
        ids.sort_unstable();
        ids.into_iter().map(|(_, id)| id).collect()
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
    fn way_refs(&self, id: i64) -> Option<Cow<'_, [i64]>> {
        way_refs(&self.ways, &self.member_ways, id)
    }

    /// Where the match `(t, id)` is placed (degrees WGS84), if it is one now.
    fn position(&self, t: ElementType, id: i64) -> Option<[f64; 2]> {
        match t {
            ElementType::Node => self.nodes.get(&id).map(|n| [n.lat, n.lon]),
            ElementType::Way => self.ways.get(&id)?.position,
            ElementType::Relation => self.relations.get(&id)?.position,
        }
    }

    /// Whether `(t, id)` is a match now (placed, or matched by its tags alone).
    fn is_match(&self, t: ElementType, id: i64) -> bool {
        match t {
            ElementType::Node => self.nodes.contains_key(&id),
            ElementType::Way => self.ways.get(&id).is_some_and(|w| w.is_match()),
            ElementType::Relation => self.relations.get(&id).is_some_and(RelationEntry::is_match),
        }
    }

    /// The match `(t, id)` if it is one now.
    pub fn get(&self, t: ElementType, id: i64) -> Option<Match> {
        if !self.is_match(t, id) {
            return None;
        }
        let at = self.position(t, id);
        let (tags, members, problem, meta) = match t {
            ElementType::Node => self.nodes.get(&id).map(|n| (n.tags.to_vec(), Vec::new(), None, n.meta.clone()))?,
            ElementType::Way => self.ways.get(&id).map(|w| (w.tags.to_vec(), Vec::new(), w.unplaced.then(|| NO_NODE_IN_FILE.to_string()), w.meta.as_deref().cloned()))?,
            ElementType::Relation => self
                .relations
                .get(&id)
                .map(|r| (r.tags.clone(), r.members.clone(), if r.unplaced { Some(NO_MEMBER_IN_FILE.to_string()) } else { r.problem.clone() }, r.meta.clone()))?,
        };
        let distance = at.and_then(|[lat, lon]| self.area.distance_m(lat, lon));
        let change = self.changes.get(&(t, id)).copied();
        Some(Match { element: t, id, lat: at.map(|p| p[0]), lon: at.map(|p| p[1]), tags, members, problem, meta, distance, change, cut: None })
    }
}

/// The candidate and matched ways by id. Each entry boxed: a whole-file answer holds millions,
/// in a hash table at most 7/8 full whose size doubles, so an entry in the table itself would
/// cost up to twice its size (`docs/decisions.md`).
type Ways = FxHashMap<i64, Box<WayEntry>>;

/// Node refs of member ways by id, with the blob each came from.
type MemberWays = FxHashMap<i64, (u32, Vec<i64>)>;

/// The node refs of way `id`: a candidate way's, or a member way's read for a relation.
fn way_refs<'a>(ways: &'a Ways, members: &'a MemberWays, id: i64) -> Option<Cow<'a, [i64]>> {
    way_found(ways, members, id).map(|(_, refs)| refs)
}

/// The blob way `id` came from and its node refs: a candidate way's, else a member way's.
fn way_found<'a>(ways: &'a Ways, members: &'a MemberWays, id: i64) -> Option<(u32, Cow<'a, [i64]>)> {
    ways.get(&id).map(|w| (w.blob, Cow::Owned(w.refs.to_vec()))).or_else(|| members.get(&id).map(|m| (m.0, Cow::Borrowed(m.1.as_slice()))))
}

/// Where node `id` is, `[lat_e7, lon_e7]`: in the area's locations, else in those the geometry
/// read found outside it.
fn locate(locations: &mut LocationStore, outside: &mut LocationStore, id: i64) -> Option<[i32; 2]> {
    locations.get(id).or_else(|| outside.get(id)).map(|(y, x)| [y, x])
}

/// The node ids of a relation's members: its node members and its member ways' nodes (those
/// whose refs are known), in member order.
fn member_nodes(r: &RelationEntry, ways: &Ways, member_ways: &MemberWays) -> Vec<i64> {
    let mut nodes = Vec::new();
    for &(t, member, _) in &r.members {
        match t {
            0 => nodes.push(member),
            1 => nodes.extend_from_slice(&way_refs(ways, member_ways, member).unwrap_or_default()),
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

/// Where a way or relation whose nodes are `refs` is placed ([`mean_location`], `all` for
/// `inside=all`), and whether, not placed, it still matches unplaced: when `by_tags` (no area:
/// tags alone decide) and none of `refs` is located at all.
fn placing(locations: &mut LocationStore, refs: &[i64], all: bool, by_tags: bool) -> (Option<[f64; 2]>, bool) {
    let position = mean_location(locations, refs, all);
    let unplaced = by_tags && position.is_none() && mean_location(locations, refs, false).is_none();
    (position, unplaced)
}

/// Degrees to 1e-7 degrees (OSM's precision), rounded.
fn e7(deg: f64) -> i32 {
    (deg * 1e7).round() as i32
}

#[cfg(test)]
mod tests;
