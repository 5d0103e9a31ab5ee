//! A relation of the file as the query's area (`in=relation/ID`): before the query's own read,
//! the read plan answers `type:relation id:ID` over the whole file with the same passes (so the
//! relation's member ways and their nodes are found as for any match), and takes the
//! relation's multipolygon, assembled by [`super::geometry::assemble_multipolygon`], as a
//! polygon area ([`crate::query::polygon`]). A relation that is not in the file, is not a
//! multipolygon or boundary, or is broken ends the query with [`DecodeError::NoArea`]: nothing
//! more is read.

use super::geometry::{Line, Shape};
use super::Assembler;
use crate::element::ElementType;
use crate::error::DecodeError;
use crate::query::area::{Area, AreaTest};
use crate::query::language::Expr;
use crate::query::PreparedQuery;

/// A polygon area's parts, GeoJSON MultiPolygon coordinates in degrees.
pub type Parts = Vec<Vec<Vec<[f64; 2]>>>;

/// The query that finds relation `relation` for `query` (its moment and file kind): the
/// relation by its id over the whole file.
pub(crate) fn relation_query(relation: i64, query: &PreparedQuery) -> PreparedQuery {
    let expr = Expr::And(vec![Expr::Type(ElementType::Relation), Expr::Id(relation)]);
    let everywhere = Area::Everywhere.prepare().expect("the whole world is a valid area");
    PreparedQuery { expr, area: everywhere, inside: crate::query::Inside::Any, area_filter: None, from: None, ..query.clone() }
}

/// The outline of relation `relation` in `answer` (the answer of [`relation_query`]) as an
/// area ready for tests, with its parts.
///
/// Errors: [`DecodeError::NoArea`] saying why there is none.
pub(crate) fn outline(answer: &Assembler, relation: i64) -> Result<(AreaTest, Parts), DecodeError> {
    let parts = answer.relation_outline(relation).map_err(DecodeError::NoArea)?;
    Ok((Area::prepare_polygon(parts.clone(), true)?, parts))
}

/// Degrees of `[lat_e7, lon_e7]` rings as GeoJSON `[lon, lat]` rings.
fn degrees(rings: &[Line]) -> Vec<Vec<[f64; 2]>> {
    rings.iter().map(|ring| ring.iter().map(|&[lat, lon]| [lon as f64 * 1e-7, lat as f64 * 1e-7]).collect()).collect()
}

impl Assembler {
    /// The multipolygon of relation `id` of this answer as polygon parts (`[lon, lat]` degrees),
    /// or why it is no area, for the user.
    pub(crate) fn relation_outline(&self, id: i64) -> Result<Parts, String> {
        let Some(r) = self.relations.get(&id).filter(|r| r.is_match()) else {
            return Err(format!("relation {id} is not in the file"));
        };
        let tag = |key: &str| r.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let named = match tag("name") {
            Some(name) => format!("relation {id} ({name})"),
            None => format!("relation {id}"),
        };
        match tag("type") {
            Some("multipolygon" | "boundary") => {}
            Some(other) => return Err(format!("{named} is a type={other} relation: an area is a multipolygon or boundary relation")),
            None => return Err(format!("{named} has no type tag: an area is a multipolygon or boundary relation")),
        }
        if let Some(problem) = &r.problem {
            return Err(format!("{named} is a {problem}"));
        }
        match &r.shape {
            Some(Shape::Polygon(rings)) => Ok(vec![degrees(rings)]),
            Some(Shape::MultiPolygon(parts)) => Ok(parts.iter().map(|rings| degrees(rings)).collect()),
            _ => Err(format!("{named} has none of its member ways in the file")),
        }
    }
}
