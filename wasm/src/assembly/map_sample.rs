//! Which matches the map draws of an answer too large to draw whole: past
//! [`MAP_MAX_FEATURES`] matches, an even random sample of 1 in 2, 4, 8… of them, by a hash of
//! the feature id. A feature drawn at one level is drawn at every lower one, so raising the
//! level only takes features off the map. The list and the exports always hold every match.

/// The most matches the map draws one by one; past it, the map draws a sample. MapLibre's
/// clustered GeoJSON source takes kilobytes of a tab's memory a point while it indexes them
/// (`docs/decisions.md`); Malta's whole-file `building` (21 081) is still drawn whole.
pub const MAP_MAX_FEATURES: usize = 25_000;

/// The map's sample: every feature id whose hash has `level` low zero bits.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MapSample {
    level: u32,
}

impl MapSample {
    /// The sample's rate: the map draws 1 match in this many.
    pub fn one_in(self) -> u64 {
        1 << self.level
    }

    /// Whether the map draws the feature `fid` ([`crate::element::ElementType::feature_id`]).
    pub fn keeps(self, fid: i64) -> bool {
        mix(fid as u64) & (self.one_in() - 1) == 0
    }

    /// The sample for an answer of `matched` matches: the level raised (never lowered) until
    /// it draws at most about [`MAP_MAX_FEATURES`]. Returns the sample before, when it changed.
    pub fn raise_for(&mut self, matched: usize) -> Option<MapSample> {
        let before = *self;
        while (matched as u64) >> self.level > MAP_MAX_FEATURES as u64 {
            self.level += 1;
        }
        (*self != before).then_some(before)
    }
}

/// SplitMix64's finaliser (Steele, Lea and Flood, 2014): neighbouring ids spread evenly.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_everything_up_to_the_limit_then_about_the_limit() {
        let mut sample = MapSample::default();
        assert_eq!(sample.raise_for(MAP_MAX_FEATURES), None);
        assert!((0..1000).all(|fid| sample.keeps(fid)));
        let matched = 4_216_200;
        assert_eq!(sample.raise_for(matched).map(MapSample::one_in), Some(1));
        let one_in = sample.one_in() as usize;
        assert!(matched / one_in <= MAP_MAX_FEATURES && matched / (one_in / 2) > MAP_MAX_FEATURES, "the least rate that draws at most the limit");
        let drawn = (0..matched as i64).filter(|&id| sample.keeps(id * 4 + 1)).count();
        let expected = matched / one_in;
        assert!(drawn.abs_diff(expected) < expected / 20, "{drawn} of {matched}, about {expected}");
    }

    #[test]
    fn a_higher_level_draws_a_subset() {
        let (low, mut high) = (MapSample { level: 2 }, MapSample { level: 2 });
        high.raise_for(MAP_MAX_FEATURES * 8);
        assert!((0..10_000).filter(|&fid| high.keeps(fid)).all(|fid| low.keeps(fid)));
    }
}
