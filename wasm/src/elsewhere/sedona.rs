//! The query as a Spark SQL program over Apache Sedona's `osmpbf` reader (Sedona ≥ 1.7.1,
//! "Load OSM PBF" in Sedona's SQL tutorial; rows `id`, `kind`, `location`, `tags`, `refs`,
//! `ref_roles`, `ref_types`), answering what pbf-explorer answers on the same file, on one
//! machine or a cluster: the query language, the area (`inside=all` too), ways and relations
//! matched by their nodes, and each match's geometry built by joins, as `docs/query-language.md`
//! ("Query semantics") says. What Spark cannot say the same way is refused with the reason.

use super::sql::{parts, summary, Dialect, Parts};
use crate::query::Query;

/// The Sedona release whose jars the program's run line names (tested with it).
const SEDONA_JARS: &str = "sedona-spark-shaded-3.5_2.12-1.8.0.jar,geotools-wrapper-1.8.0-33.1.jar";

/// The Spark SQL program answering `query` on `file` (a path or URL as Spark reads it: a local
/// path, `hdfs://`, `s3a://`): two statements, a temporary view `osm_file` over the file and the
/// query, which gives one row per match with `osm_type` (`node`, `way`, `relation`), `osm_id`,
/// `tags` (a map) and `geometry` (Sedona geometry, longitude/latitude in degrees WGS84), sorted
/// by type and id. Geometries as in [`super::duckdb::duckdb_sql`]: a `type=multipolygon` or
/// `type=boundary` relation's is `ST_BuildArea` of its member ways.
///
/// Errors: a sentence naming what Spark cannot answer the same way (`in=relation/…`, a history
/// moment: the reader has no version or timestamp; a regular expression Java reads otherwise; a
/// NUL character).
pub fn sedona_sql(query: &Query, file: &str) -> Result<String, String> {
    if query.at.is_some() || query.from.is_some() {
        return Err("Sedona's osmpbf reader gives no version or timestamp: a moment of a history file (at, from) cannot be asked".into());
    }
    let dialect = Dialect::Spark;
    let Parts { area, condition, select } = parts(query, dialect)?;
    let header = summary(query, file, "Spark SQL for Apache Sedona");
    let file = dialect.literal(file)?;
    // Vertices are gathered as (position, lon, lat) and sorted by position: collect_list keeps
    // no order of its own. A line is made only under a test of its points' count in the same
    // expression: Spark computes an aggregate's outputs before a HAVING filters them.
    let points = |sorted: &str| format!("transform({sorted}, v -> ST_Point(v.lon, v.lat))");
    let way_points = points("s.vertices");
    let member_points = points("array_sort(collect_list(struct(w.pos AS pos, n.lon AS lon, n.lat AS lat)))");
    Ok(format!(
        "{header}-- Run with Sedona's jars and SQL extensions, for instance:
--   spark-sql --jars {SEDONA_JARS} \\
--     --conf spark.sql.extensions=org.apache.sedona.sql.SedonaSqlExtensions -f query.sql
-- One row per match: osm_type, osm_id, tags, geometry (longitude/latitude, degrees WGS84), as
-- pbf-explorer's exports.
CREATE OR REPLACE TEMPORARY VIEW osm_file USING osmpbf OPTIONS (path {file});
WITH osm AS (
  SELECT lower(kind) AS kind, id, tags, refs, transform(ref_types, t -> lower(t)) AS ref_types,
    round(location.longitude, 7) AS lon, round(location.latitude, 7) AS lat FROM osm_file),
node AS (SELECT id, lon, lat, coalesce({area}, false) AS located FROM osm WHERE kind = 'node'),
matched AS (SELECT * FROM osm WHERE kind IN ('node', 'way', 'relation') AND ({condition})),
way_ref AS (SELECT m.id, r.pos, r.ref FROM matched m LATERAL VIEW posexplode(m.refs) r AS pos, ref WHERE m.kind = 'way'),
way_shape AS (
  SELECT r.id, count_if(n.located) AS n,
    array_sort(collect_list(CASE WHEN n.id IS NOT NULL THEN struct(r.pos AS pos, n.lon AS lon, n.lat AS lat) END)) AS vertices
  FROM way_ref r LEFT JOIN node n ON n.id = r.ref GROUP BY r.id),
way AS (
  SELECT m.id, m.tags, m.refs, coalesce(s.n, 0) AS n, CASE WHEN size(s.vertices) > 0 THEN {way_points} END AS vertices
  FROM matched m LEFT JOIN way_shape s ON s.id = m.id WHERE m.kind = 'way'),
member AS (
  SELECT m.id, r.ref AS member, m.ref_types[r.pos] AS member_type
  FROM matched m LATERAL VIEW posexplode(m.refs) r AS pos, ref WHERE m.kind = 'relation'),
member_way_ref AS (
  SELECT o.id AS way, r.pos, r.ref FROM osm o LATERAL VIEW posexplode(o.refs) r AS pos, ref
  WHERE o.kind = 'way' AND o.id IN (SELECT member FROM member WHERE member_type = 'way')),
relation_node AS (
  SELECT id, member AS ref FROM member WHERE member_type = 'node'
  UNION ALL SELECT m.id, w.ref FROM member m JOIN member_way_ref w ON w.way = m.member WHERE m.member_type = 'way'),
relation_place AS (
  SELECT r.id, count(*) AS refs, count_if(n.located) AS n FROM relation_node r LEFT JOIN node n ON n.id = r.ref GROUP BY r.id),
member_line AS (
  SELECT w.way, CASE WHEN count(*) >= 2 THEN ST_MakeLine({member_points}) END AS line
  FROM member_way_ref w JOIN node n ON n.id = w.ref GROUP BY w.way),
relation_lines AS (
  SELECT m.id, collect_list(l.line) AS lines FROM member m JOIN member_line l ON l.way = m.member
  WHERE m.member_type = 'way' AND l.line IS NOT NULL GROUP BY m.id)
{select}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::area::Area;

    fn sql(q: &str, area: Area) -> Result<String, String> {
        sedona_sql(&Query::from_tags(q, area).unwrap(), "x.osm.pbf")
    }

    #[test]
    fn tag_text_is_a_literal_never_sql() {
        let text = sql("name=\"x\\\\'); DROP TABLE t; --\"", Area::Everywhere).unwrap();
        assert!(text.contains("tags['name'] = 'x\\\\\\'); DROP TABLE t; --'"), "{text}");
    }

    #[test]
    fn what_spark_reads_otherwise_is_refused_with_the_reason() {
        assert!(sql("name~\"[[:alpha:]]\"", Area::Everywhere).unwrap_err().contains("java.util.regex"));
        assert!(sql("amenity", Area::Relation(7)).unwrap_err().contains("Spark SQL has no multipolygon assembly to make the outline of relation 7"));
        assert!(sql("name~/^star$/i", Area::Everywhere).unwrap().contains("tags['name'] RLIKE '(?dU)(?i)^star\\\\z'"));
    }
}
