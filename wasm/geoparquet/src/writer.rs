//! A GeoParquet 1.1 file (<https://geoparquet.org/releases/v1.1.0/>) written row group by row
//! group with arrow-rs's `parquet` crate, its bytes handed out as each group is done: an
//! answer of millions never sits whole in memory twice.
//!
//! Columns, in this order: `osm_type` (string), `osm_id` (int64), one string column per query
//! key ([`Columns::keys`]), `tags` (MAP<string, string>, every tag), `problem`, `change` (a change
//! view's), `version`, `timestamp` (UTC, ms), `changeset`, `uid`, `user` (when the file has
//! them), `geometry` (WKB, the primary geometry column) and `bbox` (struct of xmin, ymin, xmax,
//! ymax: the 1.1 bbox covering). CRS: none given, which GeoParquet reads as OGC:CRS84
//! (longitude, latitude, degrees WGS84).

use std::sync::Arc;

use parquet::basic::{Compression, LogicalType, Repetition, TimeUnit, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use parquet::schema::types::{ColumnPath, Type, TypePtr};
use serde_json::json;

use crate::rows::{Columns, Row};

/// A writer's error: the Parquet library's message.
pub type Result<T> = std::result::Result<T, String>;

/// One leaf column of the schema, in the file's order.
#[derive(Debug, Clone, Copy)]
enum Leaf {
    OsmType,
    OsmId,
    Key(usize),
    TagKey,
    TagValue,
    Problem,
    Change,
    Version,
    Timestamp,
    Changeset,
    Uid,
    User,
    Geometry,
    /// xmin, ymin, xmax, ymax.
    Bbox(usize),
}

/// WKB geometry type codes (ISO 19125, 1 Point … 7 GeometryCollection) by GeoParquet's names.
const GEOMETRY_TYPES: [&str; 8] = ["", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"];
const BBOX_FIELDS: [&str; 4] = ["xmin", "ymin", "xmax", "ymax"];

/// A GeoParquet file being written.
pub struct Writer {
    file: SerializedFileWriter<Vec<u8>>,
    leaves: Vec<Leaf>,
    /// Which WKB type codes the rows had, for the `geo` metadata's `geometry_types`.
    types: [bool; 8],
    /// The union of the rows' bboxes (degrees), for the `geo` metadata's `bbox`.
    bbox: Option<[f64; 4]>,
}

impl Writer {
    /// A file with `columns`, Snappy-compressed, statistics on every column but `geometry`
    /// (its min and max would be meaningless bytes; readers prune on `bbox`).
    /// # Errors
    /// When a column name is refused by the Parquet library.
    pub fn new(columns: &Columns) -> Result<Writer> {
        let (schema, leaves) = schema(columns)?;
        let geometry = ColumnPath::from("geometry");
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_column_statistics_enabled(geometry.clone(), EnabledStatistics::None)
            .set_column_dictionary_enabled(geometry, false)
            .build();
        let mut file = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props)).map_err(|e| e.to_string())?;
        file.append_key_value_metadata(KeyValue::new("pbf_explorer".into(), columns.metadata.clone()));
        Ok(Writer { file, leaves, types: [false; 8], bbox: None })
    }

    /// Writes `rows` as one row group; returns the file's bytes written since the last call
    /// (the first time, the file's start).
    /// # Errors
    /// A row whose `keys` do not match the columns, or the Parquet library's error.
    pub fn write_row_group(&mut self, rows: &[Row]) -> Result<Vec<u8>> {
        for row in rows {
            self.note_geometry(row);
        }
        let mut group = self.file.next_row_group().map_err(|e| e.to_string())?;
        let mut leaves = self.leaves.iter();
        while let Some(mut column) = group.next_column().map_err(|e| e.to_string())? {
            let leaf = *leaves.next().ok_or("GeoParquet: more columns than the schema's leaves")?;
            write_leaf(&mut column, leaf, rows)?;
            column.close().map_err(|e| e.to_string())?;
        }
        group.close().map_err(|e| e.to_string())?;
        self.drain()
    }

    /// Ends the file: the footer, with the `geo` metadata (version 1.1.0, primary column
    /// `geometry`, encoding WKB, the geometry types and bbox seen, the `bbox` covering);
    /// returns its last bytes.
    /// # Errors
    /// The Parquet library's error.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        let types: Vec<&str> = (1..8).filter(|&t| self.types[t]).map(|t| GEOMETRY_TYPES[t]).collect();
        let mut column = json!({
            "encoding": "WKB",
            "geometry_types": types,
            "orientation": "counterclockwise",
            "covering": { "bbox": {
                "xmin": ["bbox", "xmin"], "ymin": ["bbox", "ymin"], "xmax": ["bbox", "xmax"], "ymax": ["bbox", "ymax"],
            } },
        });
        if let Some(bbox) = self.bbox {
            column["bbox"] = json!(bbox);
        }
        let geo = json!({ "version": "1.1.0", "primary_column": "geometry", "columns": { "geometry": column } });
        self.file.append_key_value_metadata(KeyValue::new("geo".into(), geo.to_string()));
        self.file.finish().map_err(|e| e.to_string())?;
        self.drain()
    }

    fn note_geometry(&mut self, row: &Row) {
        if let Some(code) = row.geometry.as_deref().and_then(|wkb| wkb.get(1..5)) {
            let code = u32::from_le_bytes(code.try_into().unwrap_or_default()) as usize;
            if code < 8 {
                self.types[code] = true;
            }
        }
        if let Some([x0, y0, x1, y1]) = row.bbox {
            let b = self.bbox.get_or_insert([x0, y0, x1, y1]);
            *b = [b[0].min(x0), b[1].min(y0), b[2].max(x1), b[3].max(y1)];
        }
    }

    /// The bytes written so far that were not handed out yet.
    fn drain(&mut self) -> Result<Vec<u8>> {
        self.file.flush().map_err(|e| e.to_string())?;
        // The file counts its own offsets: taking the bytes out of the Vec does not move them.
        Ok(std::mem::take(self.file.inner_mut()))
    }
}

/// The schema of `columns` and its leaves in order.
fn schema(columns: &Columns) -> Result<(TypePtr, Vec<Leaf>)> {
    let err = |e: parquet::errors::ParquetError| e.to_string();
    let primitive = |name: &str, kind: PhysicalType, repetition: Repetition, logical: Option<LogicalType>| {
        Type::primitive_type_builder(name, kind).with_repetition(repetition).with_logical_type(logical).build().map(Arc::new).map_err(err)
    };
    let string = |name: &str, repetition| primitive(name, PhysicalType::BYTE_ARRAY, repetition, Some(LogicalType::String));
    let mut fields = vec![string("osm_type", Repetition::REQUIRED)?, primitive("osm_id", PhysicalType::INT64, Repetition::REQUIRED, None)?];
    let mut leaves = vec![Leaf::OsmType, Leaf::OsmId];
    for (i, key) in columns.keys.iter().enumerate() {
        fields.push(string(key, Repetition::OPTIONAL)?);
        leaves.push(Leaf::Key(i));
    }
    // The MAP layout of the Parquet spec (LogicalTypes.md, "Maps").
    let key_value = Type::group_type_builder("key_value")
        .with_repetition(Repetition::REPEATED)
        .with_fields(vec![string("key", Repetition::REQUIRED)?, string("value", Repetition::OPTIONAL)?])
        .build()
        .map_err(err)?;
    let tags = Type::group_type_builder("tags").with_repetition(Repetition::REQUIRED).with_logical_type(Some(LogicalType::Map)).with_fields(vec![Arc::new(key_value)]).build().map_err(err)?;
    fields.extend([Arc::new(tags), string("problem", Repetition::OPTIONAL)?]);
    leaves.extend([Leaf::TagKey, Leaf::TagValue, Leaf::Problem]);
    if columns.change {
        fields.push(string("change", Repetition::OPTIONAL)?);
        leaves.push(Leaf::Change);
    }
    if columns.meta {
        let millis = LogicalType::Timestamp { is_adjusted_to_u_t_c: true, unit: TimeUnit::MILLIS };
        fields.extend([
            primitive("version", PhysicalType::INT32, Repetition::OPTIONAL, None)?,
            primitive("timestamp", PhysicalType::INT64, Repetition::OPTIONAL, Some(millis))?,
            primitive("changeset", PhysicalType::INT64, Repetition::OPTIONAL, None)?,
            primitive("uid", PhysicalType::INT32, Repetition::OPTIONAL, None)?,
            string("user", Repetition::OPTIONAL)?,
        ]);
        leaves.extend([Leaf::Version, Leaf::Timestamp, Leaf::Changeset, Leaf::Uid, Leaf::User]);
    }
    fields.push(primitive("geometry", PhysicalType::BYTE_ARRAY, Repetition::OPTIONAL, None)?);
    leaves.push(Leaf::Geometry);
    let bbox_fields = BBOX_FIELDS.iter().map(|f| primitive(f, PhysicalType::DOUBLE, Repetition::REQUIRED, None)).collect::<Result<Vec<_>>>()?;
    fields.push(Arc::new(Type::group_type_builder("bbox").with_repetition(Repetition::OPTIONAL).with_fields(bbox_fields).build().map_err(err)?));
    leaves.extend((0..4).map(Leaf::Bbox));
    let schema = Type::group_type_builder("schema").with_fields(fields).build().map_err(err)?;
    Ok((Arc::new(schema), leaves))
}

/// The values of an optional column and its definition levels (1 present, 0 null).
fn optional<T>(values: impl Iterator<Item = Option<T>>) -> (Vec<T>, Vec<i16>) {
    let (mut present, mut levels) = (Vec::new(), Vec::new());
    for v in values {
        levels.push(v.is_some() as i16);
        present.extend(v);
    }
    (present, levels)
}

fn text(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

/// Writes `leaf`'s values of `rows` into `column`.
fn write_leaf(column: &mut SerializedColumnWriter<'_>, leaf: Leaf, rows: &[Row]) -> Result<()> {
    let strings = |column: &mut SerializedColumnWriter<'_>, get: &dyn Fn(&Row) -> Option<&str>| {
        let (values, defs) = optional(rows.iter().map(|r| get(r).map(text)));
        column.typed::<ByteArrayType>().write_batch(&values, Some(&defs), None)
    };
    let meta = |get: fn(&crate::rows::RowMeta) -> i64| optional(rows.iter().map(|r| r.meta.as_ref().map(get)));
    let written = match leaf {
        Leaf::OsmType => column.typed::<ByteArrayType>().write_batch(&rows.iter().map(|r| text(&r.osm_type)).collect::<Vec<_>>(), None, None),
        Leaf::OsmId => column.typed::<Int64Type>().write_batch(&rows.iter().map(|r| r.osm_id).collect::<Vec<_>>(), None, None),
        Leaf::Key(i) => {
            if rows.iter().any(|r| r.keys.len() <= i) {
                return Err("GeoParquet: a row has fewer key values than the columns".into());
            }
            strings(column, &|r| r.keys[i].as_deref())
        }
        Leaf::TagKey | Leaf::TagValue => {
            // Repetition level 0 starts a row, 1 continues its map; definition level 0 is an
            // empty map, 1 a key (required), 2 a value (optional, always there).
            let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
            for row in rows {
                if row.tags.is_empty() {
                    defs.push(0);
                    reps.push(0);
                }
                for (i, (k, v)) in row.tags.iter().enumerate() {
                    values.push(text(if matches!(leaf, Leaf::TagKey) { k } else { v }));
                    defs.push(if matches!(leaf, Leaf::TagKey) { 1 } else { 2 });
                    reps.push((i > 0) as i16);
                }
            }
            column.typed::<ByteArrayType>().write_batch(&values, Some(&defs), Some(&reps))
        }
        Leaf::Problem => strings(column, &|r| r.problem.as_deref()),
        Leaf::Change => strings(column, &|r| r.change.as_deref()),
        Leaf::User => strings(column, &|r| r.meta.as_ref().map(|m| m.user.as_str())),
        Leaf::Version | Leaf::Uid => {
            let (values, defs) = meta(if matches!(leaf, Leaf::Version) { |m| m.version as i64 } else { |m| m.uid as i64 });
            column.typed::<Int32Type>().write_batch(&values.into_iter().map(|v| v as i32).collect::<Vec<_>>(), Some(&defs), None)
        }
        Leaf::Timestamp | Leaf::Changeset => {
            let (values, defs) = meta(if matches!(leaf, Leaf::Timestamp) { |m| m.timestamp * 1000 } else { |m| m.changeset });
            column.typed::<Int64Type>().write_batch(&values, Some(&defs), None)
        }
        Leaf::Geometry => {
            let (values, defs) = optional(rows.iter().map(|r| r.geometry.clone().map(ByteArray::from)));
            column.typed::<ByteArrayType>().write_batch(&values, Some(&defs), None)
        }
        Leaf::Bbox(i) => {
            let (values, defs) = optional(rows.iter().map(|r| r.bbox.map(|b| b[i])));
            column.typed::<DoubleType>().write_batch(&values, Some(&defs), None)
        }
    };
    written.map(drop).map_err(|e| e.to_string())
}
