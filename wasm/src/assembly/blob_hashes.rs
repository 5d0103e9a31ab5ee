//! The Blob checksums of the blob index a read goes by, checked as its blobs come in: a file
//! that shares the indexed file's identity (size and ends) but not its blobs is found out at the
//! first blob that differs (`docs/security.md`).

use std::collections::HashMap;

use crate::index::IndexEntry;

/// The checksum ([`crate::index::blob_hash`]) of each blob the index has named so far, by frame index.
#[derive(Debug, Default)]
pub struct BlobHashes(HashMap<u32, u64>);

impl BlobHashes {
    /// Notes the checksums of `entries` (a whole index's, or a page's as it comes in).
    pub fn note<'a>(&mut self, entries: impl IntoIterator<Item = &'a IndexEntry>) {
        self.0.extend(entries.into_iter().map(|e| (e.index, e.blob_hash)));
    }

    /// Err with the reason to show when blob `index` (frame at byte `offset`) was indexed with
    /// another checksum than `hash`, the checksum of the bytes read. A blob the index never
    /// named passes: reads by an index name only its blobs.
    pub fn check(&self, index: u32, offset: u64, hash: u64) -> Result<(), String> {
        match self.0.get(&index) {
            Some(&indexed) if indexed != hash => Err(format!("the blob index does not match the file: blob {index} at byte {offset} is not the one indexed")),
            _ => Ok(()),
        }
    }
}
