//! pbf-explorer's decoder: reads OpenStreetMap PBF files (spec: the OSM wiki's "PBF Format",
//! with `fileformat.proto` and `osmformat.proto`) and answers tag + area queries.
//!
//! The modules follow the format and the query, one way:
//!
//! | module | what | follows |
//! |---|---|---|
//! | `element`, `summary`, `ids`, `error` | shared words: element type, tag, member; what a block holds; sorted ids; errors | OSM wiki, Elements |
//! | `format` | frames (BlobHeader, Blob), inflating, the OSMHeader, PrimitiveBlock fields, varints, Info | PBF Format; protobuf encoding |
//! | `query` | the query language, the prepared query bound to a block's string table, the area | overpass turbo's wizard syntax |
//! | `scan` | one PrimitiveBlock decoded for a query: matches, candidates, the area's node locations | PBF Format, DenseNodes, Ways, Relations |
//! | `index` | the blob index: what each blob holds, its file format, the blobs a query needs | `docs/blob-index.md` |
//! | `layout` | `optimize`: a file written again with its blobs grouped by place, and its index; area copies | Hilbert curve; `docs/optimize.md` |
//! | `assembly` | the read plan, merging scans into an answer, node locations, geometry, list views, exports | OSM wiki, Multipolygon relation; RFC 7946; RFC 4180 |
//! | `basemap` | the roads, water and buildings of the area, drawn from the file | OSM wiki, Map features |
//! | `reader` | a whole file in memory read natively, by the read plan | |
//! | `bindings` | the JavaScript face (wasm-bindgen): a decode worker's scanner, the query worker's assembler | |
//!
//! Nothing but `bindings` knows about JavaScript, and nothing here knows about the browser.

mod assembly;
mod basemap;
pub mod bindings;
mod element;
mod elsewhere;
mod error;
mod format;
mod ids;
mod index;
mod layout;
mod query;
mod reader;
mod scan;
mod summary;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use assembly::geometry::{ring_area2, Shape};
pub use assembly::read_plan::{Blobs, Decode, Found, PlannedBlob, Read, ReadPlan};
pub use assembly::{label_of, Assembler, FileFacts, IdRanges, Match, DEFAULT_LOCATION_BUDGET, MAP_MAX_FEATURES, MAX_SHAPES, NO_MEMBER_IN_FILE, NO_NODE_IN_FILE};
pub use basemap::{context_ways, ContextNodes, CONTEXT_MAX_AREA_KM2};
pub use element::{ElementType, Member, Tag};
pub use elsewhere::{duckdb::duckdb_sql, osmium::osmium_tags_filter, overpass::overpass_ql, sedona::sedona_sql};
pub use error::DecodeError;
pub use format::blob::blob_data;
pub use format::block::Block;
pub use format::frame::{frame_at, frames, Frame};
pub use format::header::{decode_header, HeaderInfo};
pub use format::proto;
pub use layout::{area_within, copy_bbox, hilbert_key, optimize, AreaCopier, Layout, Optimizer};
pub use index::{BlobIndex, Cells, FileIdentity, IndexEntry, IndexError, IndexHead, IndexedPlan, CELL_LEVEL, STUB_BASE, WORLD_E7};
pub use query::area::{haversine_m, Area, EARTH_RADIUS_M};
pub use query::{Inside, PreparedQuery, Query};
pub use reader::{read_answer, scan_file, scan_file_indexed, scan_file_paged, scan_file_prepared, scan_file_with_budget, FileScan};
pub use scan::{locate_nodes, locate_ways, scan_blob, scan_block, BlockScan};
pub use summary::{BlockSummary, Counts};
