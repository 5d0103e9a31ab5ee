//! The answer's rows for a GeoParquet export. The writer is a Wasm module of its own
//! (`pbf_explorer_geoparquet`, loaded only for this export): these calls hand it the columns,
//! then the rows a piece at a time, as postcard bytes.

use wasm_bindgen::prelude::*;

use pbf_explorer_geoparquet::rows::encode;

use super::{exported, QueryAssembler};
use crate::assembly::{parquet_columns, parquet_row};

/// How many of the list's first rows are asked whether the file has element metadata.
const META_PROBE: usize = 100;

#[wasm_bindgen]
impl QueryAssembler {
    /// Starts a GeoParquet export: its columns (`parquet_columns`: the query's keys, `change`
    /// in a change view, the metadata columns when the list's first rows have element metadata), with
    /// `metadata` (JSON of the file and query) for the file's key-value metadata. For
    /// `new GeoParquetWriter(columns)`.
    #[wasm_bindgen(js_name = exportParquetColumns)]
    pub fn export_parquet_columns(&mut self, metadata: String) -> Vec<u8> {
        let change = self.plan.query().from.is_some();
        // A file has element metadata throughout or not at all (writers write it for all or none).
        let answer = self.plan.answer_mut();
        let meta = answer.row_keys(0, META_PROBE).into_iter().any(|(t, id)| answer.get(t, id).is_some_and(|m| m.meta.is_some()));
        encode(&parquet_columns(&self.query_keys, change, meta, metadata))
    }

    /// Matches from `start` of the list as GeoParquet rows (`parquet_row`, with the full
    /// geometry as `exportCsvRows`), for `GeoParquetWriter.writeRowGroup`; at most `count`,
    /// bounded by `max_bytes` of WKB and tags as [`QueryAssembler::export_rows`]
    /// ([`QueryAssembler::exported_count`] says how many).
    #[wasm_bindgen(js_name = exportParquetRows)]
    pub fn export_parquet_rows(&mut self, start: u32, count: u32, max_bytes: u32) -> Vec<u8> {
        let keys = &self.query_keys;
        let size = |row: &pbf_explorer_geoparquet::rows::Row| row.geometry.as_ref().map_or(0, Vec::len) + row.tags.iter().map(|(k, v)| k.len() + v.len()).sum::<usize>();
        let (rows, n) = exported(self.plan.answer_mut(), start, count, max_bytes, |m, shape| parquet_row(m, shape, keys), size);
        self.exported = n;
        encode(&rows)
    }
}
