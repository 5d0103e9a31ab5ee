//! A small PBF writer (prost + zlib-rs), for building test files — including deliberately
//! broken and hostile ones — from the same message definitions the decoder reads — and for
//! re-encoding a file's blobs with another compression ([`reencode`]).

use prost::bytes::Bytes;
use prost::Message;

use crate::format::proto::{self, blob::Data};
pub use crate::format::write::{frame, packed_deltas, packed_varints, zlib_blob};

/// A Blob compression the writer can produce (spec: message `Blob`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    Raw,
    Zlib,
    /// A Zstandard frame (RFC 8878), structured-zstd's fastest level.
    Zstd,
    /// A raw LZ4 block without frame header, as libosmium writes `lz4_data`.
    Lz4,
}

impl std::str::FromStr for Compression {
    type Err = String;
    fn from_str(s: &str) -> Result<Compression, String> {
        match s {
            "raw" => Ok(Compression::Raw),
            "zlib" => Ok(Compression::Zlib),
            "zstd" => Ok(Compression::Zstd),
            "lz4" => Ok(Compression::Lz4),
            _ => Err(format!("unknown compression {s:?}: raw, zlib, zstd or lz4")),
        }
    }
}

/// A Blob holding `data` compressed with `compression`, with its true `raw_size`.
pub fn blob_with(data: &[u8], compression: Compression) -> proto::Blob {
    let raw_size = Some(data.len() as i32);
    let data = match compression {
        Compression::Raw => Data::Raw(Bytes::copy_from_slice(data)),
        Compression::Zlib => return zlib_blob(data),
        Compression::Zstd => Data::ZstdData(Bytes::from(structured_zstd::encoding::compress_to_vec(data, structured_zstd::encoding::CompressionLevel::Fastest))),
        Compression::Lz4 => Data::Lz4Data(Bytes::from(lz4_flex::compress(data))),
    };
    proto::Blob { raw_size, data: Some(data) }
}

/// `file` with every blob decompressed and written again with `compression`; frames, their
/// order and their contents are kept.
///
/// Errors: any [`crate::DecodeError`] of reading `file`.
pub fn reencode(file: &[u8], compression: Compression) -> Result<Vec<u8>, crate::DecodeError> {
    reencode_with(file, |data| blob_with(data, compression))
}

/// `file` with every blob decompressed and written again as `blob_of` makes it from the
/// uncompressed data (e.g. with another encoder); frames, their order and contents are kept.
///
/// Errors: any [`crate::DecodeError`] of reading `file`.
pub fn reencode_with(file: &[u8], blob_of: impl Fn(&[u8]) -> proto::Blob) -> Result<Vec<u8>, crate::DecodeError> {
    let mut out = Vec::with_capacity(file.len());
    for f in crate::format::frame::frames(file) {
        let f = f?;
        out.extend(frame(f.kind, &blob_of(&crate::format::blob::blob_data(f.blob)?)));
    }
    Ok(out)
}

/// A HeaderBlock with the given required features and a bbox in degrees
/// `[minlon, minlat, maxlon, maxlat]`.
pub fn header_block(required: &[&str], bbox: [f64; 4]) -> proto::HeaderBlock {
    let nano = |d: f64| (d * 1e9).round() as i64;
    proto::HeaderBlock {
        bbox: Some(proto::HeaderBBox { left: nano(bbox[0]), bottom: nano(bbox[1]), right: nano(bbox[2]), top: nano(bbox[3]) }),
        required_features: required.iter().map(|s| s.to_string()).collect(),
        writingprogram: Some("pbf-explorer test writer".into()),
        ..Default::default()
    }
}

/// A node to write: id, lat and lon in degrees, tags.
pub struct NodeSpec<'a> {
    pub id: i64,
    pub lat: f64,
    pub lon: f64,
    pub tags: &'a [(&'a str, &'a str)],
}

/// A way to write: id, node ids, tags.
pub struct WaySpec<'a> {
    pub id: i64,
    pub refs: &'a [i64],
    pub tags: &'a [(&'a str, &'a str)],
}

/// A PrimitiveBlock (granularity 100) with the nodes as DenseNodes and the ways in a second group.
pub fn primitive_block(nodes: &[NodeSpec], ways: &[WaySpec]) -> proto::PrimitiveBlock {
    let mut table: Vec<String> = vec![String::new()];
    let mut sid = |s: &str| -> u32 {
        match table.iter().position(|t| t == s) {
            Some(i) => i as u32,
            None => {
                table.push(s.to_string());
                (table.len() - 1) as u32
            }
        }
    };
    let e7 = |d: f64| (d * 1e7).round() as i64;
    let mut keys_vals = Vec::new();
    for n in nodes {
        for (k, v) in n.tags {
            keys_vals.push(sid(k) as i32);
            keys_vals.push(sid(v) as i32);
        }
        keys_vals.push(0);
    }
    let dense = proto::DenseNodes {
        id: vec![packed_deltas(&nodes.iter().map(|n| n.id).collect::<Vec<_>>())],
        lat: vec![packed_deltas(&nodes.iter().map(|n| e7(n.lat)).collect::<Vec<_>>())],
        lon: vec![packed_deltas(&nodes.iter().map(|n| e7(n.lon)).collect::<Vec<_>>())],
        keys_vals,
        denseinfo: Vec::new(),
    };
    let ways = ways
        .iter()
        .map(|w| proto::Way {
            id: w.id,
            keys: w.tags.iter().map(|(k, _)| sid(k)).collect(),
            vals: w.tags.iter().map(|(_, v)| sid(v)).collect(),
            refs: Some(packed_deltas(w.refs)),
            ..Default::default()
        })
        .collect();
    let groups = vec![
        proto::PrimitiveGroup { dense: Some(dense), ..Default::default() },
        proto::PrimitiveGroup { ways, ..Default::default() },
    ];
    proto::PrimitiveBlock {
        stringtable: proto::StringTable { s: table.into_iter().map(Bytes::from).collect() },
        primitivegroup: groups,
        granularity: Some(100),
        ..Default::default()
    }
}

/// A relation to write: id, members as (type: 0 node, 1 way, 2 relation; id; role), tags.
pub struct RelationSpec<'a> {
    pub id: i64,
    pub members: &'a [(i32, i64, &'a str)],
    pub tags: &'a [(&'a str, &'a str)],
}

/// The index of `s` in a string table, added at the end when it is not there yet.
fn string_index(table: &mut Vec<Bytes>, s: &str) -> i32 {
    let at = table.iter().position(|t| &t[..] == s.as_bytes()).unwrap_or_else(|| {
        table.push(Bytes::copy_from_slice(s.as_bytes()));
        table.len() - 1
    });
    at as i32
}

/// `block` with one more PrimitiveGroup holding `relations` (their strings added to its table).
pub fn with_relations(mut block: proto::PrimitiveBlock, relations: &[RelationSpec]) -> proto::PrimitiveBlock {
    let table = &mut block.stringtable.s;
    let mut sid = |s: &str| string_index(table, s);
    let relations = relations
        .iter()
        .map(|r| proto::Relation {
            id: r.id,
            keys: r.tags.iter().map(|(k, _)| sid(k) as u32).collect(),
            vals: r.tags.iter().map(|(_, v)| sid(v) as u32).collect(),
            roles_sid: r.members.iter().map(|m| sid(m.2)).collect(),
            memids: Some(packed_deltas(&r.members.iter().map(|m| m.1).collect::<Vec<_>>())),
            types: Some(packed_varints(r.members.iter().map(|m| m.0 as u64))),
            ..Default::default()
        })
        .collect();
    block.primitivegroup.push(proto::PrimitiveGroup { relations, ..Default::default() });
    block
}

/// One version's metadata to write: `timestamp` in seconds since the Unix epoch (written with
/// the default `date_granularity` of 1000 ms); `visible` false for a deletion (history files).
#[derive(Clone, Copy)]
pub struct InfoSpec<'a> {
    pub version: i32,
    pub timestamp: i64,
    pub changeset: i64,
    pub uid: i32,
    pub user: &'a str,
    pub visible: bool,
}

/// `block` as [`primitive_block`] (and [`with_relations`]) built it, with metadata: `nodes`
/// for its DenseNodes in order (a DenseInfo), `ways` and `relations` for its ways and
/// relations in order (an Info each). The users' names go into its string table.
pub fn with_metadata(mut block: proto::PrimitiveBlock, nodes: &[InfoSpec], ways: &[InfoSpec], relations: &[InfoSpec]) -> proto::PrimitiveBlock {
    let table = &mut block.stringtable.s;
    let mut sid = |s: &str| string_index(table, s);
    let delta = |values: Vec<i64>| -> Vec<i64> { values.iter().scan(0i64, |prev, &v| Some(v - std::mem::replace(prev, v))).collect() };
    let dense_info = proto::DenseInfo {
        version: nodes.iter().map(|i| i.version).collect(),
        timestamp: delta(nodes.iter().map(|i| i.timestamp).collect()),
        changeset: delta(nodes.iter().map(|i| i.changeset).collect()),
        uid: delta(nodes.iter().map(|i| i.uid as i64).collect()).into_iter().map(|v| v as i32).collect(),
        user_sid: delta(nodes.iter().map(|i| sid(i.user) as i64).collect()).into_iter().map(|v| v as i32).collect(),
        visible: nodes.iter().map(|i| i.visible).collect(),
    };
    let mut info = |i: &InfoSpec| -> Bytes {
        let user_sid = sid(i.user) as u32;
        let message = proto::Info { version: Some(i.version), timestamp: Some(i.timestamp), changeset: Some(i.changeset), uid: Some(i.uid), user_sid: Some(user_sid), visible: Some(i.visible) };
        Bytes::from(message.encode_to_vec())
    };
    let mut way_infos = ways.iter();
    let mut relation_infos = relations.iter();
    for group in &mut block.primitivegroup {
        if let Some(dense) = &mut group.dense {
            dense.denseinfo = vec![Bytes::from(dense_info.encode_to_vec())];
        }
        for w in &mut group.ways {
            w.info = way_infos.next().map(&mut info);
        }
        for r in &mut group.relations {
            r.info = relation_infos.next().map(&mut info);
        }
    }
    block
}

/// A whole file: the OSMHeader frame, then one zlib OSMData frame per block.
pub fn file(header: &proto::HeaderBlock, blocks: &[proto::PrimitiveBlock]) -> Vec<u8> {
    let mut out = frame("OSMHeader", &zlib_blob(&header.encode_to_vec()));
    for b in blocks {
        out.extend(frame("OSMData", &zlib_blob(&b.encode_to_vec())));
    }
    out
}
