//! The area's node ids as a Bloom filter (Bloom 1970; double hashing after Kirsch and
//! Mitzenmacher 2006), sent to the decode workers once the assembler has every node location of
//! the area. A scan then leaves out the candidate ways none of whose refs the filter may hold:
//! they can never match, and their tags and refs would only cross to the assembler to be dropped
//! there. A false positive costs nothing but that crossing (the assembler checks every way
//! against the locations themselves); there are no false negatives.

/// Bits per id: 32, with [`PROBES`] probes, leave ≈ 0.02 % of other ids passing.
const BITS_PER_ID: usize = 32;
/// Bit positions tested per id.
const PROBES: u32 = 4;
/// The most bits a filter takes (8 MiB): a larger area (up to the assembler's budget of 4 M
/// locations) gets more false positives instead.
const MAX_BITS: usize = 1 << 26;

/// A set of node ids that may say yes for an id not in it, never no for one in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaFilter {
    /// A power of two of bits, in 32-bit words (the form a `Uint32Array` carries).
    words: Vec<u32>,
}

impl AreaFilter {
    /// The filter of `ids` (any order, repeats allowed); `count` is how many there are.
    pub fn from_ids(ids: impl Iterator<Item = i64>, count: usize) -> AreaFilter {
        let bits = (count.max(1) * BITS_PER_ID).next_power_of_two().clamp(64, MAX_BITS);
        let mut filter = AreaFilter { words: vec![0; bits / 32] };
        for id in ids {
            let mask = filter.mask();
            for bit in positions(id, mask) {
                filter.words[bit >> 5] |= 1 << (bit & 31);
            }
        }
        filter
    }

    /// A filter from [`AreaFilter::words`]; None unless it holds a power of two of words, at least two.
    pub fn from_words(words: Vec<u32>) -> Option<AreaFilter> {
        (words.len() >= 2 && words.len().is_power_of_two()).then_some(AreaFilter { words })
    }

    /// The filter's bits, for sending to a decode worker.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    fn mask(&self) -> usize {
        self.words.len() * 32 - 1
    }

    /// Whether node `id` may be in the area (true for every id that is).
    pub fn may_hold(&self, id: i64) -> bool {
        positions(id, self.mask()).all(|bit| self.words[bit >> 5] & (1 << (bit & 31)) != 0)
    }

    /// Whether some node of `refs` may be in the area.
    pub fn may_hold_any(&self, refs: &[i64]) -> bool {
        refs.iter().any(|&id| self.may_hold(id))
    }
}

/// The bits id `id` sets: `h1 + i·h2` for i < [`PROBES`], from one 64-bit multiplicative hash.
fn positions(id: i64, mask: usize) -> impl Iterator<Item = usize> {
    let h = (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let (h1, h2) = ((h >> 32) as usize, (h as u32 | 1) as usize);
    (0..PROBES as usize).map(move |i| h1.wrapping_add(i.wrapping_mul(h2)) & mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_every_id_put_in_and_few_others() {
        let ids: Vec<i64> = (0..50_000).map(|i| 3_000_000_000 + i * 7919).collect();
        let filter = AreaFilter::from_ids(ids.iter().copied(), ids.len());
        assert!(ids.iter().all(|&id| filter.may_hold(id)));
        let others = (0..200_000).map(|i| 1_000_000 + i * 13).filter(|&id| filter.may_hold(id)).count();
        assert!(others < 200_000 / 100, "{others} of 200 000 other ids pass");
    }

    #[test]
    fn an_empty_filter_holds_nothing_and_words_round_trip() {
        let empty = AreaFilter::from_ids(std::iter::empty(), 0);
        assert!(!empty.may_hold(42));
        let filter = AreaFilter::from_ids([5, -9, i64::MAX].into_iter(), 3);
        let again = AreaFilter::from_words(filter.words().to_vec()).unwrap();
        assert!(again.may_hold(5) && again.may_hold(-9) && again.may_hold(i64::MAX));
        assert!(again.may_hold_any(&[1, 2, 5]) && !again.may_hold_any(&[]));
        assert_eq!(AreaFilter::from_words(vec![0; 3]), None);
    }
}
