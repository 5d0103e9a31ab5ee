//! Decodes one `OSMData` PrimitiveBlock (spec: "Definition of OSMData fileblock") and, in the
//! same pass, counts its elements and picks what a query needs: matching nodes, ways whose
//! tags match (to be placed later from node locations), and the locations of every node in
//! the query's area.

use serde::{Deserialize, Serialize};

mod block_scanner;
mod coords;
mod locate;

pub use block_scanner::scan_block;
pub use locate::{locate_nodes, locate_ways};

use crate::element::{Member, Tag};
use crate::error::DecodeError;
use crate::format::info::Meta;
use crate::index::IndexPart;
use crate::query::PreparedQuery;
use crate::summary::{BlockSummary, Counts};
use coords::Coords;


/// A node that carries the query's tags and lies in its area. `lat`/`lon` in degrees WGS84.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchedNode {
    pub id: i64,
    pub lat: f64,
    pub lon: f64,
    pub tags: Vec<Tag>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    pub meta: Option<Meta>,
}

/// A way that carries the query's tags. Whether it matches depends on node locations that
/// may sit in other blocks, so it is resolved once all blocks are in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WayCandidate {
    pub id: i64,
    pub tags: Vec<Tag>,
    /// Node ids, delta-decoded.
    pub refs: Vec<i64>,
    /// With `LocationsOnWays`: the mean `[lat, lon]` (degrees) of its nodes in the area.
    pub position: Option<[f64; 2]>,
    /// With `LocationsOnWays`: every node's `[lat_e7, lon_e7]` (1e-7 degrees), in ref order; else empty.
    pub vertices: Vec<[i32; 2]>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    pub meta: Option<Meta>,
}


/// A relation that carries the query's tags. Whether it matches depends on where its members
/// are, so it is resolved once all blocks are in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelationCandidate {
    pub id: i64,
    pub tags: Vec<Tag>,
    pub members: Vec<Member>,
    /// Its version, timestamp, changeset and user, when the file carries them.
    pub meta: Option<Meta>,
}

/// Locations of the block's nodes that lie in the area, sorted by id. Coordinates are
/// 1e-7 degrees (OSM's own precision) so a node costs 16 bytes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AreaNodes {
    pub ids: Vec<i64>,
    pub lats_e7: Vec<i32>,
    pub lons_e7: Vec<i32>,
}


/// A place a person can name: a relation with `type=multipolygon` or `type=boundary` and a
/// `name` tag, or a node with `place=*` and a `name` tag (OSM wiki, Key:place).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// The relation's id, or the node's (`kind` `place`).
    pub id: i64,
    pub name: String,
    /// A relation's `type` tag, `boundary` or `multipolygon`; `place` for a node.
    pub kind: String,
    /// What it is, as a tag: `boundary=administrative`, else a relation's first tag other than
    /// `type`, `name` and `admin_level` (`leisure=park`), empty when it has none; a node's
    /// `place=town`.
    pub what: String,
    /// Its `admin_level` tag, if any.
    pub admin_level: Option<String>,
    /// How many of its members are ways (its size as mapped); 0 for a node.
    pub ways: u32,
    /// A node's location, `[lat, lon]` in degrees WGS84; None for a relation.
    pub at: Option<[f64; 2]>,
}

/// Everything a query takes from one block.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BlockScan {
    pub counts: Counts,
    pub summary: BlockSummary,
    pub nodes: Vec<MatchedNode>,
    pub ways: Vec<WayCandidate>,
    pub relations: Vec<RelationCandidate>,
    pub area_nodes: AreaNodes,
    /// Candidate ways left out by the query's [`PreparedQuery::area_filter`] (none of their
    /// nodes can be in the area): only their ids, for the assembler's rule that a later copy of
    /// a way replaces an earlier one, and its rescan of a file not sorted after all.
    #[serde(default)]
    pub ways_outside: Vec<i64>,
    /// History files: `(type, id)` (0 node, 1 way, 2 relation) of elements a version of which
    /// in this block is at or before the query's moment, where it may replace a version an
    /// earlier block ended with (see [`info::version_states`]).
    #[serde(default)]
    pub superseding: Vec<(u8, i64)>,
    /// What the blob index notes of this block, when the query asks ([`PreparedQuery::index`]).
    #[serde(default)]
    pub index: Option<IndexPart>,
    /// The block's named multipolygon and boundary relations, a place field offers by name.
    #[serde(default)]
    pub places: Vec<Place>,
}


/// Decompresses an `OSMData` Blob (its bytes as framed in the file) and scans it with
/// [`scan_block`], noting the Blob's compression in the summary.
///
/// Errors: those of [`crate::format::blob::blob_data`] and of [`scan_block`].
pub fn scan_blob(blob: &[u8], query: &PreparedQuery) -> Result<BlockScan, DecodeError> {
    let (data, compression) = crate::format::blob::blob_data_and_compression(blob)?;
    let mut scan = scan_block(&data, query)?;
    scan.summary.compression = compression;
    Ok(scan)
}

