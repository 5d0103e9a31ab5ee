//! A whole file: framing, header checks, every block, way resolution. None may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbf_explorer::Area;
use pbf_explorer::Query;

fuzz_target!(|data: &[u8]| {
    let query = Query::from_tags("amenity", Area::Bbox { min_lon: -180.0, min_lat: -90.0, max_lon: 180.0, max_lat: 90.0 }).unwrap();
    let _ = pbf_explorer::scan_file(data, &query);
});
