//! What the read plan hands a driver ([`Read`]: which blobs, decoded for what) and what a
//! driver hands back for each blob ([`Found`]). See [`crate::assembly::read_plan`].

use crate::scan::BlockScan;

/// What a decode worker does with each blob of a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decode {
    /// Scan it for the query ([`crate::scan::scan_blob`] with [`crate::assembly::read_plan::ReadPlan::scan_query`]).
    Scan,
    /// Find the node refs of the ways whose ids are its slice of `wanted` ([`crate::scan::locate_ways`]).
    LocateWays,
    /// Find the locations of the nodes whose ids are its slice of `wanted` ([`crate::scan::locate_nodes`]).
    LocateNodes,
    /// Draw its basemap features ([`crate::basemap::context_ways`]) from [`crate::assembly::read_plan::ReadPlan::basemap_nodes`].
    Basemap,
    /// Not blobs of the file: pages of its blob index ([`crate::index::pages`]), each named by
    /// its stub's index, with its offset and size in the index file; a driver gives their bytes
    /// to [`crate::assembly::read_plan::ReadPlan::add_index_page`].
    IndexPages,
}

impl Decode {
    /// The number the JavaScript drivers know it by: 0 scan, 1 locate ways, 2 locate nodes, 3 basemap, 4 index pages.
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// One blob a read names: its frame in the file and its slice of [`Read::wanted`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedBlob {
    /// Frame index in the file (0 is the OSMHeader).
    pub index: u32,
    /// Byte offset of the frame's length prefix, and the frame's length in bytes.
    pub offset: u64,
    pub size: u64,
    /// The ids of [`Read::wanted`] this blob can hold: `wanted[from..to]`.
    pub from: usize,
    pub to: usize,
}

/// Which blobs a read takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blobs {
    /// Every frame of the file, in file order (the OSMHeader first).
    WholeFile,
    /// Only these, in file order (an indexed first read names the OSMHeader's frame first).
    Listed(Vec<PlannedBlob>),
}

/// One read the plan asks a driver for.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub decode: Decode,
    pub blobs: Blobs,
    /// Ids the blobs are searched for (ascending): nodes, or ways for [`Decode::LocateWays`].
    pub wanted: Vec<i64>,
    /// The blobs were read before (a targeted read after the first): progress counts them apart.
    pub reread: bool,
}

/// What a decode worker found in one blob, by the read's [`Decode`].
#[derive(Debug)]
pub enum Found {
    Scan(BlockScan),
    /// `(way id, node refs)` of the wanted ways it holds.
    Ways(Vec<(i64, Vec<i64>)>),
    /// `(node id, lat_e7, lon_e7)` of the wanted nodes it holds (1e-7 degrees).
    Nodes(Vec<(i64, i32, i32)>),
    /// Its basemap features ([`crate::basemap::context_ways`]'s encoding).
    Basemap(Vec<i32>),
}
