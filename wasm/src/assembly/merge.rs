//! Merging block scans into the answer: duplicates answered from the latest blob, candidate
//! ways dropped once they can no longer match, the decode workers' area filter, and the final
//! placing of ways and relations ([`Assembler::finish`]). Rules: the module documentation of
//! [`crate::assembly`].

use super::*;

impl Assembler {
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
        // With no area nothing is dropped: tags alone decide, located or not.
        let everywhere = self.area.is_everywhere();
        if self.note_area_nodes(index, &scan.summary) && !everywhere {
            self.drop_ways_outside();
        }
        let all_located = self.area_nodes_seen == AreaNodesSeen::All && !self.overflowed && !everywhere;
        for n in scan.nodes {
            let Some(shown) = self.replaceable(ElementType::Node, n.id, index) else { continue };
            let tags = self.shared_tags(n.tags);
            self.nodes.insert(n.id, NodeEntry { blob: index, lat: n.lat, lon: n.lon, tags, meta: n.meta, shown });
            self.changed(ElementType::Node, n.id, true);
        }
        for w in scan.ways {
            self.add_way(index, w, all_located);
        }
        self.note_ways_outside(index, &scan.ways_outside);
        for r in scan.relations {
            let Some(shown) = self.replaceable(ElementType::Relation, r.id, index) else { continue };
            let was = shown.sent;
            let entry = RelationEntry { blob: index, tags: r.tags, meta: r.meta, members: r.members, position: None, unplaced: false, shape: None, problem: None, shown };
            self.relations.insert(r.id, entry);
            if was {
                self.changed(ElementType::Relation, r.id, false); // placed again by finish()
            }
        }
        Ok(())
    }

    /// Adds candidate way `w` of blob `index`, or drops it when `all_located` says it can no
    /// longer match.
    pub(super) fn add_way(&mut self, index: u32, w: WayCandidate, all_located: bool) {
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
        let tags = self.shared_tags(w.tags);
        self.ways.insert(w.id, Box::new(WayEntry { blob: index, tags, meta: w.meta.map(Box::new), refs: Refs::new(&w.refs), fixed, position, unplaced: false, shape: shape.map(Box::new), shown }));
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
    pub(super) fn area_filter_due(&mut self) {
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
            let keep = w.fixed || w.position.is_some() || w.shown.sent || w.shown.queued || mean_location(locations, &w.refs.to_vec(), all).is_some();
            if !keep {
                dropped_in.push(w.blob);
            }
            keep
        });
        dropped_in.sort_unstable();
        dropped_in.dedup();
        self.ways.shrink_to_fit();
        // The sets only dropped ways had (the set's own reference is the last).
        self.tag_sets.retain(|set| std::sync::Arc::strong_count(set) > 1);
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
    pub(super) fn changed(&mut self, t: ElementType, id: i64, drawn: bool) {
        let fid = t.feature_id(id);
        let shown = self.shown_mut(t, id).expect("just inserted");
        let (was_sent, was_queued, was_on_map) = (shown.sent, shown.queued, shown.on_map);
        shown.sent = drawn;
        shown.on_map = false;
        if was_on_map {
            self.removed.push(fid);
        }
        if was_sent {
            self.matched -= 1;
            if !drawn {
                self.sorted_valid = false; // it leaves the list
            }
        } else if drawn {
            self.unsorted.push((t, id)); // it joins the list
        }
        if drawn {
            self.matched += 1;
            if self.map_sample.raise_for(self.matched).is_some() {
                self.map_sample_raised = true;
            }
            // Only what the map's sample draws waits for it: the sample only ever shrinks.
            if !was_queued && self.map_sample.keeps(fid) {
                self.shown_mut(t, id).expect("just inserted").queued = true;
                self.queue.push((t, id));
            }
        }
    }

    /// Places every way and relation from all the locations now known: call once every blob
    /// (and the second read) is in. With no area, one none of whose nodes is located still
    /// matches, unplaced (see the module documentation). The changes go to the queue like any other.
    pub fn finish(&mut self) {
        self.drop_superseded();
        let everywhere = self.area.is_everywhere();
        let ids = self.ways_by_first_ref(|w| !w.fixed);
        // Most of them join the list now: room at once, not doubled as they come.
        self.unsorted.reserve_exact(ids.len() + self.relations.len());
        for id in ids {
            let way = self.ways.get_mut(&id).expect("listed above");
            let (position, unplaced) = placing(&mut self.locations, &way.refs.to_vec(), self.inside_all, everywhere);
            if way.position != position || way.unplaced != unplaced {
                (way.position, way.unplaced) = (position, unplaced);
                let matched = way.is_match();
                self.changed(ElementType::Way, id, matched);
            }
        }
        let ids: Vec<i64> = self.relations.keys().copied().collect();
        for id in ids {
            // The area test and the position: the members' nodes that lie in the area.
            let relation = &self.relations[&id];
            let nodes = member_nodes(relation, &self.ways, &self.member_ways);
            // One of member relations alone is not placed by them (they are not followed), and
            // is no match, as libosmium-based answers count (r15851272 in malta.osm.pbf).
            let of_nodes_or_ways = relation.members.iter().any(|m| m.0 != 2);
            let (position, unplaced) = placing(&mut self.locations, &nodes, self.inside_all, everywhere && of_nodes_or_ways);
            let relation = self.relations.get_mut(&id).expect("listed");
            if relation.position != position || relation.unplaced != unplaced {
                (relation.position, relation.unplaced) = (position, unplaced);
                let matched = relation.is_match();
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
}
