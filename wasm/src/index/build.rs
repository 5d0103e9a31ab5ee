//! Makes a [`BlobIndex`] from what a full read's scans noted.

use super::*;
use crate::summary::{BlockSummary, Counts};

/// Builds a [`BlobIndex`] from a full read's blobs (in any order).
#[derive(Debug, Default)]
pub struct IndexBuilder {
    blobs: Vec<(u32, u64, u64, BlockSummary, IndexPart)>,
}

impl IndexBuilder {
    /// Notes blob `index` (frame at `offset`, `size` bytes) with its scan's summary and part.
    pub fn add(&mut self, index: u32, offset: u64, size: u64, summary: BlockSummary, part: IndexPart) {
        self.blobs.push((index, offset, size, summary, part));
    }

    /// The index, each way blob's cells being those of the node-id buckets of its refs (what
    /// the node blobs noted for them; sound whatever the order of the file), its bbox theirs.
    pub fn finish(mut self, identity: FileIdentity, replication_timestamp: Option<i64>, header_frame: (u64, u64), counts: Counts) -> BlobIndex {
        self.blobs.sort_by_key(|b| b.0);
        let mut buckets: Vec<(i64, u32)> = Vec::new();
        let mut node_cells = Vec::with_capacity(self.blobs.len());
        for b in &mut self.blobs {
            let mut cells = Cells { ids: b.4.bucket_cells.iter().map(|&(_, cell)| cell).collect(), ..Cells::default() };
            cells.tidy();
            node_cells.push(cells);
            buckets.append(&mut b.4.bucket_cells);
        }
        // In a sorted file the blobs' pairs come in bucket order already (the cells of a
        // bucket need no order); other files' are sorted here.
        if !buckets.is_sorted_by_key(|&(b, _)| b) {
            buckets.sort_unstable();
            buckets.dedup();
        }
        let where_ways = |part: &IndexPart| -> ([i32; 4], Cells) {
            if let (Some(b), Some(c)) = (part.way_bbox_e7, &part.way_cells) {
                return (b, c.clone());
            }
            let mut cells = Cells::default();
            // A bucket often holds a few cells that its neighbours hold too: a small
            // direct-mapped memory of cells kept drops most repeats before the sort.
            let mut seen = [u32::MAX; 256];
            let mut at = 0; // the runs ascend: each search starts where the last one ended
            for &(lo, hi) in &part.ref_runs {
                at += buckets[at..].partition_point(|&(b, _)| b < lo);
                for &(_, cell) in buckets[at..].iter().take_while(|&&(b, _)| b <= hi) {
                    let slot = &mut seen[(cell.wrapping_mul(0x9E37_79B1) >> 24) as usize];
                    if *slot != cell {
                        *slot = cell;
                        cells.ids.push(cell);
                    }
                }
            }
            cells.tidy();
            (cells.bbox_e7(), cells)
        };
        let entries = self
            .blobs
            .iter()
            .zip(node_cells)
            .map(|((index, offset, size, summary, part), node_cells)| {
                let (way_bbox_e7, way_cells) = if summary.min_way_id <= summary.max_way_id { where_ways(part) } else { (WORLD_E7, Cells::default()) };
                IndexEntry {
                    index: *index,
                    offset: *offset,
                    size: *size,
                    blob_hash: part.blob_hash,
                    summary: BlockSummary { way_bbox_e7, ..*summary },
                    node_cells: node_cells.coarsened(MAX_CELLS),
                    way_cells: way_cells.coarsened(MAX_CELLS),
                    strings: part.strings.clone(),
                    relations_placed: false,
                    unplaced_ways: false,
                }
            })
            .collect();
        BlobIndex { identity, replication_timestamp, header_frame, counts, entries }
    }
}
