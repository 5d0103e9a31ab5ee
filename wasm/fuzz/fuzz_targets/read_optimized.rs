//! A file grouped by place (`pbf-explorer optimize`) read by its blob index, both mutated: the
//! input is the index's length (u32, little-endian), the index, then the file. The reader by
//! pages (head, then the pages its plan asks for) and by the whole index, with no identity
//! check first, as a server that changed the file under the same name would serve them. None
//! may panic or loop.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbf_explorer::{scan_file_indexed, scan_file_paged, Area, BlobIndex, Query};

fuzz_target!(|data: &[u8]| {
    let Some((len, rest)) = data.split_first_chunk::<4>() else { return };
    let len = u32::from_le_bytes(*len) as usize;
    if len > rest.len() {
        return;
    }
    let (index, file) = rest.split_at(len);
    let query = Query::from_tags("amenity or building", Area::Circle { lat: 60.1699, lon: 24.9384, radius: 300.0 }).unwrap().prepare().unwrap();
    let _ = scan_file_paged(file, &query, index);
    if let Ok(index) = BlobIndex::decode(index) {
        let _ = scan_file_indexed(file, &query, &index);
    }
});
