//! The crate's own native reader: a whole file held in memory, read on this thread by the same
//! read plan ([`crate::assembly::read_plan`]) the browser's query worker drives. Tests, benches
//! and the command-line examples use it.

use crate::assembly::read_plan::{Blobs, Decode, Found, ReadPlan};
use crate::assembly::{FileFacts, Match, DEFAULT_LOCATION_BUDGET};
use crate::assembly::geometry::Shape;
use crate::error::DecodeError;
use crate::format::{blob, frame, header};
use crate::format::header::HeaderInfo;
use crate::index::{BlobIndex, FileIdentity, IndexHead};
use crate::query::{PreparedQuery, Query};
use crate::summary::Counts;
use crate::{basemap, scan};

/// The answer for a whole file read in memory.
pub struct FileScan {
    pub header: HeaderInfo,
    pub counts: Counts,
    /// In the list's order: label, then type and id.
    pub matches: Vec<Match>,
    /// The geometry of each match, in the same order (see [`Assembler::shape`]);
    /// None for a match with no location (with no area, one none of whose nodes is in the file).
    pub shapes: Vec<Option<Shape>>,
    /// The basemap of the query's area ([`basemap::context_ways`]' encoding, blobs in file
    /// order), or why there is none.
    pub context: Result<Vec<i32>, String>,
    /// What the read learnt about the file (blobs by compression, counts, id ranges).
    pub facts: FileFacts,
    /// The file's blob index, when the query asked the scans for it ([`PreparedQuery::index`]).
    pub index: Option<BlobIndex>,
    /// The ways the answer held at its end, matched or not ([`Assembler::ways_held`]).
    pub ways_held: usize,
    /// The candidate ways the first read's scans carried ([`scan::BlockScan::ways`]): fewer than
    /// the file's ways with the query's tags once the area filter is given to the scans.
    pub ways_scanned: usize,
    /// Why the blob index read by was given up (a blob did not match it: the file was read
    /// whole instead), if it was.
    pub index_mismatch: Option<String>,
    /// The outline of the relation that was the query's area (`[lon, lat]` degrees, GeoJSON
    /// MultiPolygon coordinates); None for other areas.
    pub outline: Option<Vec<Vec<Vec<[f64; 2]>>>>,
}

/// Decodes a whole PBF file held in memory on one thread and runs `query` over it.
///
/// Errors: any [`DecodeError`], prefixed by nothing; the first frame must be an OSMHeader
/// (else [`DecodeError::Inconsistent`]). Frames of unknown type are skipped, as the spec says.
pub fn scan_file(file: &[u8], query: &Query) -> Result<FileScan, DecodeError> {
    scan_file_prepared(file, &query.prepare()?)
}

/// [`scan_file`] for a prepared query, e.g. [`PreparedQuery::count_only`].
pub fn scan_file_prepared(file: &[u8], prepared: &PreparedQuery) -> Result<FileScan, DecodeError> {
    scan_file_with_budget(file, prepared, DEFAULT_LOCATION_BUDGET)
}

/// [`scan_file_prepared`] keeping at most `budget` node locations during the first read (the
/// rest come from a targeted second read, as in the browser).
pub fn scan_file_with_budget(file: &[u8], prepared: &PreparedQuery, budget: usize) -> Result<FileScan, DecodeError> {
    scan_file_with(file, prepared, budget, IndexUse::None).map(|(scan, _)| scan)
}

/// [`scan_file_prepared`] reading only the blobs `index` says the query needs (as the browser
/// does on a second query).
///
/// Errors: as [`scan_file`]; the index must be this file's (see [`BlobIndex::check`]), and
/// of a file without history ([`DecodeError::Inconsistent`] for a history file).
pub fn scan_file_indexed(file: &[u8], prepared: &PreparedQuery, index: &BlobIndex) -> Result<FileScan, DecodeError> {
    scan_file_with(file, prepared, DEFAULT_LOCATION_BUDGET, IndexUse::Whole(index)).map(|(scan, _)| scan)
}

/// [`scan_file_indexed`] by an index file's bytes read as a server's are: the head first, then
/// only the pages the read plan asks for ([`crate::index::pages`]). Returns the answer and the
/// bytes of the index fetched (head and pages).
///
/// Errors: as [`scan_file_indexed`]; [`DecodeError::Inconsistent`] when the index is corrupt or
/// another file's.
pub fn scan_file_paged(file: &[u8], prepared: &PreparedQuery, index: &[u8]) -> Result<(FileScan, u64), DecodeError> {
    scan_file_with(file, prepared, DEFAULT_LOCATION_BUDGET, IndexUse::Paged(index))
}

/// How a native read uses a blob index.
enum IndexUse<'a> {
    None,
    Whole(&'a BlobIndex),
    /// An index file's bytes, of which the read takes the head and the pages it asks for.
    Paged(&'a [u8]),
}

/// The native driver of a [`ReadPlan`]: each read it asks for, from a file held in
/// memory, on this thread; the answer's reads, then its basemap read.
fn scan_file_with(file: &[u8], prepared: &PreparedQuery, budget: usize, index: IndexUse) -> Result<(FileScan, u64), DecodeError> {
    let mut plan = ReadPlan::new(prepared, budget);
    let mut pages = Pages { bytes: &[], fetched: 0 };
    match index {
        IndexUse::Whole(index) => plan.use_index(index.clone()),
        IndexUse::Paged(bytes) => {
            let head_len = IndexHead::head_len(bytes).ok_or(DecodeError::Inconsistent("not a paged blob index"))?;
            let head = bytes.get(..head_len as usize).ok_or(DecodeError::Inconsistent("the blob index is cut short"))?;
            plan.use_index_bytes(head, FileIdentity::of_file(file)).map_err(|_| DecodeError::Inconsistent("the blob index is corrupt or another file's"))?;
            pages = Pages { bytes, fetched: head.len() as u64 };
        }
        IndexUse::None if prepared.index => plan.build_index(),
        IndexUse::None => {}
    }
    let mut mismatch = None;
    let ways_scanned = drive(&mut plan, file, &mut pages, &mut mismatch)?;
    finish_scan(plan, file, pages, ways_scanned, mismatch)
}

/// Runs every read of `prepared` over `file` held in memory (no blob index, at most `budget`
/// node locations kept in the first read) and returns the plan, whose answer
/// ([`ReadPlan::answer_mut`]) is then complete: what a caller measures or walks without
/// [`FileScan`]'s copy of every match.
///
/// Errors: as [`scan_file`].
pub fn read_answer(file: &[u8], prepared: &PreparedQuery, budget: usize) -> Result<ReadPlan, DecodeError> {
    let mut plan = ReadPlan::new(prepared, budget);
    drive(&mut plan, file, &mut Pages { bytes: &[], fetched: 0 }, &mut None)?;
    Ok(plan)
}

/// The basemap read after the answer's, and the answer copied out into a [`FileScan`].
fn finish_scan(mut plan: ReadPlan, file: &[u8], mut pages: Pages, ways_scanned: usize, mut index_mismatch: Option<String>) -> Result<(FileScan, u64), DecodeError> {
    let header = plan.header().cloned().ok_or(DecodeError::Inconsistent("the file has no OSMHeader"))?;
    let index = plan.blob_index(FileIdentity::of_file(file));
    let context = match plan.ask_basemap() {
        Err(note) => Err(note),
        Ok(()) => {
            drive(&mut plan, file, &mut pages, &mut index_mismatch)?;
            Ok(plan.take_basemap())
        }
    };
    let assembler = plan.answer_mut();
    let counts = assembler.counts;
    let ways_held = assembler.ways_held();
    let matches = assembler.all();
    let shapes = matches.iter().map(|m| assembler.shape(m.element, m.id)).collect();
    let facts = assembler.file_facts();
    let outline = plan.outline().cloned();
    Ok((FileScan { header, counts, matches, shapes, context, facts, index, ways_held, ways_scanned, index_mismatch, outline }, pages.fetched))
}

/// A paged index's bytes, and how many of them the reads fetched.
struct Pages<'a> {
    bytes: &'a [u8],
    fetched: u64,
}

/// Runs `plan`'s reads until it asks for none: the one loop of [`crate::assembly::read_plan`].
/// Returns the candidate ways the first read's scans carried; `mismatch` gets why the blob index
/// was given up, if it was.
fn drive(plan: &mut ReadPlan, file: &[u8], pages: &mut Pages, mismatch: &mut Option<String>) -> Result<usize, DecodeError> {
    let mut ways_scanned = 0;
    while let Some(read) = plan.next_read()? {
        if let (Decode::IndexPages, Blobs::Listed(blobs)) = (read.decode, &read.blobs) {
            for b in blobs {
                let page = pages.bytes.get(b.offset as usize..(b.offset + b.size) as usize).ok_or(DecodeError::Inconsistent("an index page past the index's end"))?;
                pages.fetched += b.size;
                plan.add_index_page(b.index, page).map_err(|_| DecodeError::Inconsistent("a corrupt index page"))?;
            }
            continue;
        }
        let frames: Vec<(u32, u64, u64, &str, &[u8])> = match &read.blobs {
            Blobs::WholeFile => frame::frames(file).enumerate().map(|(i, f)| f.map(|f| (i as u32, f.offset, f.end - f.offset, f.kind, f.blob))).collect::<Result<_, _>>()?,
            Blobs::Listed(blobs) => blobs.iter().map(|b| frame::frame_at(file, b.offset).map(|(kind, blob)| (b.index, b.offset, b.size, kind, blob))).collect::<Result<_, _>>()?,
        };
        let slices = match &read.blobs {
            Blobs::WholeFile => Vec::new(),
            Blobs::Listed(blobs) => blobs.iter().map(|b| &read.wanted[b.from..b.to]).collect(),
        };
        for (i, (index, offset, size, kind, blob)) in frames.into_iter().enumerate() {
            let wanted = slices.get(i).copied().unwrap_or_default();
            let found = match (kind, read.decode) {
                ("OSMHeader", _) => {
                    plan.add_header(header::decode_header(&blob::blob_data(blob)?)?, offset, size)?;
                    continue;
                }
                ("OSMData", Decode::Scan) => {
                    let scan = scan::scan_blob(blob, plan.scan_query().0)?;
                    ways_scanned += if read.reread { 0 } else { scan.ways.len() };
                    Found::Scan(scan)
                }
                ("OSMData", Decode::LocateWays) => Found::Ways(scan::locate_ways(&blob::blob_data(blob)?, wanted, plan.scan_query().0.as_of())?),
                ("OSMData", Decode::LocateNodes) => Found::Nodes(scan::locate_nodes(&blob::blob_data(blob)?, wanted, plan.scan_query().0.as_of())?),
                ("OSMData", Decode::Basemap) => {
                    let nodes = plan.basemap_nodes().ok_or(DecodeError::Inconsistent("a basemap read without its nodes"))?;
                    Found::Basemap(basemap::context_ways(&blob::blob_data(blob)?, nodes)?)
                }
                _ => continue, // unknown frame types are skipped, as the spec says
            };
            plan.add(index, offset, size, crate::index::blob_hash(blob), found)?;
            if let Some(why) = plan.take_index_mismatch() {
                *mismatch = Some(why);
                break; // the plan starts again: the rest of this read is not wanted
            }
        }
    }
    Ok(ways_scanned)
}
