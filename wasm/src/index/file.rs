//! The index's file format (`docs/blob-index.md`): little-endian, versioned, with a checksum.

use super::*;
use crate::summary::{BlockSummary, Counts};

/// Fixed bytes per entry besides its cells' varints and its filter's words (see `docs/blob-index.md`).
pub(super) const ENTRY_FIXED: usize = 4 + 8 + 4 + 8 + 1 + 6 * 8 + 8 * 4 + 8 + 2 * 3 + 2 + 1;

impl BlobIndex {
    /// The index in its file format: a head and pages ([`pages`]).
    pub fn encode(&self) -> Vec<u8> {
        pages::encode(self)
    }

    /// Reads a whole index in its file format.
    ///
    /// Errors: [`IndexError::Corrupt`] for another magic or version (an older one has no blob
    /// checksums: index the file again), a checksum mismatch, a cut or overlong body, entries out
    /// of file order or past the file's size.
    pub fn decode(bytes: &[u8]) -> Result<BlobIndex, IndexError> {
        match version_of(bytes) {
            Some(_) => pages::decode_whole(bytes),
            None if bytes.len() >= 12 && bytes[..8] == MAGIC => {
                let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
                Err(IndexError::Corrupt(format!("format version {version}; this build reads {VERSION} (index the file again)")))
            }
            None => Err(IndexError::Corrupt("not a pbf-explorer blob index".into())),
        }
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

/// The format version of index `bytes` when this build reads it (their first 12 bytes).
pub(super) fn version_of(bytes: &[u8]) -> Option<u32> {
    if bytes.len() < 12 || bytes[..8] != MAGIC {
        return None;
    }
    Some(u32::from_le_bytes(bytes[8..12].try_into().ok()?)).filter(|&v| v == VERSION)
}

/// Writes the file's facts a head holds after its version and length.
pub(super) fn put_facts(out: &mut Vec<u8>, index: &BlobIndex) {
    out.extend_from_slice(&index.identity.to_bytes());
    out.extend_from_slice(&index.replication_timestamp.unwrap_or(i64::MIN).to_le_bytes());
    out.extend_from_slice(&index.header_frame.0.to_le_bytes());
    out.extend_from_slice(&(index.header_frame.1 as u32).to_le_bytes());
    let c = &index.counts;
    for n in [c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members] {
        out.extend_from_slice(&n.to_le_bytes());
    }
}

/// Reads what [`put_facts`] wrote: an index with no entries yet.
pub(super) fn get_facts(r: &mut Reader) -> Result<BlobIndex, IndexError> {
    let identity = FileIdentity { size: r.u64()?, head_tail_hash: r.u64()? };
    let replication_timestamp = Some(r.i64()?).filter(|&t| t != i64::MIN);
    let header_frame = (r.u64()?, r.u32()? as u64);
    let mut n = [0u64; 6];
    for v in &mut n {
        *v = r.u64()?;
    }
    let counts = Counts { nodes: n[0], ways: n[1], relations: n[2], tags: n[3], way_refs: n[4], relation_members: n[5] };
    Ok(BlobIndex { identity, replication_timestamp, header_frame, counts, entries: Vec::new() })
}

/// Writes one entry (`docs/blob-index.md`).
pub(super) fn put_entry(out: &mut Vec<u8>, e: &IndexEntry) {
    let s = &e.summary;
    out.extend_from_slice(&e.index.to_le_bytes());
    out.extend_from_slice(&e.offset.to_le_bytes());
    out.extend_from_slice(&(e.size as u32).to_le_bytes());
    out.extend_from_slice(&e.blob_hash.to_le_bytes());
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
            put_varint(out, id - previous);
            previous = id;
        }
    }
    out.extend_from_slice(&(e.strings.words.len() as u16).to_le_bytes());
    for w in &e.strings.words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.push(e.relations_placed as u8 | (e.unplaced_ways as u8) << 1);
}

/// Reads one entry as [`put_entry`] wrote it.
pub(super) fn get_entry(r: &mut Reader) -> Result<IndexEntry, IndexError> {
    let corrupt = |why: &str| IndexError::Corrupt(why.to_string());
    let (index, offset, size, blob_hash, compression) = (r.u32()?, r.u64()?, r.u32()? as u64, r.u64()?, r.u8()?);
    // The file facts name it from the list: another number is no compression of the format.
    if compression as usize >= crate::format::blob::COMPRESSIONS.len() {
        return Err(corrupt("an entry's compression is none of the format's"));
    }
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
        if level > MAX_CELL_LEVEL || c.ids.iter().any(|&id| id as u64 >= 1u64 << (2 * level as u32)) {
            return Err(corrupt("a cell outside its grid"));
        }
    }
    let [node_cells, way_cells] = cells;
    let words = r.u16()? as usize;
    let strings = StringFilter { words: (0..words).map(|_| r.u64()).collect::<Result<_, _>>()? };
    let bits = r.u8()?;
    let (relations_placed, unplaced_ways) = (bits & 1 == 1, bits & 2 == 2);
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
    Ok(IndexEntry { index, offset, size, blob_hash, summary, node_cells, way_cells, strings, relations_placed, unplaced_ways })
}

/// Checks that `entries` are in file order, do not overlap, lie within the file and name
/// frames, not pages.
pub(super) fn check_order(entries: &[IndexEntry], file_size: u64) -> Result<(), IndexError> {
    let bad = entries.iter().any(|e| e.index >= STUB_BASE || e.offset.checked_add(e.size).is_none_or(|end| end > file_size))
        || entries.windows(2).any(|p| p[0].offset + p[0].size > p[1].offset || p[0].index >= p[1].index);
    if bad {
        return Err(IndexError::Corrupt("blobs out of file order or past the file's end".into()));
    }
    Ok(())
}

/// Appends `v` as a LEB128 varint (7 bits a byte, low first).
pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(super) struct Reader<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
}

impl Reader<'_> {
    pub fn take<const N: usize>(&mut self) -> Result<[u8; N], IndexError> {
        let b = self.bytes.get(self.at..self.at + N).ok_or_else(|| IndexError::Corrupt("cut short".into()))?;
        self.at += N;
        Ok(b.try_into().expect("N bytes"))
    }
    pub fn u8(&mut self) -> Result<u8, IndexError> {
        Ok(self.take::<1>()?[0])
    }
    pub fn varint(&mut self) -> Result<u32, IndexError> {
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
    pub fn u16(&mut self) -> Result<u16, IndexError> {
        self.take().map(u16::from_le_bytes)
    }
    pub fn u32(&mut self) -> Result<u32, IndexError> {
        self.take().map(u32::from_le_bytes)
    }
    pub fn i32(&mut self) -> Result<i32, IndexError> {
        self.take().map(i32::from_le_bytes)
    }
    pub fn u64(&mut self) -> Result<u64, IndexError> {
        self.take().map(u64::from_le_bytes)
    }
    pub fn i64(&mut self) -> Result<i64, IndexError> {
        self.take().map(i64::from_le_bytes)
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_round_trips_with_its_blob_checksum_and_older_versions_are_refused() {
        let entry = IndexEntry {
            index: 1,
            offset: 20,
            size: 30,
            blob_hash: blob_hash(b"a Blob's bytes"),
            summary: BlockSummary { min_node_id: 5, max_node_id: 9, bbox_e7: [1, 2, 3, 4], ..BlockSummary::default() },
            node_cells: Cells { level: 12, ids: vec![3, 70] },
            way_cells: Cells::default(),
            strings: StringFilter::of(&["cafe"]),
            relations_placed: true,
            unplaced_ways: true,
        };
        let index = BlobIndex { identity: FileIdentity::of(100, b"ab", b"cd"), replication_timestamp: Some(7), header_frame: (0, 20), counts: Counts::default(), entries: vec![entry] };
        let bytes = index.encode();
        assert_eq!(BlobIndex::decode(&bytes).unwrap(), index);
        for version in [3u32, 4, 5, 7] {
            let mut other = bytes.clone();
            other[8..12].copy_from_slice(&version.to_le_bytes());
            let Err(IndexError::Corrupt(why)) = BlobIndex::decode(&other) else { panic!("version {version} read") };
            assert!(why.contains(&format!("format version {version}; this build reads 6")), "{why}");
        }
        assert!(BlobIndex::decode(b"PBFIDX").is_err());
    }
}
