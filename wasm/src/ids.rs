//! Ascending ids searched from where the last search ended: the scans' targeted reads ask a
//! block's ids against the wanted ones, the location store its chunks (both mostly in order).

/// The latitude (and longitude) of a node that has no location at the moment a history file is
/// answered as of (deleted then, or moved out of the area): it hides the location an earlier
/// blob gave it, as a later blob's location would replace it.
pub const NO_LOCATION: i32 = i32::MIN;

/// `ids.partition_point(|&x| x <= id)` for ascending `ids`, found by galloping from `hint`
/// outwards (any hint is correct; a near one makes it O(log distance) instead of O(log n)).
pub(crate) fn upper_bound_near<T: Ord + Copy>(ids: &[T], id: T, hint: usize) -> usize {
    let n = ids.len();
    let hint = hint.min(n);
    if hint < n && ids[hint] <= id {
        // The answer lies right of `hint`: probe hint+1, +2, +4, … until an id exceeds `id`.
        let (mut lo, mut step) = (hint + 1, 1);
        let mut hi = lo;
        while hi < n && ids[hi] <= id {
            lo = hi + 1;
            hi = lo + step;
            step <<= 1;
        }
        let hi = hi.min(n);
        return lo + ids[lo..hi].partition_point(|&x| x <= id);
    }
    // The answer is at most `hint`: probe hint-1, -2, -4, … until an id is ≤ `id`.
    let (mut hi, mut step) = (hint, 1);
    while hi > 0 {
        let probe = hi.saturating_sub(step);
        if ids[probe] <= id {
            return probe + 1 + ids[probe + 1..hi].partition_point(|&x| x <= id);
        }
        hi = probe;
        step <<= 1;
    }
    0
}

/// Membership in ascending ids asked about in mostly ascending order (a block's nodes or ways
/// against the ids a targeted read wants): each search starts where the last one ended.
pub(crate) struct SortedIds<'a> {
    ids: &'a [i64],
    at: usize,
}

impl<'a> SortedIds<'a> {
    /// `ids` must be ascending.
    pub(crate) fn new(ids: &'a [i64]) -> Self {
        SortedIds { ids, at: 0 }
    }

    /// Whether `id` is one of the ids (any order of asking is answered right).
    pub(crate) fn contains(&mut self, id: i64) -> bool {
        self.at = upper_bound_near(self.ids, id, self.at);
        self.at > 0 && self.ids[self.at - 1] == id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_from_any_hint_finds_what_a_binary_search_finds() {
        // Ascending with repeats and gaps, as a block's ids can be.
        let ids: Vec<i64> = (0..300).map(|i| i * 3 / 2 + (i / 50) * 100).collect();
        for id in -2..=ids[ids.len() - 1] + 2 {
            let want = ids.partition_point(|&x| x <= id);
            for hint in (0..=ids.len() + 3).step_by(7).chain([want.saturating_sub(1), want, want + 1]) {
                assert_eq!(upper_bound_near(&ids, id, hint), want, "id {id} from {hint}");
            }
        }
        assert_eq!(upper_bound_near(&[], 5, 3), 0);
    }

    #[test]
    fn sorted_ids_answer_in_any_order_of_asking() {
        let mut wanted = SortedIds::new(&[3, 8, 9, 40]);
        let asked = [1, 3, 8, 40, 9, 2, 41, 3, 39, 40];
        let answers: Vec<bool> = asked.iter().map(|&id| wanted.contains(id)).collect();
        assert_eq!(answers, [false, true, true, true, true, false, false, true, false, true]);
    }
}
