//! PrimitiveBlocks written from held elements (spec: "PBF Format", PrimitiveBlock, DenseNodes,
//! Way, Relation, Info, DenseInfo): granularity 100 (1e-7 degrees), offsets 0, timestamps in
//! seconds (date_granularity 1000), a string table of the block's own strings ("" first).

use prost::Message;
use rustc_hash::FxHashMap;

use super::store::{Common, Elements};
use crate::format::info::RawMeta;
use crate::format::proto;
use crate::format::write::{packed_deltas, packed_varints};

/// A block's string table, built as its elements are written.
struct Table<'a> {
    strings: &'a [Box<[u8]>],
    local: FxHashMap<u32, u32>,
    list: Vec<prost::bytes::Bytes>,
}

impl<'a> Table<'a> {
    fn new(strings: &'a [Box<[u8]>]) -> Self {
        // Index 0 is the empty string: a user_sid of 0 means no user name (spec: "Metadata").
        Table { strings, local: FxHashMap::default(), list: vec![prost::bytes::Bytes::new()] }
    }

    /// The block's index of string number `s`.
    fn of(&mut self, s: u32) -> u32 {
        if self.strings[s as usize].is_empty() {
            return 0;
        }
        let next = self.list.len() as u32;
        let strings = self.strings;
        let list = &mut self.list;
        *self.local.entry(s).or_insert_with(|| {
            list.push(prost::bytes::Bytes::copy_from_slice(&strings[s as usize]));
            next
        })
    }

    fn into_block(self, group: proto::PrimitiveGroup) -> Vec<u8> {
        proto::PrimitiveBlock {
            stringtable: proto::StringTable { s: self.list },
            primitivegroup: vec![group],
            granularity: None,
            lat_offset: None,
            lon_offset: None,
            date_granularity: None,
        }
        .encode_to_vec()
    }
}

/// Tags as the parallel `keys` and `vals` of a Way or Relation.
fn keys_vals(common: &Common, i: usize, table: &mut Table) -> (Vec<u32>, Vec<u32>) {
    common.tags_of(i).map(|(k, v)| (table.of(k), table.of(v))).unzip()
}

/// An encoded `Info`, or None for an element that had none.
fn info(meta: Option<RawMeta>, table: &mut Table) -> Option<prost::bytes::Bytes> {
    let m = meta?;
    let info = proto::Info { version: Some(m.version), timestamp: Some(m.timestamp), changeset: Some(m.changeset), uid: Some(m.uid), user_sid: Some(table.of(m.user_sid)), visible: None };
    Some(info.encode_to_vec().into())
}

/// A PrimitiveBlock of the nodes at positions `nodes` (of [`Elements::nodes`]), in that order,
/// as DenseNodes; a DenseInfo when any of them had metadata (the others get zeros, which is
/// what readers assume of a missing Info).
pub(crate) fn node_block(e: &Elements, nodes: &[u32]) -> Vec<u8> {
    let mut table = Table::new(&e.strings.list);
    let at = |f: &dyn Fn(usize) -> i64| nodes.iter().map(|&i| f(i as usize)).collect::<Vec<i64>>();
    let ids = at(&|i| e.nodes.id.get(i));
    let lats = at(&|i| e.lat.get(i) as i64);
    let lons = at(&|i| e.lon.get(i) as i64);
    let mut keys_vals = Vec::new();
    if nodes.iter().any(|&i| e.nodes.tags_of(i as usize).next().is_some()) {
        for &i in nodes {
            for (k, v) in e.nodes.tags_of(i as usize) {
                keys_vals.extend([table.of(k) as i32, table.of(v) as i32]);
            }
            keys_vals.push(0);
        }
    }
    let mut denseinfo = Vec::new();
    if nodes.iter().any(|&i| e.nodes.meta_of(i as usize).is_some()) {
        let metas: Vec<RawMeta> = nodes.iter().map(|&i| e.nodes.meta_of(i as usize).unwrap_or(RawMeta { version: 0, ..RawMeta::default() })).collect();
        // Each value less the one before (the first less 0), as DenseInfo codes them.
        let delta = |v: Vec<i64>| {
            v.into_iter()
                .scan(0i64, |prev, x| {
                    let d = x.wrapping_sub(*prev);
                    *prev = x;
                    Some(d)
                })
                .collect::<Vec<i64>>()
        };
        let info = proto::DenseInfo {
            version: metas.iter().map(|m| m.version).collect(),
            timestamp: delta(metas.iter().map(|m| m.timestamp).collect()),
            changeset: delta(metas.iter().map(|m| m.changeset).collect()),
            uid: delta(metas.iter().map(|m| m.uid as i64).collect()).into_iter().map(|d| d as i32).collect(),
            user_sid: delta(metas.iter().map(|m| table.of(m.user_sid) as i64).collect()).into_iter().map(|d| d as i32).collect(),
            visible: Vec::new(),
        };
        denseinfo.push(info.encode_to_vec().into());
    }
    let dense = proto::DenseNodes { id: vec![packed_deltas(&ids)], denseinfo, lat: vec![packed_deltas(&lats)], lon: vec![packed_deltas(&lons)], keys_vals };
    table.into_block(proto::PrimitiveGroup { dense: Some(dense), ..Default::default() })
}

/// A PrimitiveBlock of the ways at positions `ways` (of [`Elements::ways`]), in that order.
pub(crate) fn way_block(e: &Elements, ways: &[u32]) -> Vec<u8> {
    let mut table = Table::new(&e.strings.list);
    let ways = ways
        .iter()
        .map(|&i| {
            let i = i as usize;
            let (keys, vals) = keys_vals(&e.ways, i, &mut table);
            let refs: Vec<i64> = e.refs_of(i).collect();
            proto::Way { id: e.ways.id.get(i), keys, vals, info: info(e.ways.meta_of(i), &mut table), refs: Some(packed_deltas(&refs)), lat: None, lon: None }
        })
        .collect();
    table.into_block(proto::PrimitiveGroup { ways, ..Default::default() })
}

/// A PrimitiveBlock of the relations at positions `relations` (of [`Elements::relations`]).
pub(crate) fn relation_block(e: &Elements, relations: &[u32]) -> Vec<u8> {
    let mut table = Table::new(&e.strings.list);
    let relations = relations
        .iter()
        .map(|&i| {
            let i = i as usize;
            let (keys, vals) = keys_vals(&e.relations, i, &mut table);
            let members: Vec<(u8, i64, u32)> = e.members_of(i).collect();
            proto::Relation {
                id: e.relations.id.get(i),
                keys,
                vals,
                info: info(e.relations.meta_of(i), &mut table),
                roles_sid: members.iter().map(|m| table.of(m.2) as i32).collect(),
                memids: Some(packed_deltas(&members.iter().map(|m| m.1).collect::<Vec<_>>())),
                types: Some(packed_varints(members.iter().map(|m| m.0 as u64))),
            }
        })
        .collect();
    table.into_block(proto::PrimitiveGroup { relations, ..Default::default() })
}

/// The PrimitiveBlock of one planned blob.
pub(crate) fn block_of(e: &Elements, piece: &super::order::Piece) -> Vec<u8> {
    use super::order::Piece;
    match piece {
        Piece::Nodes(nodes) => node_block(e, nodes),
        Piece::Ways(ways) => way_block(e, ways),
        Piece::Relations(relations) => relation_block(e, relations),
    }
}
