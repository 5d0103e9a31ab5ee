//! Mutated HeaderBlock bytes straight into the OSMHeader decoder. None may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = pbf_explorer::decode_header(data);
});
