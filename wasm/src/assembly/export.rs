//! The answer as exported: GeoJSON Features (RFC 7946), CSV rows (RFC 4180) and GeoParquet rows
//! (handed to the writer's own module, `pbf_explorer_geoparquet`). Tag keys and values are
//! untrusted text: a tag never takes the place of an element's own field ([`export_key`],
//! [`parquet_column`]), and a CSV cell never reads as a spreadsheet formula ([`push_csv_field`]).

use std::borrow::Cow;

use pbf_explorer_geoparquet::rows::{Columns, Row, RowMeta};

use super::*;

/// An exported match's own fields, in every format (`problem`: why it has no geometry, or a
/// broken one, see [`Match::problem`]; `change`: its class in a change view, see [`Change`]).
const OWN_FIELDS: [&str; 7] = ["osm_type", "osm_id", "lat", "lon", "geometry", "problem", "change"];
/// The CSV columns of the own fields every export has (`change` only in a change view).
const CSV_OWN_FIELDS: usize = 6;
/// What keeps a tag key apart from an exported match's own fields.
const TAG_PREFIX: &str = "tag:";

/// A GeoParquet export's own columns (`pbf_explorer_geoparquet::writer`).
const PARQUET_OWN_COLUMNS: [&str; 12] = ["osm_type", "osm_id", "tags", "problem", "change", "version", "timestamp", "changeset", "uid", "user", "geometry", "bbox"];

/// The name tag `key` is exported under in GeoJSON and CSV: `tag:` + `key` when `key`, stripped
/// of any leading `tag:`, is one of an exported match's own fields (`osm_type`, `osm_id`, `lat`,
/// `lon`, `geometry`, `problem`, `change`), else `key`. One to one: every tag is kept, none takes
/// an own field's name.
pub fn export_key(key: &str) -> Cow<'_, str> {
    unless_own(key, &OWN_FIELDS)
}

/// The name of a query key's column in a GeoParquet export: as [`export_key`], with that
/// format's own columns (`osm_type`, `osm_id`, `tags`, `problem`, `change`, `version`,
/// `timestamp`, `changeset`, `uid`, `user`, `geometry`, `bbox`).
pub fn parquet_column(key: &str) -> Cow<'_, str> {
    unless_own(key, &PARQUET_OWN_COLUMNS)
}

/// `key`, or `tag:` + `key` when `key` without its leading `tag:`s is one of `own`.
fn unless_own<'a>(key: &'a str, own: &[&str]) -> Cow<'a, str> {
    let mut base = key;
    while let Some(rest) = base.strip_prefix(TAG_PREFIX) {
        base = rest;
    }
    if own.contains(&base) {
        Cow::Owned(format!("{TAG_PREFIX}{key}"))
    } else {
        Cow::Borrowed(key)
    }
}

/// A match as a GeoJSON Feature (RFC 7946) for the export, with `shape` as its geometry (null
/// when it has none, RFC 7946 §3.2) and `osm_type`, `osm_id`, `problem` and `change` when it has them, and
/// the tags (named by [`export_key`]; a repeated key keeps its first value) as properties.
pub fn feature(m: &Match, shape: Option<&Shape>) -> String {
    let geometry = shape.map_or_else(|| "null".to_string(), Shape::to_geojson);
    let mut props = serde_json::Map::new();
    props.insert("osm_type".into(), m.element.name().into());
    props.insert("osm_id".into(), m.id.into());
    if let Some(problem) = &m.problem {
        props.insert("problem".into(), problem.clone().into());
    }
    if let Some(change) = m.change {
        props.insert("change".into(), change.name().into());
    }
    for (k, v) in &m.tags {
        props.entry(export_key(k).into_owned()).or_insert_with(|| v.clone().into());
    }
    let props = serde_json::Value::Object(props).to_string();
    format!("{{\"type\":\"Feature\",\"properties\":{props},\"geometry\":{geometry}}}")
}

/// A GeoParquet export's columns: one per query key in `keys` (named by [`parquet_column`]),
/// a `change` column in a change view, the metadata columns when the file carries metadata
/// (`meta`), and `metadata` (JSON of the file and query) for the file's key-value metadata.
pub fn parquet_columns(keys: &[String], change: bool, meta: bool, metadata: String) -> Columns {
    Columns { keys: keys.iter().map(|k| parquet_column(k).into_owned()).collect(), change, meta, metadata }
}

/// A match as a GeoParquet row (see [`parquet_columns`]): its type, id, every tag, its value
/// of each query key in `keys` (the first of a repeated key), problem, change class, metadata,
/// and `shape` as WKB with its bbox (none when it has no shape).
pub fn parquet_row(m: &Match, shape: Option<&Shape>, keys: &[String]) -> Row {
    let value = |key: &String| m.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    Row {
        osm_type: m.element.name().into(),
        osm_id: m.id,
        tags: m.tags.clone(),
        keys: keys.iter().map(value).collect(),
        problem: m.problem.clone(),
        change: m.change.map(|c| c.name().into()),
        meta: m.meta.as_ref().map(|i| RowMeta { version: i.version, timestamp: i.timestamp, changeset: i.changeset, uid: i.uid, user: i.user.clone() }),
        geometry: shape.map(Shape::to_wkb),
        bbox: shape.map(Shape::bbox),
    }
}

/// The tag columns of a CSV export: distinct keys in order, and each key's column, so that a
/// row places its values in one pass over its own tags (a large answer has hundreds of keys).
#[derive(Debug, Default)]
pub struct CsvColumns {
    keys: Vec<String>,
    /// A change view's: a `change` column after `problem`.
    change: bool,
    column: FxHashMap<String, usize>,
}

impl CsvColumns {
    /// Columns for `keys` (distinct, e.g. [`Assembler::tag_keys`]), in that order.
    pub fn new(keys: Vec<String>) -> CsvColumns {
        let column = keys.iter().enumerate().map(|(i, k)| (k.clone(), i)).collect();
        CsvColumns { keys, column, change: false }
    }

    /// With a `change` column after `problem` (a change view's export).
    pub fn with_change(self, change: bool) -> CsvColumns {
        CsvColumns { change, ..self }
    }
}

/// The CSV export's header (RFC 4180): `osm_type,osm_id,lat,lon,geometry,problem`, `change` in a
/// change view, then one column per tag key of `columns`, named by [`export_key`].
pub fn csv_header(columns: &CsvColumns) -> String {
    let mut out = OWN_FIELDS[..CSV_OWN_FIELDS + columns.change as usize].join(",");
    for k in &columns.keys {
        out.push(',');
        push_csv_field(&mut out, &export_key(k));
    }
    out + "\r\n"
}

/// One CSV row for a match (see [`csv_header`]): a point on `shape` (degrees,
/// [`Shape::representative_point`]: inside an area, on a line), `shape` as WKT (all three
/// empty, read as null, when it has none), its problem, its change class when the columns have
/// one, and its value for each tag column
/// (empty when it has no such tag; the first when it repeats a key).
pub fn csv_row(m: &Match, shape: Option<&Shape>, columns: &CsvColumns) -> String {
    // The row's own few values by column (the first of a repeated key), the empty columns
    // between them written as runs of commas.
    let mut values: Vec<(usize, &str)> = m.tags.iter().filter_map(|(k, v)| Some((*columns.column.get(k.as_str())?, v.as_str()))).collect();
    values.sort_by_key(|&(i, _)| i);
    values.dedup_by_key(|&mut (i, _)| i);
    let mut out = format!("{},{},", m.element.name(), m.id);
    if let Some(shape) = shape {
        let [lat, lon] = shape.representative_point().map(|v| v as f64 * 1e-7);
        out.push_str(&format!("{lat:.7},{lon:.7},"));
        push_csv_field(&mut out, &shape.to_wkt());
    } else {
        out.push_str(",,");
    }
    out.push(',');
    push_csv_field(&mut out, m.problem.as_deref().unwrap_or_default());
    if columns.change {
        out.push(',');
        out.push_str(m.change.map_or("", Change::name));
    }
    let mut done = 0; // columns whose comma is written
    for (i, value) in values {
        push_commas(&mut out, i + 1 - done);
        push_csv_field(&mut out, value);
        done = i + 1;
    }
    push_commas(&mut out, columns.keys.len() - done);
    out + "\r\n"
}

/// Appends `n` commas.
fn push_commas(out: &mut String, mut n: usize) {
    const COMMAS: &str = ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,";
    while n > 0 {
        let k = n.min(COMMAS.len());
        out.push_str(&COMMAS[..k]);
        n -= k;
    }
}

/// Whether a cell starting so would be read as a formula by a spreadsheet (OWASP, "CSV
/// Injection"; CWE-1236): `=`, `+`, `-`, `@`, their full-width forms, a tab, a line break or NUL.
fn formula_start(c: char) -> bool {
    matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r' | '\n' | '\0' | '\u{FF1D}' | '\u{FF0B}' | '\u{FF0D}' | '\u{FF20}')
}

/// Whether `text` is a plain decimal number (`-1`, `+2`, `-3.5`, `1e-3`): a spreadsheet reads it
/// as that number, not a formula, so it stays as it is.
fn is_number(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = digits.split_once(['e', 'E']).unwrap_or((digits, "0"));
    let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !(whole.is_empty() && fraction.is_empty()) && all_digits(whole) && all_digits(fraction) && !exponent.is_empty() && all_digits(exponent)
}

/// Appends a CSV field (RFC 4180 §2): quoted, with quotes doubled, when it holds a comma, a
/// quote or a line break. Tag keys and values are untrusted text, and stay text: one a
/// spreadsheet would read as a formula ([`formula_start`], unless [`is_number`]) gets a `'` in
/// front, and quotes, as OWASP recommends.
fn push_csv_field(out: &mut String, text: &str) {
    if text.starts_with(formula_start) && !is_number(text) {
        out.push_str("\"'");
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else if text.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}
