//! The blob index: what each OSMData blob of a file holds, so a later query reads only the blobs
//! that can hold a match or a location a match needs. Written during a full read (the scans
//! carry an [`IndexPart`] when the query asks for one), kept beside the file or in the browser,
//! and checked against the file's identity before use. Format: `docs/blob-index.md`.
//!
//! Per blob: its frame's byte offset and size, element id ranges per type, the bbox of its
//! nodes, a bbox for its ways (from LocationsOnWays, or from the node blobs their refs fall
//! into), and a Bloom filter of its string table ([`StringFilter`]) so a query that needs a
//! string the block lacks skips it ([`crate::query::language::Expr::admits`]).

use serde::{Deserialize, Serialize};
use twox_hash::XxHash64;

use crate::query::area::AreaTest;
use crate::query::PreparedQuery;
use crate::summary::{BlockSummary, Counts};

/// The first 8 bytes of an index file.
pub const MAGIC: [u8; 8] = *b"PBFIDX\r\n";
/// The format version this crate writes and reads: 6, a head plus pages fetched by area
/// ([`pages`]), each entry with its Blob's checksum ([`blob_hash`]). Older versions have no
/// checksums, so nothing to tell a look-alike file by: they are refused, and the file indexed again.
pub const VERSION: u32 = 6;
/// The finest cells an index may hold (version 4: `optimize` notes level 16).
pub const MAX_CELL_LEVEL: u8 = 16;
/// How many bytes at each end of the file its identity hashes (16 KiB). The HTTP probe brings
/// them: the less, the less a query by a server's index fetches besides its blobs
/// (`docs/decisions.md`).
pub const IDENTITY_SPAN: u64 = 16 << 10;

mod build;
mod file;
pub mod pages;
mod parts;

pub use build::IndexBuilder;
pub use pages::{IndexHead, STUB_BASE};
pub use parts::*;
pub use crate::summary::WORLD_E7;


/// A file's identity: its size in bytes and the XXH64 of its first and last MiB (the whole
/// file when smaller). An index is used only for the file whose identity it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileIdentity {
    pub size: u64,
    pub head_tail_hash: u64,
}

impl FileIdentity {
    /// The identity of a file of `size` bytes whose first `min(size, 1 MiB)` bytes are `head`
    /// and last `min(size, 1 MiB)` bytes are `tail` (they overlap in a small file).
    pub fn of(size: u64, head: &[u8], tail: &[u8]) -> FileIdentity {
        let mut h = XxHash64::with_seed(0);
        std::hash::Hasher::write(&mut h, head);
        std::hash::Hasher::write(&mut h, tail);
        FileIdentity { size, head_tail_hash: std::hash::Hasher::finish(&h) }
    }

    /// The identity of a whole file held in memory.
    pub fn of_file(file: &[u8]) -> FileIdentity {
        let span = file.len().min(IDENTITY_SPAN as usize);
        FileIdentity::of(file.len() as u64, &file[..span], &file[file.len() - span..])
    }

    /// As 16 bytes: size then hash, little-endian (the form the web workers pass around).
    pub fn to_bytes(self) -> [u8; 16] {
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&self.size.to_le_bytes());
        out[8..].copy_from_slice(&self.head_tail_hash.to_le_bytes());
        out
    }

    /// The inverse of [`FileIdentity::to_bytes`]; None unless `bytes` has 16 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<FileIdentity> {
        let b: &[u8; 16] = bytes.try_into().ok()?;
        Some(FileIdentity { size: u64_at(b, 0), head_tail_hash: u64_at(b, 8) })
    }
}

/// A Blob's checksum as its index entry keeps it: XXH64 (seed 0) of the Blob message's bytes as
/// framed in the file (after its BlobHeader). A read by the index checks every blob it takes
/// against it ([`crate::assembly::read_plan::ReadPlan::add`]): a file that shares the indexed
/// file's identity but not its blobs (a look-alike, `docs/security.md`) is found out there.
pub fn blob_hash(blob: &[u8]) -> u64 {
    XxHash64::oneshot(0, blob)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// A Bloom filter of the strings of one block's string table ([`string_hash`] of each string,
/// double hashing, [`PROBES`] probes, a multiple of 64 bits, a probe's bit `(h × bits) >> 32` of
/// a 32-bit hash `h`). Empty: nothing is known, every string may be there.

/// One OSMData blob in the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The frame's position in the file (the OSMHeader is 0) and its byte offset and size
    /// (BlobHeader length, BlobHeader and Blob).
    pub index: u32,
    pub offset: u64,
    pub size: u64,
    /// Its Blob's [`blob_hash`] (0 in a page's stub, which names no blob).
    pub blob_hash: u64,
    /// Its summary, `way_bbox_e7` included ([`WORLD_E7`] when unknown).
    pub summary: BlockSummary,
    /// Where its nodes are, and where its ways' nodes are ([`Cells::world`] when unknown).
    pub node_cells: Cells,
    pub way_cells: Cells,
    pub strings: StringFilter,
    /// Its relations' members are placed: `way_cells` and `summary.way_bbox_e7` also hold the
    /// nodes of its relations and the nodes of their member ways (member relations are not
    /// followed, as a query does not follow them). False when unknown: then its relations are
    /// read for any area.
    pub relations_placed: bool,
    /// Some of its ways have no node in the file, so no cell: a relation's member read cannot
    /// rule the blob out by place (written by `optimize`; false when unknown, as then the
    /// member read is not ruled by place at all).
    pub unplaced_ways: bool,
}

impl IndexEntry {
    /// Whether a node of the blob can lie in `area` (by its bbox and cells).
    pub fn nodes_meet(&self, area: &AreaTest) -> bool {
        area.meets_bbox_e7(self.summary.bbox_e7) && self.node_cells.meet(area)
    }

    /// Whether a node of one of the blob's ways can lie in `area`.
    pub fn ways_meet(&self, area: &AreaTest) -> bool {
        area.meets_bbox_e7(self.summary.way_bbox_e7) && self.way_cells.meet(area)
    }

    /// Whether the first read of `query` takes this blob (see [`BlobIndex::plan`]); for a page
    /// not fetched yet ([`pages`]), whether one of its blobs may be taken. `area_nodes`: every
    /// node blob of the area is read (a bounded area).
    pub fn first_read_takes(&self, query: &PreparedQuery, area_nodes: bool) -> bool {
        let s = &self.summary;
        // A match can be of these types, and with `id:` have only that id (`type:relation
        // id:ID`, the read of a relation that is the area, takes the one blob that holds it).
        let [node, way, relation] = query.expr.kinds();
        let holds = |(min, max): (i64, i64)| query.expr.id().is_none_or(|id| min <= id && id <= max);
        let admitted = || query.expr.admits(&|t| self.strings.may_contain(t));
        let nodes = s.has_nodes() && self.nodes_meet(&query.area) && (area_nodes || node && holds((s.min_node_id, s.max_node_id)) && admitted());
        let ways = s.has_ways() && way && holds((s.min_way_id, s.max_way_id)) && self.ways_meet(&query.area) && admitted();
        let placed_away = self.relations_placed && !query.area.is_everywhere() && !self.ways_meet(&query.area);
        nodes || ways || (s.has_relations() && relation && holds((s.min_relation_id, s.max_relation_id)) && !placed_away && admitted())
    }
}

/// A file's blob index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobIndex {
    pub identity: FileIdentity,
    /// The header's `osmosis_replication_timestamp` (seconds since the epoch), if any.
    pub replication_timestamp: Option<i64>,
    /// The OSMHeader's frame: byte offset and size.
    pub header_frame: (u64, u64),
    /// Element counts of the whole file.
    pub counts: Counts,
    /// Every OSMData blob, in file order.
    pub entries: Vec<IndexEntry>,
}

/// Why an index cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// Not an index, a version this build does not read, cut short, or a checksum mismatch.
    Corrupt(String),
    /// An index of another file, or of this file before it changed.
    Stale,
}

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexError::Corrupt(why) => write!(f, "the blob index is corrupt ({why})"),
            IndexError::Stale => write!(f, "the blob index is of another file, or of this file before it changed"),
        }
    }
}

impl std::error::Error for IndexError {}

/// The blobs a query reads with an index: positions in [`BlobIndex::entries`], in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedPlan {
    pub entries: Vec<usize>,
    /// Whether every node blob that meets the area is read, so the node locations of the area
    /// are all seen (false for a whole-file query: then ways are placed by a second read).
    pub area_nodes_complete: bool,
}

impl BlobIndex {
    /// Which blobs can hold what `query` needs: a node blob whose bbox meets the area (with a
    /// bounded area every such blob, for the area's node locations; everywhere only those whose
    /// strings admit the query), a way blob whose strings admit it and whose way bbox meets the
    /// area, a relation blob whose strings admit it. Not for history files (a skipped blob
    /// may hold a newer version of a match).
    /// A relation blob whose members are placed ([`IndexEntry::relations_placed`]) is read only
    /// when they meet a bounded area: a relation matches there by a node member or a member way's
    /// node in it.
    pub fn plan(&self, query: &PreparedQuery) -> IndexedPlan {
        let area_nodes_complete = !query.area.is_everywhere();
        let entries = self.entries.iter().enumerate().filter(|(_, e)| e.first_read_takes(query, area_nodes_complete)).map(|(i, _)| i).collect();
        IndexedPlan { entries, area_nodes_complete }
    }

    /// The bytes the blobs of `plan` span (what an indexed read fetches, the header aside).
    pub fn bytes_of(&self, plan: &IndexedPlan) -> u64 {
        plan.entries.iter().map(|&i| self.entries[i].size).sum()
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    /// The runs of a set of ref ids, as a plain sort gives them.
    fn sorted_runs(ids: &[i64]) -> Vec<(i64, i64)> {
        let mut buckets: Vec<i64> = ids.iter().map(|id| id >> REF_BUCKET_SHIFT).collect();
        buckets.sort_unstable();
        buckets.dedup();
        let mut runs: Vec<(i64, i64)> = Vec::new();
        for b in buckets {
            match runs.last_mut() {
                Some(last) if last.1 + 1 == b => last.1 = b,
                _ => runs.push((b, b)),
            }
        }
        runs
    }

    #[test]
    fn the_string_hash_is_the_documented_one_and_reads_every_byte_up_to_24() {
        // Format versions 3 and 4: every `.idx` holds filters of these values. They were computed by
        // a Python transcription of docs/blob-index.md, so the docs and the code agree.
        let pinned: [(&[u8], u64); 6] = [
            (b"", 0x0000_0000_0000_0000),
            (b"yes", 0x1553_ecfb_8956_b241),
            (b"cafe", 0xc6a1_526c_780d_af6f),
            (b"amenity", 0x9795_355f_cac2_5ba5),
            (b"addr:housenumber", 0x4363_8ca4_f964_eb31),
            (b"Triq il-Kbira, Haz-Zebbug, Malta", 0x8179_ede3_5e9c_64fd),
        ];
        for (s, h) in pinned {
            assert_eq!(string_hash(s), h, "{}", String::from_utf8_lossy(s));
        }
        // Up to 24 bytes, a change of any one byte or of the length changes the hash.
        let text: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for len in 0..=24 {
            let s = &text[..len];
            assert_ne!(string_hash(s), string_hash(&text[..len + 1]), "length {len}");
            for at in 0..len {
                let mut t = s.to_vec();
                t[at] ^= 0x20;
                assert_ne!(string_hash(s), string_hash(&t), "length {len}, byte {at}");
            }
        }
    }

    #[test]
    fn a_string_filter_admits_its_strings_and_few_others() {
        let table: Vec<String> = (0..4000).map(|i| format!("value {i}")).collect();
        let filter = StringFilter::of(&table);
        assert!(table.iter().all(|s| filter.may_contain(s.as_bytes())));
        let passed = (0..10_000).filter(|i| filter.may_contain(format!("absent {i}").as_bytes())).count();
        assert!((300..1500).contains(&passed), "{passed} of 10 000 absent strings passed (about 9 % expected)");
        assert!(StringFilter::default().may_contain(b"anything"));
    }

    #[test]
    fn ref_buckets_give_the_runs_of_a_sort_near_and_far_apart() {
        let mut seed = 12345u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let spans = [1i64, 300, 5_000, 1 << 20, (BITMAP_SPAN << REF_BUCKET_SHIFT) - 1, BITMAP_SPAN << REF_BUCKET_SHIFT, 1 << 40, i64::MAX / 4];
        for (case, &span) in spans.iter().enumerate() {
            for base in [0i64, 1 << 33, -(1 << 35), i64::MIN / 4] {
                let mut ids: Vec<i64> = (0..3_000).map(|_| base + (next() % span as u64) as i64).collect();
                ids.extend([base, base + span - 1]); // both ends of the span
                let mut buckets = RefBuckets::default();
                ids.iter().for_each(|&id| buckets.add(id));
                assert_eq!(buckets.runs(), sorted_runs(&ids), "case {case}, base {base}");
            }
        }
        assert_eq!(RefBuckets::default().runs(), vec![]);
    }

    #[test]
    fn a_cells_bounds_hold_exactly_the_points_cell_of_puts_in_it() {
        let n = 1u32 << CELL_LEVEL;
        for (x, y) in [(0, 0), (1, 1), (7, 3), (2047, 2048), (2048, 1024), (3000, 4095), (n - 1, n - 1), (4094, 17)] {
            let cell = (y << CELL_LEVEL) | x;
            let [lat_lo, lon_lo, lat_hi, lon_hi] = Cells::cell_bounds(cell).map(|v| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
            let mid = |lo: i32, hi: i32| lo + (hi - lo) / 2;
            for (lat, lon) in [(lat_lo, lon_lo), (lat_hi - 1, lon_hi - 1), (lat_lo, lon_hi - 1), (mid(lat_lo, lat_hi), mid(lon_lo, lon_hi))] {
                assert_eq!(Cells::cell_of(lat, lon), cell, "({lat}, {lon}) inside cell ({x}, {y})");
            }
            // Just outside, a point is in a neighbour (or clamped into this edge cell).
            let (lat_in, lon_in) = (mid(lat_lo, lat_hi), mid(lon_lo, lon_hi));
            for (lat, lon, on_edge) in [(lat_lo - 1, lon_in, y == 0), (lat_hi, lon_in, y == n - 1), (lat_in, lon_lo - 1, x == 0), (lat_in, lon_hi, x == n - 1)] {
                assert_eq!(Cells::cell_of(lat, lon) == cell, on_edge, "({lat}, {lon}) beside cell ({x}, {y})");
            }
        }
    }
}
