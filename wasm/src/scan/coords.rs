//! A block's coordinate transform (spec: "Definition of OSMData fileblock", granularity and
//! offsets) from stored values to nanodegrees and 1e-7 degrees.

use crate::error::DecodeError;
use crate::format::block::Block;
/// Nanodegrees to 1e-7 degrees (OSM's own precision), rounded half away from zero,
/// saturating at the i32 range. In integers: every node pays for it, and a float division
/// and `round` cost 5 % of a read.
#[inline]
pub(super) fn to_e7(nano: i64) -> i32 {
    let half = if nano < 0 { -50 } else { 50 };
    (nano.saturating_add(half) / 100).clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// A block's coordinate transform: degrees = 1e-9 × (offset + granularity × stored value).
pub(super) struct Coords {
    granularity: i64,
    lat_offset: i64,
    lon_offset: i64,
    /// When the granularity and both offsets are whole multiples of 100 nanodegrees (nearly
    /// every file: 100, 0, 0): 1e-7 degrees per stored unit and the offsets in 1e-7 degrees, so
    /// 1e-7 degrees come without a division (a 64-bit division by a constant is a libcall in
    /// wasm32: 3 % of a read).
    e7_exact: Option<(i64, i64, i64)>,
}

/// A node's location in nanodegrees and in 1e-7 degrees, as `(lat, lon)` each.
#[derive(Clone, Copy)]
pub(super) struct Location {
    pub(super) nano: (i64, i64),
    pub(super) e7: (i32, i32),
}

impl Coords {
    /// `granularity` in nanodegrees (an int32, as in the spec), offsets in nanodegrees.
    pub(super) fn new(granularity: i32, lat_offset: i64, lon_offset: i64) -> Coords {
        let granularity = granularity as i64;
        let exact = granularity % 100 == 0 && lat_offset % 100 == 0 && lon_offset % 100 == 0;
        Coords { granularity, lat_offset, lon_offset, e7_exact: exact.then_some((granularity / 100, lat_offset / 100, lon_offset / 100)) }
    }

    pub(super) fn of(block: &Block) -> Coords {
        Coords::new(block.granularity, block.lat_offset, block.lon_offset)
    }

    /// Returns (lat, lon) in nanodegrees. Errors: [`DecodeError::Overflow`].
    #[inline]
    pub(super) fn nano(&self, lat: i64, lon: i64) -> Result<(i64, i64), DecodeError> {
        // The granularity is an int32: times a value within ±2^31 (every real coordinate) the
        // product fits 63 bits unchecked. A checked 64-bit multiply is a 128-bit libcall in wasm32.
        let scale = |offset: i64, v: i64| {
            let product = if v.unsigned_abs() <= i32::MAX as u64 { Some(self.granularity * v) } else { self.granularity.checked_mul(v) };
            product.and_then(|x| x.checked_add(offset))
        };
        match (scale(self.lat_offset, lat), scale(self.lon_offset, lon)) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(DecodeError::Overflow("coordinate")),
        }
    }

    /// The location of stored (lat, lon): nanodegrees, and 1e-7 degrees as [`to_e7`] rounds
    /// them. Errors: [`DecodeError::Overflow`].
    #[inline]
    pub(super) fn locate(&self, lat: i64, lon: i64) -> Result<Location, DecodeError> {
        let nano = self.nano(lat, lon)?;
        let e7 = match self.e7_exact {
            // nano / 100 exactly, and it did not overflow as nano: neither does this.
            Some((step, lat_off, lon_off)) => (saturate_i32(lat * step + lat_off), saturate_i32(lon * step + lon_off)),
            None => (to_e7(nano.0), to_e7(nano.1)),
        };
        Ok(Location { nano, e7 })
    }
}

#[inline]
fn saturate_i32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

#[cfg(test)]
mod tests {
    use super::{to_e7, Coords};

    #[test]
    fn nanodegrees_round_half_away_from_zero_to_1e7_degrees() {
        let cases = [(0, 0), (49, 0), (50, 1), (149, 1), (150, 2), (-49, 0), (-50, -1), (-150, -2), (1_799_999_999_950, i32::MAX), (-899_999_999_951, i32::MIN), (1_234_567_850, 12_345_679)];
        for (nano, e7) in cases {
            assert_eq!(to_e7(nano), e7, "{nano} nanodegrees");
            assert_eq!(to_e7(nano), (nano as f64 / 100.0).round() as i32, "{nano}: as the float rule");
        }
        assert_eq!((to_e7(i64::MAX), to_e7(i64::MIN)), (i32::MAX, i32::MIN));
    }

    #[test]
    fn exact_transforms_give_what_rounding_gives() {
        // granularity and offsets in whole 1e-7 degrees take the path without a division; others round.
        let transforms = [(100, 0, 0), (200, 300, -500), (1000, 0, 0), (1, 0, 0), (100, 7, -3), (150, 0, 0)];
        for (g, lat_off, lon_off) in transforms {
            let coords = Coords::new(g, lat_off, lon_off);
            assert_eq!(coords.e7_exact.is_some(), g % 100 == 0 && lat_off % 100 == 0 && lon_off % 100 == 0);
            for (lat, lon) in [(0, 0), (1, -1), (899_999_999, -1_799_999_999), (-123_456_789, 987_654_321), (i32::MAX as i64, i32::MIN as i64), (50_000_000_000, -50_000_000_000)] {
                let location = coords.locate(lat, lon).expect("no overflow");
                let (y, x) = coords.nano(lat, lon).expect("no overflow");
                assert_eq!(location.nano, (y, x));
                assert_eq!(location.e7, (to_e7(y), to_e7(x)), "granularity {g}, offsets {lat_off} {lon_off}, stored {lat} {lon}");
            }
        }
    }
}
