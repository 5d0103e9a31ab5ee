//! What the page shows of the answer: the map's queue of changes and the list's rows in a
//! stable order (label, then type and id), or by a column ([`super::table`]).

use super::*;

impl Assembler {

    /// How many map changes wait to be drained.
    pub fn pending_changes(&self) -> usize {
        self.queue.len() + self.removed.len()
    }


    /// The map's changes since the last call, at most `max` added features (the rest wait for
    /// the next call), as numbers: `[r, r feature ids to remove, then for each feature to add:
    /// its feature id and its shape as [`Shape::encode`] writes it]` (degrees WGS84), to apply
    /// in that order. In a change view the shape's kind number carries 8 × its class's
    /// [`Change::number`] (the kind is below 8). A feature id is [`ElementType::feature_id`]: the element's type and id can
    /// be read back from it.
    ///
    /// Past [`MAP_MAX_FEATURES`] matches only an even sample of them is drawn ([`Assembler::map_sample`]):
    /// as the answer grows, the features the sample leaves out are removed, and only those it
    /// keeps are queued.
    pub fn drain_changes(&mut self, max: usize) -> Vec<f64> {
        if std::mem::take(&mut self.map_sample_raised) {
            let now = self.map_sample;
            // On the map and left out now: taken off (and noted so).
            let off = |fid: i64, shown: &mut Shown| {
                let off = shown.on_map && !now.keeps(fid);
                shown.on_map &= !off;
                off
            };
            let nodes = self.nodes.iter_mut().map(|(&id, e)| (ElementType::Node.feature_id(id), &mut e.shown));
            let ways = self.ways.iter_mut().map(|(&id, e)| (ElementType::Way.feature_id(id), &mut e.shown));
            let relations = self.relations.iter_mut().map(|(&id, e)| (ElementType::Relation.feature_id(id), &mut e.shown));
            self.removed.extend(nodes.chain(ways).chain(relations).filter_map(|(fid, shown)| off(fid, shown).then_some(fid)));
        }
        let take = self.queue.len().min(max);
        let mut out = Vec::with_capacity(1 + self.removed.len() + take * 5);
        out.push(self.removed.len() as f64);
        out.extend(self.removed.drain(..).map(|fid| fid as f64));
        let rest = self.queue.split_off(take);
        for (t, id) in std::mem::replace(&mut self.queue, rest) {
            self.shown_mut(t, id).expect("queued").queued = false;
            if !self.map_sample.keeps(t.feature_id(id)) {
                continue;
            }
            if let Some(shape) = self.shape(t, id) {
                self.shown_mut(t, id).expect("queued").on_map = true;
                out.push(t.feature_id(id) as f64);
                let kind = out.len();
                shape.encode(&mut out);
                if let Some(change) = self.changes.get(&(t, id)) {
                    out[kind] += 8.0 * change.number() as f64;
                }
            }
        }
        out
    }


    /// The bbox of the matches' positions, `[west, south, east, north]` in degrees WGS84 (a way
    /// or relation counts at its position: what "zoom to data" frames); None with no placed match.
    pub fn bounds(&self) -> Option<[f64; 4]> {
        let nodes = self.nodes.values().map(|n| [n.lat, n.lon]);
        let ways = self.ways.values().filter_map(|w| w.position);
        let relations = self.relations.values().filter_map(|r| r.position);
        nodes.chain(ways).chain(relations).fold(None, |b: Option<[f64; 4]>, [lat, lon]| {
            let [w, s, e, n] = b.unwrap_or([lon, lat, lon, lat]);
            Some([w.min(lon), s.min(lat), e.max(lon), n.max(lat)])
        })
    }

    /// The map draws 1 match in this many (1 up to [`MAP_MAX_FEATURES`] matches, see
    /// [`Assembler::drain_changes`]).
    pub fn map_sample(&self) -> u64 {
        self.map_sample.one_in()
    }


    /// `count` matches from position `start` in the stable order (label, then type and id),
    /// where the label is the `name` tag, else the first tag as `key=value`.
    pub fn rows(&mut self, start: usize, count: usize) -> Vec<Match> {
        self.row_keys(start, count).into_iter().filter_map(|(t, id)| self.get(t, id)).collect()
    }

    /// The type and id of the matches at positions `start .. start + count` of the list (as
    /// [`Assembler::rows`]), found by position: cheap for any `start`, so a caller can build one
    /// match at a time (an element may hold megabytes of tags).
    pub fn row_keys(&mut self, start: usize, count: usize) -> Vec<(ElementType, i64)> {
        self.sort();
        if self.order.is_none() && self.filter.is_none() {
            let end = start.saturating_add(count).min(self.sorted.len());
            return (start.min(end)..end).map(|i| self.sorted.at(i)).collect();
        }
        self.build_view();
        let end = start.saturating_add(count).min(self.view.len());
        self.view[start.min(end)..end].iter().map(|&i| self.sorted.at(i)).collect()
    }

    /// The number of rows of the list: the matches, or those passing the filter.
    pub fn row_count(&mut self) -> usize {
        self.sort();
        if self.filter.is_none() {
            return self.sorted.len();
        }
        self.build_view();
        self.view.len()
    }

    /// The position of match `(t, id)` in the list (its order and filter), or None when it is
    /// not a row of it. Linear in the rows: asked once per click.
    pub fn row_of(&mut self, t: ElementType, id: i64) -> Option<usize> {
        self.sort();
        if self.order.is_none() && self.filter.is_none() {
            return self.sorted.iter().position(|key| key == (t, id));
        }
        self.build_view();
        self.view.iter().position(|&i| self.sorted.at(i) == (t, id))
    }

    /// Builds `view`, the list's positions in `sorted` in its order and passing its filter,
    /// unless it is up to date.
    fn build_view(&mut self) {
        if self.view_version == self.sorted_version {
            return;
        }
        let mut view = match &self.order {
            // From the position alone: a whole match (its tags cloned) per row would be wasted here.
            Some((column, descending)) => {
                let own = |t, id| match column.as_str() {
                    "change" => self.change_of(t, id).map(|c| c.number() as f64),
                    _ => self.position(t, id).and_then(|[lat, lon]| self.area.distance_m(lat, lon)),
                };
                crate::assembly::table::order(self.sorted.iter(), |t, id| self.tags_of(t, id), own, column, *descending)
            }
            None => (0..self.sorted.len()).collect(),
        };
        if let Some(filter) = &self.filter {
            view.retain(|&i| {
                let (t, id) = self.sorted.at(i);
                crate::assembly::table::row_passes(t, id, self.tags_of(t, id).unwrap_or_default(), filter)
            });
        }
        self.view = view;
        self.view_version = self.sorted_version;
    }

    /// Orders the list by `column` (`type`, `id`, `distance` from a circle's centre, `change` in a change view, `name` or a
    /// tag key; None: by label, the default), ties in label order; a missing tag sorts last either way.
    pub fn set_order(&mut self, column: Option<String>, descending: bool) {
        self.order = column.map(|c| (c, descending));
        self.view_version = u64::MAX;
    }

    /// Keeps in the list only the matches whose type, id, or a tag's key or value holds `text`,
    /// ignoring case (see [`crate::assembly::table::row_passes`]); empty: every match.
    pub fn set_filter(&mut self, text: &str) {
        self.filter = (!text.is_empty()).then(|| text.to_lowercase());
        self.view_version = u64::MAX;
    }

    /// Every match's type, id and tags, in no order: the nodes, then the ways and relations that
    /// are matches (not candidates). The one walk over all matches the list, a change view and
    /// the colouring by a key start from.
    pub(crate) fn match_tags(&self) -> impl Iterator<Item = (ElementType, i64, &[Tag])> + '_ {
        let nodes = self.nodes.iter().map(|(&id, n)| (ElementType::Node, id, &n.tags[..]));
        let ways = self.ways.iter().filter(|(_, w)| w.is_match()).map(|(&id, w)| (ElementType::Way, id, &w.tags[..]));
        let relations = self.relations.iter().filter(|(_, r)| r.is_match()).map(|(&id, r)| (ElementType::Relation, id, r.tags.as_slice()));
        nodes.chain(ways).chain(relations)
    }

    /// The tags of a match (or of a candidate that is not one yet).
    pub fn tags_of(&self, t: ElementType, id: i64) -> Option<&[Tag]> {
        tags_of(&self.nodes, &self.ways, &self.relations, t, id)
    }


    /// Tag statistics of the answer (see [`crate::assembly::table::tag_stats`]).
    pub fn tag_stats(&mut self, key: Option<&str>, top: usize) -> crate::assembly::table::TagStats {
        self.sort();
        let items = self.sorted.iter().filter_map(|(t, id)| Some((t, self.tags_of(t, id)?)));
        crate::assembly::table::tag_stats(items, key, top)
    }


    fn sort(&mut self) {
        if !self.sorted_valid {
            self.sorted_version += 1;
            self.sorted.clear();
            // Taken while the matches are walked, and put back: its room is kept.
            let mut unsorted = std::mem::take(&mut self.unsorted);
            unsorted.clear();
            unsorted.extend(self.match_tags().map(|(t, id, _)| (t, id)));
            self.unsorted = unsorted;
            self.sorted_valid = true;
        }
        if self.unsorted.is_empty() {
            return;
        }
        self.sorted_version += 1;
        // Taken, not drained: its room goes back too (millions of rows at the end of a read).
        let unsorted = std::mem::take(&mut self.unsorted);
        let (nodes, ways, relations) = (&self.nodes, &self.ways, &self.relations);
        let tags = |t, id| tags_of(nodes, ways, relations, t, id);
        self.sorted.add(unsorted, |t, id, out| tags(t, id).map(|tags| write_label(tags, out)).is_some());
    }


    /// Every tag key of the matches, sorted: the CSV export's tag columns.
    pub fn tag_keys(&mut self) -> Vec<String> {
        self.sort();
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        for (t, id) in self.sorted.iter() {
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

/// The tags of `(t, id)` among those held.
fn tags_of<'a>(nodes: &'a FxHashMap<i64, NodeEntry>, ways: &'a Ways, relations: &'a FxHashMap<i64, RelationEntry>, t: ElementType, id: i64) -> Option<&'a [Tag]> {
    match t {
        ElementType::Node => nodes.get(&id).map(|n| &n.tags[..]),
        ElementType::Way => ways.get(&id).map(|w| &w.tags[..]),
        ElementType::Relation => relations.get(&id).map(|r| r.tags.as_slice()),
    }
}

/// The list label of an element: its `name`, else its first tag as `key=value`.
pub fn label_of(tags: &[Tag]) -> String {
    let mut label = String::new();
    write_label(tags, &mut label);
    label
}

/// Writes [`label_of`]`(tags)` at the end of `out`.
fn write_label(tags: &[Tag], out: &mut String) {
    match tags.iter().find(|(k, _)| k == "name") {
        Some((_, name)) => out.push_str(name),
        None => {
            if let Some((k, v)) = tags.first() {
                out.extend([k.as_str(), "=", v.as_str()]);
            }
        }
    }
}
