//! `optimize`: a file written again with its blobs grouped by place, so that a query of an
//! area reads few of them (`docs/optimize.md`). Nodes are ordered along a Hilbert curve and cut
//! into blobs; ways are ordered by the centre of their nodes' bbox, relations by that of
//! their members, each kind cut into blobs of its own; ways and relations that span a large
//! area, or have no located member, come after the rest of their kind, so they do not widen
//! the others' blobs. Within a blob, elements are in id order. The blob index is written with
//! it, each way blob's cells being those of its ways' nodes exactly, each relation blob's those
//! of its members.
//!
//! What it holds in memory grows with the input ([`store`]); the planet would need an external
//! sort (`docs/planet.md`).
//!
//! The same layout writes area copies ([`AreaCopier`]): the elements a query within a bbox can
//! need, taken from a file of any order in passes, for a second question on a local file.

mod area_copy;
pub(crate) mod blocks;
mod column;
mod hilbert;
pub(crate) mod order;
pub(crate) mod store;

use prost::Message;

use crate::error::DecodeError;
use crate::format::blob::blob_data;
use crate::format::header::decode_header;
use crate::format::proto;
use crate::format::write::{frame, zlib_blob};
use crate::index::{FileIdentity, IndexBuilder, IDENTITY_SPAN};
use crate::query::PreparedQuery;
use crate::scan::scan_block;
use crate::summary::Counts;
use order::{Piece, Pieces};
use store::Elements;

pub use area_copy::{area_within, copy_bbox, AreaCopier};
pub use hilbert::hilbert_key;

/// The index of "zlib" in [`crate::format::blob::COMPRESSIONS`]: every blob written is zlib.
const ZLIB: u8 = 1;

/// Takes a file's frames in order and holds its elements; [`Optimizer::finish`] plans the new
/// layout.
#[derive(Debug)]
pub struct Optimizer {
    header: Option<proto::HeaderBlock>,
    elements: Elements,
}

impl Default for Optimizer {
    fn default() -> Self {
        Optimizer { header: None, elements: Elements::new() }
    }
}

impl Optimizer {
    pub fn new() -> Optimizer {
        Optimizer::default()
    }

    /// Adds the next frame of the input: its BlobHeader's `kind` and its Blob's bytes. Frames
    /// of other kinds than OSMHeader and OSMData are skipped (spec: "File format").
    ///
    /// Errors: those of inflating and decoding it; [`DecodeError::Inconsistent`] for OSMData
    /// before the OSMHeader, a second OSMHeader, or a history file (its versions of an element
    /// must stay together, in order).
    pub fn add_frame(&mut self, kind: &str, blob: &[u8]) -> Result<(), DecodeError> {
        match kind {
            "OSMHeader" => {
                let data = blob_data(blob)?;
                if decode_header(&data)?.is_history() {
                    return Err(DecodeError::Inconsistent("a history file cannot be optimized: the versions of an element must stay together, in order"));
                }
                if self.header.is_some() {
                    return Err(DecodeError::Inconsistent("a second OSMHeader"));
                }
                self.header = Some(proto::HeaderBlock::decode(&data[..]).map_err(|e| DecodeError::protobuf("HeaderBlock", e))?);
            }
            "OSMData" => {
                if self.header.is_none() {
                    return Err(DecodeError::Inconsistent("OSMData before the OSMHeader"));
                }
                self.elements.add_block(&blob_data(blob)?)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The new layout, to be written frame by frame ([`Layout::next_frame`]).
    /// Errors: [`DecodeError::Inconsistent`] when no OSMHeader came.
    pub fn finish(self) -> Result<Layout, DecodeError> {
        let mut header = self.header.ok_or(DecodeError::Inconsistent("no OSMHeader"))?;
        // Not in id order any more, and ways carry no node locations.
        header.optional_features.retain(|f| f != "Sort.Type_then_ID" && f != "LocationsOnWays");
        header.writingprogram = Some(concat!("pbf-explorer optimize ", env!("CARGO_PKG_VERSION")).into());
        let replication_timestamp = header.osmosis_replication_timestamp;
        let pieces = Pieces::plan(&self.elements);
        Ok(Layout {
            header: Some(header.encode_to_vec()),
            elements: self.elements,
            pieces,
            next: 0,
            written: 0,
            head: Vec::new(),
            tail: Vec::new(),
            header_frame: (0, 0),
            builder: Some(IndexBuilder::default()),
            node_cells: Vec::new(),
            member_cells: Vec::new(),
            unplaced_ways: Vec::new(),
            counts: Counts::default(),
            replication_timestamp,
        })
    }
}

/// The optimized file, frame by frame, and then its blob index.
#[derive(Debug)]
pub struct Layout {
    header: Option<Vec<u8>>,
    elements: Elements,
    pieces: Pieces,
    next: usize,
    written: u64,
    /// The first and last [`IDENTITY_SPAN`] bytes written, for the file's identity.
    head: Vec<u8>,
    tail: Vec<u8>,
    header_frame: (u64, u64),
    builder: Option<IndexBuilder>,
    /// Each node blob's frame index and its nodes' cells at [`order::FINE_LEVEL`].
    node_cells: Vec<(u32, crate::index::Cells)>,
    /// Each relation blob's frame index and its members' cells ([`Pieces::member_cells`]).
    member_cells: Vec<(u32, crate::index::Cells)>,
    /// The way blobs holding a way with no node in the file, by frame index.
    unplaced_ways: Vec<u32>,
    counts: Counts,
    replication_timestamp: Option<i64>,
}

impl Layout {
    /// How many OSMData frames the file will have, and how many are written.
    pub fn frames_total(&self) -> usize {
        self.pieces.len()
    }

    pub fn frames_written(&self) -> usize {
        self.next
    }

    /// The next frame of the file (the OSMHeader first), None after the last.
    /// Errors: none for a layout of a file that was read without error, but a written block
    /// is read back for the index, and that read's errors would surface here.
    pub fn next_frame(&mut self) -> Result<Option<Vec<u8>>, DecodeError> {
        if let Some(header) = self.header.take() {
            let f = frame("OSMHeader", &zlib_blob(&header));
            self.header_frame = (0, f.len() as u64);
            self.note(&f);
            return Ok(Some(f));
        }
        let Some(piece) = self.pieces.get(self.next) else { return Ok(None) };
        let e = &self.elements;
        let data = blocks::block_of(e, piece);
        let way_cells = match piece {
            Piece::Ways(ways) => Some(self.pieces.way_cells(e, ways)),
            _ => None,
        };
        if let Some((_, true)) = way_cells {
            self.unplaced_ways.push(self.next as u32 + 1);
        }
        match piece {
            Piece::Nodes(nodes) => self.node_cells.push((self.next as u32 + 1, Pieces::node_cells(e, nodes).coarsened(crate::index::MAX_CELLS))),
            Piece::Relations(relations) => self.member_cells.push((self.next as u32 + 1, self.pieces.member_cells(e, relations).coarsened(crate::index::MAX_CELLS))),
            Piece::Ways(_) => {}
        }
        let f = frame("OSMData", &zlib_blob(&data));
        // The index notes what a scan of the block finds, as for any file, but with the cells of
        // the nodes and of the ways' nodes at FINE_LEVEL, exactly (a scan notes coarser cells,
        // and can only bound where the ways' nodes are by id buckets).
        let query = PreparedQuery { index: true, ..PreparedQuery::count_only() };
        let scan = scan_block(&data, &query)?;
        let mut part = scan.index.unwrap_or_default();
        part.blob_hash = crate::index::blob_hash(crate::format::frame::frame_at(&f, 0)?.1);
        if let Some((cells, _)) = way_cells {
            part.way_bbox_e7 = Some(cells.bbox_e7());
            part.way_cells = Some(cells);
        }
        self.counts.add(&scan.counts);
        let summary = crate::summary::BlockSummary { compression: ZLIB, ..scan.summary };
        self.next += 1;
        let builder = self.builder.as_mut().expect("frames are written before the index is taken");
        builder.add(self.next as u32, self.written, f.len() as u64, summary, part);
        self.note(&f);
        Ok(Some(f))
    }

    /// Keeps what the file's identity needs of a frame written.
    fn note(&mut self, f: &[u8]) {
        let span = IDENTITY_SPAN as usize;
        if self.head.len() < span {
            self.head.extend_from_slice(&f[..f.len().min(span - self.head.len())]);
        }
        self.tail.extend_from_slice(f);
        if self.tail.len() > 2 * span {
            self.tail.drain(..self.tail.len() - span);
        }
        self.written += f.len() as u64;
    }

    /// The file's blob index (`docs/blob-index.md`), once every frame is written; None before,
    /// or when it was taken already.
    pub fn blob_index(&mut self) -> Option<Vec<u8>> {
        if self.header.is_some() || self.next < self.pieces.len() {
            return None;
        }
        let tail = &self.tail[self.tail.len().saturating_sub(IDENTITY_SPAN as usize)..];
        let identity = FileIdentity::of(self.written, &self.head, tail);
        let mut index = self.builder.take()?.finish(identity, self.replication_timestamp, self.header_frame, self.counts);
        // The entries are in file order, so by frame index.
        let at = |index: &crate::index::BlobIndex, frame: u32| index.entries.binary_search_by_key(&frame, |e| e.index).expect("an entry for every frame");
        for (frame, cells) in std::mem::take(&mut self.node_cells) {
            let i = at(&index, frame);
            let entry = &mut index.entries[i];
            entry.node_cells = cells;
            entry.summary.bbox_e7 = entry.node_cells.bbox_e7();
        }
        // A relation blob's "way" cells and bbox are its members' (`IndexEntry::relations_placed`).
        for (frame, cells) in std::mem::take(&mut self.member_cells) {
            let i = at(&index, frame);
            let entry = &mut index.entries[i];
            entry.summary.way_bbox_e7 = cells.bbox_e7();
            entry.way_cells = cells;
            entry.relations_placed = true;
        }
        for frame in std::mem::take(&mut self.unplaced_ways) {
            let i = at(&index, frame);
            index.entries[i].unplaced_ways = true;
        }
        Some(index.encode())
    }
}

/// Optimizes a whole file in memory: the new file and its blob index.
/// Errors: those of [`Optimizer::add_frame`] and of reading the frames.
pub fn optimize(file: &[u8]) -> Result<(Vec<u8>, Vec<u8>), DecodeError> {
    let mut optimizer = Optimizer::new();
    for f in crate::format::frame::frames(file) {
        let f = f?;
        optimizer.add_frame(f.kind, f.blob)?;
    }
    let mut layout = optimizer.finish()?;
    let mut out = Vec::with_capacity(file.len() * 3 / 2);
    while let Some(f) = layout.next_frame()? {
        out.extend_from_slice(&f);
    }
    let index = layout.blob_index().expect("every frame is written");
    Ok((out, index))
}

