//! The query as a DuckDB SQL program over the spatial extension's `ST_ReadOSM` (DuckDB spatial
//! docs, "ST_ReadOSM"), answering what pbf-explorer answers on the same file: the query language
//! (`and`, `or`, `not`, regular expressions, `prefix:*` keys, `type:`, `id:`), the area (circle,
//! bbox, polygon; `inside=all`), ways and relations matched by their nodes, and each match's
//! geometry built by joins, as `docs/query-language.md` ("Query semantics") says. What DuckDB
//! cannot say the same way (the outline of a relation of the file, a history moment, a regular
//! expression whose meaning differs in RE2) is refused with the reason, never approximated.

use super::sql::{parts, summary, Dialect, Parts};
use crate::query::Query;

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
    let Parts { area, condition, select } = parts(query, Dialect::DuckDb)?;
    let header = summary(query, file, "DuckDB SQL");
    let file = Dialect::DuckDb.literal(file)?;
    Ok(format!(
        "{header}-- Needs DuckDB's spatial extension (INSTALL spatial; once). One row per match: osm_type, osm_id,
-- tags, geometry (longitude/latitude, degrees WGS84), as pbf-explorer's exports.
LOAD spatial;
WITH osm AS (SELECT kind, id, tags, refs, ref_types, round(lon, 7) AS lon, round(lat, 7) AS lat FROM ST_ReadOSM({file})),
node AS (SELECT id, lon, lat, coalesce({area}, false) AS located FROM osm WHERE kind = 'node'),
matched AS (SELECT * FROM osm WHERE kind IN ('node', 'way', 'relation') AND ({condition})),
way_ref AS (SELECT id, unnest(refs) AS ref, unnest(range(len(refs))) AS pos FROM matched WHERE kind = 'way'),
way_shape AS (
  SELECT r.id, count(*) FILTER (WHERE n.located) AS n, list(ST_Point(n.lon, n.lat) ORDER BY r.pos) FILTER (WHERE n.id IS NOT NULL) AS vertices
  FROM way_ref r LEFT JOIN node n ON n.id = r.ref GROUP BY r.id),
way AS (
  SELECT m.id, m.tags, m.refs, coalesce(s.n, 0) AS n, CASE WHEN len(s.vertices) > 0 THEN s.vertices END AS vertices
  FROM matched m LEFT JOIN way_shape s USING (id) WHERE m.kind = 'way'),
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
{select}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::area::Area;

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
}
