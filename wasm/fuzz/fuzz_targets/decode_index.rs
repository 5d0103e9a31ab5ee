//! Blob index bytes (`docs/blob-index.md`) into the decoder as a whole-file read takes them (the
//! head, then each page it names, as the page fetches them), then a query's plan over what it
//! read. Fuzzing builds skip the head's and pages' checksums, so mutations reach the parser.
//! None may panic, loop or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbf_explorer::{Area, BlobIndex, Query};

fuzz_target!(|data: &[u8]| {
    let query = Query::from_tags("amenity", Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 }).unwrap().prepare().unwrap();
    if let Ok(index) = BlobIndex::decode(data) {
        let plan = index.plan(&query);
        let _ = index.bytes_of(&plan);
    }
});
