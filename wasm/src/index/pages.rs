//! Format 5 of the index: a small head and pages, so that a reader over HTTP fetches the pages
//! its area needs, not the whole index (`docs/blob-index.md`, "Pages").
//!
//! The entries, in file order, are cut into leaf pages of about [`LEAF_BYTES`] (relation blobs
//! apart from the others, so a query's area does not pull them in); each page has a record
//! above it: its checksum, where it is, and the union of what its blobs may hold, as an
//! [`IndexEntry`] with no string filter (a stub). Records are grouped [`FANOUT`] a page, level
//! after level, until the top level fits in the head. A reader fetches the head, then the pages
//! whose stubs its read may need, down to the entries: a page is fetched only when one of its
//! blobs may be read. Stubs stand for their pages in the read plan under frame indexes from
//! [`STUB_BASE`] on.

use twox_hash::XxHash64;

use super::file::{check_order, get_entry, get_facts, put_entry, put_facts, version_of, Reader, ENTRY_FIXED};
use super::*;
use crate::summary::BlockSummary;

/// Frame indexes from here on name pages not fetched yet (stubs), not frames: a file has far
/// fewer than 2^31 frames.
pub const STUB_BASE: u32 = 1 << 31;
/// A leaf page's entries take at most this many bytes, unless one entry alone takes more
/// (`docs/decisions.md`: 2 KiB fetched less of the index than 4 or 8 KiB).
const LEAF_BYTES: usize = 2 << 10;
/// Records a page of records, and the head, hold at most.
const FANOUT: usize = 32;
/// Cells a record keeps of its page's blobs (coarsened beyond).
const RECORD_CELLS: usize = 64;
/// Bytes of a head before its root's items: magic, version, head length, the file's facts,
/// the entry count, the root's kind and item count.
const HEAD_FIXED: usize = 8 + 4 + 4 + 16 + 8 + 8 + 4 + 6 * 8 + 4 + 1 + 4;

/// A page's record: its checksum, whether it holds records or entries, and a stub whose
/// `offset` and `size` are the page's bytes in the index file and whose summary and cells are
/// the union of its blobs' (no string filter: it admits every query's strings).
#[derive(Debug, Clone, PartialEq)]
struct Record {
    hash: u64,
    holds_records: bool,
    stub: IndexEntry,
}

fn put_record(out: &mut Vec<u8>, record: &Record) {
    out.extend_from_slice(&record.hash.to_le_bytes());
    out.push(record.holds_records as u8);
    put_entry(out, &record.stub);
}

fn get_record(r: &mut Reader) -> Result<Record, IndexError> {
    let hash = r.u64()?;
    let holds_records = match r.u8()? {
        0 => false,
        1 => true,
        _ => return Err(IndexError::Corrupt("a page of an unknown kind".into())),
    };
    Ok(Record { hash, holds_records, stub: get_entry(r)? })
}

/// What any of `items` may hold: id ranges, bboxes and cells grown to hold all of theirs;
/// relations placed only when all of theirs are.
fn union_of(items: &[&IndexEntry]) -> IndexEntry {
    const NONE: [i32; 4] = [i32::MAX, i32::MAX, i32::MIN, i32::MIN];
    let grow = |b: &mut [i32; 4], o: [i32; 4]| *b = [b[0].min(o[0]), b[1].min(o[1]), b[2].max(o[2]), b[3].max(o[3])];
    let placed_ways = |e: &IndexEntry| e.summary.has_ways() || (e.summary.has_relations() && e.relations_placed);
    let mut s = BlockSummary { way_bbox_e7: NONE, ..BlockSummary::default() };
    for e in items {
        let o = &e.summary;
        s.min_node_id = s.min_node_id.min(o.min_node_id);
        s.max_node_id = s.max_node_id.max(o.max_node_id);
        s.min_way_id = s.min_way_id.min(o.min_way_id);
        s.max_way_id = s.max_way_id.max(o.max_way_id);
        s.min_relation_id = s.min_relation_id.min(o.min_relation_id);
        s.max_relation_id = s.max_relation_id.max(o.max_relation_id);
        s.max_timestamp = s.max_timestamp.max(o.max_timestamp);
        if o.has_nodes() {
            grow(&mut s.bbox_e7, o.bbox_e7);
        }
        if placed_ways(e) {
            grow(&mut s.way_bbox_e7, o.way_bbox_e7);
        }
    }
    let cells_of = |cells: Vec<&Cells>| if cells.is_empty() { Cells::default() } else { Cells::union(cells.into_iter()).coarsened(RECORD_CELLS) };
    IndexEntry {
        index: 0,
        offset: 0,
        size: 0,
        blob_hash: 0,
        summary: s,
        node_cells: cells_of(items.iter().filter(|e| e.summary.has_nodes()).map(|e| &e.node_cells).collect()),
        way_cells: cells_of(items.iter().filter(|e| placed_ways(e)).map(|e| &e.way_cells).collect()),
        strings: StringFilter::default(),
        relations_placed: items.iter().all(|e| !e.summary.has_relations() || e.relations_placed),
        unplaced_ways: items.iter().any(|e| e.unplaced_ways),
    }
}

/// Appends a page (`holds_records`, its item count, its items' bytes) to `body`: its record,
/// `stub` placed at the page's offset in `body`.
fn write_page(body: &mut Vec<u8>, holds_records: bool, count: usize, items: &[u8], mut stub: IndexEntry) -> Record {
    let mut page = vec![holds_records as u8];
    page.extend_from_slice(&(count as u32).to_le_bytes());
    page.extend_from_slice(items);
    stub.offset = body.len() as u64;
    stub.size = page.len() as u64;
    body.extend_from_slice(&page);
    Record { hash: XxHash64::oneshot(0, &page), holds_records, stub }
}

/// The index in its format: its head (with the top level of records, or every entry when they
/// fit in one leaf), then its pages. Offsets in records count from the end of the head.
pub(super) fn encode(index: &BlobIndex) -> Vec<u8> {
    // Leaves: entries in file order, relation blobs apart.
    let relation_only = |e: &IndexEntry| e.summary.has_relations() && !e.summary.has_nodes() && !e.summary.has_ways();
    let mut leaves: Vec<(Vec<&IndexEntry>, Vec<u8>)> = Vec::new();
    for e in &index.entries {
        let mut bytes = Vec::new();
        put_entry(&mut bytes, e);
        match leaves.last_mut() {
            Some((items, page)) if page.len() + bytes.len() <= LEAF_BYTES && relation_only(items[0]) == relation_only(e) => {
                items.push(e);
                page.extend_from_slice(&bytes);
            }
            _ => leaves.push((vec![e], bytes)),
        }
    }
    let mut body = Vec::new();
    let root: (bool, usize, Vec<u8>) = if leaves.len() <= 1 {
        leaves.pop().map_or((false, 0, Vec::new()), |(items, bytes)| (false, items.len(), bytes))
    } else {
        let mut level: Vec<Record> = leaves.iter().map(|(items, bytes)| write_page(&mut body, false, items.len(), bytes, union_of(items))).collect();
        while level.len() > FANOUT {
            level = level
                .chunks(FANOUT)
                .map(|group| {
                    let mut bytes = Vec::new();
                    group.iter().for_each(|r| put_record(&mut bytes, r));
                    let stubs: Vec<&IndexEntry> = group.iter().map(|r| &r.stub).collect();
                    write_page(&mut body, true, group.len(), &bytes, union_of(&stubs))
                })
                .collect();
        }
        let mut bytes = Vec::new();
        level.iter().for_each(|r| put_record(&mut bytes, r));
        (true, level.len(), bytes)
    };
    let mut out = Vec::with_capacity(HEAD_FIXED + root.2.len() + 8 + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let head_len = (HEAD_FIXED + root.2.len() + 8) as u32;
    out.extend_from_slice(&head_len.to_le_bytes());
    put_facts(&mut out, index);
    out.extend_from_slice(&(index.entries.len() as u32).to_le_bytes());
    out.push(root.0 as u8);
    out.extend_from_slice(&(root.1 as u32).to_le_bytes());
    out.extend_from_slice(&root.2);
    let sum = XxHash64::oneshot(0, &out);
    out.extend_from_slice(&sum.to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// A format-5 index read from its head: the file's facts, the entries of the pages fetched so
/// far, and the pages not fetched yet, as stubs.
#[derive(Debug, Clone)]
pub struct IndexHead {
    /// The file's facts, and the entries fetched so far (in the order they came).
    pub index: BlobIndex,
    /// Pages not fetched yet: stubs named `STUB_BASE + n`, `offset` and `size` in the index file.
    pending: Vec<Record>,
    /// Offsets of the pages named so far (fetched or pending), relative to the head's end: a
    /// page named twice would let an index loop.
    named: Vec<u64>,
    /// Bytes of the head: where the pages' offsets count from.
    head_len: u64,
    /// The entries the index holds in all.
    total: usize,
}

/// Whether checksums are compared: not in fuzzing builds (cargo fuzz sets `cfg(fuzzing)`), so
/// that mutated heads and pages reach the parser behind them (`wasm/fuzz`, `decode_index`).
const CHECKSUMS: bool = !cfg!(fuzzing);

impl IndexHead {
    /// The bytes of the head of the index that starts with `bytes` (its first 16 are enough);
    /// None when it is not an index of the version this build reads.
    pub fn head_len(bytes: &[u8]) -> Option<u64> {
        (version_of(bytes).is_some() && bytes.len() >= 16).then(|| u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as u64)
    }

    /// Reads the head at the start of `bytes` (the pages after it need not be there).
    ///
    /// Errors: [`IndexError::Corrupt`] when `bytes` are not an index of this version, are cut short of
    /// the head, or the head's checksum does not match.
    pub fn decode(bytes: &[u8]) -> Result<IndexHead, IndexError> {
        let corrupt = |why: &str| IndexError::Corrupt(why.to_string());
        let head_len = IndexHead::head_len(bytes).ok_or_else(|| corrupt("not a paged blob index"))? as usize;
        if head_len < HEAD_FIXED + 8 || bytes.len() < head_len {
            return Err(corrupt("cut short"));
        }
        let (head, sum) = bytes[..head_len].split_at(head_len - 8);
        if CHECKSUMS && XxHash64::oneshot(0, head) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(corrupt("checksum mismatch"));
        }
        let mut r = Reader { bytes: head, at: 16 };
        let index = get_facts(&mut r)?;
        let total = r.u32()? as usize;
        let mut out = IndexHead { index, pending: Vec::new(), named: Vec::new(), head_len: head_len as u64, total };
        out.take_items(&mut r)?;
        if r.at != head.len() {
            return Err(corrupt("bytes after the head's last item"));
        }
        Ok(out)
    }

    /// Takes the items at `r` (a kind byte, a count, then entries or records).
    fn take_items(&mut self, r: &mut Reader) -> Result<(), IndexError> {
        let corrupt = |why: &str| IndexError::Corrupt(why.to_string());
        let holds_records = r.u8()? == 1;
        let count = r.u32()? as usize;
        if count > r.bytes.len() / ENTRY_FIXED {
            return Err(corrupt("more items than bytes"));
        }
        for _ in 0..count {
            if holds_records {
                let mut record = get_record(r)?;
                if self.named.contains(&record.stub.offset) {
                    return Err(corrupt("a page named twice"));
                }
                self.named.push(record.stub.offset);
                record.stub.index = STUB_BASE + self.named.len() as u32;
                // Where the page starts in the index file, and where it ends, must be numbers.
                record.stub.offset = record.stub.offset.checked_add(self.head_len).filter(|from| from.checked_add(record.stub.size).is_some()).ok_or_else(|| corrupt("a page past any file"))?;
                self.pending.push(record);
            } else {
                self.index.entries.push(get_entry(r)?);
            }
        }
        if self.index.entries.len() > self.total {
            return Err(corrupt("more entries than the head counts"));
        }
        Ok(())
    }

    /// The pages not fetched yet, as stubs (frame index from [`STUB_BASE`] on; `offset` and
    /// `size`: the page's bytes in the index file).
    pub fn stubs(&self) -> impl Iterator<Item = &IndexEntry> {
        self.pending.iter().map(|r| &r.stub)
    }

    /// Takes the bytes of the page of stub `stub`; returns the entries it held and the stubs of
    /// the pages it names, which are pending now.
    ///
    /// Errors: [`IndexError::Corrupt`] when no pending page has that stub, or the bytes are not
    /// the page its record describes (size, checksum, kind, contents).
    pub fn add_page(&mut self, stub: u32, bytes: &[u8]) -> Result<(Vec<IndexEntry>, Vec<IndexEntry>), IndexError> {
        let corrupt = |why: &str| IndexError::Corrupt(why.to_string());
        let at = self.pending.iter().position(|r| r.stub.index == stub).ok_or_else(|| corrupt("a page not asked for"))?;
        let record = self.pending.remove(at);
        if bytes.len() as u64 != record.stub.size || (CHECKSUMS && XxHash64::oneshot(0, bytes) != record.hash) {
            return Err(corrupt("a page's checksum mismatch"));
        }
        if bytes.first().map(|&k| k == 1) != Some(record.holds_records) {
            return Err(corrupt("a page of another kind than its record says"));
        }
        let (entries_before, pending_before) = (self.index.entries.len(), self.pending.len());
        let mut r = Reader { bytes, at: 0 };
        self.take_items(&mut r)?;
        if r.at != bytes.len() {
            return Err(corrupt("bytes after a page's last item"));
        }
        let entries = self.index.entries[entries_before..].to_vec();
        if entries.iter().any(|e| e.index >= STUB_BASE) {
            return Err(corrupt("a blob's frame index out of range"));
        }
        Ok((entries, self.pending[pending_before..].iter().map(|r| r.stub.clone()).collect()))
    }

    /// The whole index, once every page is fetched.
    ///
    /// Errors: [`IndexError::Corrupt`] when pages are pending, entries are missing, or they are
    /// out of file order.
    pub fn into_index(mut self) -> Result<BlobIndex, IndexError> {
        if !self.pending.is_empty() || self.index.entries.len() != self.total {
            return Err(IndexError::Corrupt("entries missing".into()));
        }
        self.index.entries.sort_by_key(|e| e.index);
        check_order(&self.index.entries, self.index.identity.size)?;
        Ok(self.index)
    }
}

/// Reads a whole format-5 index: its head, then every page.
pub(super) fn decode_whole(bytes: &[u8]) -> Result<BlobIndex, IndexError> {
    let mut head = IndexHead::decode(bytes)?;
    let mut end = head.head_len as usize;
    loop {
        let Some(stub) = head.stubs().next().cloned() else { break };
        let (from, to) = (stub.offset as usize, (stub.offset + stub.size) as usize);
        let page = bytes.get(from..to).ok_or_else(|| IndexError::Corrupt("cut short".into()))?;
        end = end.max(to);
        head.add_page(stub.index, page)?;
    }
    if end != bytes.len() {
        return Err(IndexError::Corrupt("bytes after the last page".into()));
    }
    head.into_index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::area::Area;
    use crate::query::Query;

    /// An index of `n` node blobs in a row along the equator, 0.01° apart, and 10 relation blobs.
    fn index_of(n: u32) -> BlobIndex {
        let mut entries: Vec<IndexEntry> = (0..n)
            .map(|i| {
                let lon = i as i32 * 100_000;
                let mut node_cells = Cells { level: 16, ids: vec![Cells::cell_at(0, lon, 16)] };
                node_cells.tidy();
                IndexEntry {
                    index: i + 1,
                    offset: 100 + i as u64 * 1000,
                    size: 1000,
                    blob_hash: i as u64,
                    summary: BlockSummary { min_node_id: i as i64 * 10, max_node_id: i as i64 * 10 + 9, bbox_e7: [0, lon, 0, lon], ..BlockSummary::default() },
                    node_cells,
                    way_cells: Cells::default(),
                    strings: StringFilter::of(&["amenity", "cafe", &format!("name {i}")]),
                    relations_placed: false,
                    unplaced_ways: false,
                }
            })
            .collect();
        for k in 0..10u32 {
            let i = n + k;
            let lon = k as i32 * 100_000 * (n as i32 / 10);
            entries.push(IndexEntry {
                index: i + 1,
                offset: 100 + i as u64 * 1000,
                size: 1000,
                blob_hash: i as u64,
                summary: BlockSummary { min_relation_id: k as i64, max_relation_id: k as i64, way_bbox_e7: [0, lon, 0, lon], ..BlockSummary::default() },
                node_cells: Cells::default(),
                way_cells: Cells { level: 16, ids: vec![Cells::cell_at(0, lon, 16)] },
                strings: StringFilter::of(&["type", "route", "amenity", "cafe"]),
                relations_placed: true,
                unplaced_ways: false,
            });
        }
        BlobIndex { identity: FileIdentity::of(100 + (n as u64 + 10) * 1000, b"h", b"t"), replication_timestamp: None, header_frame: (0, 100), counts: Counts::default(), entries }
    }

    /// Fetches the pages a first read of `query` takes, as the read plan does; the bytes fetched.
    fn fetch_for(bytes: &[u8], query: &crate::query::PreparedQuery) -> (IndexHead, usize) {
        let mut head = IndexHead::decode(bytes).unwrap();
        let mut fetched = head.head_len as usize;
        loop {
            let wanted: Vec<IndexEntry> = head.stubs().filter(|s| s.first_read_takes(query, true)).cloned().collect();
            if wanted.is_empty() {
                return (head, fetched);
            }
            for s in wanted {
                fetched += s.size as usize;
                head.add_page(s.index, &bytes[s.offset as usize..(s.offset + s.size) as usize]).unwrap();
            }
        }
    }

    #[test]
    fn a_paged_index_reads_back_whole_and_a_query_fetches_only_its_areas_pages() {
        let index = index_of(3000);
        let bytes = index.encode();
        assert_eq!(BlobIndex::decode(&bytes).unwrap(), index);
        let head_len = IndexHead::head_len(&bytes).unwrap() as usize;
        assert!(head_len < bytes.len() / 20, "head {head_len} of {} bytes", bytes.len());
        // 1 km around a point of the row: the entries near it are fetched, few others.
        let query = Query::from_tags("amenity=cafe", Area::Circle { lat: 0.0, lon: 15.0, radius: 1000.0 }).unwrap().prepare().unwrap();
        let (head, fetched) = fetch_for(&bytes, &query);
        let mut fetched_index = BlobIndex { entries: head.index.entries.clone(), ..index.clone() };
        fetched_index.entries.sort_by_key(|e| e.index);
        let plan = fetched_index.plan(&query);
        let head = IndexHead { index: fetched_index, ..head };
        assert_eq!(plan.entries.len(), index.plan(&query).entries.len());
        assert!(fetched < bytes.len() / 10, "fetched {fetched} of {} bytes", bytes.len());
        // The relation blobs are placed: only the one whose members meet the area is read.
        assert_eq!(plan.entries.iter().filter(|&&i| head.index.entries[i].summary.has_relations()).count(), 1);
    }

    #[test]
    fn a_damaged_page_or_head_is_refused() {
        let bytes = index_of(3000).encode();
        let head_len = IndexHead::head_len(&bytes).unwrap() as usize;
        let mut bad_head = bytes.clone();
        bad_head[head_len - 20] ^= 1;
        assert!(IndexHead::decode(&bad_head).is_err());
        let mut head = IndexHead::decode(&bytes).unwrap();
        let stub = head.stubs().next().unwrap().clone();
        let mut page = bytes[stub.offset as usize..(stub.offset + stub.size) as usize].to_vec();
        page[10] ^= 1;
        assert!(head.add_page(stub.index, &page).is_err());
        let mut bad_body = bytes.clone();
        let last = bad_body.len() - 3;
        bad_body[last] ^= 1;
        assert!(BlobIndex::decode(&bad_body).is_err());
        assert!(BlobIndex::decode(&bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn a_page_at_an_offset_past_any_file_is_refused() {
        // A hostile head may name a page near u64::MAX: adding the head's length must not wrap
        // round to a page inside the file (found by the decode_index fuzz target).
        let bytes = index_of(3000).encode();
        let head = IndexHead::decode(&bytes).unwrap();
        let stub = head.stubs().last().unwrap().clone();
        let stored = (stub.offset - head.head_len).to_le_bytes();
        let head_len = head.head_len as usize;
        let at = bytes[16..head_len].windows(8).position(|w| w == stored).unwrap() + 16;
        let mut hostile = bytes.clone();
        hostile[at..at + 8].copy_from_slice(&(u64::MAX - 10).to_le_bytes());
        let sum = XxHash64::oneshot(0, &hostile[..head_len - 8]);
        hostile[head_len - 8..head_len].copy_from_slice(&sum.to_le_bytes());
        let refused = IndexHead::decode(&hostile).map(|_| ()).unwrap_err().to_string();
        assert!(refused.contains("a page past any file"), "{refused}");
    }
}
