//! Packed repeated fields split into several pieces or written unpacked (protobuf allows a
//! writer both; either way they are one array) and embedded messages repeated (merged): a
//! block written that way answers exactly as the same block written in one piece.

use pbf_explorer::Area;
use pbf_explorer::testing::encode::{frame, header_block, packed_varints, primitive_block, with_metadata, with_relations, zlib_blob, InfoSpec, NodeSpec, RelationSpec, WaySpec};
use pbf_explorer::proto;
use pbf_explorer::Query;
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
    answer_of_encoded(&prost::Message::encode_to_vec(&block))
}

/// The answer on a file of one block, given encoded.
fn answer_of_encoded(block: &[u8]) -> Vec<String> {
    let header = header_block(&["OsmSchema-V0.6", "DenseNodes"], [24.9, 60.1, 25.0, 60.2]);
    let mut bytes = frame("OSMHeader", &zlib_blob(&prost::Message::encode_to_vec(&header)));
    bytes.extend(frame("OSMData", &zlib_blob(block)));
    let query = Query::from_tags("amenity=cafe", Area::Circle { lat: 60.17, lon: 24.94, radius: 1000.0 }).unwrap();
    let scan = scan_file(&bytes, &query).unwrap();
    let mut out: Vec<String> = scan.matches.iter().map(|m| format!("{:?} {} {:.7?} {:.7?} v{:?}", m.element, m.id, m.lat, m.lon, m.meta.as_ref().map(|x| x.version))).collect();
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

/// A field's key (protobuf encoding: number << 3 | wire type).
fn key(number: u64, wire: u64) -> Bytes {
    packed_varints([number << 3 | wire])
}

/// A varint field.
fn varint_field(number: u64, value: u64) -> Vec<u8> {
    [key(number, 0), packed_varints([value])].concat()
}

/// A length-delimited field.
fn bytes_field(number: u64, payload: &[u8]) -> Vec<u8> {
    [&key(number, 2)[..], &packed_varints([payload.len() as u64])[..], payload].concat()
}

/// A packed varint array as two fields, cut at a varint boundary near its middle.
fn two_pieces(number: u64, packed: &[u8]) -> Vec<u8> {
    let mut field = vec![Bytes::copy_from_slice(packed)];
    split(&mut field);
    [bytes_field(number, &field[0]), bytes_field(number, &field[1])].concat()
}

#[test]
fn way_and_relation_arrays_unpacked_or_in_pieces_are_one_array() {
    let whole = answer(block());
    // The same block with its way and its relation written by hand: keys unpacked (one varint
    // field per value), vals packed, refs, memids in two pieces, roles_sid and types unpacked.
    let mut rest = block();
    let way = rest.primitivegroup.iter_mut().find_map(|g| g.ways.pop()).unwrap();
    let relation = rest.primitivegroup.iter_mut().find_map(|g| g.relations.pop()).unwrap();
    let unpacked = |number: u64, values: &[u64]| -> Vec<u8> { values.iter().flat_map(|&v| varint_field(number, v)).collect() };
    let tags = |keys: &[u32], vals: &[u32]| -> Vec<u8> {
        [unpacked(2, &keys.iter().map(|&k| k as u64).collect::<Vec<_>>()), bytes_field(3, &packed_varints(vals.iter().map(|&v| v as u64)))].concat()
    };
    let way_msg = [
        varint_field(1, way.id as u64),
        tags(&way.keys, &way.vals),
        bytes_field(4, way.info.as_deref().unwrap()),
        two_pieces(8, way.refs.as_deref().unwrap()),
    ]
    .concat();
    let types: Vec<u64> = relation.types.as_deref().unwrap().iter().map(|&t| t as u64).collect();
    let relation_msg = [
        varint_field(1, relation.id as u64),
        tags(&relation.keys, &relation.vals),
        bytes_field(4, relation.info.as_deref().unwrap()),
        unpacked(8, &relation.roles_sid.iter().map(|&r| r as u64).collect::<Vec<_>>()),
        two_pieces(9, relation.memids.as_deref().unwrap()),
        unpacked(10, &types),
    ]
    .concat();
    let mut encoded = prost::Message::encode_to_vec(&rest);
    encoded.extend(bytes_field(2, &bytes_field(3, &way_msg))); // a PrimitiveGroup with the way
    encoded.extend(bytes_field(2, &bytes_field(4, &relation_msg)));
    assert_eq!(answer_of_encoded(&encoded), whole);
}
