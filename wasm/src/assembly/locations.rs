//! Node locations by id, for placing ways: 12 bytes a node (id as an offset within its block,
//! and lat/lon in 1e-7 degrees), kept as the sorted chunks the blocks deliver, looked up in
//! O(log n).
//!
//! Chunks arrive in any order. When their id ranges do not overlap (a file sorted by id, the
//! usual case) a lookup is a binary search over the chunks' first ids, then inside one. When they
//! overlap (an unsorted file, or duplicate ids from concatenated extracts) they are merged into
//! one sorted array, where a duplicate id keeps the location from the latest blob in file order.
//!
//! A way's refs are looked up one after another and mostly lie close together in one chunk, so
//! a lookup starts from where the last one ended: the same chunk when it holds the id, and a
//! search widening from the last position inside it (measured: see `docs/decisions.md`).

use crate::ids::upper_bound_near;
pub use crate::ids::NO_LOCATION;


/// A chunk's ids, ascending: as offsets from the first when they span less than 2^32, as a
/// block's nodes do (4 bytes an id instead of 8: a whole-file answer holds tens of millions).
enum ChunkIds {
    Near { first: i64, offsets: Vec<u32> },
    Far(Vec<i64>),
}

impl ChunkIds {
    fn new(ids: Vec<i64>) -> ChunkIds {
        match (ids.first(), ids.last()) {
            (Some(&first), Some(&last)) if last.wrapping_sub(first) as u64 <= u64::from(u32::MAX) => {
                ChunkIds::Near { first, offsets: ids.iter().map(|&id| (id - first) as u32).collect() }
            }
            _ => ChunkIds::Far(ids),
        }
    }

    fn len(&self) -> usize {
        match self {
            ChunkIds::Near { offsets, .. } => offsets.len(),
            ChunkIds::Far(ids) => ids.len(),
        }
    }

    /// The id at position `i`.
    fn at(&self, i: usize) -> i64 {
        match self {
            ChunkIds::Near { first, offsets } => first + i64::from(offsets[i]),
            ChunkIds::Far(ids) => ids[i],
        }
    }

    /// [`upper_bound_near`] over the ids.
    fn upper_bound_near(&self, id: i64, hint: usize) -> usize {
        match self {
            ChunkIds::Far(ids) => upper_bound_near(ids, id, hint),
            ChunkIds::Near { first, offsets } => {
                if id < *first {
                    return 0;
                }
                match u32::try_from(id.abs_diff(*first)) {
                    Ok(offset) => upper_bound_near(offsets, offset, hint),
                    Err(_) => offsets.len(), // above every id
                }
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = i64> + '_ {
        (0..self.len()).map(|i| self.at(i))
    }
}

/// One block's node locations, ids ascending.
struct Chunk {
    blob: u32,
    ids: ChunkIds,
    lats_e7: Vec<i32>,
    lons_e7: Vec<i32>,
    /// For a merged chunk: the blob of each location (a chunk's own `blob` otherwise).
    blobs: Option<Vec<u32>>,
}

impl Chunk {
    /// The location of `id`, and the position its search ended at: the next lookup's hint
    /// (see [`upper_bound_near`]).
    fn get(&self, id: i64, hint: usize) -> (Option<(i32, i32)>, usize) {
        // The last of equal ids: a block that repeats an id answers with its later copy.
        let at = self.ids.upper_bound_near(id, hint);
        let found = at > 0 && self.ids.at(at - 1) == id && self.lats_e7[at - 1] != NO_LOCATION;
        (found.then(|| (self.lats_e7[at - 1], self.lons_e7[at - 1])), at)
    }

    /// Whether `id` lies within the chunk's id range (held or not).
    fn holds_range_of(&self, id: i64) -> bool {
        self.ids.at(0) <= id && id <= self.ids.at(self.ids.len() - 1)
    }
}

enum Index {
    /// Chunk positions ordered by id range, and each one's first id; the ranges do not overlap.
    Disjoint { order: Vec<usize>, firsts: Vec<i64> },
    /// Everything merged into one chunk (ranges overlapped).
    Merged(Chunk),
}

/// Node locations; see the module documentation.
#[derive(Default)]
pub struct LocationStore {
    chunks: Vec<Chunk>,
    len: usize,
    index: Option<Index>,
    /// Where the last lookup ended: its chunk (a position in `Disjoint`'s order) and position.
    last: (usize, usize),
}

impl LocationStore {
    /// Adds the locations (1e-7 degrees) of block `blob`'s nodes; `ids` must be ascending.
    pub fn add(&mut self, blob: u32, ids: Vec<i64>, lats_e7: Vec<i32>, lons_e7: Vec<i32>) {
        if ids.is_empty() {
            return;
        }
        debug_assert!(ids.windows(2).all(|w| w[0] <= w[1]));
        self.len += ids.len();
        if let Some(Index::Merged(merged)) = self.index.take() {
            self.chunks = vec![merged];
        }
        self.chunks.push(Chunk { blob, ids: ChunkIds::new(ids), lats_e7, lons_e7, blobs: None });
    }

    /// How many locations are held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Drops every location and gives the memory back.
    pub fn clear(&mut self) {
        *self = LocationStore::default();
    }

    /// Whether a lookup now is cheap: the index is built, or can be built without merging.
    pub fn cheap_to_query(&mut self) -> bool {
        match &self.index {
            Some(_) => true,
            None => self.disjoint_order().is_some(),
        }
    }

    /// Location `(lat_e7, lon_e7)` of node `id`, if held.
    pub fn get(&mut self, id: i64) -> Option<(i32, i32)> {
        self.build_index();
        let (found, last) = match self.index.as_ref()? {
            Index::Merged(chunk) => {
                let (found, at) = chunk.get(id, self.last.1);
                (found, (0, at))
            }
            Index::Disjoint { order, firsts } => {
                let (c, hint) = match order.get(self.last.0) {
                    Some(&c) if self.chunks[c].holds_range_of(id) => (self.last.0, self.last.1),
                    _ => match firsts.partition_point(|&first| first <= id) {
                        0 => return None,
                        at => (at - 1, self.chunks[order[at - 1]].ids.len() / 2),
                    },
                };
                let (found, at) = self.chunks[order[c]].get(id, hint);
                (found, (c, at))
            }
        };
        self.last = last;
        found
    }

    /// The ids of every location held, in no order (a duplicate id may come twice).
    pub fn ids(&self) -> impl Iterator<Item = i64> + '_ {
        let merged = match &self.index {
            Some(Index::Merged(chunk)) => Some(chunk),
            _ => None,
        };
        self.chunks.iter().chain(merged).flat_map(|c| c.ids.iter())
    }

    /// Every location held, ids ascending (a duplicate id once, as [`LocationStore::get`] answers
    /// it): `(ids, lats_e7, lons_e7)`.
    pub fn to_sorted(&mut self) -> (Vec<i64>, Vec<i32>, Vec<i32>) {
        self.build_index();
        let (mut ids, mut lats, mut lons) = (Vec::with_capacity(self.len), Vec::with_capacity(self.len), Vec::with_capacity(self.len));
        let order: Vec<&Chunk> = match &self.index {
            None => Vec::new(),
            Some(Index::Merged(chunk)) => vec![chunk],
            Some(Index::Disjoint { order, .. }) => order.iter().map(|&c| &self.chunks[c]).collect(),
        };
        for c in order {
            for i in (0..c.ids.len()).filter(|&i| c.lats_e7[i] != NO_LOCATION) {
                ids.push(c.ids.at(i));
                lats.push(c.lats_e7[i]);
                lons.push(c.lons_e7[i]);
            }
        }
        (ids, lats, lons)
    }

    /// The chunks ordered by their first id, if no two ranges overlap.
    fn disjoint_order(&self) -> Option<Vec<usize>> {
        let mut order: Vec<usize> = (0..self.chunks.len()).collect();
        order.sort_unstable_by_key(|&c| self.chunks[c].ids.at(0));
        let last = |c: usize| self.chunks[c].ids.at(self.chunks[c].ids.len() - 1);
        let disjoint = order.windows(2).all(|w| last(w[0]) < self.chunks[w[1]].ids.at(0));
        disjoint.then_some(order)
    }

    fn build_index(&mut self) {
        if self.index.is_some() {
            return;
        }
        self.last = (0, 0);
        if let Some(order) = self.disjoint_order() {
            let firsts = order.iter().map(|&c| self.chunks[c].ids.at(0)).collect();
            self.index = Some(Index::Disjoint { order, firsts });
            return;
        }
        let mut all: Vec<(i64, u32, i32, i32)> = Vec::with_capacity(self.len);
        for c in std::mem::take(&mut self.chunks) {
            let blob_of = |i: usize| c.blobs.as_ref().map_or(c.blob, |b| b[i]);
            all.extend((0..c.ids.len()).map(|i| (c.ids.at(i), blob_of(i), c.lats_e7[i], c.lons_e7[i])));
        }
        all.sort_unstable_by_key(|&(id, blob, _, _)| (id, blob));
        // Keep the last of each id: the one from the latest blob.
        let (mut ids, mut lats_e7, mut lons_e7, mut blobs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, &(id, blob, y, x)) in all.iter().enumerate() {
            if all.get(i + 1).is_some_and(|next| next.0 == id) {
                continue;
            }
            ids.push(id);
            lats_e7.push(y);
            lons_e7.push(x);
            blobs.push(blob);
        }
        let merged = Chunk { blob: 0, ids: ChunkIds::new(ids), lats_e7, lons_e7, blobs: Some(blobs) };
        self.len = merged.ids.len();
        self.index = Some(Index::Merged(merged));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disjoint_chunks_are_searched_in_place() {
        let mut s = LocationStore::default();
        s.add(2, vec![10, 11], vec![1, 2], vec![3, 4]);
        s.add(1, vec![1, 5], vec![5, 6], vec![7, 8]);
        assert!(s.cheap_to_query());
        assert_eq!(s.get(5), Some((6, 8)));
        assert_eq!(s.get(11), Some((2, 4)));
        assert_eq!(s.get(7), None);
        assert_eq!(s.to_sorted(), (vec![1, 5, 10, 11], vec![5, 6, 1, 2], vec![7, 8, 3, 4]));
        assert_eq!(s.get(0), None);
        assert_eq!(s.get(99), None);
    }

    #[test]
    fn lookups_jumping_between_chunks_stay_right() {
        let mut s = LocationStore::default();
        let chunk = |from: i64| ((from..from + 100).collect::<Vec<_>>(), (0..100).map(|i| (from + i) as i32).collect::<Vec<_>>());
        for (blob, from) in [(0, 1000), (1, 0), (2, 500)] {
            let (ids, lats) = chunk(from);
            s.add(blob, ids, lats.clone(), lats);
        }
        for id in [1050, 10, 1099, 550, 0, 599, 300, 1000, 99, 1100, 542, 541, -1] {
            let held = (0..100).contains(&id) || (500..600).contains(&id) || (1000..1100).contains(&id);
            assert_eq!(s.get(id), held.then_some((id as i32, id as i32)), "id {id}");
        }
    }

    #[test]
    fn ids_far_apart_in_one_chunk_are_kept_whole() {
        let mut s = LocationStore::default();
        let far = 1 << 40;
        s.add(0, vec![-far, 3, far], vec![1, 2, 3], vec![0, 0, 0]);
        s.add(2, vec![far * 4, far * 4 + 1], vec![6, 7], vec![0, 0]);
        s.add(1, vec![far + 10, far + 12], vec![4, 5], vec![0, 0]);
        assert_eq!([-far, 3, far, far + 10, far + 12, far * 4 + 1, far + 11, 4, i64::MAX, i64::MIN].map(|id| s.get(id).map(|l| l.0)), [Some(1), Some(2), Some(3), Some(4), Some(5), Some(7), None, None, None, None]);
        let mut ids: Vec<i64> = s.ids().collect();
        ids.sort_unstable();
        assert_eq!(ids, vec![-far, 3, far, far + 10, far + 12, far * 4, far * 4 + 1]);
    }

    #[test]
    fn overlapping_chunks_merge_and_the_latest_blob_wins() {
        let mut s = LocationStore::default();
        s.add(7, vec![1, 3], vec![70, 70], vec![0, 0]);
        s.add(2, vec![2, 3], vec![20, 20], vec![0, 0]);
        assert!(!s.cheap_to_query());
        assert_eq!(s.get(3), Some((70, 0)));
        assert_eq!(s.get(2), Some((20, 0)));
        assert_eq!(s.len(), 3);
        s.add(9, vec![2], vec![90], vec![0]);
        assert_eq!(s.get(2), Some((90, 0)));
        s.add(1, vec![3], vec![10], vec![0]); // an earlier blob, decoded late, loses
        assert_eq!(s.get(3), Some((70, 0)));
    }
}
