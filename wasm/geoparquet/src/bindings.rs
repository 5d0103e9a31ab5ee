//! The writer as the page's query worker and the command line call it.

use wasm_bindgen::prelude::*;

use crate::rows::{decode, Columns, Row};
use crate::writer::Writer;

/// A GeoParquet export under way: `new GeoParquetWriter(columns)`, then `writeRowGroup` per
/// piece of rows, then `finish`; each returns the file's next bytes, to append in order.
#[wasm_bindgen]
pub struct GeoParquetWriter {
    writer: Option<Writer>,
}

#[wasm_bindgen]
impl GeoParquetWriter {
    /// A file whose columns are `columns` (`QueryAssembler.exportParquetColumns`).
    /// @throws Error when the bytes are not columns, or a column name is refused.
    #[wasm_bindgen(constructor)]
    pub fn new(columns: &[u8]) -> Result<GeoParquetWriter, JsError> {
        let columns: Columns = decode(columns).map_err(|e| JsError::new(&e))?;
        Ok(GeoParquetWriter { writer: Some(Writer::new(&columns).map_err(|e| JsError::new(&e))?) })
    }

    /// Writes a piece of rows (`QueryAssembler.exportParquetRows`) as one row group.
    /// @throws Error when the bytes are not rows of these columns, or after `finish`.
    #[wasm_bindgen(js_name = writeRowGroup)]
    pub fn write_row_group(&mut self, rows: &[u8]) -> Result<Vec<u8>, JsError> {
        let rows: Vec<Row> = decode(rows).map_err(|e| JsError::new(&e))?;
        self.writer.as_mut().ok_or_else(|| JsError::new("GeoParquet: the file is finished"))?.write_row_group(&rows).map_err(|e| JsError::new(&e))
    }

    /// Ends the file (its footer and `geo` metadata).
    /// @throws Error when called twice.
    pub fn finish(&mut self) -> Result<Vec<u8>, JsError> {
        self.writer.take().ok_or_else(|| JsError::new("GeoParquet: the file is finished"))?.finish().map_err(|e| JsError::new(&e))
    }
}
