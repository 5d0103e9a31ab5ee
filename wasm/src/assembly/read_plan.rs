//! The read plan: the one place that says which blobs a query reads, in what order, and what
//! the decode workers look for in them. A driver (the query worker, the command line, the
//! native reader [`crate::scan_file`]) is one loop:
//!
//! ```text
//! while let Some(read) = plan.next_read()? {     // which blobs, and what to decode them for
//!     for each blob of read.blobs (or every frame in file order for Blobs::WholeFile):
//!         an OSMHeader → plan.add_header(..); an OSMData → plan.add(index, offset, size, hash, found)
//!         and if plan.take_index_mismatch() is some: end this read (the plan starts again)
//! }                                              // on an error or a cancel: plan.stop()
//! ```
//!
//! and after each `add` gives the decode workers what [`ReadPlan::scan_query`] now says. A read
//! by a blob index checks each blob's checksum against the index's: at the first that differs
//! the plan gives the index up, forgets what was found and starts again with a full read. The
//! passes, in order, each skipped when it has nothing to read (rules: [`crate::assembly`]):
//!
//! 1. the first read: every frame in file order, or with a blob index only the blobs it names
//!    ([`BlobIndex::plan`]); it may also note the file's blob index;
//! 2. the rescan: blobs whose ways were dropped before a node of the area came after all (a file
//!    not sorted by type then id), scanned again whole;
//! 3. the member read: the member ways of candidate relations, by way-id range;
//! 4. the node locations the budget did not keep, by node-id range and bbox;
//! 5. then the answer is final ([`Assembler::finish`]); the geometry read: the nodes of matched
//!    ways that lie outside the area, for their full geometry ([`Assembler::finish_geometry`]).
//!
//! A query whose area is a relation of the file reads that relation first, with these same
//! passes ([`crate::assembly::area_read`]); the plan then starts again over its outline, by the
//! blob index that first read noted when there was none.
//!
//! A change view ([`crate::assembly::changes`]: `from` set, on a history file) is two such plans
//! in turn, as of `from` and then as of `at`; the second's answer, made the change view of the
//! first's, is this plan's.
//!
//! The basemap read comes after, when the page asks for it ([`ReadPlan::ask_basemap`]): the
//! same loop then gets one more read ([`Decode::Basemap`]), whose features
//! [`ReadPlan::take_basemap`] hands out.

mod by_index;
mod change_read;

use crate::assembly::area_read::{outline, relation_query, Parts};
use crate::assembly::blob_hashes::BlobHashes;
use crate::assembly::places::Places;
pub use crate::assembly::planned_read::{Blobs, Decode, Found, PlannedBlob, Read};
use crate::assembly::{Assembler, BlobEntry, SecondRead};
use crate::basemap::ContextNodes;
use crate::error::DecodeError;
use crate::format::header::HeaderInfo;
use crate::index::{BlobIndex, FileIdentity, IndexEntry, IndexError, IndexHead, STUB_BASE};
use crate::query::{Inside, PreparedQuery};
use change_read::{ChangeRead, NOT_HISTORY};
use crate::scan::BlockScan;
use crate::summary::BlockSummary;

/// A blob index given to the plan before its first read, kept for the query's own read when
/// the area is a relation.
#[derive(Clone)]
enum GivenIndex {
    Whole(BlobIndex),
    /// An index file's bytes (a paged index's head: its pages are fetched again).
    Bytes(Vec<u8>, FileIdentity),
}

/// The read of the relation whose outline is the query's area, under way
/// ([`crate::assembly::area_read`]).
struct AreaRead {
    relation: i64,
    plan: ReadPlan,
    index: Option<GivenIndex>,
}

/// Where the plan stands: the pass whose blobs are being added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    NotStarted,
    First,
    Rescan,
    MemberWays,
    NodeLocations,
    Geometry,
    Done,
    /// The basemap read was asked for ([`ReadPlan::ask_basemap`]) and not yet handed out.
    BasemapAsked,
    Basemap,
}

/// The state of one query's read: its [`Assembler`], the query the decode workers apply, and
/// the pass under way. See the module documentation.
pub struct ReadPlan {
    /// The query as given and the location budget, for a plan that starts again.
    query: PreparedQuery,
    budget: usize,
    assembler: Assembler,
    /// The query as the decode workers apply it now (history, index, area nodes, area filter).
    scan: PreparedQuery,
    /// Bumped when `scan` changes in a way the drivers must pass on.
    scan_version: u64,
    pass: Pass,
    /// The blob index read by (a paged one's entries are those fetched before the first read's
    /// plan: later pages go to the assembler), and the entries of its first read's plan.
    index: Option<(BlobIndex, Vec<usize>)>,
    /// A paged index's head: the pages not fetched yet (see [`crate::index::pages`]).
    pages: Option<IndexHead>,
    /// The pass's read named pages not fetched yet: once they are in, it is planned again.
    replan: bool,
    /// A full read is to note the file's blob index (not for history files).
    build_index: bool,
    /// The Blob checksums of the index read by, checked as blobs come in.
    hashes: BlobHashes,
    /// Why the index read by was given up (a blob did not match it), until a driver takes it.
    mismatch: Option<String>,
    header: Option<HeaderInfo>,
    header_frame: (u64, u64),
    /// The read was ended early ([`ReadPlan::stop`]): the answer is partial.
    stopped: bool,
    /// The basemap read's blobs and area node locations, while it is asked for or under way.
    basemap: Option<(Vec<BlobEntry>, ContextNodes)>,
    /// The features its blobs gave ([`crate::basemap::context_ways`]'s encoding).
    basemap_features: Vec<i32>,
    /// While the area is a relation not read yet: the read of it, which the plan's calls go to.
    area_read: Option<Box<AreaRead>>,
    /// While the answer is a change view not read yet: its reads, which the plan's calls go to.
    change_read: Option<Box<ChangeRead>>,
    /// The outline of the relation that is the area, once read.
    outline: Option<Parts>,
    /// The blob index the relation's read noted, which this read goes by; the driver keeps it.
    noted_index: Option<BlobIndex>,
    /// The named multipolygons and boundaries the first read found, and whether it read the
    /// whole file (then they are all of the file's).
    places: (Places, bool),
}

impl ReadPlan {
    /// A plan for `query`, keeping at most `budget` node locations of the area before the node
    /// location pass takes over ([`crate::assembly::DEFAULT_LOCATION_BUDGET`] by default).
    pub fn new(query: &PreparedQuery, budget: usize) -> ReadPlan {
        let assembler = Assembler::new(query.area.clone(), budget).with_inside_all(query.inside == Inside::All);
        // The index is noted only when asked for (build_index), never by an indexed read.
        let scan = PreparedQuery { index: false, ..query.clone() };
        let area_read = query.area.relation().map(|relation| Box::new(AreaRead { relation, plan: ReadPlan::new(&relation_query(relation, query), budget), index: None }));
        // A change view reads over the relation's outline once it is found (start_over_outline).
        let change_read = if area_read.is_none() { ChangeRead::of(query, budget) } else { None };
        ReadPlan { query: query.clone(), budget, assembler, scan, scan_version: 0, hashes: BlobHashes::default(), mismatch: None, pass: Pass::NotStarted, index: None, pages: None, replan: false, build_index: false, header: None, header_frame: (0, 0), stopped: false, basemap: None, basemap_features: Vec::new(), area_read, change_read, outline: None, noted_index: None, places: (Places::default(), false) }
    }

    /// The read the plan's calls go to while there is one: the relation's that is the area,
    /// or a change view's.
    fn inner(&self) -> Option<&ReadPlan> {
        self.area_read.as_ref().map(|r| &r.plan).or(self.change_read.as_ref().map(|c| &c.plan))
    }

    fn inner_mut(&mut self) -> Option<&mut ReadPlan> {
        match (&mut self.area_read, &mut self.change_read) {
            (Some(r), _) => Some(&mut r.plan),
            (None, Some(c)) => Some(&mut c.plan),
            (None, None) => None,
        }
    }

    /// The plan that takes the calls: the inner read while there is one, else this one.
    fn current(&self) -> &ReadPlan {
        self.inner().unwrap_or(self)
    }

    /// After the relation's read: the plan of the query over its outline replaces this one,
    /// going by the index given or the one the relation's read noted.
    ///
    /// Errors: [`DecodeError::NoArea`] when the relation is no area.
    fn start_over_outline(&mut self) -> Result<(), DecodeError> {
        let mut found = self.area_read.take().expect("a relation's read");
        let (area, parts) = outline(found.plan.answer(), found.relation)?;
        let mut fresh = ReadPlan::new(&PreparedQuery { area, ..self.query.clone() }, self.budget);
        match found.index.take() {
            Some(GivenIndex::Whole(index)) => fresh.use_index(index),
            Some(GivenIndex::Bytes(bytes, identity)) => fresh.use_index_bytes(&bytes, identity).map_err(|_| DecodeError::Inconsistent("the blob index was refused the second time"))?,
            None => match found.plan.blob_index(FileIdentity { size: 0, head_tail_hash: 0 }) {
                Some(noted) => {
                    fresh.use_index(noted.clone());
                    fresh.noted_index = Some(noted);
                }
                None if self.build_index => fresh.build_index(),
                None => {}
            },
        }
        fresh.scan_version = found.plan.scan_version + 1;
        fresh.outline = Some(parts);
        fresh.places = std::mem::take(&mut found.plan.places);
        *self = fresh;
        Ok(())
    }

    /// The relation whose outline is the query's area, while it is being read (the decode
    /// workers' query is then `type:relation id:ID` over the whole file).
    pub fn finding_relation(&self) -> Option<i64> {
        self.area_read.as_ref().map(|r| r.relation)
    }

    /// The outline of the relation that is the query's area (GeoJSON MultiPolygon coordinates,
    /// degrees), once its read is done; None for other areas or before.
    pub fn outline(&self) -> Option<&Parts> {
        self.outline.as_ref()
    }

    /// The query the decode workers apply to the blobs of [`Decode::Scan`] reads, and how many
    /// times it changed (a driver passes it on when the count moved). Its `area_nodes` and
    /// `area_filter` change during the first read; `history` and `index` once the header is in.
    pub fn scan_query(&self) -> (&PreparedQuery, u64) {
        let plan = self.current();
        (&plan.scan, plan.scan_version)
    }

    /// The next read, finishing the pass before it (a pass with nothing to read is skipped);
    /// None once the answer is whole.
    ///
    /// Errors: [`DecodeError::Inconsistent`] when the first read had no OSMHeader.
    pub fn next_read(&mut self) -> Result<Option<Read>, DecodeError> {
        if let Some(found) = &mut self.area_read {
            if let Some(read) = found.plan.next_read()? {
                return Ok(Some(read));
            }
            self.start_over_outline()?;
        }
        while let Some(change) = &mut self.change_read {
            if let Some(read) = change.plan.next_read()? {
                return Ok(Some(read));
            }
            self.next_change_read(false);
        }
        loop {
            let read = if std::mem::take(&mut self.replan) {
                self.read_of(self.pass, true)
            } else {
                match self.pass {
                    Pass::NotStarted => {
                        if let Some(pages) = self.first_pages() {
                            return Ok(Some(pages));
                        }
                        self.start_index();
                        self.pass = Pass::First;
                        return Ok(Some(self.first_read()));
                    }
                    Pass::First => {
                        if self.header.is_none() {
                            return Err(DecodeError::Inconsistent("the file has no OSMHeader"));
                        }
                        // The rescan's scans are whole: the area filter is for the first read only.
                        self.set_area_filter(None);
                        self.pass = Pass::Rescan;
                        self.read_of(Pass::Rescan, false)
                    }
                    Pass::Rescan => {
                        self.pass = Pass::MemberWays;
                        self.read_of(Pass::MemberWays, false)
                    }
                    Pass::MemberWays => {
                        self.pass = Pass::NodeLocations;
                        self.read_of(Pass::NodeLocations, false)
                    }
                    Pass::NodeLocations => {
                        self.assembler.finish();
                        self.pass = Pass::Geometry;
                        self.read_of(Pass::Geometry, false)
                    }
                    Pass::Geometry => {
                        self.assembler.finish_geometry();
                        self.pass = Pass::Done;
                        return Ok(None);
                    }
                    Pass::Done => return Ok(None),
                    Pass::BasemapAsked => {
                        self.pass = Pass::Basemap;
                        self.read_of(Pass::Basemap, false)
                    }
                    Pass::Basemap => {
                        self.end_basemap();
                        return Ok(None);
                    }
                }
            };
            // Pages of the index that may hold some of the read's blobs come first; then the
            // pass is planned again from their entries.
            if let Some(Read { blobs: Blobs::Listed(blobs), .. }) = &read {
                if blobs.iter().any(|b| b.index >= STUB_BASE) {
                    self.replan = true;
                    return Ok(Some(pages_read(blobs.iter().filter(|b| b.index >= STUB_BASE).map(|b| PlannedBlob { from: 0, to: 0, ..b.clone() }))));
                }
            }
            if let Some(read) = read.filter(|r| r.blobs != Blobs::Listed(Vec::new())) {
                return Ok(Some(read));
            }
        }
    }

    /// The read of `pass` (one after the first) as the answer now stands; `again`: planned
    /// again after index pages came in.
    fn read_of(&mut self, pass: Pass, again: bool) -> Option<Read> {
        match pass {
            Pass::Rescan => self.assembler.rescan_read().map(|blobs| Read { decode: Decode::Scan, blobs: listed(&blobs), wanted: Vec::new(), reread: true }),
            Pass::MemberWays => self.assembler.member_read().map(|plan| targeted(Decode::LocateWays, plan, |s| (s.min_way_id, s.max_way_id))),
            Pass::NodeLocations => self.assembler.second_read().map(|plan| targeted(Decode::LocateNodes, plan, |s| (s.min_node_id, s.max_node_id))),
            Pass::Geometry => self.assembler.geometry_read().map(|plan| targeted(Decode::LocateNodes, plan, |s| (s.min_node_id, s.max_node_id))),
            Pass::Basemap => {
                if again {
                    if let (Ok((_, blobs)), Some(basemap)) = (self.assembler.context_read(), &mut self.basemap) {
                        basemap.0 = blobs;
                    }
                }
                let blobs = self.basemap.as_ref().map_or_else(Vec::new, |(blobs, _)| blobs.clone());
                Some(Read { decode: Decode::Basemap, blobs: listed(&blobs), wanted: Vec::new(), reread: true })
            }
            _ => None,
        }
    }

    fn first_read(&mut self) -> Read {
        self.places.1 |= self.index.is_none(); // kept when carried from the relation's whole read
        let blobs = match &self.index {
            None => Blobs::WholeFile,
            Some((index, entries)) => {
                let (offset, size) = index.header_frame;
                let header = PlannedBlob { index: 0, offset, size, from: 0, to: 0 };
                let data = entries.iter().map(|&i| &index.entries[i]).map(|e| PlannedBlob { index: e.index, offset: e.offset, size: e.size, from: 0, to: 0 });
                Blobs::Listed(std::iter::once(header).chain(data).collect())
            }
        };
        Read { decode: Decode::Scan, blobs, wanted: Vec::new(), reread: false }
    }

    /// Takes the file's OSMHeader (its frame at `offset`, `size` bytes), read first by the first
    /// read. A history file's scans answer as of the query's moment and note no index.
    ///
    /// Errors: [`DecodeError::Inconsistent`] for a second OSMHeader, or for a history file read by
    /// a blob index (indexes are of files without history); [`DecodeError::Query`] for a change
    /// view of a file that is not a history file.
    pub fn add_header(&mut self, header: HeaderInfo, offset: u64, size: u64) -> Result<(), DecodeError> {
        if self.change_read.is_some() && !header.is_history() {
            return Err(DecodeError::Query(NOT_HISTORY.into()));
        }
        if let Some(inner) = self.inner_mut() {
            return inner.add_header(header, offset, size);
        }
        if self.header.is_some() {
            return Err(DecodeError::Inconsistent("a second OSMHeader"));
        }
        let history = header.is_history();
        if history && self.index.is_some() {
            return Err(DecodeError::Inconsistent("the blob index is of a file without history; this one is a history file"));
        }
        if history {
            self.scan.history = true;
            self.scan.index = false;
            self.scan_version += 1;
        } else {
            self.assembler.expect_sorted();
        }
        self.header = Some(header);
        self.header_frame = (offset, size);
        Ok(())
    }

    /// The file's OSMHeader, once the first read has taken it.
    pub fn header(&self) -> Option<&HeaderInfo> {
        self.current().header.as_ref()
    }

    /// Adds what a decode worker found in blob `index` (frame at byte `offset`, `size` bytes, its
    /// Blob's checksum `blob_hash`: [`crate::index::blob_hash`]) for the read under way, as its
    /// [`Decode`] says.
    ///
    /// In a read by a blob index, a blob whose checksum is not the index's ends the index: the
    /// plan forgets what was found, its next read is the whole file (noting a new index), and
    /// [`ReadPlan::take_index_mismatch`] says why; in the basemap read, only the basemap is dropped.
    ///
    /// Errors: [`DecodeError::Inconsistent`] for a blob before the OSMHeader, a finding of
    /// another kind than the read asked for, or first-read blobs out of file order once ways were
    /// dropped (see [`Assembler::add_block`]).
    pub fn add(&mut self, index: u32, offset: u64, size: u64, blob_hash: u64, mut found: Found) -> Result<(), DecodeError> {
        if let Some(area) = &mut self.area_read {
            area.plan.add(index, offset, size, blob_hash, found)?;
            if area.plan.mismatch.is_some() {
                area.index = None; // the relation's read goes on whole; so will the query's
            }
            return Ok(());
        }
        if let Some(change) = &mut self.change_read {
            return change.plan.add(index, offset, size, blob_hash, found);
        }
        if self.header.is_none() {
            return Err(DecodeError::Inconsistent("the file does not start with an OSMHeader"));
        }
        if self.index.is_some() {
            if let Err(why) = self.hashes.check(index, offset, blob_hash) {
                self.give_up_index(why);
                return Ok(());
            }
        } else if let Found::Scan(BlockScan { index: Some(part), .. }) = &mut found {
            part.blob_hash = blob_hash;
        }
        match (self.pass, found) {
            (Pass::First, Found::Scan(mut scan)) => {
                self.places.0.add(std::mem::take(&mut scan.places));
                self.assembler.add_block(index, offset, size, scan)?;
                if self.scan.area_nodes && self.assembler.overflowed() {
                    self.scan.area_nodes = false;
                    self.scan_version += 1;
                }
                if let Some(filter) = self.assembler.take_area_filter_change() {
                    self.set_area_filter(filter);
                }
            }
            (Pass::Rescan, Found::Scan(scan)) => self.assembler.add_rescanned_ways(index, scan),
            (Pass::MemberWays, Found::Ways(ways)) => self.assembler.add_member_ways(index, ways),
            (Pass::NodeLocations, Found::Nodes(nodes)) => self.assembler.add_locations(index, &nodes),
            (Pass::Geometry, Found::Nodes(nodes)) => self.assembler.add_way_locations(index, &nodes),
            (Pass::Basemap, Found::Basemap(features)) => self.basemap_features.extend(features),
            _ => return Err(DecodeError::Inconsistent("a blob's finding is not of the kind the read asked for")),
        }
        Ok(())
    }

    /// After a blob that did not match the index read by: the basemap read ends with no
    /// basemap; any other read starts again as a plan for the whole file that notes a new index.
    fn give_up_index(&mut self, why: String) {
        if matches!(self.pass, Pass::BasemapAsked | Pass::Basemap) {
            self.end_basemap();
            self.basemap_features.clear();
            self.index = None;
        } else {
            let mut fresh = ReadPlan::new(&self.query, self.budget);
            fresh.build_index();
            fresh.scan_version = self.scan_version + 1;
            *self = fresh;
        }
        self.mismatch = Some(why);
    }

    /// Why the blob index was given up in the read under way (a blob did not match it), once:
    /// the driver then ends that read (what its other blobs give is not wanted) and asks for the
    /// next, the whole file. None while the index holds.
    pub fn take_index_mismatch(&mut self) -> Option<String> {
        match self.inner_mut() {
            Some(inner) => inner.mismatch.take(),
            None => self.mismatch.take(),
        }
    }

    /// The kind of finding [`ReadPlan::add`] takes now (None when no read is under way).
    pub fn decode(&self) -> Option<Decode> {
        if let Some(inner) = self.inner() {
            return inner.decode();
        }
        match self.pass {
            Pass::First | Pass::Rescan => Some(Decode::Scan),
            Pass::MemberWays => Some(Decode::LocateWays),
            Pass::NodeLocations | Pass::Geometry => Some(Decode::LocateNodes),
            Pass::Basemap => Some(Decode::Basemap),
            Pass::NotStarted | Pass::Done | Pass::BasemapAsked => None,
        }
    }

    /// Ends the read early (an error or a cancel): the matches found so far are placed and stay
    /// ([`Assembler::finish`]), without full geometry. No read follows. Stopping the basemap read
    /// leaves the answer whole and drops the basemap. Stopping a change view's second read makes
    /// the change view of what it found; stopping its first leaves no answer.
    pub fn stop(&mut self) {
        if self.area_read.take().is_some() {
            self.stopped = true;
            self.pass = Pass::Done;
            return;
        }
        if self.change_read.is_some() {
            return self.next_change_read(true);
        }
        if matches!(self.pass, Pass::BasemapAsked | Pass::Basemap) {
            self.end_basemap();
            self.basemap_features.clear();
            return;
        }
        if !matches!(self.pass, Pass::Geometry | Pass::Done) {
            self.assembler.finish();
        }
        self.stopped = self.pass != Pass::Done;
        self.pass = Pass::Done;
    }

    /// Asks for the basemap read of the finished answer: the next [`ReadPlan::next_read`] names
    /// the blobs that hold ways of the area, to be decoded ([`Decode::Basemap`]) with the area's
    /// node locations ([`ReadPlan::basemap_nodes`]); then [`ReadPlan::take_basemap`] gives the
    /// features. Err with the reason to show when there is none: a history file, no area, an
    /// area larger than a city, too many nodes in it, no ways in the file, or an answer not done.
    pub fn ask_basemap(&mut self) -> Result<(), String> {
        if self.pass != Pass::Done {
            return Err("no basemap: the answer is not done".into());
        }
        if self.scan.history {
            return Err("no basemap from a history file: it holds every version of each road".into());
        }
        let (nodes, blobs) = self.assembler.context_read()?;
        if blobs.is_empty() {
            return Err("no basemap: the file has no ways in the area".into());
        }
        self.basemap = Some((blobs, nodes));
        self.basemap_features.clear();
        self.pass = Pass::BasemapAsked;
        self.scan_version += 1;
        Ok(())
    }

    /// The area's node locations the basemap read's blobs are decoded with (empty when no
    /// basemap read is asked for); a driver passes them on when [`ReadPlan::scan_query`]'s count moved.
    pub fn basemap_nodes(&self) -> Option<&ContextNodes> {
        self.basemap.as_ref().map(|(_, nodes)| nodes)
    }

    /// The basemap features the last basemap read gave, taken once: i32s `class, kind, n, then
    /// n × (lon_e7, lat_e7)` per feature (1e-7 degrees; [`crate::basemap::context_ways`]).
    pub fn take_basemap(&mut self) -> Vec<i32> {
        std::mem::take(&mut self.basemap_features)
    }

    fn end_basemap(&mut self) {
        self.pass = Pass::Done;
        if self.basemap.take().is_some() {
            self.scan_version += 1;
        }
    }

    /// The named multipolygons and boundaries of the file, taken once the read is done when its
    /// first read (the relation's, when the area is a relation) was of the whole file, so that
    /// they are all there are; None else.
    pub fn take_places(&mut self) -> Option<Places> {
        let complete = self.places.1 && self.pass == Pass::Done && !self.stopped;
        complete.then(|| std::mem::take(&mut self.places.0))
    }

    /// The query as given.
    pub fn query(&self) -> &PreparedQuery {
        &self.query
    }

    /// The elements of the blobs decoded so far by the read under way (its progress).
    pub fn decoded(&self) -> &crate::summary::Counts {
        &self.current().assembler.decoded
    }

    /// The answer assembled so far.
    pub fn answer(&self) -> &Assembler {
        &self.assembler
    }

    /// The answer assembled so far, for its list views and exports.
    pub fn answer_mut(&mut self) -> &mut Assembler {
        &mut self.assembler
    }

    /// Sets the decode workers' area filter (None: none) and notes the change.
    fn set_area_filter(&mut self, filter: Option<crate::query::area_filter::AreaFilter>) {
        if self.scan.area_filter.is_some() || filter.is_some() {
            self.scan.area_filter = filter;
            self.scan_version += 1;
        }
    }
}

/// A read of index pages: each named by its stub, with its offset and size in the index file.
fn pages_read(pages: impl Iterator<Item = PlannedBlob>) -> Read {
    Read { decode: Decode::IndexPages, blobs: Blobs::Listed(pages.collect()), wanted: Vec::new(), reread: false }
}

/// Blobs of a plan, with no wanted ids.
fn listed(blobs: &[BlobEntry]) -> Blobs {
    Blobs::Listed(blobs.iter().map(|b| PlannedBlob { index: b.index, offset: b.offset, size: b.size, from: 0, to: 0 }).collect())
}

/// A targeted read of `plan`, each blob with its slice of the wanted ids by the id range
/// `range` gives of it.
fn targeted(decode: Decode, plan: SecondRead, range: impl Fn(&BlockSummary) -> (i64, i64)) -> Read {
    let blobs = plan
        .blobs
        .iter()
        .map(|b| {
            let (min, max) = range(&b.summary);
            let from = plan.wanted.partition_point(|&id| id < min);
            let to = plan.wanted.partition_point(|&id| id <= max);
            PlannedBlob { index: b.index, offset: b.offset, size: b.size, from, to }
        })
        .collect();
    Read { decode, blobs: Blobs::Listed(blobs), wanted: plan.wanted, reread: true }
}
