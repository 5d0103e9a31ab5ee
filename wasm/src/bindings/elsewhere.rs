//! The query as another tool's program ([`crate::elsewhere`]), for the command line and the page's "Run elsewhere".

use wasm_bindgen::prelude::*;

use crate::query::language::Expr;

/// The `osmium tags-filter` expressions (`TYPES/KEY[=VALUE,…]`) answering query text `q` on a
/// whole file. Throws the syntax error, or the reason osmium's expressions cannot say it.
#[wasm_bindgen(js_name = osmiumTagsFilter)]
pub fn osmium_tags_filter(q: &str) -> Result<Vec<String>, JsError> {
    let expr = Expr::parse(q).map_err(|e| JsError::new(&e.to_string()))?;
    crate::elsewhere::osmium::osmium_tags_filter(&expr).map_err(|reason| JsError::new(&reason))
}

/// The DuckDB SQL program answering the query of `query_json` (the command line's JSON form:
/// `q`, `area`, `inside`) on `file` (`elsewhere::duckdb`). Throws the syntax or area error, or
/// the reason DuckDB cannot answer it the same way.
#[wasm_bindgen(js_name = duckdbSql)]
pub fn duckdb_sql(query_json: &str, file: &str) -> Result<String, JsError> {
    let query = crate::query::Query::from_json(query_json)?;
    crate::elsewhere::duckdb::duckdb_sql(&query, file).map_err(|reason| JsError::new(&reason))
}

/// The Spark SQL program over Apache Sedona's `osmpbf` reader answering the query of
/// `query_json` (as for [`duckdb_sql`]) on `file` (`elsewhere::sedona`). Throws the syntax or
/// area error, or the reason Spark cannot answer it the same way.
#[wasm_bindgen(js_name = sedonaSql)]
pub fn sedona_sql(query_json: &str, file: &str) -> Result<String, JsError> {
    let query = crate::query::Query::from_json(query_json)?;
    crate::elsewhere::sedona::sedona_sql(&query, file).map_err(|reason| JsError::new(&reason))
}

/// The Overpass QL program answering the query of `query_json` (as for [`duckdb_sql`]) on an
/// Overpass API server's data (`elsewhere::overpass`). Throws the syntax or area error, or the
/// reason Overpass cannot answer it the same way.
#[wasm_bindgen(js_name = overpassQl)]
pub fn overpass_ql(query_json: &str) -> Result<String, JsError> {
    let query = crate::query::Query::from_json(query_json)?;
    crate::elsewhere::overpass::overpass_ql(&query).map_err(|reason| JsError::new(&reason))
}
