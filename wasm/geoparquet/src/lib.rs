//! pbf-explorer's GeoParquet export (GeoParquet 1.1, <https://geoparquet.org/releases/v1.1.0/>):
//! [`rows`], what the decoder hands over for each match (always built, for the decoder crate),
//! and [`writer`], the Parquet file written row group by row group (feature `writer`, this
//! crate's own Wasm module, which the page and the command line load only for that export).

pub mod rows;
#[cfg(feature = "writer")]
pub mod writer;
#[cfg(feature = "writer")]
mod bindings;
