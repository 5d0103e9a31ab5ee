//! The blob index: what each OSMData blob of a file holds, so a later query reads only the blobs
//! that can hold a match or a location a match needs. Written during a full read (the scans
//! carry an [`IndexPart`] when the query asks for one), kept beside the file or in the browser,
//! and checked against the file's identity before use. Format: `docs/blob-index.md`.
//!
//! Per blob: its frame's byte offset and size, element id ranges per type, the bbox of its
//! nodes, a bbox for its ways (from LocationsOnWays, or from the node blobs their refs fall
//! into), and a Bloom filter of its string table ([`StringFilter`]) so a query that needs a
//! string the block lacks skips it ([`crate::expr::Expr::admits`]).

use serde::{Deserialize, Serialize};
use twox_hash::XxHash64;

use crate::area::AreaTest;
use crate::query::PreparedQuery;
use crate::scan::{BlockSummary, Counts};

/// The first 8 bytes of an index file.
pub const MAGIC: [u8; 8] = *b"PBFIDX\r\n";
/// The format version this crate writes and reads.
pub const VERSION: u32 = 3;
/// How many bytes at each end of the file its identity hashes (1 MiB).
pub const IDENTITY_SPAN: u64 = 1 << 20;
/// Bloom filter bits per string of a block's table, and the filter's largest size (bits):
/// with [`PROBES`] probes a string the table lacks passes about 9 % of the time, a key=value
/// pair under 1 %, and the index stays under 1 % of the file (README, "Measured decisions").
const BITS_PER_STRING: usize = 5;
const MAX_FILTER_BITS: usize = 1 << 16;
const PROBES: u32 = 3;
/// Node ids are grouped in buckets of `id >> REF_BUCKET_SHIFT` (1024 ids): node blobs note the
/// cells of each bucket, way blobs the buckets of their refs, and a way blob's cells are those
/// of its buckets. Small enough that a ferry route's far nodes mark only the ways that use them;
/// 256 ids cost the build ≈ 14 ms more in Wasm for 0.3–1.2 points less of the file read by a
/// re-query (README, "Measured decisions").
pub const REF_BUCKET_SHIFT: u32 = 10;
/// A bbox that meets every area: what is known of a blob's ways without their nodes.
pub const WORLD_E7: [i32; 4] = [i32::MIN, i32::MIN, i32::MAX, i32::MAX];

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

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// A Bloom filter of the strings of one block's string table ([`string_hash`] of each string,
/// double hashing, [`PROBES`] probes, a multiple of 64 bits, a probe's bit `(h × bits) >> 32` of
/// a 32-bit hash `h`). Empty: nothing is known, every string may be there.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StringFilter {
    pub words: Vec<u64>,
}

impl StringFilter {
    /// The filter of `table` (a PrimitiveBlock's `stringtable.s`).
    pub fn of(table: &[impl AsRef<[u8]>]) -> StringFilter {
        let bits = (table.len() * BITS_PER_STRING).clamp(64, MAX_FILTER_BITS).next_multiple_of(64);
        let mut filter = StringFilter { words: vec![0; bits / 64] };
        for s in table {
            for bit in filter.probes(s.as_ref()) {
                filter.words[bit / 64] |= 1 << (bit % 64);
            }
        }
        filter
    }

    /// Whether `s` may be in the table (false: surely not).
    pub fn may_contain(&self, s: &[u8]) -> bool {
        self.words.is_empty() || self.probes(s).all(|bit| self.words[bit / 64] >> (bit % 64) & 1 == 1)
    }

    fn probes(&self, s: &[u8]) -> impl Iterator<Item = usize> {
        let h = string_hash(s);
        let (h1, h2) = (h as u32, (h >> 32) as u32 | 1);
        let bits = self.words.len() as u64 * 64;
        (0..PROBES).map(move |i| ((h1.wrapping_add(i.wrapping_mul(h2)) as u64 * bits) >> 32) as usize)
    }
}

/// The string filters' hash (format version 3): a string's length and its first, middle and
/// last eight bytes (all of a string of up to 24 bytes) mixed by 64-bit multiplies, as
/// `docs/blob-index.md` spells out. A Bloom filter needs only that different strings mostly
/// probe different bits: two strings of over 24 bytes that agree where this reads share their
/// probes, which can cost a blob read, never an answer. Constant time and no 64×64→128
/// multiply (a libcall in wasm32, which XXH3 makes for strings of 9 to 128 bytes: 66 % of the
/// 110 MB file's): the index build's cost in Wasm −8 to −12 ms (README, "Measured decisions").
pub fn string_hash(s: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let len = s.len();
    let word = |at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u64::from(u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes")));
    let (first, middle, last) = match len {
        0 => (0, 0, 0),
        1..=3 => (u64::from(s[0]) << 16 | u64::from(s[len / 2]) << 8 | u64::from(s[len - 1]), 0, 0),
        4..=7 => (half(0) << 32 | half(len - 4), 0, 0),
        8..=16 => (word(0), 0, word(len - 8)),
        _ => (word(0), word(len / 2 - 4), word(len - 8)),
    };
    let mut h = ((len as u64).wrapping_mul(K) ^ first).wrapping_mul(K);
    h = (h ^ h >> 32 ^ middle).wrapping_mul(K);
    h = (h ^ h >> 32 ^ last).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 31;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ h >> 29
}

/// The grid level at which blobs' points are noted: 2^12 × 2^12 cells over lon × lat, a cell
/// 0.088° × 0.044° (about 5 km), a city query meets a few.
pub const CELL_LEVEL: u8 = 12;
/// Cells a blob keeps in the index; more are merged into coarser cells (a blob whose points
/// spread over a country keeps a coarse cover, one with a few far outliers a fine one).
pub const MAX_CELLS: usize = 128;

/// The grid cells holding a blob's points: cell `(y << level) | x` of a 2^level × 2^level grid
/// over lon [-180, 180] × lat [-90, 90], ids ascending. A better "where" than a bbox when a
/// blob's points lie in a few clusters (a long ferry route among a town's streets). Level 0
/// with cell 0 is the whole world (unknown); no cell, no point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cells {
    pub level: u8,
    pub ids: Vec<u32>,
}

impl Default for Cells {
    fn default() -> Self {
        Cells { level: CELL_LEVEL, ids: Vec::new() }
    }
}

/// Cell column and row of a point (1e-7 degrees) at `level`, clamped to the grid.
fn cell_xy(lat_e7: i64, lon_e7: i64, level: u8) -> (u32, u32) {
    let n = 1i64 << level;
    let x = ((lon_e7 + 1_800_000_000) * n).div_euclid(3_600_000_000).clamp(0, n - 1);
    let y = ((lat_e7 + 900_000_000) * n).div_euclid(1_800_000_000).clamp(0, n - 1);
    (x as u32, y as u32)
}

impl Cells {
    /// The whole world: every area meets it.
    pub fn world() -> Cells {
        Cells { level: 0, ids: vec![0] }
    }

    /// The cell at [`CELL_LEVEL`] of a point (1e-7 degrees): `cell_xy` at the constant level,
    /// in unsigned arithmetic (a multiply, no division).
    #[inline]
    pub fn cell_of(lat_e7: i32, lon_e7: i32) -> u32 {
        let n = 1u64 << CELL_LEVEL;
        let x = ((lon_e7 as i64 + 1_800_000_000).clamp(0, 3_599_999_999) as u64 * n / 3_600_000_000) as u32;
        let y = ((lat_e7 as i64 + 900_000_000).clamp(0, 1_799_999_999) as u64 * n / 1_800_000_000) as u32;
        (y << CELL_LEVEL) | x
    }

    /// The half-open bounds `[lat_lo, lon_lo, lat_hi, lon_hi]` (1e-7 degrees) of the points
    /// [`Cells::cell_of`] puts in `cell` without clamping: a point inside gets `cell` (the edge
    /// cells' clamped points fall outside and are merely computed again).
    pub fn cell_bounds(cell: u32) -> [i64; 4] {
        let n = 1i64 << CELL_LEVEL;
        let (x, y) = ((cell as i64) & (n - 1), (cell as i64) >> CELL_LEVEL);
        // The least v with v × n ≥ k × span, less the offset: where column or row k starts.
        let start = |k: i64, span: i64, offset: i64| (k * span + n - 1).div_euclid(n) - offset;
        [start(y, 1_800_000_000, 900_000_000), start(x, 3_600_000_000, 1_800_000_000), start(y + 1, 1_800_000_000, 900_000_000), start(x + 1, 3_600_000_000, 1_800_000_000)]
    }

    /// Notes a cell at [`CELL_LEVEL`] ([`Cells::cell_of`]); call [`Cells::tidy`] once all are in.
    #[inline]
    pub fn add(&mut self, id: u32) {
        debug_assert_eq!(self.level, CELL_LEVEL);
        if self.ids.last() != Some(&id) {
            self.ids.push(id);
        }
    }

    /// The bbox (1e-7 degrees, `[min_lat, min_lon, max_lat, max_lon]`) the cells cover; inverted
    /// when there is none.
    pub fn bbox_e7(&self) -> [i32; 4] {
        let mask = (1u32 << self.level) - 1;
        let lon = |x: u32| -1_800_000_000 + ((x as i64 * 3_600_000_000) >> self.level);
        let lat = |y: u32| -900_000_000 + ((y as i64 * 1_800_000_000) >> self.level);
        self.ids.iter().fold([i32::MAX, i32::MAX, i32::MIN, i32::MIN], |b, &id| {
            let (x, y) = (id & mask, id >> self.level);
            let cell = [lat(y), lon(x), lat(y + 1), lon(x + 1)].map(|v| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
            union(b, cell)
        })
    }

    /// Sorts the ids and drops repeats.
    pub fn tidy(&mut self) {
        self.ids.sort_unstable();
        self.ids.dedup();
    }

    /// Adds the cells of `other` (both at the same level).
    pub fn extend(&mut self, other: &Cells) {
        debug_assert_eq!(self.level, other.level);
        self.ids.extend_from_slice(&other.ids);
    }

    /// These cells merged into coarser ones until at most `max` remain.
    pub fn coarsened(mut self, max: usize) -> Cells {
        self.tidy();
        while self.ids.len() > max && self.level > 0 {
            let level = self.level;
            for id in &mut self.ids {
                let (x, y) = (*id & ((1 << level) - 1), *id >> level);
                *id = ((y >> 1) << (level - 1)) | (x >> 1);
            }
            self.level -= 1;
            self.tidy();
        }
        self
    }

    /// Whether a cell meets the area's bounds (conservative, as [`AreaTest::meets_bbox_e7`]).
    pub fn meet(&self, area: &AreaTest) -> bool {
        let [min_lat, max_lat, min_lon, max_lon] = area.bounds();
        let e7 = |d: f64| (d * 1e7).round() as i64;
        let (x0, y0) = cell_xy(e7(min_lat), e7(min_lon), self.level);
        let (x1, y1) = cell_xy(e7(max_lat), e7(max_lon), self.level);
        let mask = (1u32 << self.level) - 1;
        self.ids.iter().any(|&id| (x0..=x1).contains(&(id & mask)) && (y0..=y1).contains(&(id >> self.level)))
    }
}

/// What a scan notes for the index besides its [`BlockSummary`] (only when the query asks).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexPart {
    pub strings: StringFilter,
    /// The cells of its nodes (at [`CELL_LEVEL`]) by id bucket (`id >> REF_BUCKET_SHIFT`):
    /// `(bucket, cell)`, in the order met, repeats possible. The blob's own cells follow.
    pub bucket_cells: Vec<(i64, u32)>,
    /// The ways' node refs as runs of ref buckets (`id >> REF_BUCKET_SHIFT`), inclusive,
    /// ascending; empty when the ways carry their own locations.
    pub ref_runs: Vec<(i64, i64)>,
    /// The bbox of the ways' nodes in 1e-7 degrees, `[min_lat, min_lon, max_lat, max_lon]`,
    /// and their cells, when the ways carry locations (LocationsOnWays).
    pub way_bbox_e7: Option<[i32; 4]>,
    pub way_cells: Option<Cells>,
}

/// Collects ref buckets while a block's ways are decoded. A way's refs come back to the same
/// few buckets again and again: a small direct-mapped memory of buckets seen drops most
/// repeats before they are kept (sorting every ref's bucket cost a fifth of the read). Every
/// ref looks there: first testing "same bucket as the last ref" (true for 59 % of the 110 MB
/// file's refs, so mispredicted often) made the Wasm scan with the index 1.6 % slower.
#[derive(Debug)]
pub struct RefBuckets {
    ids: Vec<i64>,
    seen: Box<[i64; 1024]>,
}

impl Default for RefBuckets {
    fn default() -> Self {
        RefBuckets { ids: Vec::new(), seen: Box::new([i64::MIN; 1024]) }
    }
}

impl RefBuckets {
    #[inline]
    pub fn add(&mut self, node_id: i64) {
        let b = node_id >> REF_BUCKET_SHIFT;
        let slot = &mut self.seen[(b as usize) & 1023];
        if *slot != b {
            *slot = b;
            self.ids.push(b);
        }
    }

    /// The buckets as ascending inclusive runs. Buckets within [`BITMAP_SPAN`] of each other
    /// (a sorted file's way blob: the 110 MB file's ~3 200 a blob) go through a bitmap:
    /// sorting them had been a tenth of the index's cost to the scans.
    pub fn runs(mut self) -> Vec<(i64, i64)> {
        let (Some(&lo), Some(&hi)) = (self.ids.iter().min(), self.ids.iter().max()) else { return Vec::new() };
        // Buckets are ids >> REF_BUCKET_SHIFT: their difference cannot overflow.
        if hi - lo >= BITMAP_SPAN {
            self.ids.sort_unstable();
            return runs_of(self.ids.into_iter());
        }
        let mut bits = vec![0u64; ((hi - lo) as usize >> 6) + 1];
        for &b in &self.ids {
            let at = (b - lo) as usize;
            bits[at >> 6] |= 1 << (at & 63);
        }
        let set = bits.into_iter().enumerate().flat_map(|(w, mut word)| {
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros() as i64;
                    word &= word - 1;
                    ((w as i64) << 6) + bit
                })
            })
        });
        runs_of(set.map(|offset| lo + offset))
    }
}

/// The widest range of buckets [`RefBuckets::runs`] takes through a bitmap (8 KiB).
const BITMAP_SPAN: i64 = 1 << 16;

/// Ascending buckets (repeats allowed) as inclusive runs.
fn runs_of(buckets: impl Iterator<Item = i64>) -> Vec<(i64, i64)> {
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for b in buckets {
        match runs.last_mut() {
            Some(last) if b <= last.1 + 1 => last.1 = last.1.max(b),
            _ => runs.push((b, b)),
        }
    }
    runs
}

/// One OSMData blob in the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The frame's position in the file (the OSMHeader is 0) and its byte offset and size
    /// (BlobHeader length, BlobHeader and Blob).
    pub index: u32,
    pub offset: u64,
    pub size: u64,
    /// Its summary, `way_bbox_e7` included ([`WORLD_E7`] when unknown).
    pub summary: BlockSummary,
    /// Where its nodes are, and where its ways' nodes are ([`Cells::world`] when unknown).
    pub node_cells: Cells,
    pub way_cells: Cells,
    pub strings: StringFilter,
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
                    summary: BlockSummary { way_bbox_e7, ..*summary },
                    node_cells: node_cells.coarsened(MAX_CELLS),
                    way_cells: way_cells.coarsened(MAX_CELLS),
                    strings: part.strings.clone(),
                }
            })
            .collect();
        BlobIndex { identity, replication_timestamp, header_frame, counts, entries }
    }
}

fn union(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]
}

/// Fixed bytes per entry before its filter's words (see `docs/blob-index.md`).
const ENTRY_FIXED: usize = 4 + 8 + 4 + 1 + 6 * 8 + 8 * 4 + 8 + 2 * 3 + 2;
const HEADER: usize = 8 + 4 + 16 + 8 + 8 + 4 + 6 * 8 + 4;

impl BlobIndex {
    /// The index in its file format (little-endian, ending with the XXH64 of what precedes).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.entries.iter().map(|e| ENTRY_FIXED + e.strings.words.len() * 8).sum::<usize>() + 8);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.identity.to_bytes());
        out.extend_from_slice(&self.replication_timestamp.unwrap_or(i64::MIN).to_le_bytes());
        out.extend_from_slice(&self.header_frame.0.to_le_bytes());
        out.extend_from_slice(&(self.header_frame.1 as u32).to_le_bytes());
        let c = &self.counts;
        for n in [c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            let s = &e.summary;
            out.extend_from_slice(&e.index.to_le_bytes());
            out.extend_from_slice(&e.offset.to_le_bytes());
            out.extend_from_slice(&(e.size as u32).to_le_bytes());
            out.push(s.compression);
            for id in [s.min_node_id, s.max_node_id, s.min_way_id, s.max_way_id, s.min_relation_id, s.max_relation_id] {
                out.extend_from_slice(&id.to_le_bytes());
            }
            for v in s.bbox_e7.iter().chain(&s.way_bbox_e7) {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&s.max_timestamp.to_le_bytes());
            for cells in [&e.node_cells, &e.way_cells] {
                out.push(cells.level);
                out.extend_from_slice(&(cells.ids.len() as u16).to_le_bytes());
                let mut previous = 0;
                for &id in &cells.ids {
                    put_varint(&mut out, id - previous);
                    previous = id;
                }
            }
            out.extend_from_slice(&(e.strings.words.len() as u16).to_le_bytes());
            for w in &e.strings.words {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let sum = XxHash64::oneshot(0, &out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads an index in its file format.
    ///
    /// Errors: [`IndexError::Corrupt`] for another magic or version, a checksum mismatch, a
    /// cut or overlong body, entries out of file order or past the file's size.
    pub fn decode(bytes: &[u8]) -> Result<BlobIndex, IndexError> {
        let corrupt = |why: &str| IndexError::Corrupt(why.to_string());
        if bytes.len() < HEADER + 8 || bytes[..8] != MAGIC {
            return Err(corrupt("not a pbf-explorer blob index"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u32()?;
        if version != VERSION {
            return Err(IndexError::Corrupt(format!("format version {version}; this build reads {VERSION}")));
        }
        if XxHash64::oneshot(0, body) != u64_at(sum, 0) {
            return Err(corrupt("checksum mismatch"));
        }
        let identity = FileIdentity { size: r.u64()?, head_tail_hash: r.u64()? };
        let replication_timestamp = Some(r.i64()?).filter(|&t| t != i64::MIN);
        let header_frame = (r.u64()?, r.u32()? as u64);
        let mut n = [0u64; 6];
        for v in &mut n {
            *v = r.u64()?;
        }
        let counts = Counts { nodes: n[0], ways: n[1], relations: n[2], tags: n[3], way_refs: n[4], relation_members: n[5] };
        let count = r.u32()? as usize;
        if count > body.len() / ENTRY_FIXED {
            return Err(corrupt("more entries than bytes"));
        }
        let mut entries: Vec<IndexEntry> = Vec::with_capacity(count);
        for _ in 0..count {
            let (index, offset, size, compression) = (r.u32()?, r.u64()?, r.u32()? as u64, r.u8()?);
            let mut ids = [0i64; 6];
            for v in &mut ids {
                *v = r.i64()?;
            }
            let mut boxes = [0i32; 8];
            for v in &mut boxes {
                *v = r.i32()?;
            }
            let max_timestamp = r.i64()?;
            let mut cells = [Cells::default(), Cells::default()];
            for c in &mut cells {
                let level = r.u8()?;
                let n = r.u16()? as usize;
                c.level = level;
                let mut id = 0u32;
                for i in 0..n {
                    let delta = r.varint()?;
                    if i > 0 && delta == 0 {
                        return Err(corrupt("cells out of order"));
                    }
                    id = id.checked_add(delta).ok_or_else(|| corrupt("a cell outside its grid"))?;
                    c.ids.push(id);
                }
                if level > CELL_LEVEL || c.ids.iter().any(|&id| id as u64 >= 1u64 << (2 * level as u32)) {
                    return Err(corrupt("a cell outside its grid"));
                }
            }
            let [node_cells, way_cells] = cells;
            let words = r.u16()? as usize;
            let strings = StringFilter { words: (0..words).map(|_| r.u64()).collect::<Result<_, _>>()? };
            if offset.checked_add(size).is_none_or(|end| end > identity.size) || entries.last().is_some_and(|p| p.offset + p.size > offset || p.index >= index) {
                return Err(corrupt("blobs out of file order or past the file's end"));
            }
            let summary = BlockSummary {
                min_node_id: ids[0],
                max_node_id: ids[1],
                bbox_e7: [boxes[0], boxes[1], boxes[2], boxes[3]],
                way_bbox_e7: [boxes[4], boxes[5], boxes[6], boxes[7]],
                min_way_id: ids[2],
                max_way_id: ids[3],
                min_relation_id: ids[4],
                max_relation_id: ids[5],
                max_timestamp,
                compression,
            };
            entries.push(IndexEntry { index, offset, size, summary, node_cells, way_cells, strings });
        }
        if r.at != body.len() {
            return Err(corrupt("bytes after the last entry"));
        }
        Ok(BlobIndex { identity, replication_timestamp, header_frame, counts, entries })
    }

    /// This index, if it is `identity`'s.
    ///
    /// Errors: [`IndexError::Stale`] when it is another file's.
    pub fn check(self, identity: FileIdentity) -> Result<BlobIndex, IndexError> {
        if self.identity == identity {
            Ok(self)
        } else {
            Err(IndexError::Stale)
        }
    }
}

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
    pub fn plan(&self, query: &PreparedQuery) -> IndexedPlan {
        let area_nodes_complete = !query.area.is_everywhere();
        let entries = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                let admitted = query.expr.admits(&|s| e.strings.may_contain(s));
                let nodes = e.summary.has_nodes() && (admitted || area_nodes_complete) && e.nodes_meet(&query.area);
                let ways = e.summary.has_ways() && admitted && e.ways_meet(&query.area);
                nodes || ways || (e.summary.has_relations() && admitted)
            })
            .map(|(i, _)| i)
            .collect();
        IndexedPlan { entries, area_nodes_complete }
    }

    /// The bytes the blobs of `plan` span (what an indexed read fetches, the header aside).
    pub fn bytes_of(&self, plan: &IndexedPlan) -> u64 {
        plan.entries.iter().map(|&i| self.entries[i].size).sum()
    }
}

/// Appends `v` as a LEB128 varint (7 bits a byte, low first).
fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], IndexError> {
        let b = self.bytes.get(self.at..self.at + N).ok_or_else(|| IndexError::Corrupt("cut short".into()))?;
        self.at += N;
        Ok(b.try_into().expect("N bytes"))
    }
    fn u8(&mut self) -> Result<u8, IndexError> {
        Ok(self.take::<1>()?[0])
    }
    fn varint(&mut self) -> Result<u32, IndexError> {
        let mut v = 0u32;
        for shift in (0..35).step_by(7) {
            let b = self.u8()?;
            v |= u32::from(b & 0x7f).checked_shl(shift).filter(|_| shift < 28 || b < 0x10).ok_or_else(|| IndexError::Corrupt("a varint over 32 bits".into()))?;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(IndexError::Corrupt("a varint over 32 bits".into()))
    }
    fn u16(&mut self) -> Result<u16, IndexError> {
        self.take().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Result<u32, IndexError> {
        self.take().map(u32::from_le_bytes)
    }
    fn i32(&mut self) -> Result<i32, IndexError> {
        self.take().map(i32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, IndexError> {
        self.take().map(u64::from_le_bytes)
    }
    fn i64(&mut self) -> Result<i64, IndexError> {
        self.take().map(i64::from_le_bytes)
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
        // Format version 3: every `.idx` holds filters of these values. They were computed by
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
