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

use crate::scan::Tag;

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
const AREA_KEYS: &[(&str, &[&str])] = &[
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
const AREA_VALUES: &[(&str, &[&str])] = &[("waterway", &["riverbank", "dock", "boatyard", "dam"]), ("railway", &["platform"])];

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

/// A member way of a relation as the assembly sees it: its role, node ids and vertices (None
/// where a node's location is unknown).
pub struct MemberWay<'a> {
    pub id: i64,
    pub role: &'a str,
    pub refs: &'a [i64],
    pub vertices: Vec<Option<[i32; 2]>>,
}

/// Twice the signed area of a ring in (1e-7 degree)², positive when counterclockwise.
pub fn ring_area2(ring: &[[i32; 2]]) -> f64 {
    ring.windows(2).map(|w| w[0][1] as f64 * w[1][0] as f64 - w[1][1] as f64 * w[0][0] as f64).sum()
}

/// The ring turned counterclockwise (`ccw`) or clockwise.
fn oriented(mut ring: Line, ccw: bool) -> Line {
    if (ring_area2(&ring) > 0.0) != ccw {
        ring.reverse();
    }
    ring
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
/// at which node), or no way at all — for the caller to draw the ways as lines instead.
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
    // Rings as (node ids, vertices), joined greedily at their ends.
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
            let next = (0..ways.len()).find(|&i| !used[i] && (ways[i].refs.first() == Some(&end) || ways[i].refs.last() == Some(&end)));
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
    // Nesting depth by containment: even depth is a shell, odd a hole of its nearest shell.
    let area = |r: &Line| ring_area2(r).abs();
    let mut order: Vec<usize> = (0..rings.len()).collect();
    order.sort_by(|&a, &b| area(&rings[b]).total_cmp(&area(&rings[a]))); // largest first
    let mut parent: Vec<Option<usize>> = vec![None; rings.len()];
    let mut depth = vec![0usize; rings.len()];
    for (k, &r) in order.iter().enumerate() {
        // The smallest larger ring that holds this one's first vertex that lies off the boundary.
        let probe = rings[r][0];
        if let Some(&p) = order[..k].iter().rev().find(|&&p| contains(&rings[p], probe)) {
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

/// The `MultiLineString` of member ways (their known vertices), or None when none has two.
pub fn member_lines(ways: &[MemberWay]) -> Option<Shape> {
    let lines: Vec<Line> = ways.iter().map(|w| w.vertices.iter().flatten().copied().collect::<Line>()).filter(|l| l.len() >= 2).collect();
    (!lines.is_empty()).then_some(Shape::MultiLineString(lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(list: &[(&str, &str)]) -> Vec<Tag> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn wkt() {
        assert_eq!(Shape::Point([10_000_000, 20_000_000]).to_wkt(), "POINT (2 1)");
        let ring = vec![[0, 0], [0, 10_000_000], [10_000_000, 0], [0, 0]];
        assert_eq!(Shape::MultiPolygon(vec![vec![ring]]).to_wkt(), "MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0)))");
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

    fn member<'a>(id: i64, role: &'a str, refs: &'a [i64], at: &[[i32; 2]]) -> MemberWay<'a> {
        MemberWay { id, role, refs, vertices: at.iter().map(|&p| Some(p)).collect() }
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
    }
}
