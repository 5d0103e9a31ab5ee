//! The geometry a matched element is drawn and exported with (GeoJSON, RFC 7946).
//!
//! - A node is a `Point`.
//! - A way is a `LineString` of all its nodes (not clipped to the query's area), or a `Polygon`
//!   when it is closed and is an area by [`is_area`]. Nodes missing from the file are left out.
//! - A `type=multipolygon` or `type=boundary` relation is a `Polygon` or `MultiPolygon` built
//!   from its member ways' rings ([`assemble_multipolygon`], after the OSM wiki's
//!   "Relation:multipolygon"); a broken one is the `MultiLineString` of its ways, with a reason.
//! - Any other relation is the `MultiLineString` of its member ways.
//!
//! Coordinates are held as `[lat_e7, lon_e7]` (1e-7 degrees, OSM's precision) and written as
//! `[lon, lat]` in degrees WGS84, as GeoJSON orders them.

use rustc_hash::FxHashMap;

use crate::element::Tag;

/// A sequence of vertices, `[lat_e7, lon_e7]` each; a ring is closed (last = first).
pub type Line = Vec<[i32; 2]>;

/// A matched element's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Point([i32; 2]),
    LineString(Line),
    /// Rings: the shell (counterclockwise, RFC 7946 §3.1.6), then its holes (clockwise).
    Polygon(Vec<Line>),
    MultiLineString(Vec<Line>),
    MultiPolygon(Vec<Vec<Line>>),
}

impl Shape {
    /// The shape as numbers for the page's map changes (see `Assembler::drain_changes`):
    /// the kind (0 Point, 1 LineString, 2 Polygon, 3 MultiLineString, 4 MultiPolygon), then its
    /// coordinates as `(lon, lat)` in degrees, each list preceded by its length: a Point is
    /// `lon, lat`; a LineString `n, n × (lon, lat)`; a Polygon and a MultiLineString `r` then `r`
    /// such lists; a MultiPolygon `p` then `p` Polygons.
    pub fn encode(&self, out: &mut Vec<f64>) {
        fn line(out: &mut Vec<f64>, v: &[[i32; 2]]) {
            out.push(v.len() as f64);
            for &[y, x] in v {
                out.extend([e7(x), e7(y)]);
            }
        }
        fn lines(out: &mut Vec<f64>, v: &[Line]) {
            out.push(v.len() as f64);
            v.iter().for_each(|l| line(out, l));
        }
        match self {
            Shape::Point([y, x]) => out.extend([0.0, e7(*x), e7(*y)]),
            Shape::LineString(v) => {
                out.push(1.0);
                line(out, v);
            }
            Shape::Polygon(rings) => {
                out.push(2.0);
                lines(out, rings);
            }
            Shape::MultiLineString(v) => {
                out.push(3.0);
                lines(out, v);
            }
            Shape::MultiPolygon(polygons) => {
                out.extend([4.0, polygons.len() as f64]);
                polygons.iter().for_each(|p| lines(out, p));
            }
        }
    }

    /// Every vertex, `[lat_e7, lon_e7]` each, in order.
    pub fn vertices(&self) -> Vec<[i32; 2]> {
        match self {
            Shape::Point(p) => vec![*p],
            Shape::LineString(v) => v.clone(),
            Shape::Polygon(v) | Shape::MultiLineString(v) => v.concat(),
            Shape::MultiPolygon(p) => p.iter().flat_map(|r| r.concat()).collect(),
        }
    }

    /// A point on the shape, `[lat_e7, lon_e7]` (1e-7 degrees): a point as is; a line's middle
    /// vertex (of its longest part); for an area, a point inside its largest polygon — the middle
    /// of the widest stretch of that polygon on the parallel halfway up its shell (holes left out).
    pub fn representative_point(&self) -> [i32; 2] {
        let longest = |lines: &[Line]| lines.iter().max_by_key(|l| l.len()).cloned().unwrap_or_default();
        let middle = |line: &Line| line.get(line.len() / 2).copied().unwrap_or_default();
        match self {
            Shape::Point(p) => *p,
            Shape::LineString(line) => middle(line),
            Shape::MultiLineString(lines) => middle(&longest(lines)),
            Shape::Polygon(rings) => inside_point(rings),
            Shape::MultiPolygon(polygons) => {
                let largest = polygons.iter().max_by(|a, b| ring_area2(&a[0]).abs().total_cmp(&ring_area2(&b[0]).abs()));
                largest.map(|p| inside_point(p)).unwrap_or_default()
            }
        }
    }

    /// The shape as WKT (OGC Simple Features), `lon lat` in degrees: for the CSV export.
    pub fn to_wkt(&self) -> String {
        let line = |v: &[[i32; 2]]| format!("({})", v.iter().map(|&[y, x]| format!("{} {}", e7(x), e7(y))).collect::<Vec<_>>().join(", "));
        let lines = |v: &[Line]| format!("({})", v.iter().map(|l| line(l)).collect::<Vec<_>>().join(", "));
        match self {
            Shape::Point([y, x]) => format!("POINT ({} {})", e7(*x), e7(*y)),
            Shape::LineString(v) => format!("LINESTRING {}", line(v)),
            Shape::Polygon(v) => format!("POLYGON {}", lines(v)),
            Shape::MultiLineString(v) => format!("MULTILINESTRING {}", lines(v)),
            Shape::MultiPolygon(p) => format!("MULTIPOLYGON ({})", p.iter().map(|r| lines(r)).collect::<Vec<_>>().join(", ")),
        }
    }

    /// The shape as ISO WKB (OGC 06-103r4 §8.2): little-endian, 2D, x longitude and y latitude
    /// in degrees WGS84; the geometry of a GeoParquet export.
    pub fn to_wkb(&self) -> Vec<u8> {
        fn head(out: &mut Vec<u8>, kind: u32) {
            out.push(1); // little-endian
            out.extend(kind.to_le_bytes());
        }
        fn line(out: &mut Vec<u8>, v: &[[i32; 2]]) {
            out.extend((v.len() as u32).to_le_bytes());
            for &[y, x] in v {
                out.extend(e7(x).to_le_bytes());
                out.extend(e7(y).to_le_bytes());
            }
        }
        fn polygon(out: &mut Vec<u8>, rings: &[Line]) {
            head(out, 3);
            out.extend((rings.len() as u32).to_le_bytes());
            rings.iter().for_each(|r| line(out, r));
        }
        let mut out = Vec::new();
        match self {
            Shape::Point([y, x]) => {
                head(&mut out, 1);
                out.extend(e7(*x).to_le_bytes());
                out.extend(e7(*y).to_le_bytes());
            }
            Shape::LineString(v) => {
                head(&mut out, 2);
                line(&mut out, v);
            }
            Shape::Polygon(rings) => polygon(&mut out, rings),
            Shape::MultiLineString(lines) => {
                head(&mut out, 5);
                out.extend((lines.len() as u32).to_le_bytes());
                for v in lines {
                    head(&mut out, 2);
                    line(&mut out, v);
                }
            }
            Shape::MultiPolygon(polygons) => {
                head(&mut out, 6);
                out.extend((polygons.len() as u32).to_le_bytes());
                polygons.iter().for_each(|p| polygon(&mut out, p));
            }
        }
        out
    }

    /// `[xmin, ymin, xmax, ymax]`: west, south, east, north in degrees.
    pub fn bbox(&self) -> [f64; 4] {
        let v = self.vertices();
        let (ys, xs) = (v.iter().map(|p| p[0]), v.iter().map(|p| p[1]));
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        [e7(x0), e7(y0), e7(x1), e7(y1)]
    }

    /// The shape as a GeoJSON geometry object.
    pub fn to_geojson(&self) -> String {
        let line = |v: &[[i32; 2]]| format!("[{}]", v.iter().map(|&[y, x]| format!("[{},{}]", e7(x), e7(y))).collect::<Vec<_>>().join(","));
        let lines = |v: &[Line]| format!("[{}]", v.iter().map(|l| line(l)).collect::<Vec<_>>().join(","));
        let (kind, coordinates) = match self {
            Shape::Point([y, x]) => ("Point", format!("[{},{}]", e7(*x), e7(*y))),
            Shape::LineString(v) => ("LineString", line(v)),
            Shape::Polygon(v) => ("Polygon", lines(v)),
            Shape::MultiLineString(v) => ("MultiLineString", lines(v)),
            Shape::MultiPolygon(p) => ("MultiPolygon", format!("[{}]", p.iter().map(|r| lines(r)).collect::<Vec<_>>().join(","))),
        };
        format!("{{\"type\":\"{kind}\",\"coordinates\":{coordinates}}}")
    }
}

/// 1e-7 degrees to degrees, printed without float noise.
fn e7(v: i32) -> f64 {
    v as f64 / 1e7
}

/// Keys whose presence makes a closed way an area (OSM wiki "Area" and the id editor's
/// area keys, shortened), with the values that do not (linear features tagged with them).
pub(crate) const AREA_KEYS: &[(&str, &[&str])] = &[
    ("building", &[]),
    ("building:part", &[]),
    ("landuse", &[]),
    ("leisure", &["track", "slipway"]),
    ("amenity", &[]),
    ("natural", &["coastline", "cliff", "ridge", "arete", "tree_row", "valley"]),
    ("place", &[]),
    ("shop", &[]),
    ("tourism", &[]),
    ("historic", &[]),
    ("military", &[]),
    ("office", &[]),
    ("craft", &[]),
    ("aeroway", &["taxiway", "runway"]),
    ("man_made", &["pipeline", "embankment", "cutline", "groyne", "breakwater", "pier"]),
    ("power", &["line", "minor_line", "cable"]),
    ("public_transport", &[]),
    ("area:highway", &[]),
];

/// `waterway` and `railway` values that are areas (the keys themselves are linear).
pub(crate) const AREA_VALUES: &[(&str, &[&str])] = &[("waterway", &["riverbank", "dock", "boatyard", "dam"]), ("railway", &["platform"])];

/// Whether a closed way with these tags is an area (a `Polygon`) rather than a closed line:
/// `area=no` never, `area=yes` always, else when a key of [`AREA_KEYS`] is present with a value
/// not listed against it, or a value of [`AREA_VALUES`]. `highway` ways are lines unless
/// `area=yes` (a pedestrian square, say). The one place this rule is written; README quotes it.
pub fn is_area(tags: &[Tag]) -> bool {
    let value = |key: &str| tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    match value("area") {
        Some("no") => return false,
        Some("yes") => return true,
        _ => {}
    }
    let by_key = AREA_KEYS.iter().any(|(key, linear)| value(key).is_some_and(|v| v != "no" && !linear.contains(&v)));
    by_key || AREA_VALUES.iter().any(|(key, areas)| value(key).is_some_and(|v| areas.contains(&v)))
}

/// A way's shape from its node ids and the vertices found for them (missing nodes left out):
/// a `Polygon` when the way is closed (first node id = last, at least 4 refs), has 4 vertices or
/// more, and is an area by [`is_area`]; else a `LineString`. None with fewer than 2 vertices.
pub fn way_shape(tags: &[Tag], refs: &[i64], vertices: Vec<[i32; 2]>) -> Option<Shape> {
    if vertices.len() < 2 {
        return vertices.first().map(|&p| Shape::Point(p));
    }
    let closed = refs.len() >= 4 && refs.first() == refs.last();
    let ring = vertices.len() >= 4 && vertices.first() == vertices.last();
    // The way's own order is kept (RFC 7946's winding is a SHOULD; the way's is the data).
    Some(if closed && ring && is_area(tags) { Shape::Polygon(vec![vertices]) } else { Shape::LineString(vertices) })
}

/// A member way of a relation as the assembly sees it: its node ids and vertices (None where a
/// node's location is unknown). Roles are not needed: rings are classed by nesting.
pub struct MemberWay<'a> {
    pub id: i64,
    pub refs: std::borrow::Cow<'a, [i64]>,
    pub vertices: Vec<Option<[i32; 2]>>,
}

/// Twice the signed area of a ring in (1e-7 degree)², positive when counterclockwise.
/// Exact (integer arithmetic): in f64 the products of 1e-7-degree values (~1e17) would lose
/// more than a small ring's whole area to rounding.
pub fn ring_area2(ring: &[[i32; 2]]) -> f64 {
    let sum: i128 = ring.windows(2).map(|w| w[0][1] as i128 * w[1][0] as i128 - w[1][1] as i128 * w[0][0] as i128).sum();
    sum as f64
}

/// The ring turned counterclockwise (`ccw`) or clockwise.
fn oriented(mut ring: Line, ccw: bool) -> Line {
    if (ring_area2(&ring) > 0.0) != ccw {
        ring.reverse();
    }
    ring
}

/// A point inside the polygon `rings` (shell, then holes): on the parallel halfway up the
/// shell's bbox, the middle of the widest stretch between two crossings of its rings.
fn inside_point(rings: &[Line]) -> [i32; 2] {
    let Some(shell) = rings.first().filter(|r| r.len() >= 2) else { return [0, 0] };
    let (lo, hi) = shell.iter().fold((i32::MAX, i32::MIN), |(lo, hi), p| (lo.min(p[0]), hi.max(p[0])));
    let y = (lo as f64 + hi as f64) / 2.0 + 0.25; // off every vertex's latitude, which are whole
    let mut xs: Vec<f64> = Vec::new();
    for w in rings.iter().flat_map(|r| r.windows(2)) {
        let ([y1, x1], [y2, x2]) = (w[0].map(f64::from), w[1].map(f64::from));
        if (y1 > y) != (y2 > y) {
            xs.push(x1 + (y - y1) / (y2 - y1) * (x2 - x1));
        }
    }
    xs.sort_by(f64::total_cmp);
    let widest = xs.chunks_exact(2).max_by(|a, b| (a[1] - a[0]).total_cmp(&(b[1] - b[0])));
    widest.map_or(shell[0], |pair| [y.round() as i32, ((pair[0] + pair[1]) / 2.0).round() as i32])
}

/// Whether `p` lies inside `ring` (even-odd rule).
fn contains(ring: &[[i32; 2]], p: [i32; 2]) -> bool {
    let (y, x) = (p[0] as f64, p[1] as f64);
    let mut inside = false;
    for w in ring.windows(2) {
        let ([y1, x1], [y2, x2]) = (w[0].map(|v| v as f64), w[1].map(|v| v as f64));
        if (y1 > y) != (y2 > y) && x < x1 + (y - y1) / (y2 - y1) * (x2 - x1) {
            inside = !inside;
        }
    }
    inside
}

/// Builds a multipolygon from its member ways (OSM wiki "Relation:multipolygon"): ways are
/// joined end to end (by node id, reversing as needed) into closed rings; a ring inside another
/// ring is a hole of the smallest ring around it that is not itself a hole (so islands in a
/// lake's hole are shells again), whatever the roles say; shells counterclockwise, holes
/// clockwise. Returns a `Polygon` for one shell, else a `MultiPolygon`.
///
/// Errors: a text saying why it is broken — a node without location, a ring left open (and
/// at which node), rings that cross (themselves or each other, and where), or no way at all — for the caller to draw the ways as lines instead.
pub fn assemble_multipolygon(ways: &[MemberWay]) -> Result<Shape, String> {
    let ways: Vec<&MemberWay> = ways.iter().filter(|w| w.refs.len() >= 2).collect();
    if ways.is_empty() {
        return Err("no member way with nodes".into());
    }
    for w in &ways {
        if let Some(i) = w.vertices.iter().position(Option::is_none) {
            return Err(format!("node {} of way {} is missing from the file", w.refs[i], w.id));
        }
    }
    // Rings as (node ids, vertices), joined greedily at their ends; the ways by their end
    // nodes, so a ring of many ways is joined in linear time.
    let mut by_end: FxHashMap<i64, Vec<usize>> = FxHashMap::default();
    for (i, w) in ways.iter().enumerate() {
        by_end.entry(w.refs[0]).or_default().push(i);
        by_end.entry(*w.refs.last().expect("two nodes or more")).or_default().push(i);
    }
    let mut used = vec![false; ways.len()];
    let mut rings: Vec<Line> = Vec::new();
    for start in 0..ways.len() {
        if used[start] {
            continue;
        }
        used[start] = true;
        let mut ids: Vec<i64> = ways[start].refs.to_vec();
        let mut ring: Line = ways[start].vertices.iter().map(|v| v.expect("checked")).collect();
        while ids.first() != ids.last() {
            let end = *ids.last().expect("two nodes or more");
            let next = by_end.get(&end).and_then(|at| at.iter().copied().find(|&i| !used[i]));
            let Some(i) = next else {
                return Err(format!("a ring is not closed: it ends at node {end}"));
            };
            used[i] = true;
            let (mut more_ids, mut more): (Vec<i64>, Line) = (ways[i].refs.to_vec(), ways[i].vertices.iter().map(|v| v.expect("checked")).collect());
            if ways[i].refs.first() != Some(&end) {
                more_ids.reverse();
                more.reverse();
            }
            ids.extend_from_slice(&more_ids[1..]);
            ring.extend_from_slice(&more[1..]);
        }
        if ring.len() < 4 {
            return Err(format!("a ring through node {} has fewer than 3 distinct nodes", ids[0]));
        }
        rings.push(ring);
    }
    if let Some([lat, lon]) = first_crossing(&rings) {
        return Err(format!("rings cross at {lat:.7},{lon:.7}"));
    }
    // Nesting depth by containment: even depth is a shell, odd a hole of its nearest shell.
    let area = |r: &Line| ring_area2(r).abs();
    let mut order: Vec<usize> = (0..rings.len()).collect();
    order.sort_by(|&a, &b| area(&rings[b]).total_cmp(&area(&rings[a]))); // largest first
    let mut parent: Vec<Option<usize>> = vec![None; rings.len()];
    let mut depth = vec![0usize; rings.len()];
    // Each ring's bbox, `[min_lat, min_lon, max_lat, max_lon]`: a ring whose bbox misses the
    // probe cannot hold it (10 000 holes are then 5·10⁷ bbox tests, not ring walks).
    let boxes: Vec<[i32; 4]> = rings.iter().map(|r| r.iter().fold([i32::MAX, i32::MAX, i32::MIN, i32::MIN], |b, &[y, x]| [b[0].min(y), b[1].min(x), b[2].max(y), b[3].max(x)])).collect();
    let may_hold = |b: &[i32; 4], [y, x]: [i32; 2]| b[0] <= y && y <= b[2] && b[1] <= x && x <= b[3];
    for (k, &r) in order.iter().enumerate() {
        // The smallest larger ring that holds this one's first vertex that lies off the boundary.
        let probe = rings[r][0];
        if let Some(&p) = order[..k].iter().rev().find(|&&p| may_hold(&boxes[p], probe) && contains(&rings[p], probe)) {
            parent[r] = Some(p);
            depth[r] = depth[p] + 1;
        }
    }
    let mut polygons: Vec<Vec<Line>> = Vec::new();
    let mut shell_of = vec![usize::MAX; rings.len()];
    for &r in &order {
        if depth[r].is_multiple_of(2) {
            shell_of[r] = polygons.len();
            polygons.push(vec![oriented(rings[r].clone(), true)]);
        }
    }
    for &r in &order {
        if !depth[r].is_multiple_of(2) {
            let shell = parent[r].expect("a hole has a parent");
            polygons[shell_of[shell]].push(oriented(rings[r].clone(), false));
        }
    }
    Ok(if polygons.len() == 1 { Shape::Polygon(polygons.pop().expect("one")) } else { Shape::MultiPolygon(polygons) })
}

/// Where two segments of `rings` cross (a ring crossing itself or another), if they do:
/// `[lat, lon]` in degrees. Segments that only touch (at a vertex, or along a line)
/// do not count. A sweep over the segments sorted by longitude: O(n log n) plus the pairs
/// whose longitude ranges overlap. Exact: orientation tests in integers.
pub fn first_crossing(rings: &[Line]) -> Option<[f64; 2]> {
    let mut segments: Vec<([i32; 2], [i32; 2])> = rings.iter().flat_map(|r| r.windows(2).map(|w| (w[0], w[1]))).collect();
    let span = |s: &([i32; 2], [i32; 2]), i: usize| (s.0[i].min(s.1[i]), s.0[i].max(s.1[i]));
    segments.sort_unstable_by_key(|s| span(s, 1).0);
    for (i, a) in segments.iter().enumerate() {
        let (_, a_max_lon) = span(a, 1);
        let (a_min_lat, a_max_lat) = span(a, 0);
        for b in segments[i + 1..].iter().take_while(|b| span(b, 1).0 <= a_max_lon) {
            let (b_min_lat, b_max_lat) = span(b, 0);
            if b_min_lat <= a_max_lat && a_min_lat <= b_max_lat && cross_properly(*a, *b) {
                return Some(crossing_point(*a, *b));
            }
        }
    }
    None
}

/// Where the lines through segments `a` and `b` meet, `[lat, lon]` in degrees.
fn crossing_point(a: ([i32; 2], [i32; 2]), b: ([i32; 2], [i32; 2])) -> [f64; 2] {
    let f = |p: [i32; 2]| p.map(f64::from);
    let (p, q, r, s) = (f(a.0), f(a.1), f(b.0), f(b.1));
    let cross = |u: [f64; 2], v: [f64; 2]| u[0] * v[1] - u[1] * v[0];
    let sub = |u: [f64; 2], v: [f64; 2]| [u[0] - v[0], u[1] - v[1]];
    let t = cross(sub(r, p), sub(s, r)) / cross(sub(q, p), sub(s, r));
    [(p[0] + t * (q[0] - p[0])) * 1e-7, (p[1] + t * (q[1] - p[1])) * 1e-7]
}

/// The sign of the turn `p → q → r` (positive counterclockwise), exact.
fn orientation(p: [i32; 2], q: [i32; 2], r: [i32; 2]) -> i8 {
    let d = |u: [i32; 2], v: [i32; 2]| [v[0] as i128 - u[0] as i128, v[1] as i128 - u[1] as i128];
    let (u, v) = (d(p, q), d(p, r));
    (u[1] * v[0] - u[0] * v[1]).signum() as i8
}

/// Whether segments `a` and `b` cross at a point inside both (not at an end of either).
fn cross_properly(a: ([i32; 2], [i32; 2]), b: ([i32; 2], [i32; 2])) -> bool {
    orientation(a.0, a.1, b.0) * orientation(a.0, a.1, b.1) < 0 && orientation(b.0, b.1, a.0) * orientation(b.0, b.1, a.1) < 0
}

/// The `MultiLineString` of member ways (their known vertices), or None when none has two.
pub fn member_lines(ways: &[MemberWay]) -> Option<Shape> {
    let lines: Vec<Line> = ways.iter().map(|w| w.vertices.iter().flatten().copied().collect::<Line>()).filter(|l| l.len() >= 2).collect();
    (!lines.is_empty()).then_some(Shape::MultiLineString(lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::element::tags_of as tags;

    #[test]
    fn wkt() {
        assert_eq!(Shape::Point([10_000_000, 20_000_000]).to_wkt(), "POINT (2 1)");
        let ring = vec![[0, 0], [0, 10_000_000], [10_000_000, 0], [0, 0]];
        assert_eq!(Shape::MultiPolygon(vec![vec![ring]]).to_wkt(), "MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0)))");
    }

    #[test]
    fn wkb_is_little_endian_iso_with_longitude_first() {
        let f = |v: f64| v.to_le_bytes().to_vec();
        let point = [vec![1, 1, 0, 0, 0], f(2.0), f(1.0)].concat();
        assert_eq!(Shape::Point([10_000_000, 20_000_000]).to_wkb(), point);
        let ring = vec![[0, 0], [0, 10_000_000], [10_000_000, 0], [0, 0]];
        let polygon = [vec![1, 3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0], f(0.0), f(0.0), f(1.0), f(0.0), f(0.0), f(1.0), f(0.0), f(0.0)].concat();
        // A MultiPolygon: its type (6), how many, then each Polygon whole, with its own head.
        assert_eq!(Shape::MultiPolygon(vec![vec![ring.clone()]]).to_wkb(), [vec![1, 6, 0, 0, 0, 1, 0, 0, 0], polygon.clone()].concat());
        assert_eq!(Shape::Polygon(vec![ring]).bbox(), [0.0, 0.0, 1.0, 1.0]);
    }

    #[test]
    fn the_area_rule() {
        assert!(is_area(&tags(&[("building", "yes")])));
        assert!(is_area(&tags(&[("leisure", "park")])));
        assert!(is_area(&tags(&[("highway", "pedestrian"), ("area", "yes")])));
        assert!(is_area(&tags(&[("waterway", "riverbank")])));
        assert!(!is_area(&tags(&[("highway", "primary")])));
        assert!(!is_area(&tags(&[("natural", "coastline")])));
        assert!(!is_area(&tags(&[("building", "yes"), ("area", "no")])));
        assert!(!is_area(&tags(&[("waterway", "river")])));
        assert!(!is_area(&tags(&[("barrier", "fence")])));
    }

    #[test]
    fn closed_area_ways_are_polygons_and_the_rest_lines() {
        let square = vec![[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]];
        let park = tags(&[("leisure", "park")]);
        let kind = |s: Shape| std::mem::discriminant(&s);
        let polygon = kind(Shape::Polygon(vec![]));
        let line = kind(Shape::LineString(vec![]));
        assert_eq!(kind(way_shape(&park, &[1, 2, 3, 4, 1], square.clone()).unwrap()), polygon);
        assert_eq!(kind(way_shape(&tags(&[("highway", "service")]), &[1, 2, 3, 4, 1], square.clone()).unwrap()), line);
        // A node missing from the file leaves the ring open: drawn as its line.
        assert_eq!(kind(way_shape(&park, &[1, 2, 3, 4, 1], square[..4].to_vec()).unwrap()), line);
        assert_eq!(way_shape(&park, &[1, 2], vec![[0, 0]]), Some(Shape::Point([0, 0])));
        assert_eq!(
            way_shape(&park, &[1, 2, 3, 4, 1], square).unwrap().to_geojson(),
            "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[0.000001,0],[0.000001,0.000001],[0,0.000001],[0,0]]]}"
        );
    }

    fn member<'a>(id: i64, _role: &str, refs: &'a [i64], at: &[[i32; 2]]) -> MemberWay<'a> {
        MemberWay { id, refs: refs.into(), vertices: at.iter().map(|&p| Some(p)).collect() }
    }

    #[test]
    fn a_multipolygon_joins_ways_into_rings_and_puts_holes_in_their_shells() {
        // The shell is two ways (one of them reversed), the hole one closed way; an island in
        // the hole is a shell again.
        let (shell_a, shell_b) = ([1, 2, 3], [1, 4, 3]);
        let ways = [
            member(10, "outer", &shell_a, &[[0, 0], [0, 100], [100, 100]]),
            member(11, "outer", &shell_b, &[[0, 0], [100, 0], [100, 100]]),
            member(12, "inner", &[5, 6, 7, 8, 5], &[[20, 20], [20, 80], [80, 80], [80, 20], [20, 20]]),
            member(13, "outer", &[9, 10, 11, 12, 9], &[[40, 40], [40, 60], [60, 60], [60, 40], [40, 40]]),
        ];
        let Shape::MultiPolygon(polygons) = assemble_multipolygon(&ways).unwrap() else { panic!("two shells") };
        assert_eq!(polygons.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 1], "the big shell has the hole");
        assert!(ring_area2(&polygons[0][0]) > 0.0 && ring_area2(&polygons[0][1]) < 0.0, "shell ccw, hole cw");
        assert_eq!(ring_area2(&polygons[0][0]).abs(), 2.0 * 100.0 * 100.0);
    }

    #[test]
    fn a_broken_multipolygon_says_why() {
        let open = [member(10, "outer", &[1, 2, 3], &[[0, 0], [0, 100], [100, 100]])];
        assert_eq!(assemble_multipolygon(&open), Err("a ring is not closed: it ends at node 3".into()));
        let mut missing = member(10, "outer", &[1, 2, 3, 1], &[[0, 0], [0, 100], [100, 100], [0, 0]]);
        missing.vertices[1] = None;
        assert_eq!(assemble_multipolygon(&[missing]), Err("node 2 of way 10 is missing from the file".into()));
        assert!(member_lines(&open).is_some());
        // A bow tie: the ring crosses itself.
        let bow_tie = [member(10, "outer", &[1, 2, 3, 4, 1], &[[0, 0], [0, 100], [100, 0], [100, 100], [0, 0]])];
        assert_eq!(assemble_multipolygon(&bow_tie), Err("rings cross at 0.0000050,0.0000050".into()));
    }

    #[test]
    fn a_representative_point_lies_on_the_shape() {
        // A U shape: its bbox centre (50, 50) is outside it, in the notch.
        let u = vec![[0, 0], [0, 100], [100, 100], [100, 70], [20, 70], [20, 30], [100, 30], [100, 0], [0, 0]];
        let p = Shape::Polygon(vec![u.clone()]).representative_point();
        assert!(contains(&u, p), "{p:?} is inside the U");
        // A square with a hole in its middle: the point avoids the hole.
        let square = vec![[0, 0], [0, 100], [100, 100], [100, 0], [0, 0]];
        let hole = vec![[40, 40], [40, 60], [60, 60], [60, 40], [40, 40]];
        let p = Shape::Polygon(vec![square.clone(), hole.clone()]).representative_point();
        assert!(contains(&square, p) && !contains(&hole, p), "{p:?} is in the square, not its hole");
        assert_eq!(Shape::LineString(vec![[0, 0], [5, 5], [9, 9]]).representative_point(), [5, 5]);
    }

    #[test]
    fn crossing_rings_are_found_and_touching_ones_are_not() {
        let square = |at: i32, size: i32| vec![[at, at], [at, at + size], [at + size, at + size], [at + size, at], [at, at]];
        assert!(first_crossing(&[square(0, 100), square(50, 100)]).is_some());
        assert_eq!(first_crossing(&[square(0, 100), square(20, 10)]), None, "a hole inside");
        assert_eq!(first_crossing(&[square(0, 100), square(100, 100)]), None, "touching at a corner");
        assert_eq!(first_crossing(&[square(0, 100), vec![[0, 100], [50, 200], [100, 100], [0, 100]]]), None, "sharing an edge");
    }
}
