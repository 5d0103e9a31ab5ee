//! The query as another tool's program ([`crate::query::elsewhere`]), for the command line.

use wasm_bindgen::prelude::*;

use crate::query::language::Expr;

/// The `osmium tags-filter` expressions (`TYPES/KEY[=VALUE,…]`) answering query text `q` on a
/// whole file. Throws the syntax error, or the reason osmium's expressions cannot say it.
#[wasm_bindgen(js_name = osmiumTagsFilter)]
pub fn osmium_tags_filter(q: &str) -> Result<Vec<String>, JsError> {
    let expr = Expr::parse(q).map_err(|e| JsError::new(&e.to_string()))?;
    crate::query::elsewhere::osmium_tags_filter(&expr).map_err(|reason| JsError::new(&reason))
}
