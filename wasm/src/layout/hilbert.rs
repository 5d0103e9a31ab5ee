//! Positions along a Hilbert curve over the world: points near each other on the curve are
//! near each other on the map, so a run of the curve is a small area (spec: none; the curve is
//! D. Hilbert's, 1891, in its usual iterative form).

/// Bits per axis: 2^31 columns over 360° of longitude (1.7e-7 degrees each), 2^31 rows over 180°.
const ORDER: u32 = 31;

/// The position of a point (1e-7 degrees, clamped to the world) along the curve.
pub fn hilbert_key(lat_e7: i32, lon_e7: i32) -> u64 {
    let n = 1u64 << ORDER;
    let x = ((lon_e7 as i64 + 1_800_000_000).clamp(0, 3_599_999_999) as u64 * n / 3_600_000_000) as u32;
    let y = ((lat_e7 as i64 + 900_000_000).clamp(0, 1_799_999_999) as u64 * n / 1_800_000_000) as u32;
    xy_to_d(x, y)
}

/// The curve's index of cell (x, y) on the 2^ORDER grid.
fn xy_to_d(mut x: u32, mut y: u32) -> u64 {
    let mut d = 0u64;
    let mut s = 1u32 << (ORDER - 1);
    while s > 0 {
        let rx = (x & s != 0) as u64;
        let ry = (y & s != 0) as u64;
        d += (s as u64) * (s as u64) * ((3 * rx) ^ ry);
        // Rotate the quadrant so the curve inside it runs the same way as the whole.
        if ry == 0 {
            if rx == 1 {
                // Mirrored: the low bits flipped (the higher ones are not read again).
                let low = (s << 1) - 1;
                x = !x & low;
                y = !y & low;
            }
            std::mem::swap(&mut x, &mut y);
        }
        s >>= 1;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The curve visits every cell of a small grid once, each step to a neighbour.
    #[test]
    fn the_curve_steps_between_neighbours_over_every_cell() {
        // On the top 4×4 cells of the grid (the high bits), through the full-size function.
        let step = 1u32 << (ORDER - 2);
        let mut cells: Vec<(u64, u32, u32)> = (0..4).flat_map(|x| (0..4).map(move |y| (xy_to_d(x * step, y * step), x, y))).collect();
        cells.sort_unstable();
        for w in cells.windows(2) {
            let (dx, dy) = (w[0].1.abs_diff(w[1].1), w[0].2.abs_diff(w[1].2));
            assert_eq!(dx + dy, 1, "{:?} then {:?}", w[0], w[1]);
        }
        assert_eq!(cells.iter().map(|c| c.0 >> (2 * (ORDER - 2))).collect::<Vec<_>>(), (0..16).collect::<Vec<_>>());
    }

    #[test]
    fn near_points_get_near_keys_and_the_world_fits() {
        let a = hilbert_key(359_000_000, 145_000_000);
        let b = hilbert_key(359_000_100, 145_000_100);
        assert!(a.abs_diff(b) < 1 << 20);
        assert!(hilbert_key(900_000_000, 1_800_000_000) < 1 << 62);
        assert_eq!(hilbert_key(i32::MIN, i32::MIN), hilbert_key(-900_000_000, -1_800_000_000));
    }
}
