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
            self.view = crate::assembly::table::order(&self.sorted, |t, id| self.tags_of(t, id), distance, column, *descending);
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


    /// Tag statistics of the answer (see [`crate::assembly::table::tag_stats`]).
    pub fn tag_stats(&mut self, key: Option<&str>, top: usize) -> crate::assembly::table::TagStats {
        self.sort();
        let items = self.sorted.iter().filter_map(|&(_, t, id)| Some((t, self.tags_of(t, id)?)));
        crate::assembly::table::tag_stats(items, key, top)
    }


    fn sort(&mut self) {
        if !self.sorted_valid {
            self.sorted_version += 1;
            self.sorted.clear();
            self.unsorted.clear();
            let nodes = self.nodes.keys().map(|&id| (ElementType::Node, id));
            let ways = self.ways.iter().filter(|(_, w)| w.is_match()).map(|(&id, _)| (ElementType::Way, id));
            let relations = self.relations.iter().filter(|(_, r)| r.is_match()).map(|(&id, _)| (ElementType::Relation, id));
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

/// The list label of an element: its `name`, else its first tag as `key=value`.
pub fn label_of(tags: &[Tag]) -> String {
    match tags.iter().find(|(k, _)| k == "name") {
        Some((_, name)) => name.clone(),
        None => tags.first().map(|(k, v)| format!("{k}={v}")).unwrap_or_default(),
    }
}
