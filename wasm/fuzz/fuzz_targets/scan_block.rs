//! Mutated PrimitiveBlock bytes straight into the block decoder, no inflating (and so no zlib
//! checksum rejecting every mutation): a query, the same query on a history file as of a moment,
//! and the targeted reads of node locations and way refs. None may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbf_explorer::Area;
use pbf_explorer::Query;
use pbf_explorer::{locate_nodes, locate_ways, scan_block};
use prost::bytes::Bytes;

fuzz_target!(|data: &[u8]| {
    let bytes = Bytes::copy_from_slice(data);
    let query = Query::from_tags("amenity or name~/a/ or not type:relation", Area::Everywhere).unwrap().prepare().unwrap();
    let _ = scan_block(&bytes, &query);
    let mut history = query.clone();
    history.history = true;
    history.at = Some(1_600_000_000);
    let _ = scan_block(&bytes, &history);
    let wanted: Vec<i64> = (-2..64).collect();
    let _ = locate_nodes(&bytes, &wanted, history.as_of());
    let _ = locate_ways(&bytes, &wanted, None);
});
