//! One Blob, as a worker receives it: inflate, then decode as an OSMHeader and as an OSMData
//! block (with a query and as a plain count). Any input may fail, none may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbf_explorer::Area;
use pbf_explorer::{PreparedQuery, Query};
use pbf_explorer::{blob_data, decode_header, scan_block};

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = blob_data(data) else { return };
    let _ = decode_header(&raw);
    let query = Query::from_tags("amenity=cafe shop", Area::Circle { lat: 60.17, lon: 24.94, radius: 5000.0 }).unwrap();
    let _ = scan_block(&raw, &query.prepare().unwrap());
    let _ = scan_block(&raw, &PreparedQuery::count_only());
});
