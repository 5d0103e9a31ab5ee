//! The index's file format (`docs/blob-index.md`): little-endian, versioned, with a checksum.

use twox_hash::XxHash64;

use super::*;
use crate::summary::{BlockSummary, Counts};

/// Fixed bytes per entry before its filter's words (see `docs/blob-index.md`).
const ENTRY_FIXED: usize = 4 + 8 + 4 + 1 + 6 * 8 + 8 * 4 + 8 + 2 * 3 + 2;
const HEADER: usize = 8 + 4 + 16 + 8 + 8 + 4 + 6 * 8 + 4;

impl BlobIndex {
    /// How many bytes at each end of its file the identity in the index `bytes` hashes
    /// ([`IDENTITY_SPAN`], or [`IDENTITY_SPAN_V3`] in format 3); None when `bytes` do not start
    /// as an index of a version this build reads. Only the first 12 bytes are looked at.
    pub fn identity_span(bytes: &[u8]) -> Option<u64> {
        if bytes.len() < 12 || bytes[..8] != MAGIC {
            return None;
        }
        match u32::from_le_bytes(bytes[8..12].try_into().ok()?) {
            3 => Some(IDENTITY_SPAN_V3),
            v if (OLDEST_VERSION..=VERSION).contains(&v) => Some(IDENTITY_SPAN),
            _ => None,
        }
    }

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
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(IndexError::Corrupt(format!("format version {version}; this build reads {OLDEST_VERSION} to {VERSION}")));
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
                if level > MAX_CELL_LEVEL || c.ids.iter().any(|&id| id as u64 >= 1u64 << (2 * level as u32)) {
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

    /// `index` encoded as format `version` (the layouts of 3 and 4 are the same).
    fn as_version(index: &BlobIndex, version: u32) -> Vec<u8> {
        let mut bytes = index.encode();
        bytes[8..12].copy_from_slice(&version.to_le_bytes());
        let body = bytes.len() - 8;
        let sum = XxHash64::oneshot(0, &bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn an_index_of_format_3_is_read_and_names_its_identitys_span() {
        let index = BlobIndex { identity: FileIdentity::of(10, b"ab", b"cd"), replication_timestamp: None, header_frame: (0, 10), counts: Counts::default(), entries: Vec::new() };
        assert_eq!(BlobIndex::identity_span(&index.encode()), Some(IDENTITY_SPAN));
        let v3 = as_version(&index, 3);
        assert_eq!(BlobIndex::identity_span(&v3), Some(IDENTITY_SPAN_V3));
        assert_eq!(BlobIndex::decode(&v3).unwrap(), index);
        assert!(BlobIndex::decode(&as_version(&index, 2)).is_err());
        assert!(BlobIndex::decode(&as_version(&index, 5)).is_err());
        assert_eq!(BlobIndex::identity_span(&as_version(&index, 5)), None);
        assert_eq!(BlobIndex::identity_span(b"PBFIDX"), None);
    }
}
