//! The parts of a query that DuckDB SQL and Spark SQL write alike but for their literals,
//! regular expressions and lambdas: the query language as a condition on a row of the engine's
//! OSM reader (`kind`, `id`, `tags`), the area as a test of a point (`lon`, `lat`), and the
//! assembly's area rule for closed ways. One implementation of each rule, both dialects.

use super::regex;
use crate::assembly::geometry::{AREA_KEYS, AREA_VALUES};
use crate::query::area::{Area, EARTH_RADIUS_M};
use crate::query::language::{Expr, KeyPattern, ValueTest};

/// The SQL an engine reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dialect {
    /// DuckDB with its spatial extension: RE2, `''` in literals, `lambda x:` lambdas.
    DuckDb,
    /// Spark SQL with Apache Sedona: `java.util.regex`, backslash escapes in literals, `x ->`.
    Spark,
}

impl Dialect {
    /// The engine's name in a refusal.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::DuckDb => "DuckDB",
            Dialect::Spark => "Spark SQL",
        }
    }

    /// `text` as a string literal: DuckDB's standard SQL doubles quotes (it has no other
    /// escape); Spark's parser reads backslash escapes, so backslashes, quotes and line breaks
    /// are escaped (a literal never spans lines, so a program splits at `;` + line break).
    ///
    /// Errors: a NUL character, which neither engine's strings hold.
    pub fn literal(self, text: &str) -> Result<String, String> {
        if text.contains('\0') {
            return Err("an SQL string cannot hold a NUL character".into());
        }
        Ok(match self {
            Dialect::DuckDb => format!("'{}'", text.replace('\'', "''")),
            Dialect::Spark => {
                let escaped = text.replace('\\', "\\\\").replace('\'', "\\'").replace('\n', "\\n").replace('\r', "\\r");
                format!("'{escaped}'")
            }
        })
    }

    /// SQL true when the text `value` (never NULL here) has a match of `pattern` anywhere.
    fn regex_test(self, value: &str, pattern: &str) -> Result<String, String> {
        Ok(match self {
            Dialect::DuckDb => format!("regexp_matches({value}, {})", self.literal(&regex::re2(pattern)?)?),
            Dialect::Spark => format!("{value} RLIKE {}", self.literal(&regex::java(pattern)?)?),
        })
    }

    /// The length of the list `list`.
    fn size(self, list: &str) -> String {
        match self {
            Dialect::DuckDb => format!("len({list})"),
            Dialect::Spark => format!("size({list})"),
        }
    }

    /// The first (`last` false) or last element of the list `list` (DuckDB counts from 1).
    fn end(self, list: &str, last: bool) -> String {
        match (self, last) {
            (Dialect::DuckDb, false) => format!("{list}[1]"),
            (Dialect::DuckDb, true) => format!("{list}[-1]"),
            (Dialect::Spark, false) => format!("{list}[0]"),
            (Dialect::Spark, true) => format!("element_at({list}, -1)"),
        }
    }

    /// SQL true when the list `types` (member types in lower case) holds `node` or `way`.
    fn has_node_or_way(self, types: &str) -> String {
        match self {
            Dialect::DuckDb => format!("list_has_any({types}, ['node', 'way'])"),
            Dialect::Spark => format!("coalesce(arrays_overlap({types}, array('node', 'way')), false)"),
        }
    }

    /// SQL true when some tag of the map `tags` has a key starting with the literal `prefix`
    /// and `test` (on `e.value`) holds.
    fn some_tag(self, tags: &str, prefix: &str, test: &str) -> String {
        match self {
            Dialect::DuckDb => format!("(len(list_filter(map_entries({tags}), lambda e: starts_with(e.key, {prefix}) AND {test})) > 0)"),
            Dialect::Spark => format!("exists(map_entries({tags}), e -> startswith(e.key, {prefix}) AND {test})"),
        }
    }
}

/// What a program of either dialect needs of the query: the area test of a point (`lon`,
/// `lat`), the query's condition on a reader's row, and the program's last statement.
pub struct Parts {
    pub area: String,
    pub condition: String,
    /// The answer from the program's tables (`matched`: the rows the condition holds for; `way`:
    /// `id`, `tags`, `refs`, `n` nodes located, `vertices` as points in order, NULL when none;
    /// `relation_place`: `id`, `refs`, `n`; `relation_lines`: `id`, `lines`): one row per match,
    /// `osm_type`, `osm_id`, `tags`, `geometry`, sorted by type and id.
    pub select: String,
}

/// The [`Parts`] of `query` in `dialect`: ways and relations placed by their located nodes
/// (all of them for `inside=all`; with no area, also none, a relation then needing a node or
/// way member: docs/query-language.md), a way's geometry by the assembly's rules (a point for
/// one vertex, a polygon for a closed way the area rule takes), a multipolygon or boundary
/// relation's by `ST_BuildArea` of its member ways, another relation's their collection.
///
/// Errors: as [`area_test`] and [`condition`].
pub fn parts(query: &crate::query::Query, dialect: Dialect) -> Result<Parts, String> {
    let area = area_test(&query.area, dialect)?;
    let everywhere = matches!(query.area, Area::Everywhere);
    let all = query.inside == crate::query::Inside::All;
    let placed = |n: &str, refs: &str| {
        let located = if all { format!("{n} > 0 AND {n} = {refs}") } else { format!("{n} > 0") };
        if everywhere { format!("({located}) OR {n} = 0") } else { located }
    };
    let way_match = placed("w.n", &dialect.size("w.refs"));
    let relation_match = placed("coalesce(p.n, 0)", "p.refs");
    let relation_unplaced = if everywhere { format!(" AND (coalesce(p.n, 0) > 0 OR {})", dialect.has_node_or_way("m.ref_types")) } else { String::new() };
    let (size, first, last) = (|l: &str| dialect.size(l), |l: &str| dialect.end(l, false), |l: &str| dialect.end(l, true));
    let closed_area = format!(
        "{} >= 4 AND {} = {} AND {} >= 4\n      AND ST_Equals({}, {}) AND {}",
        size("w.refs"), first("w.refs"), last("w.refs"), size("w.vertices"), first("w.vertices"), last("w.vertices"), is_area_sql("w.tags")
    );
    let select = format!(
        "SELECT 'node' AS osm_type, id AS osm_id, tags, ST_Point(lon, lat) AS geometry FROM matched WHERE kind = 'node' AND coalesce({area}, false)
UNION ALL
SELECT 'way', w.id, w.tags, CASE
    WHEN w.vertices IS NULL THEN NULL
    WHEN {} = 1 THEN {}
    WHEN {closed_area}
      THEN ST_MakePolygon(ST_MakeLine(w.vertices))
    ELSE ST_MakeLine(w.vertices) END
  FROM way w WHERE {way_match}
UNION ALL
SELECT 'relation', m.id, m.tags, CASE
    WHEN m.tags['type'] IN ('multipolygon', 'boundary') THEN ST_BuildArea(ST_Collect(l.lines))
    ELSE ST_Collect(l.lines) END
  FROM matched m LEFT JOIN relation_place p ON p.id = m.id LEFT JOIN relation_lines l ON l.id = m.id
  WHERE m.kind = 'relation' AND ({relation_match}){relation_unplaced}
ORDER BY osm_type, osm_id;
",
        size("w.vertices"),
        first("w.vertices"),
    );
    Ok(Parts { area, condition: condition(&query.expr, dialect)?, select })
}

/// SQL whose value says whether the point (`lon`, `lat`, degrees WGS84) lies in `area` (the
/// tests of `query/area.rs` and `query/polygon.rs`); the same text in both dialects.
///
/// Errors: `Area::Relation`, whose outline needs our multipolygon assembly.
pub fn area_test(area: &Area, dialect: Dialect) -> Result<String, String> {
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
                "{} has no multipolygon assembly to make the outline of relation {id}: give the outline as a polygon (--poly FILE.geojson; `pbf-explorer query FILE --format geojson 'type:relation id:{id}'` writes it)",
                dialect.name()
            ))
        }
    })
}

/// Degrees rounded to 1e-7 (the file's unit, as `query/polygon.rs` rounds them).
fn e7(deg: f64) -> f64 {
    (deg * 1e7).round() / 1e7
}

/// `expr` as an SQL condition on a row of the engine's OSM reader (`kind` in lower case, `id`,
/// the map `tags`); never NULL (a missing tag is false, so that `not` of it is true, as in ours).
///
/// Errors: a regular expression the engine reads otherwise; a NUL character in tag text.
pub fn condition(expr: &Expr, dialect: Dialect) -> Result<String, String> {
    let joined = |parts: &[Expr], op: &str| -> Result<String, String> {
        Ok(format!("({})", parts.iter().map(|p| condition(p, dialect)).collect::<Result<Vec<_>, _>>()?.join(op)))
    };
    Ok(match expr {
        Expr::And(parts) if parts.is_empty() => "true".into(),
        Expr::And(parts) => joined(parts, " AND ")?,
        Expr::Or(parts) => joined(parts, " OR ")?,
        Expr::Not(inner) => format!("NOT {}", condition(inner, dialect)?),
        Expr::Type(t) => format!("kind = '{}'", t.name()),
        Expr::Id(id) => format!("id = {id}"),
        Expr::Tag { key: KeyPattern::Exact(k), value } => {
            let v = format!("tags[{}]", dialect.literal(k)?);
            match value {
                ValueTest::Any => format!("({v} IS NOT NULL)"),
                ValueTest::Equals(x) => format!("coalesce({v} = {}, false)", dialect.literal(x)?),
                ValueTest::Regex(r) => format!("coalesce({}, false)", dialect.regex_test(&v, r.as_str())?),
            }
        }
        Expr::Tag { key: KeyPattern::Prefix(p), value } => {
            let test = match value {
                ValueTest::Any => "true".to_string(),
                ValueTest::Equals(x) => format!("e.value = {}", dialect.literal(x)?),
                ValueTest::Regex(r) => dialect.regex_test("e.value", r.as_str())?,
            };
            dialect.some_tag("tags", &dialect.literal(p)?, &test)
        }
    })
}

/// SQL for `is_area` of `assembly/geometry.rs` on the map `tags`, written from the same tables
/// (plain ASCII names: the same text in both dialects).
pub fn is_area_sql(tags: &str) -> String {
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

/// The program's first line: what it answers (the query's text, file and area, each on this one
/// line), as an SQL comment.
pub fn summary(query: &crate::query::Query, file: &str, engine: &str) -> String {
    format!("-- pbf-explorer: {} on {}{}, as {engine}.\n", one_line(&query.text), one_line(file), area_words(query))
}

/// `text` with its line breaks as spaces: a program's comment line stays one line.
pub fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// The query's area in words (`, within 500 m of LAT,LON`, …, ` (wholly inside)`), or nothing.
pub fn area_words(query: &crate::query::Query) -> String {
    let area = match &query.area {
        Area::Everywhere => String::new(),
        Area::Circle { lat, lon, radius } => format!(", within {radius} m of {lat},{lon}"),
        Area::Bbox { min_lon, min_lat, max_lon, max_lat } => format!(", in the bbox {min_lon},{min_lat},{max_lon},{max_lat}"),
        Area::Polygon(_) | Area::Relation(_) => ", in a polygon".into(),
    };
    let inside = if query.inside == crate::query::Inside::All { " (wholly inside)" } else { "" };
    format!("{area}{inside}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_hold_any_text_as_text() {
        assert_eq!(Dialect::DuckDb.literal("x'); --").unwrap(), "'x''); --'");
        assert_eq!(Dialect::Spark.literal("a\\'b\nc").unwrap(), "'a\\\\\\'b\\nc'");
        assert!(Dialect::Spark.literal("a\0").is_err());
    }

    #[test]
    fn the_area_rule_is_written_from_the_assemblys_tables() {
        let rule = is_area_sql("t");
        assert!(rule.starts_with("(CASE t['area'] WHEN 'no' THEN false WHEN 'yes' THEN true"));
        assert!(rule.contains("coalesce(t['leisure'] NOT IN ('no', 'track', 'slipway'), false)"));
        assert!(rule.contains("coalesce(t['railway'] IN ('platform'), false)"));
    }
}
