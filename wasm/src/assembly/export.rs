//! The answer as exported: GeoJSON Features (RFC 7946) and CSV rows (RFC 4180).

use super::*;

/// A match as a GeoJSON Feature (RFC 7946) for the export, with `shape` as its geometry and the
/// tags, `osm_type` and `osm_id` as properties.
pub fn feature(m: &Match, shape: &Shape) -> String {
    let geometry = shape.to_geojson();
    let mut props = serde_json::Map::new();
    for (k, v) in &m.tags {
        props.insert(k.clone(), v.clone().into());
    }
    props.insert("osm_type".into(), m.element.name().into());
    props.insert("osm_id".into(), m.id.into());
    let props = serde_json::Value::Object(props).to_string();
    format!("{{\"type\":\"Feature\",\"properties\":{props},\"geometry\":{geometry}}}")
}

/// The tag columns of a CSV export: distinct keys in order, and each key's column, so that a
/// row places its values in one pass over its own tags (a large answer has hundreds of keys).
#[derive(Debug, Default)]
pub struct CsvColumns {
    keys: Vec<String>,
    column: FxHashMap<String, usize>,
}

impl CsvColumns {
    /// Columns for `keys` (distinct, e.g. [`Assembler::tag_keys`]), in that order.
    pub fn new(keys: Vec<String>) -> CsvColumns {
        let column = keys.iter().enumerate().map(|(i, k)| (k.clone(), i)).collect();
        CsvColumns { keys, column }
    }
}

/// The CSV export's header (RFC 4180): `osm_type,osm_id,lat,lon,geometry` then one column per
/// tag key of `columns`.
pub fn csv_header(columns: &CsvColumns) -> String {
    let mut out = String::from("osm_type,osm_id,lat,lon,geometry");
    for k in &columns.keys {
        out.push(',');
        push_csv_field(&mut out, k);
    }
    out + "\r\n"
}

/// One CSV row for a match (see [`csv_header`]): a point on its geometry (degrees,
/// [`Shape::representative_point`]: inside an area, on a line), its geometry as WKT, and its
/// value for each tag column (empty when it has no such tag; the first when it repeats a key).
pub fn csv_row(m: &Match, shape: &Shape, columns: &CsvColumns) -> String {
    let [lat, lon] = shape.representative_point().map(|v| v as f64 * 1e-7);
    // The row's own few values by column (the first of a repeated key), the empty columns
    // between them written as runs of commas.
    let mut values: Vec<(usize, &str)> = m.tags.iter().filter_map(|(k, v)| Some((*columns.column.get(k.as_str())?, v.as_str()))).collect();
    values.sort_by_key(|&(i, _)| i);
    values.dedup_by_key(|&mut (i, _)| i);
    let mut out = format!("{},{},{lat:.7},{lon:.7},", m.element.name(), m.id);
    push_csv_field(&mut out, &shape.to_wkt());
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

/// Appends a CSV field (RFC 4180 §2): quoted, with quotes doubled, when it holds a comma, a
/// quote or a line break. Tag values are untrusted text; they stay text.
fn push_csv_field(out: &mut String, text: &str) {
    if text.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}
