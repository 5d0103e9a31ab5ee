//! A polygon area: point-in-polygon in exact integer arithmetic on 1e-7 degrees, the unit of
//! the file's coordinates, so a node on the outline (a boundary's own node) is found to be on it.
//!
//! The rule: a point is inside a part when it lies on one of the part's rings, or when a ray
//! from it crosses the part's rings an odd number of times (even-odd: the first ring is the
//! outer one, the others its holes); it is inside the polygon when it is inside some part. The
//! edges are kept in latitude strips, so a test looks only at the edges of one strip.

/// A vertex `[lon_e7, lat_e7]` (1e-7 degrees).
type Vertex = [i64; 2];

/// One edge of a ring, from `a` to `b`, and the part it belongs to.
#[derive(Debug, Clone, Copy)]
struct Edge {
    a: Vertex,
    b: Vertex,
    part: u32,
}

/// Point-in-polygon over parts of rings, with edges bucketed in latitude strips.
#[derive(Debug, Clone)]
pub struct PolygonTest {
    /// Each strip's edges (an edge in every strip its latitudes touch).
    strips: Vec<Vec<Edge>>,
    /// Latitude of the first strip's south edge and the strips' height, in 1e-7 degrees.
    south: i64,
    height: i64,
    /// Whether the parts cannot overlap (a multipolygon assembled from a relation): then
    /// even-odd over all rings at once is the answer, with no per-part count.
    disjoint: bool,
    parts: usize,
}

/// Degrees to 1e-7 degrees, rounded (the file's unit: exact for its coordinates).
fn e7(degrees: f64) -> i64 {
    (degrees * 1e7).round() as i64
}

impl PolygonTest {
    /// Prepares `parts`: each a list of rings of `[lon, lat]` vertices in degrees WGS84 (GeoJSON
    /// MultiPolygon order: the outer ring, then its holes; a ring may repeat its first vertex at
    /// the end or not). `disjoint`: the parts are known not to overlap. Returns None when no ring
    /// has three vertices; the caller checks the numbers' ranges.
    pub fn new(parts: &[Vec<Vec<[f64; 2]>>], disjoint: bool) -> Option<PolygonTest> {
        let mut edges = Vec::new();
        for (p, rings) in parts.iter().enumerate() {
            for ring in rings {
                let ring: Vec<Vertex> = ring.iter().map(|&[lon, lat]| [e7(lon), e7(lat)]).collect();
                if ring.len() < 3 {
                    continue;
                }
                for i in 0..ring.len() {
                    let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                    if a != b {
                        edges.push(Edge { a, b, part: p as u32 });
                    }
                }
            }
        }
        if edges.len() < 3 {
            return None;
        }
        let south = edges.iter().map(|e| e.a[1].min(e.b[1])).min().expect("edges");
        let north = edges.iter().map(|e| e.a[1].max(e.b[1])).max().expect("edges");
        // About four edges a strip: a test looks at a handful of edges whatever the ring's size.
        let count = (edges.len() / 4).clamp(1, 1 << 16) as i64;
        let height = ((north - south) / count).max(1) + 1;
        let mut strips = vec![Vec::new(); ((north - south) / height + 1) as usize];
        for e in edges {
            let (lo, hi) = (e.a[1].min(e.b[1]), e.a[1].max(e.b[1]));
            for s in (lo - south) / height..=(hi - south) / height {
                strips[s as usize].push(e);
            }
        }
        Some(PolygonTest { strips, south, height, disjoint: disjoint || parts.len() == 1, parts: parts.len() })
    }

    /// Whether (`lat`, `lon`) in degrees lies inside or on the polygon.
    pub fn contains(&self, lat: f64, lon: f64) -> bool {
        let p = [e7(lon), e7(lat)];
        let Some(strip) = usize::try_from((p[1] - self.south) / self.height).ok().filter(|_| p[1] >= self.south).and_then(|s| self.strips.get(s)) else {
            return false;
        };
        if self.disjoint {
            let mut inside = false;
            for e in strip {
                match crossing(e, p) {
                    Crossing::On => return true,
                    Crossing::Crosses => inside = !inside,
                    Crossing::Misses => {}
                }
            }
            return inside;
        }
        // Parts may overlap: a crossing count per part, as bits while the parts are few.
        let mut odd_bits = 0u64;
        let mut odd: Vec<u32> = Vec::new();
        for e in strip {
            match crossing(e, p) {
                Crossing::On => return true,
                Crossing::Crosses if self.parts <= 64 => odd_bits ^= 1 << e.part,
                Crossing::Crosses => match odd.iter().position(|&q| q == e.part) {
                    Some(i) => {
                        odd.swap_remove(i);
                    }
                    None => odd.push(e.part),
                },
                Crossing::Misses => {}
            }
        }
        odd_bits != 0 || !odd.is_empty()
    }
}

enum Crossing {
    /// The point lies on the edge.
    On,
    /// A ray from the point towards increasing longitude crosses the edge (half-open in latitude).
    Crosses,
    Misses,
}

/// How the ray from `p` eastwards meets edge `e`, exactly (i128: the products of two
/// differences of 1e-7-degree values reach 1.3e19).
fn crossing(e: &Edge, p: Vertex) -> Crossing {
    let ([ax, ay], [bx, by], [px, py]) = (e.a, e.b, p);
    let cross = (bx - ax) as i128 * (py - ay) as i128 - (px - ax) as i128 * (by - ay) as i128;
    if cross == 0 && px >= ax.min(bx) && px <= ax.max(bx) && py >= ay.min(by) && py <= ay.max(by) {
        return Crossing::On;
    }
    // The edge straddles the point's latitude (one end strictly above, the other not), and the
    // point is left of it: left of a→b going up is cross > 0, going down cross < 0.
    if (ay > py) != (by > py) && (cross > 0) == (by > ay) {
        Crossing::Crosses
    } else {
        Crossing::Misses
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, size: f64) -> Vec<[f64; 2]> {
        vec![[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0]]
    }

    #[test]
    fn inside_outside_on_the_outline_and_in_a_hole() {
        let t = PolygonTest::new(&[vec![square(14.0, 35.0, 1.0), square(14.25, 35.25, 0.5)]], true).unwrap();
        assert!(t.contains(35.1, 14.1));
        assert!(!t.contains(35.5, 14.5), "in the hole");
        assert!(t.contains(35.25, 14.5), "on the hole's outline");
        assert!(t.contains(35.0, 14.0) && t.contains(36.0, 15.0) && t.contains(35.5, 15.0), "corners and edges");
        assert!(!t.contains(35.5, 15.0000001) && !t.contains(34.9999999, 14.5) && !t.contains(40.0, 14.5));
    }

    #[test]
    fn a_vertex_at_the_points_latitude_is_counted_once() {
        // A diamond: the ray from the centre passes through the east vertex.
        let diamond = vec![[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]];
        let t = PolygonTest::new(&[vec![diamond]], true).unwrap();
        assert!(t.contains(0.0, 0.0) && t.contains(0.0, -0.5) && !t.contains(0.0, 1.5) && !t.contains(0.0, -1.5));
    }

    #[test]
    fn overlapping_parts_are_a_union_and_an_island_in_a_lake_is_inside() {
        let t = PolygonTest::new(&[vec![square(0.0, 0.0, 2.0)], vec![square(1.0, 1.0, 2.0)]], false).unwrap();
        assert!(t.contains(1.5, 1.5), "in both parts");
        assert!(t.contains(0.5, 0.5) && t.contains(2.5, 2.5) && !t.contains(0.5, 2.5));
        assert!(!t.contains(0.5, -1.0) && !t.contains(1.5, -1.0), "west of the parts: the ray crosses each twice");
        let many: Vec<Vec<Vec<[f64; 2]>>> = (0..70).map(|i| vec![square(i as f64 * 0.5, 0.0, 1.0)]).collect();
        let many = PolygonTest::new(&many, false).unwrap();
        assert!(many.contains(0.5, 34.75) && many.contains(0.5, 0.25) && !many.contains(0.5, 36.0) && !many.contains(1.5, 1.0));
        assert!(!many.contains(0.5, -1.0), "west of all 70 parts");
        let island = PolygonTest::new(&[vec![square(0.0, 0.0, 10.0), square(2.0, 2.0, 6.0)], vec![square(4.0, 4.0, 2.0)]], true).unwrap();
        assert!(island.contains(1.0, 1.0) && !island.contains(3.0, 3.0) && island.contains(5.0, 5.0));
    }

    #[test]
    fn many_strips_give_the_same_answers_as_a_plain_count() {
        // A star of 1 000 vertices, tested against the crossing count over all edges.
        let ring: Vec<[f64; 2]> = (0..1000)
            .map(|i| {
                let a = i as f64 / 1000.0 * std::f64::consts::TAU;
                let r = if i % 2 == 0 { 1.0 } else { 0.4 };
                [r * a.cos(), r * a.sin()]
            })
            .collect();
        let t = PolygonTest::new(&[vec![ring.clone()]], true).unwrap();
        let edges: Vec<Edge> = (0..ring.len()).map(|i| Edge { a: [e7(ring[i][0]), e7(ring[i][1])], b: [e7(ring[(i + 1) % 1000][0]), e7(ring[(i + 1) % 1000][1])], part: 0 }).collect();
        let plain = |lat: f64, lon: f64| {
            let p = [e7(lon), e7(lat)];
            let hits: Vec<Crossing> = edges.iter().map(|e| crossing(e, p)).collect();
            hits.iter().any(|c| matches!(c, Crossing::On)) || hits.iter().filter(|c| matches!(c, Crossing::Crosses)).count() % 2 == 1
        };
        assert!(t.strips.len() > 100);
        let mut inside = 0;
        for k in 0..20_000 {
            let (lat, lon) = (((k * 7919) % 2001) as f64 / 1000.0 - 1.0, ((k * 104_729) % 2003) as f64 / 1000.0 - 1.0);
            assert_eq!(t.contains(lat, lon), plain(lat, lon), "{lat},{lon}");
            inside += t.contains(lat, lon) as usize;
        }
        assert!(inside > 2_000 && inside < 18_000, "{inside}");
    }
}
