//! DenseNodes' packed repeated fields split into several pieces (protobuf allows a writer to do
//! so; they are one array, concatenated) and its DenseInfo repeated (merged): a block written
//! that way answers exactly as the same block written in one piece. (Way and Relation arrays
//! keep `optional bytes` for speed; see `proto/osmformat.proto`.)

use pbf_explorer::area::Area;
use pbf_explorer::encode::{file, header_block, primitive_block, with_metadata, with_relations, InfoSpec, NodeSpec, RelationSpec, WaySpec};
use pbf_explorer::proto;
use pbf_explorer::query::Query;
use pbf_explorer::scan_file;
use prost::bytes::Bytes;

/// `field`'s one piece cut in two at a varint boundary near its middle.
fn split(field: &mut Vec<Bytes>) {
    let whole = field.concat();
    let ends: Vec<usize> = whole.iter().enumerate().filter(|(_, &b)| b < 0x80).map(|(i, _)| i + 1).collect();
    assert!(ends.len() >= 2, "a field to split needs two values");
    let cut = ends[ends.len() / 2 - 1];
    *field = vec![Bytes::copy_from_slice(&whole[..cut]), Bytes::copy_from_slice(&whole[cut..])];
}

fn block() -> proto::PrimitiveBlock {
    let cafe: &[(&str, &str)] = &[("amenity", "cafe"), ("name", "Kahvila")];
    let nodes: Vec<NodeSpec> = (0..6).map(|i| NodeSpec { id: 10 + i, lat: 60.17 + 0.001 * i as f64, lon: 24.94 + 0.001 * i as f64, tags: if i % 2 == 0 { cafe } else { &[] } }).collect();
    let ways = [WaySpec { id: 100, refs: &[10, 11, 12, 13, 14, 15], tags: cafe }];
    let relations = [RelationSpec { id: 1000, members: &[(1, 100, "outer"), (0, 11, ""), (0, 13, "")], tags: &[("amenity", "cafe"), ("type", "site")] }];
    let info = |v| InfoSpec { version: v, timestamp: 1_600_000_000 + v as i64, changeset: 7, uid: 3, user: "mapper", visible: true };
    let infos: Vec<InfoSpec> = (1..=6).map(info).collect();
    with_metadata(with_relations(primitive_block(&nodes, &ways), &relations), &infos, &[info(4)], &[info(2)])
}

fn answer(block: proto::PrimitiveBlock) -> Vec<String> {
    let bytes = file(&header_block(&["OsmSchema-V0.6", "DenseNodes"], [24.9, 60.1, 25.0, 60.2]), &[block]);
    let query = Query::from_tags("amenity=cafe", Area::Circle { lat: 60.17, lon: 24.94, radius: 1000.0 }).unwrap();
    let scan = scan_file(&bytes, &query).unwrap();
    let mut out: Vec<String> = scan.matches.iter().map(|m| format!("{:?} {} {:.7} {:.7} v{:?}", m.element, m.id, m.lat, m.lon, m.meta.as_ref().map(|x| x.version))).collect();
    out.sort();
    out.push(format!("{:?}", scan.counts));
    out
}

#[test]
fn packed_arrays_in_pieces_are_one_array() {
    let whole = answer(block());
    assert_eq!(whole.len(), 6, "3 café nodes, the way, the relation, and the counts: {whole:?}");
    let mut pieces = block();
    for group in &mut pieces.primitivegroup {
        if let Some(dense) = &mut group.dense {
            for field in [&mut dense.id, &mut dense.lat, &mut dense.lon] {
                split(field);
            }
        }
    }
    assert_eq!(answer(pieces), whole);
}

#[test]
fn an_embedded_message_in_pieces_is_merged() {
    // A DenseInfo written as two messages, each with every column: a parser merges them, so
    // each packed column is the concatenation of its two halves.
    let whole = answer(block());
    let mut pieces = block();
    let dense = pieces.primitivegroup[0].dense.as_mut().unwrap();
    let info: proto::DenseInfo = prost::Message::decode(&dense.denseinfo[0][..]).unwrap();
    let half = |v: &[i64], second: bool| -> Vec<i64> { if second { v[3..].to_vec() } else { v[..3].to_vec() } };
    let piece = |second: bool| proto::DenseInfo {
        version: if second { info.version[3..].to_vec() } else { info.version[..3].to_vec() },
        timestamp: half(&info.timestamp, second),
        changeset: half(&info.changeset, second),
        uid: if second { info.uid[3..].to_vec() } else { info.uid[..3].to_vec() },
        user_sid: if second { info.user_sid[3..].to_vec() } else { info.user_sid[..3].to_vec() },
        visible: if second { info.visible[3..].to_vec() } else { info.visible[..3].to_vec() },
    };
    dense.denseinfo = vec![Bytes::from(prost::Message::encode_to_vec(&piece(false))), Bytes::from(prost::Message::encode_to_vec(&piece(true)))];
    assert_eq!(answer(pieces), whole);
}
