//! Targeted reads of one block: the locations of wanted nodes, the node refs of wanted ways.

use crate::error::DecodeError;
use crate::format::block::{Block, Dense, Element, Node, Way};
use crate::format::info::{self, version_states, DenseInfoColumns, VersionState};
use crate::format::varint::{self, Varints};
use crate::ids::{SortedIds, NO_LOCATION};

use super::*;
/// The locations of the nodes of a block whose ids are in `wanted` (sorted ascending): the
/// targeted second read that places ways whose nodes were not kept during the first.
/// Tags are not read. Returns `(id, lat_e7, lon_e7)` in block order (1e-7 degrees). For a
/// history file (`as_of` set, see [`PreparedQuery::as_of`]) only the versions current then,
/// and a node deleted then as [`NO_LOCATION`].
///
/// Errors: as [`scan_block`].
pub fn locate_nodes(data: &[u8], wanted: &[i64], as_of: Option<i64>) -> Result<Vec<(i64, i32, i32)>, DecodeError> {
    let block = Block::read(data)?;
    let coords = Coords::of(&block);
    let date_granularity = block.date_granularity as i64;
    let mut found = Vec::new();
    let mut wanted = SortedIds::new(wanted);
    let mut keep = |id: i64, lat: i64, lon: i64, state: VersionState| -> Result<(), DecodeError> {
        if wanted.contains(id) {
            match state {
                VersionState::Current => {
                    let (y, x) = coords.locate(lat, lon)?.e7;
                    found.push((id, y, x));
                }
                VersionState::Deleted => found.push((id, NO_LOCATION, NO_LOCATION)),
                VersionState::NotCurrent => {}
            }
        }
        Ok(())
    };
    for group in &block.groups {
        if let Some(dense) = &group.dense {
            let info = dense.denseinfo.bytes();
            let states = as_of.map(|at| dense_versions(dense, &info, date_granularity).map(|v| version_states(&v, at).0)).transpose()?;
            let (id_bytes, lat_bytes, lon_bytes) = (dense.id.bytes(), dense.lat.bytes(), dense.lon.bytes());
            let mut ids = Varints::new(&id_bytes, "DenseNodes id");
            let mut lats = Varints::new(&lat_bytes, "DenseNodes lat");
            let mut lons = Varints::new(&lon_bytes, "DenseNodes lon");
            let (mut id, mut lat, mut lon, mut i) = (0i64, 0i64, 0i64, 0usize);
            while !ids.is_empty() {
                if lats.is_empty() || lons.is_empty() {
                    return Err(DecodeError::Inconsistent("DenseNodes id, lat and lon differ in length"));
                }
                ids.next_delta(&mut id)?;
                lats.next_delta(&mut lat)?;
                lons.next_delta(&mut lon)?;
                keep(id, lat, lon, VersionState::of(&states, i))?;
                i += 1;
            }
        }
        let states = as_of.map(|at| plain_versions(&group.nodes, |m| Node::read(m).map(|n| n.element), date_granularity).map(|v| version_states(&v, at).0)).transpose()?;
        for (i, msg) in group.nodes.iter().enumerate() {
            let node = Node::read(msg)?;
            keep(node.element.id, node.lat, node.lon, VersionState::of(&states, i))?;
        }
    }
    Ok(found)
}

/// The node refs of the ways of a block whose ids are in `wanted` (sorted ascending): the read
/// that finds the member ways of candidate relations. Tags are not read. For a history file
/// (`as_of` set) only the versions current then. Returns `(way id, refs)` in block order.
///
/// Errors: as [`scan_block`].
pub fn locate_ways(data: &[u8], wanted: &[i64], as_of: Option<i64>) -> Result<Vec<(i64, Vec<i64>)>, DecodeError> {
    let block = Block::read(data)?;
    let date_granularity = block.date_granularity as i64;
    let mut found = Vec::new();
    let mut wanted = SortedIds::new(wanted);
    for group in &block.groups {
        let states = as_of.map(|at| plain_versions(&group.ways, |m| Way::read(m).map(|w| w.element), date_granularity).map(|v| version_states(&v, at).0)).transpose()?;
        for (i, msg) in group.ways.iter().enumerate() {
            let way = Way::read(msg)?;
            if VersionState::of(&states, i) == VersionState::Current && wanted.contains(way.element.id) {
                found.push((way.element.id, varint::deltas(&way.refs.bytes(), "Way refs")?));
            }
        }
    }
    Ok(found)
}

/// (id, timestamp in seconds, visible) of each node of a DenseNodes group, from its DenseInfo
/// (defaults, a visible version of time 0, when it has none).
pub(super) fn dense_versions(dense: &Dense, info: &[u8], date_granularity: i64) -> Result<Vec<(i64, i64, bool)>, DecodeError> {
    let id_bytes = dense.id.bytes();
    let mut ids = Varints::new(&id_bytes, "DenseNodes id");
    let mut columns = DenseInfoColumns::new(info, date_granularity)?;
    let (mut versions, mut id) = (Vec::new(), 0i64);
    while !ids.is_empty() {
        ids.next_delta(&mut id)?;
        let m = if info.is_empty() { info::RawMeta::default() } else { columns.next_meta()? };
        versions.push((id, m.timestamp, m.visible));
    }
    Ok(versions)
}

/// (id, timestamp in seconds, visible) of plain elements (encoded messages, read by `read` into
/// their [`Element`]), from their `Info`s: a missing or malformed one counts as a visible
/// version of time 0 (metadata never fails a query). Errors: those of `read`.
pub(super) fn plain_versions<'a>(
    messages: &[&'a [u8]],
    read: impl Fn(&'a [u8]) -> Result<Element<'a>, DecodeError>,
    date_granularity: i64,
) -> Result<Vec<(i64, i64, bool)>, DecodeError> {
    messages
        .iter()
        .map(|&msg| {
            let element = read(msg)?;
            let m = info::decode_info(&element.info.bytes(), date_granularity).unwrap_or_default();
            Ok((element.id, m.timestamp, m.visible))
        })
        .collect()
}
