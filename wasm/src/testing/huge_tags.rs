//! Elements whose tags cost more than a page can show at once (issue 61's third case): 20 cafés
//! each named with 30 MB, and a café with 100 000 tags, all within 1000 m of Helsinki's centre
//! (60.1699, 24.9384). Each café sits in a block of its own (a block inflates to at most 32 MiB),
//! and the file stays small: the long names are runs of one letter, which zlib shrinks ~1000×.

use prost::bytes::Bytes;
use rustc_hash::FxHashMap;

use crate::format::proto;
use crate::testing::encode::{file, header_block, packed_deltas};

/// Bytes of each long name.
pub const NAME_BYTES: usize = 30_000_000;
/// Cafés with a long name.
pub const LONG_NAMED: usize = 20;
/// Tags of the café with many tags (`amenity=cafe` and `k0=v` … ).
pub const MANY_TAGS: usize = 100_000;

/// A block of one node with `tags` (a string table built with a hash map: 100 000 keys).
fn one_node(id: i64, lat: f64, lon: f64, tags: &[(String, String)]) -> proto::PrimitiveBlock {
    let mut table: Vec<Bytes> = vec![Bytes::new()];
    let mut index: FxHashMap<String, i32> = FxHashMap::default();
    let mut sid = |s: &str| -> i32 {
        *index.entry(s.to_string()).or_insert_with(|| {
            table.push(Bytes::copy_from_slice(s.as_bytes()));
            (table.len() - 1) as i32
        })
    };
    let mut keys_vals: Vec<i32> = tags.iter().flat_map(|(k, v)| [sid(k), sid(v)]).collect();
    keys_vals.push(0);
    let e7 = |d: f64| (d * 1e7).round() as i64;
    let dense = proto::DenseNodes { id: vec![packed_deltas(&[id])], lat: vec![packed_deltas(&[e7(lat)])], lon: vec![packed_deltas(&[e7(lon)])], keys_vals, denseinfo: Vec::new() };
    proto::PrimitiveBlock {
        stringtable: proto::StringTable { s: table },
        primitivegroup: vec![proto::PrimitiveGroup { dense: Some(dense), ..Default::default() }],
        granularity: Some(100),
        ..Default::default()
    }
}

/// The file: nodes 1–20 named with 30 MB of one letter each (`A`…), node 21 with 100 000 tags.
pub fn huge_tags() -> Vec<u8> {
    let cafe = || ("amenity".to_string(), "cafe".to_string());
    let mut blocks: Vec<proto::PrimitiveBlock> = (0..LONG_NAMED)
        .map(|i| {
            let name = ((b'A' + i as u8) as char).to_string().repeat(NAME_BYTES);
            one_node(1 + i as i64, 60.1699 + 0.0002 * i as f64, 24.9384, &[cafe(), ("name".into(), name)])
        })
        .collect();
    let many: Vec<(String, String)> = std::iter::once(cafe()).chain((1..MANY_TAGS).map(|i| (format!("k{i}"), "v".to_string()))).collect();
    blocks.push(one_node(1 + LONG_NAMED as i64, 60.1690, 24.9390, &many));
    file(&header_block(&["OsmSchema-V0.6", "DenseNodes"], [24.90, 60.15, 24.98, 60.19]), &blocks)
}
