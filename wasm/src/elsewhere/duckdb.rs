//! The query as a DuckDB SQL program over the spatial extension's `ST_ReadOSM` (DuckDB spatial
//! docs, "ST_ReadOSM"), answering what pbf-explorer answers on the same file: the query language
//! (`and`, `or`, `not`, regular expressions, `prefix:*` keys, `type:`, `id:`), the area (circle,
//! bbox, polygon; `inside=all`), ways and relations matched by their nodes, and each match's
//! geometry built by joins, as `docs/query-language.md` ("Query semantics") says. What DuckDB
//! cannot say the same way (the outline of a relation of the file, a history moment, a regular
//! expression whose meaning differs in RE2) is refused with the reason, never approximated.

use crate::query::area::{Area, EARTH_RADIUS_M};
use crate::query::language::{Expr, KeyPattern, ValueTest};
use crate::query::{Inside, Query};
use crate::assembly::geometry::{AREA_KEYS, AREA_VALUES};

/// Rust-regex syntax that RE2 (DuckDB's `regexp_matches`) reads otherwise or not at all: Perl
/// classes and word boundaries are Unicode in ours, ASCII in RE2; class set operations are ours.
const RE2_DIFFERENT: [&str; 11] = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "&&", "--", "~~"];

/// The DuckDB program answering `query` on `file` (a path or URL as DuckDB reads it): one row
/// per match with `osm_type` (`node`, `way`, `relation`), `osm_id`, `tags` (a map) and `geometry`
/// (longitude/latitude in degrees WGS84), sorted by type and id. A `type=multipolygon` or
/// `type=boundary` relation's geometry is `ST_BuildArea` of its member ways (a broken one is not
/// drawn as its ways as ours is); another relation's, the collection of its member ways.
///
/// Errors: a sentence naming what DuckDB cannot answer the same way (`in=relation/…`, a history
/// moment, a regular expression RE2 reads otherwise, a NUL character).
pub fn duckdb_sql(query: &Query, file: &str) -> Result<String, String> {
    if query.at.is_some() || query.from.is_some() {
        return Err("ST_ReadOSM reads the latest version of each element: a moment of a history file (at, from) cannot be asked".into());
    }
    let area = area_test(&query.area)?;
    let everywhere = matches!(query.area, Area::Everywhere);
    let all = query.inside == Inside::All;
    let placed = |n: &str, refs: &str| {
        let located = if all { format!("{n} > 0 AND {n} = {refs}") } else { format!("{n} > 0") };
        if everywhere { format!("({located}) OR {n} = 0") } else { located }
    };
    let way_match = placed("w.n", "len(w.refs)");
    let relation_match = placed("coalesce(p.n, 0)", "p.refs");
    // A relation placed by none of its members' nodes matches, with no area, only when it has
    // a node or way member (docs/query-language.md).
    let relation_unplaced = if everywhere { " AND (coalesce(p.n, 0) > 0 OR list_has_any(m.ref_types, ['node', 'way']))" } else { "" };
    let condition = condition(&query.expr)?;
    let is_area = is_area_sql("w.tags");
    let header = header(query, file);
    let file = literal(file)?;
    Ok(format!(
        "{header}LOAD spatial;
WITH osm AS (SELECT kind, id, tags, refs, ref_types, round(lon, 7) AS lon, round(lat, 7) AS lat FROM ST_ReadOSM({file})),
node AS (SELECT id, lon, lat, coalesce({area}, false) AS located FROM osm WHERE kind = 'node'),
matched AS (SELECT * FROM osm WHERE kind IN ('node', 'way', 'relation') AND ({condition})),
way_ref AS (SELECT id, unnest(refs) AS ref, unnest(range(len(refs))) AS pos FROM matched WHERE kind = 'way'),
way_shape AS (
  SELECT r.id, count(*) FILTER (WHERE n.located) AS n, list(ST_Point(n.lon, n.lat) ORDER BY r.pos) FILTER (WHERE n.id IS NOT NULL) AS vertices
  FROM way_ref r LEFT JOIN node n ON n.id = r.ref GROUP BY r.id),
way AS (SELECT m.id, m.tags, m.refs, coalesce(s.n, 0) AS n, coalesce(s.vertices, []) AS vertices FROM matched m LEFT JOIN way_shape s USING (id) WHERE m.kind = 'way'),
member AS (SELECT id, unnest(refs) AS member, unnest(ref_types) AS member_type FROM matched WHERE kind = 'relation'),
member_way_ref AS (
  SELECT id AS way, unnest(refs) AS ref, unnest(range(len(refs))) AS pos FROM osm
  WHERE kind = 'way' AND id IN (SELECT member FROM member WHERE member_type = 'way')),
relation_node AS (
  SELECT id, member AS ref FROM member WHERE member_type = 'node'
  UNION ALL SELECT m.id, w.ref FROM member m JOIN member_way_ref w ON w.way = m.member WHERE m.member_type = 'way'),
relation_place AS (
  SELECT r.id, count(*) AS refs, count(*) FILTER (WHERE n.located) AS n FROM relation_node r LEFT JOIN node n ON n.id = r.ref GROUP BY r.id),
member_line AS (
  SELECT w.way, ST_MakeLine(list(ST_Point(n.lon, n.lat) ORDER BY w.pos)) AS line FROM member_way_ref w JOIN node n ON n.id = w.ref
  GROUP BY w.way HAVING count(*) >= 2),
relation_lines AS (SELECT m.id, list(l.line) AS lines FROM member m JOIN member_line l ON l.way = m.member WHERE m.member_type = 'way' GROUP BY m.id)
SELECT 'node' AS osm_type, id AS osm_id, tags, ST_Point(lon, lat) AS geometry FROM matched WHERE kind = 'node' AND coalesce({area}, false)
UNION ALL
SELECT 'way', w.id, w.tags, CASE
    WHEN len(w.vertices) = 0 THEN NULL
    WHEN len(w.vertices) = 1 THEN w.vertices[1]
    WHEN len(w.refs) >= 4 AND w.refs[1] = w.refs[-1] AND len(w.vertices) >= 4 AND ST_Equals(w.vertices[1], w.vertices[-1]) AND {is_area}
      THEN ST_MakePolygon(ST_MakeLine(w.vertices))
    ELSE ST_MakeLine(w.vertices) END
  FROM way w WHERE {way_match}
UNION ALL
SELECT 'relation', m.id, m.tags, CASE
    WHEN m.tags['type'] IN ('multipolygon', 'boundary') THEN ST_BuildArea(ST_Collect(l.lines))
    ELSE ST_Collect(l.lines) END
  FROM matched m LEFT JOIN relation_place p USING (id) LEFT JOIN relation_lines l USING (id)
  WHERE m.kind = 'relation' AND ({relation_match}){relation_unplaced}
ORDER BY osm_type, osm_id;
"
    ))
}

/// The program's first lines: what it answers, and how to run it.
fn header(query: &Query, file: &str) -> String {
    let one_line = |text: &str| text.replace(['\r', '\n'], " ");
    format!(
        "-- pbf-explorer: {q} on {file}{area}{inside}, as DuckDB SQL.
-- Needs DuckDB's spatial extension (INSTALL spatial; once). One row per match: osm_type, osm_id,
-- tags, geometry (longitude/latitude, degrees WGS84), as pbf-explorer's exports.
",
        q = one_line(&query.text),
        file = one_line(file),
        area = match &query.area {
            Area::Everywhere => String::new(),
            Area::Circle { lat, lon, radius } => format!(", within {radius} m of {lat},{lon}"),
            Area::Bbox { min_lon, min_lat, max_lon, max_lat } => format!(", in the bbox {min_lon},{min_lat},{max_lon},{max_lat}"),
            Area::Polygon(_) | Area::Relation(_) => ", in a polygon".into(),
        },
        inside = if query.inside == Inside::All { " (wholly inside)" } else { "" },
    )
}

/// SQL whose value says whether the point (`lon`, `lat`) lies in `area` (the tests of
/// `query/area.rs` and `query/polygon.rs`).
fn area_test(area: &Area) -> Result<String, String> {
    Ok(match area {
        Area::Everywhere => "true".into(),
        // The haversine of `area::haversine_m`, term by term.
        Area::Circle { lat, lon, radius } => format!(
            "2 * {EARTH_RADIUS_M:?} * asin(least(1, sqrt(pow(sin((radians(lat) - radians({lat:?})) / 2), 2) + cos(radians({lat:?})) * cos(radians(lat)) * pow(sin(radians(lon - {lon:?}) / 2), 2)))) <= {radius:?}"
        ),
        Area::Bbox { min_lon, min_lat, max_lon, max_lat } => format!("lon BETWEEN {min_lon:?} AND {max_lon:?} AND lat BETWEEN {min_lat:?} AND {max_lat:?}"),
        // A point on a ring is inside (ST_Intersects takes the boundary); parts may overlap, so
        // each is its own polygon. Vertices at the file's 1e-7 degrees, as ours are.
        Area::Polygon(parts) => {
            let ring = |r: &Vec<[f64; 2]>| format!("({})", r.iter().map(|[x, y]| format!("{} {}", e7(*x), e7(*y))).collect::<Vec<_>>().join(", "));
            let part = |p: &Vec<Vec<[f64; 2]>>| format!("ST_Intersects(ST_Point(lon, lat), ST_GeomFromText('POLYGON ({})'))", p.iter().map(ring).collect::<Vec<_>>().join(", "));
            format!("({})", parts.iter().map(part).collect::<Vec<_>>().join(" OR "))
        }
        Area::Relation(id) => {
            return Err(format!(
                "DuckDB has no multipolygon assembly to make the outline of relation {id}: give the outline as a polygon (--poly FILE.geojson; `pbf-explorer query FILE --format geojson 'type:relation id:{id}'` writes it)"
            ))
        }
    })
}

/// Degrees rounded to 1e-7 (the file's unit, as `query/polygon.rs` rounds them).
fn e7(deg: f64) -> f64 {
    (deg * 1e7).round() / 1e7
}

/// `expr` as an SQL condition on an `ST_ReadOSM` row (`kind`, `id`, `tags`); never NULL (a
/// missing tag is false, so that `not` of it is true, as in ours).
fn condition(expr: &Expr) -> Result<String, String> {
    let joined = |parts: &[Expr], op: &str| -> Result<String, String> { Ok(format!("({})", parts.iter().map(condition).collect::<Result<Vec<_>, _>>()?.join(op))) };
    Ok(match expr {
        Expr::And(parts) if parts.is_empty() => "true".into(),
        Expr::And(parts) => joined(parts, " AND ")?,
        Expr::Or(parts) => joined(parts, " OR ")?,
        Expr::Not(inner) => format!("NOT {}", condition(inner)?),
        Expr::Type(t) => format!("kind = '{}'", t.name()),
        Expr::Id(id) => format!("id = {id}"),
        Expr::Tag { key: KeyPattern::Exact(k), value } => {
            let v = format!("tags[{}]", literal(k)?);
            match value {
                ValueTest::Any => format!("({v} IS NOT NULL)"),
                ValueTest::Equals(x) => format!("coalesce({v} = {}, false)", literal(x)?),
                ValueTest::Regex(r) => format!("coalesce(regexp_matches({v}, {}), false)", literal(&re2(r.as_str())?)?),
            }
        }
        Expr::Tag { key: KeyPattern::Prefix(p), value } => {
            let test = match value {
                ValueTest::Any => "true".to_string(),
                ValueTest::Equals(x) => format!("e.value = {}", literal(x)?),
                ValueTest::Regex(r) => format!("regexp_matches(e.value, {})", literal(&re2(r.as_str())?)?),
            };
            format!("(len(list_filter(map_entries(tags), lambda e: starts_with(e.key, {}) AND {test})) > 0)", literal(p)?)
        }
    })
}

/// `pattern` (Rust's `regex` syntax) for RE2, which reads it the same way unless it uses what
/// [`RE2_DIFFERENT`] lists.
fn re2(pattern: &str) -> Result<String, String> {
    match RE2_DIFFERENT.iter().find(|s| pattern.contains(*s)) {
        Some(s) => Err(format!("DuckDB's regular expressions (RE2) read {s:?} otherwise than pbf-explorer's (Unicode classes and word boundaries, class set operations): write it with explicit classes ([0-9], [[:alpha:]], \\pL)")),
        None => Ok(pattern.to_string()),
    }
}

/// `text` as an SQL string literal (quotes doubled; standard SQL has no other escape).
fn literal(text: &str) -> Result<String, String> {
    if text.contains('\0') {
        return Err("an SQL string cannot hold a NUL character".into());
    }
    Ok(format!("'{}'", text.replace('\'', "''")))
}

/// SQL for `is_area` of `assembly/geometry.rs` on the map `tags`, written from the same tables.
fn is_area_sql(tags: &str) -> String {
    let value = |key: &str| format!("{tags}['{key}']");
    let list = |values: &[&str]| values.iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(", ");
    let by_key = AREA_KEYS.iter().map(|(key, linear)| {
        let not = [&["no"][..], linear].concat();
        format!("{} NOT IN ({})", value(key), list(&not))
    });
    let by_value = AREA_VALUES.iter().map(|(key, areas)| format!("{} IN ({})", value(key), list(areas)));
    let any = by_key.chain(by_value).map(|t| format!("coalesce({t}, false)")).collect::<Vec<_>>().join(" OR ");
    format!("(CASE {area} WHEN 'no' THEN false WHEN 'yes' THEN true ELSE ({any}) END)", area = value("area"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sql(q: &str, area: Area) -> Result<String, String> {
        duckdb_sql(&Query::from_tags(q, area).unwrap(), "x.osm.pbf")
    }

    #[test]
    fn tag_text_is_a_literal_never_sql() {
        let text = sql("name=\"x'); DROP TABLE t; --\"", Area::Everywhere).unwrap();
        assert!(text.contains("tags['name'] = 'x''); DROP TABLE t; --'"));
        assert!(sql("name=\"a\u{0}b\"", Area::Everywhere).is_err());
    }

    #[test]
    fn what_duckdb_reads_otherwise_is_refused_with_the_reason() {
        assert!(sql("name~\"\\d+\"", Area::Everywhere).unwrap_err().contains("RE2"));
        assert!(sql("amenity", Area::Relation(7)).unwrap_err().contains("relation 7"));
        assert!(sql("name~/^star/i", Area::Everywhere).unwrap().contains("regexp_matches(tags['name'], '(?i)^star')"));
    }

    #[test]
    fn the_area_rule_is_written_from_the_assemblys_tables() {
        let rule = is_area_sql("t");
        assert!(rule.starts_with("(CASE t['area'] WHEN 'no' THEN false WHEN 'yes' THEN true"));
        assert!(rule.contains("coalesce(t['leisure'] NOT IN ('no', 'track', 'slipway'), false)"));
        assert!(rule.contains("coalesce(t['railway'] IN ('platform'), false)"));
    }
}
