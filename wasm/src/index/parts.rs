//! What a scan notes of a block for the blob index: a Bloom filter of its string table, the
//! cells its nodes (and its ways' nodes) lie in, and the buckets of node ids its ways refer to.

use super::*;

/// Bloom filter bits per string of a block's table, and the filter's largest size (bits):
/// with [`PROBES`] probes a string the table lacks passes about 9 % of the time, a key=value
/// pair under 1 %, and the index stays under 1 % of the file (`docs/decisions.md`).
const BITS_PER_STRING: usize = 5;
const MAX_FILTER_BITS: usize = 1 << 16;
const PROBES: u32 = 3;
/// Node ids are grouped in buckets of `id >> REF_BUCKET_SHIFT` (1024 ids): node blobs note the
/// cells of each bucket, way blobs the buckets of their refs, and a way blob's cells are those
/// of its buckets. Small enough that a ferry route's far nodes mark only the ways that use them;
/// 256 ids cost the build ≈ 14 ms more in Wasm for 0.3–1.2 points less of the file read by a
/// re-query (`docs/decisions.md`).
pub const REF_BUCKET_SHIFT: u32 = 10;

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

/// The string filters' hash (format versions 3 and 4): a string's length and its first, middle and
/// last eight bytes (all of a string of up to 24 bytes) mixed by 64-bit multiplies, as
/// `docs/blob-index.md` spells out. A Bloom filter needs only that different strings mostly
/// probe different bits: two strings of over 24 bytes that agree where this reads share their
/// probes, which can cost a blob read, never an answer. Constant time and no 64×64→128
/// multiply (a libcall in wasm32, which XXH3 makes for strings of 9 to 128 bytes: 66 % of the
/// 110 MB file's): the index build's cost in Wasm −8 to −12 ms (`docs/decisions.md`).
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

    /// The cell at `level` (at most 16) of a point (1e-7 degrees), clamped to the grid.
    pub fn cell_at(lat_e7: i32, lon_e7: i32, level: u8) -> u32 {
        let (x, y) = cell_xy(lat_e7 as i64, lon_e7 as i64, level);
        (y << level) | x
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
            self = self.at_level(self.level - 1);
        }
        self
    }

    /// These cells at `level` (at most theirs): each one's parent there, sorted, no repeats.
    pub fn at_level(&self, level: u8) -> Cells {
        let d = self.level - level.min(self.level);
        let mask = (1u32 << self.level) - 1;
        let mut ids: Vec<u32> = self.ids.iter().map(|&id| (((id >> self.level) >> d) << (self.level - d)) | ((id & mask) >> d)).collect();
        ids.sort_unstable();
        ids.dedup();
        Cells { level: self.level - d, ids }
    }

    /// The cells of all of `cells`, at the coarsest level among them.
    pub fn union<'a>(cells: impl Iterator<Item = &'a Cells> + Clone) -> Cells {
        let level = cells.clone().map(|c| c.level).min().unwrap_or(CELL_LEVEL);
        let mut ids: Vec<u32> = cells.flat_map(|c| c.at_level(level).ids).collect();
        ids.sort_unstable();
        ids.dedup();
        Cells { level, ids }
    }

    /// Whether a cell of these and one of `other` overlap (compared at the coarser level).
    pub fn meet_cells(&self, other: &Cells) -> bool {
        let level = self.level.min(other.level);
        let (a, b) = (self.at_level(level).ids, other.at_level(level).ids);
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
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
    /// The Blob's [`blob_hash`], set by the read plan as it takes the scan (the decode worker
    /// hashes the bytes it was sent).
    pub blob_hash: u64,
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
pub(crate) const BITMAP_SPAN: i64 = 1 << 16;

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

pub(crate) fn union(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]
}
