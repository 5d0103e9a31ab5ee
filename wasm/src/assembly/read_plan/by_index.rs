//! The read plan's blob index: reading by one given before the first read, and noting one
//! during a full read (see [`super::ReadPlan`]).

use super::*;

impl ReadPlan {
    /// Reads by `index` (already checked against the file: [`BlobIndex::check`]): the first read
    /// takes only the blobs its plan names, and the later reads plan from it too. Call before
    /// the first [`ReadPlan::next_read`]; not with [`ReadPlan::build_index`].
    pub fn use_index(&mut self, index: BlobIndex) {
        if let Some(found) = &mut self.area_read {
            found.index = Some(GivenIndex::Whole(index.clone()));
            return found.plan.use_index(index);
        }
        self.hashes.note(&index.entries);
        self.index = Some((index, Vec::new()));
        self.pages = None;
    }

    /// [`ReadPlan::use_index`] for an index file's bytes (`docs/blob-index.md`) of the file of
    /// `identity`: a whole index, or the head alone of a paged one (format 5,
    /// [`IndexHead::head_len`] bytes), whose pages the reads then ask for ([`Decode::IndexPages`]).
    /// Errors: [`IndexError`] when it is corrupt or of another file; the plan is then unchanged
    /// (a full read).
    pub fn use_index_bytes(&mut self, bytes: &[u8], identity: FileIdentity) -> Result<(), IndexError> {
        if let Some(found) = &mut self.area_read {
            found.plan.use_index_bytes(bytes, identity)?;
            found.index = Some(GivenIndex::Bytes(bytes.to_vec(), identity));
            return Ok(());
        }
        match IndexHead::head_len(bytes) {
            Some(head_len) if bytes.len() as u64 == head_len => {
                let head = IndexHead::decode(bytes)?;
                if head.index.identity != identity {
                    return Err(IndexError::Stale);
                }
                let i = &head.index;
                let facts = BlobIndex { identity: i.identity, replication_timestamp: i.replication_timestamp, header_frame: i.header_frame, counts: i.counts, entries: Vec::new() };
                self.index = Some((facts, Vec::new()));
                self.pages = Some(head);
            }
            _ => self.use_index(BlobIndex::decode(bytes)?.check(identity)?),
        }
        Ok(())
    }

    /// Gives the bytes of the index page of stub `stub` that the read under way
    /// ([`Decode::IndexPages`]) asked for.
    ///
    /// Errors: [`IndexError::Corrupt`] when they are not that page (see
    /// [`IndexHead::add_page`]). Before the first read has started, [`ReadPlan::drop_index`] then
    /// turns the read into a full one; later the read cannot go on.
    pub fn add_index_page(&mut self, stub: u32, bytes: &[u8]) -> Result<(), IndexError> {
        if let Some(found) = &mut self.area_read {
            return found.plan.add_index_page(stub, bytes);
        }
        let head = self.pages.as_mut().ok_or_else(|| IndexError::Corrupt("a page of an index that has none".into()))?;
        let (entries, stubs) = head.add_page(stub, bytes)?;
        self.hashes.note(&entries);
        // Before the first read's plan the head keeps what came ([`ReadPlan::start_index`] takes it).
        if self.pass != Pass::NotStarted {
            self.assembler.add_index_page(stub, &entries, &stubs);
        }
        Ok(())
    }

    /// Forgets the blob index before the first read has started (one of its pages was
    /// refused): the read is then a full read.
    pub fn drop_index(&mut self) {
        if let Some(found) = &mut self.area_read {
            found.plan.drop_index();
            if !found.plan.started() {
                found.index = None;
            }
            return;
        }
        if self.pass == Pass::NotStarted {
            self.index = None;
            self.pages = None;
        }
    }

    /// Whether the first read's plan is made: index pages asked for from then on come from
    /// the passes after it.
    pub fn started(&self) -> bool {
        self.area_read.is_some() && self.current().started() || self.pass != Pass::NotStarted
    }

    /// The index pages the first read needs that are not fetched yet, as a read of them.
    pub(super) fn first_pages(&self) -> Option<Read> {
        let head = self.pages.as_ref()?;
        let area_nodes = !self.scan.area.is_everywhere();
        let stubs: Vec<&IndexEntry> = head.stubs().filter(|s| s.first_read_takes(&self.scan, area_nodes)).collect();
        (!stubs.is_empty()).then(|| pages_read(stubs.into_iter().map(|s| PlannedBlob { index: s.index, offset: s.offset, size: s.size, from: 0, to: 0 })))
    }

    /// Plans the first read from the index (its pages that the first read needs are in).
    pub(super) fn start_index(&mut self) {
        let Some((index, entries)) = &mut self.index else { return };
        if let Some(head) = &self.pages {
            index.entries = head.index.entries.clone();
            self.hashes.note(&index.entries);
        }
        index.entries.sort_by_key(|e| e.index);
        let plan = index.plan(&self.scan);
        let stubs: Vec<IndexEntry> = self.pages.as_ref().map(|h| h.stubs().cloned().collect()).unwrap_or_default();
        self.assembler.use_index(index, &stubs, &plan);
        self.scan.area_nodes = !self.assembler.overflowed();
        self.scan_version += 1;
        *entries = plan.entries;
    }

    /// Has a full read note the file's blob index, for [`ReadPlan::blob_index`]. Call before the
    /// first [`ReadPlan::next_read`]. A history file gets none.
    pub fn build_index(&mut self) {
        if let Some(found) = &mut self.area_read {
            found.plan.build_index();
        }
        self.build_index = self.index.is_none();
        self.scan.index = self.build_index;
        self.scan_version += 1;
    }

    /// Whether the first read is by a blob index.
    pub fn indexed(&self) -> bool {
        self.current().index.is_some()
    }

    /// Whether the read notes the file's blob index (asked for, and not a history file).
    pub fn builds_index(&self) -> bool {
        let plan = self.current();
        plan.build_index && !plan.scan.history || self.noted_index.is_some()
    }

    /// The blob index the full read noted (see [`ReadPlan::build_index`]) for the file of
    /// `identity`; None when none was asked for or noted, or before the read is done whole.
    pub fn blob_index(&mut self, identity: FileIdentity) -> Option<BlobIndex> {
        if let Some(noted) = self.noted_index.as_ref().filter(|_| self.pass == Pass::Done && !self.stopped) {
            return Some(BlobIndex { identity, ..noted.clone() });
        }
        if self.pass != Pass::Done || self.stopped || !self.builds_index() {
            return None;
        }
        let timestamp = self.header.as_ref()?.replication_timestamp;
        self.assembler.blob_index(identity, timestamp, self.header_frame)
    }
}
