//! The query as an Overpass QL program (OSM wiki "Overpass API/Overpass QL"), answered by an
//! Overpass API server on its own OpenStreetMap data: the query language as tag filters (an
//! `or` of `and`s, `not` pushed down to the tags), the circle as `around`, the bbox as a
//! bounding box, ways and relations placed by their nodes (`bn`, `bw` recursions, as
//! `docs/query-language.md` places them). Anything Overpass cannot say the same way is refused.

use super::regex;
use super::sql::{area_words, one_line};
use crate::element::ElementType;
use crate::query::area::Area;
use crate::query::language::{Expr, KeyPattern, ValueTest};
use crate::query::{Inside, Query};

/// The most `and` terms the query may become once its `or`s are taken outward.
const MAX_TERMS: usize = 64;

/// One tag test, maybe negated, or a type or id test: a conjunction's part.
#[derive(Clone)]
enum Literal<'a> {
    Tag(&'a KeyPattern, &'a ValueTest, bool),
    Type(ElementType, bool),
    Id(i64),
}

/// The Overpass QL program answering `query` on the server's data, ending with `out geom;`
/// (tags, and each way's and relation's member geometry as node coordinates: Overpass builds
/// no polygons). Without an area it asks the whole planet.
///
/// Errors: a sentence naming what Overpass cannot say the same way: a polygon or relation area
/// (`poly` takes one ring and a server-made area is not our outline), `inside=all`, a history
/// moment, `not` of `id:` or of a `prefix:*` key, an element type alone over the whole planet,
/// a regular expression POSIX reads otherwise, more than [`MAX_TERMS`] terms.
pub fn overpass_ql(query: &Query) -> Result<String, String> {
    if query.at.is_some() || query.from.is_some() {
        return Err("it answers on its server's current data: ask a moment of history with its [date:] setting yourself".into());
    }
    if query.inside == Inside::All {
        return Err("it has no test of a way or relation wholly inside an area (inside=all)".into());
    }
    let located = match &query.area {
        Area::Everywhere => None,
        Area::Circle { lat, lon, radius } => Some(format!("node(around:{radius},{lat},{lon})")),
        Area::Bbox { min_lon, min_lat, max_lon, max_lat } => Some(format!("node({min_lat},{min_lon},{max_lat},{max_lon})")),
        Area::Polygon(_) | Area::Relation(_) => return Err("its poly filter takes one ring without holes and its areas are made by the server: use a circle or a bbox".into()),
    };
    let terms = dnf(&query.expr, false)?;
    // Sets are made before the union: a union takes every statement's result, named or not.
    let mut sets = String::new();
    if let Some(nodes) = &located {
        sets.push_str(&format!("{nodes}->.located;\nway(bn.located)->.located_ways;\n"));
    }
    let mut union = String::new();
    for (n, term) in terms.iter().enumerate() {
        let (term_sets, queries) = statements(term, n, located.is_some())?;
        sets.push_str(&term_sets);
        union.push_str(&queries);
    }
    let body = format!("{sets}(\n{union});\nout geom;\n");
    let circle = if matches!(query.area, Area::Circle { .. }) { "\n// Overpass measures the circle on its own sphere: a node within centimetres of its edge may differ." } else { "" };
    Ok(format!(
        "// pbf-explorer: {}{}, as Overpass QL.
// Answered by an Overpass API server on its OpenStreetMap data of today ({}), not on a file.
// `out geom` gives each match's tags, and ways and relations as their nodes' coordinates.{circle}
[out:json][timeout:600];
{body}",
        one_line(&query.text),
        area_words(query),
        if located.is_some() { "in the area" } else { "the whole planet" },
    ))
}

/// `expr` (negated when `negated`) as an `or` of `and`s of literals.
fn dnf(expr: &Expr, negated: bool) -> Result<Vec<Vec<Literal<'_>>>, String> {
    Ok(match (expr, negated) {
        (Expr::And(parts), false) | (Expr::Or(parts), true) => all_of(parts, negated)?,
        (Expr::Or(parts), false) | (Expr::And(parts), true) => parts.iter().map(|p| dnf(p, negated)).collect::<Result<Vec<_>, _>>()?.concat(),
        (Expr::Not(inner), _) => dnf(inner, !negated)?,
        (Expr::Tag { key, value }, _) => vec![vec![Literal::Tag(key, value, negated)]],
        (Expr::Type(t), _) => vec![vec![Literal::Type(*t, negated)]],
        (Expr::Id(id), false) => vec![vec![Literal::Id(*id)]],
        (Expr::Id(_), true) => return Err("it has no filter for \"not id:\"".into()),
    })
}

/// The `and` of `parts` (each negated when `negated`) as an `or` of `and`s: every choice of one
/// term from each part.
fn all_of(parts: &[Expr], negated: bool) -> Result<Vec<Vec<Literal<'_>>>, String> {
    let mut out = vec![vec![]];
    for p in parts {
        let next = dnf(p, negated)?;
        out = out.iter().flat_map(|a| next.iter().map(move |b| [a.clone(), b.clone()].concat())).collect();
        if out.len() > MAX_TERMS {
            return Err(format!("the query makes more than {MAX_TERMS} terms once its \"or\"s are taken outward"));
        }
    }
    Ok(out)
}

/// The statements of the `and` term number `n`: the sets it needs first (`rN…`), and a query
/// per element type it allows, for the union.
fn statements(term: &[Literal], n: usize, in_area: bool) -> Result<(String, String), String> {
    let mut types = [true; 3];
    let mut filters = String::new();
    let mut ids = Vec::new();
    for literal in term {
        match literal {
            Literal::Type(t, negated) => {
                for (i, kind) in [ElementType::Node, ElementType::Way, ElementType::Relation].iter().enumerate() {
                    types[i] &= (kind == t) != *negated;
                }
            }
            Literal::Id(id) => ids.push(*id),
            Literal::Tag(key, value, negated) => filters.push_str(&tag_filter(key, value, *negated)?),
        }
    }
    ids.dedup();
    if ids.len() > 1 {
        return Ok((String::new(), String::new())); // one element has one id: nothing matches
    }
    filters.push_str(&ids.first().map(|id| format!("(id:{id})")).unwrap_or_default());
    if filters.is_empty() && !in_area && types.iter().any(|t| *t) {
        return Err("it would list every element of its type in the whole planet: give a tag or an area".into());
    }
    let (mut sets, mut out) = (String::new(), String::new());
    if types[0] {
        out.push_str(&format!("  node{}{filters};\n", if in_area { ".located" } else { "" }));
    }
    if types[1] {
        out.push_str(&format!("  way{}{filters};\n", if in_area { ".located_ways" } else { "" }));
    }
    if types[2] {
        // Placed by its member nodes and its member ways' nodes; with no area, it needs a node
        // or way member (a relation of relations alone is never matched).
        let (nodes, ways) = if in_area {
            ("located".to_string(), "located_ways".to_string())
        } else {
            sets.push_str(&format!("rel{filters}->.r{n};\nnode(r.r{n})->.r{n}_nodes;\nway(r.r{n})->.r{n}_ways;\n"));
            (format!("r{n}_nodes"), format!("r{n}_ways"))
        };
        out.push_str(&format!("  rel(bn.{nodes}){filters};\n  rel(bw.{ways}){filters};\n"));
    }
    Ok((sets, out))
}

/// One tag test as an Overpass filter (`["k"="v"]`, `[!"k"]`, `[~"^prefix"~"…"]`, …); with no
/// key, `!=` and `!~` also match (as our `not` does).
fn tag_filter(key: &KeyPattern, value: &ValueTest, negated: bool) -> Result<String, String> {
    let not = if negated { "!" } else { "" };
    let regex = |pattern: &str| -> Result<String, String> {
        let (posix, icase) = regex::posix(pattern)?;
        Ok(format!("{}{}", quoted(&posix)?, if icase { ",i" } else { "" }))
    };
    match key {
        KeyPattern::Exact(k) => {
            let k = quoted(k)?;
            Ok(match value {
                ValueTest::Any => format!("[{not}{k}]"),
                ValueTest::Equals(v) => format!("[{k}{not}={}]", quoted(v)?),
                ValueTest::Regex(r) => format!("[{k}{not}~{}]", regex(r.as_str())?),
            })
        }
        KeyPattern::Prefix(_) if negated => Err("it has no negated filter for a key by its prefix (not prefix:*)".into()),
        KeyPattern::Prefix(p) => {
            let value = match value {
                ValueTest::Any => quoted("^")?,
                ValueTest::Equals(v) => quoted(&format!("^{}$", escaped(v)))?,
                ValueTest::Regex(r) => regex(r.as_str())?,
            };
            Ok(format!("[~{}~{value}]", quoted(&format!("^{}", escaped(p)))?))
        }
    }
}

/// `text` as a literal POSIX regular expression (its special characters escaped).
fn escaped(text: &str) -> String {
    text.chars().flat_map(|c| if ".[]{}()\\*+?|^$".contains(c) { vec!['\\', c] } else { vec![c] }).collect()
}

/// `text` as an Overpass QL string: double-quoted, `\` `"` and line breaks escaped.
///
/// Errors: another control character, which its strings cannot hold the same way.
fn quoted(text: &str) -> Result<String, String> {
    if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err("its strings cannot hold a control character".into());
    }
    Ok(format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n").replace('\t', "\\t")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ql(q: &str, area: Area) -> Result<String, String> {
        overpass_ql(&Query::from_tags(q, area).unwrap())
    }

    #[test]
    fn an_area_places_ways_and_relations_by_their_nodes() {
        let text = ql("amenity=cafe", Area::Circle { lat: 35.9, lon: 14.5, radius: 500.0 }).unwrap();
        assert!(text.contains("node(around:500,35.9,14.5)->.located;\nway(bn.located)->.located_ways;\n("));
        assert!(text.contains("  node.located[\"amenity\"=\"cafe\"];\n  way.located_ways[\"amenity\"=\"cafe\"];\n  rel(bn.located)[\"amenity\"=\"cafe\"];\n  rel(bw.located_ways)[\"amenity\"=\"cafe\"];\n"));
        assert!(text.ends_with(");\nout geom;\n"));
    }

    #[test]
    fn not_is_pushed_to_the_tags_and_or_becomes_a_union() {
        let text = ql("type:node ((shop and not shop=supermarket) or name~/^star/i)", Area::Bbox { min_lon: 1.0, min_lat: 2.0, max_lon: 3.0, max_lat: 4.0 }).unwrap();
        assert!(text.contains("node(2,1,4,3)->.located;"), "{text}");
        assert!(text.contains("  node.located[\"shop\"][\"shop\"!=\"supermarket\"];\n  node.located[\"name\"~\"^star\",i];\n"), "{text}");
        assert!(!text.contains("way.located_ways"));
        let prefix = ql("addr:*=\"1.5\" and not name", Area::Everywhere).unwrap();
        assert!(prefix.contains("  node[~\"^addr:\"~\"^1\\\\.5$\"][!\"name\"];\n"), "{prefix}");
        assert!(prefix.contains("rel[~\"^addr:\"~\"^1\\\\.5$\"][!\"name\"]->.r0;\nnode(r.r0)->.r0_nodes;\nway(r.r0)->.r0_ways;\n(\n"), "{prefix}");
        assert!(prefix.contains("  rel(bn.r0_nodes)[~"), "{prefix}");
    }

    #[test]
    fn tag_text_is_an_overpass_string_never_syntax() {
        let text = ql("name=\"a\\\"]; out; [x=\\\\\"", Area::Everywhere).unwrap();
        assert!(text.contains("[\"name\"=\"a\\\"]; out; [x=\\\\\"]"), "{text}");
    }

    #[test]
    fn what_overpass_cannot_say_is_refused() {
        assert!(ql("amenity", Area::Relation(7)).is_err());
        assert!(ql("not id:5", Area::Everywhere).unwrap_err().contains("not id:"));
        assert!(ql("type:way", Area::Everywhere).unwrap_err().contains("whole planet"));
        assert!(ql("name~\"\\d\"", Area::Everywhere).unwrap_err().contains("POSIX"));
        let mut all = Query::from_tags("amenity", Area::Everywhere).unwrap();
        all.inside = Inside::All;
        assert!(overpass_ql(&all).unwrap_err().contains("inside=all"));
    }
}
