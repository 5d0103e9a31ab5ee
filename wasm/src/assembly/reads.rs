//! The targeted reads' plans: which blobs each pass after the first must fetch (by id ranges,
//! bboxes and, with a blob index, its cells), and what their findings add.

use super::*;

impl Assembler {

    /// The blob index the scans noted (when the query asked for one: [`crate::query::PreparedQuery::index`])
    /// for the file of `identity`, whose OSMHeader frame is at `header_frame` (offset, size).
    /// None when no scan noted anything.
    pub fn blob_index(&mut self, identity: FileIdentity, replication_timestamp: Option<i64>, header_frame: (u64, u64)) -> Option<BlobIndex> {
        Some(self.index_builder.take()?.finish(identity, replication_timestamp, header_frame, self.counts))
    }


    /// Starts an indexed read: every blob and the file's counts come from `index`, so the
    /// targeted reads and the basemap can plan from them; `plan` says which blobs the first
    /// read takes ([`BlobIndex::plan`]). When it skips node blobs of the area, ways are placed
    /// by the second read. `stubs`: pages of a paged index not fetched yet
    /// ([`crate::index::pages`]), which stand for their blobs until [`Assembler::add_index_page`].
    pub fn use_index(&mut self, index: &BlobIndex, stubs: &[IndexEntry], plan: &IndexedPlan) {
        self.blobs.clear();
        self.counts = index.counts;
        self.indexed = true;
        self.add_index_entries(index.entries.iter().chain(stubs));
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

    /// Puts what the page of `stub` held in its place: its blobs' `entries` and the `stubs` of
    /// the pages it names.
    pub fn add_index_page(&mut self, stub: u32, entries: &[IndexEntry], stubs: &[IndexEntry]) {
        self.blobs.retain(|b| b.index != stub);
        self.way_cells.remove(&stub);
        self.node_cells.remove(&stub);
        self.members_placed.remove(&stub);
        self.unplaced_ways.remove(&stub);
        self.add_index_entries(entries.iter().chain(stubs));
    }

    fn add_index_entries<'a>(&mut self, entries: impl Iterator<Item = &'a IndexEntry>) {
        for e in entries {
            self.blobs.push(BlobEntry { index: e.index, offset: e.offset, size: e.size, summary: e.summary });
            self.way_cells.insert(e.index, e.way_cells.clone());
            if e.summary.has_nodes() {
                self.node_cells.insert(e.index, e.node_cells.clone());
            }
            if e.relations_placed && e.summary.has_relations() {
                self.members_placed.insert(e.index);
            }
            if e.unplaced_ways {
                self.unplaced_ways.insert(e.index);
            }
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
        for b in self.blobs.iter().filter(|b| b.index < STUB_BASE) {
            *blobs.entry(crate::format::blob::COMPRESSIONS[b.summary.compression as usize].to_string()).or_insert(0u64) += 1;
        }
        let range = |pick: fn(&BlockSummary) -> (i64, i64)| {
            let (lo, hi) = self.blobs.iter().filter(|b| b.index < STUB_BASE).map(|b| pick(&b.summary)).fold((i64::MAX, i64::MIN), |(a, b), (c, d)| (a.min(c), b.max(d)));
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
            newest_timestamp: self.blobs.iter().filter(|b| b.index < STUB_BASE).map(|b| b.summary.max_timestamp).max().filter(|&t| t > i64::MIN),
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


    /// What the member read must fetch: the blobs whose way-id range holds a way member of a
    /// candidate relation whose node refs are not known yet, or None. With an index that
    /// places the relations' members, only way blobs whose ways' cells meet those members' cells
    /// (a member way's nodes are among them).
    pub fn member_read(&self) -> Option<SecondRead> {
        let mut from_blobs: FxHashSet<u32> = FxHashSet::default();
        let mut wanted: Vec<i64> = Vec::new();
        for r in self.relations.values() {
            let before = wanted.len();
            wanted.extend(r.members.iter().filter(|m| m.0 == 1).map(|m| m.1).filter(|&id| self.way_refs(id).is_none()));
            if wanted.len() > before {
                from_blobs.insert(r.blob);
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() {
            return None;
        }
        let near = from_blobs.iter().all(|b| self.members_placed.contains(b)).then(|| self.where_ways_of(&from_blobs)).flatten();
        let blobs = self.blobs_where(|b| b.summary.may_hold_way(&wanted) && near.as_ref().is_none_or(|cells| self.unplaced_ways.contains(&b.index) || self.way_cells.get(&b.index).is_none_or(|c| c.meet_cells(cells))));
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
        // Sized at once: tens of millions of ids in a whole-file answer, where doubling as it
        // grows would hold up to twice that.
        let members: Vec<i64> = self.relations.values().flat_map(|r| member_nodes(r, &self.ways, &self.member_ways)).collect();
        let refs = self.ways.values().filter(|w| !w.fixed).map(|w| w.refs.len()).sum::<usize>();
        let mut wanted: Vec<i64> = Vec::with_capacity(refs + members.len());
        wanted.extend(self.ways.values().filter(|w| !w.fixed).flat_map(|w| w.refs.iter()));
        wanted.extend(members);
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


    /// What the geometry read must fetch: the blobs whose node-id range holds a node of a
    /// matched way that is not located yet, or None when nothing is missing. Call after
    /// [`Assembler::finish`]. Also for answers over [`MAX_SHAPES`], drawn as points: their
    /// exports carry the full geometry.
    pub fn geometry_read(&mut self) -> Option<SecondRead> {
        // With no area, the first read kept every node location of the file, or the second read
        // fetched every node of the candidates: a node not located now is not in the file.
        if self.area.is_everywhere() {
            return None;
        }
        // The nodes not located yet, and the blobs of their ways.
        let ids = self.ways_by_first_ref(|w| !w.fixed && w.position.is_some());
        let mut from_blobs: FxHashSet<u32> = FxHashSet::default();
        let mut wanted: Vec<i64> = Vec::new();
        let (locations, outside) = (&mut self.locations, &mut self.outside);
        let mut missing = |blob: u32, refs: &[i64]| {
            let before = wanted.len();
            wanted.extend(refs.iter().copied().filter(|&r| locate(locations, outside, r).is_none()));
            if wanted.len() > before {
                from_blobs.insert(blob);
            }
        };
        for id in ids {
            let w = &self.ways[&id];
            missing(w.blob, &w.refs.to_vec());
        }
        for r in self.relations.values().filter(|r| r.position.is_some()) {
            for &(_, member, _) in r.members.iter().filter(|m| m.0 == 1) {
                if let Some((blob, refs)) = way_found(&self.ways, &self.member_ways, member) {
                    missing(blob, &refs);
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() {
            return None;
        }
        let near = self.where_ways_of(&from_blobs);
        let blobs = self.blobs_where(|b| b.summary.may_hold_node(&wanted) && near.as_ref().is_none_or(|cells| self.node_cells.get(&b.index).is_none_or(|c| c.meet_cells(cells))));
        Some(SecondRead { blobs, wanted })
    }


    /// With an index, the cells the nodes of the ways of `blobs` lie in (every node a way
    /// refers to lies in its blob's way cells, so only node blobs meeting them can hold one), or
    /// of their relations' members when placed; None when any of them is unknown.
    fn where_ways_of(&self, blobs: &FxHashSet<u32>) -> Option<Cells> {
        let cells: Vec<&Cells> = blobs.iter().map(|b| self.way_cells.get(b).filter(|c| c.level > 0)).collect::<Option<_>>()?;
        Some(Cells::union(cells.iter().copied()))
    }


    /// Adds node locations found by the geometry read in blob `index`: `(id, lat_e7, lon_e7)`.
    pub fn add_way_locations(&mut self, index: u32, found: &[(i64, i32, i32)]) {
        let mut found = found.to_vec();
        found.sort_by_key(|l| l.0);
        self.outside.add(index, found.iter().map(|l| l.0).collect(), found.iter().map(|l| l.1).collect(), found.iter().map(|l| l.2).collect());
    }


    /// What the basemap read ([`crate::basemap`]) needs: the area's node locations (ids
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
}
