//! Planet-like test files: real files written again in id order so that, as on the planet, a
//! blob of consecutive ids holds elements from everywhere. Either N copies of one file placed
//! apart on the globe with interleaved ids (copy k's element i gets id i·N + k), or several
//! real files of different places merged by their own ids.

use prost::Message;

use crate::error::DecodeError;
use crate::format::blob::blob_data;
use crate::format::proto;
use crate::format::write::{frame, zlib_blob};
use crate::layout::blocks::block_of;
use crate::layout::order::in_id_order;
use crate::layout::store::Elements;

/// A file's OSMHeader and elements.
fn read(file: &[u8]) -> Result<(proto::HeaderBlock, Elements), DecodeError> {
    let (mut header, mut elements) = (None, Elements::new());
    for f in crate::format::frame::frames(file) {
        let f = f?;
        let data = blob_data(f.blob)?;
        match f.kind {
            "OSMHeader" => header = Some(proto::HeaderBlock::decode(&data[..]).map_err(|e| DecodeError::protobuf("HeaderBlock", e))?),
            "OSMData" => elements.add_block(&data)?,
            _ => {}
        }
    }
    Ok((header.ok_or(DecodeError::Inconsistent("no OSMHeader"))?, elements))
}

/// Positions of each kind's elements in id order: nodes, ways, relations.
fn id_orders(e: &Elements) -> [Vec<usize>; 3] {
    [&e.nodes, &e.ways, &e.relations].map(|c| {
        let mut order: Vec<usize> = (0..c.len()).collect();
        order.sort_by_key(|&i| c.id.get(i));
        order
    })
}

/// The file of `e` (already in id order), with `header` claiming that order and a bbox in degrees.
fn write(mut header: proto::HeaderBlock, e: &Elements, bbox: [f64; 4]) -> Vec<u8> {
    let nano = |d: f64| (d * 1e9).round() as i64;
    header.bbox = Some(proto::HeaderBBox { left: nano(bbox[0]), bottom: nano(bbox[1]), right: nano(bbox[2]), top: nano(bbox[3]) });
    header.optional_features.retain(|f| f != "Sort.Type_then_ID" && f != "LocationsOnWays");
    header.optional_features.push("Sort.Type_then_ID".into());
    header.writingprogram = Some("pbf-explorer planet-like test file".into());
    let mut out = frame("OSMHeader", &zlib_blob(&header.encode_to_vec()));
    for piece in in_id_order(e) {
        out.extend(frame("OSMData", &zlib_blob(&block_of(e, &piece))));
    }
    out
}

/// Where copy `k` of `copies` goes: a grid over the globe (latitudes −60°…60°), as a shift in
/// 1e-7 degrees of a file whose header bbox (else 0, 0) is centred at `centre` (lat, lon).
pub fn copy_shift(k: usize, copies: usize, centre: (f64, f64)) -> (i32, i32) {
    let cols = (copies as f64).sqrt().ceil() as usize;
    let rows = copies.div_ceil(cols);
    let (row, col) = (k / cols, k % cols);
    let lat = -60.0 + 120.0 * (row as f64 + 0.5) / rows as f64;
    let lon = -180.0 + 360.0 * (col as f64 + 0.5) / cols as f64;
    (((lat - centre.0).round() * 1e7) as i32, ((lon - centre.1).round() * 1e7) as i32)
}

/// `copies` copies of `file`, copy k moved by [`copy_shift`] (whole degrees) with every id
/// (elements', refs', members') i written as i·copies + k, in id order.
/// Errors: those of reading `file`; [`DecodeError::Overflow`] when an id · copies overflows.
pub fn interleaved_copies(file: &[u8], copies: usize) -> Result<Vec<u8>, DecodeError> {
    let (header, from) = read(file)?;
    let centre = header.bbox.as_ref().map_or((0.0, 0.0), |b| ((b.top + b.bottom) as f64 * 0.5e-9, (b.left + b.right) as f64 * 0.5e-9));
    let n = copies as i64;
    let id = |i: i64, k: usize| i.checked_mul(n).and_then(|x| x.checked_add(k as i64)).ok_or(DecodeError::Overflow("an id times the copies"));
    for c in [&from.nodes, &from.ways, &from.relations] {
        c.id.iter().try_for_each(|i| id(i, copies - 1).map(|_| ()))?;
    }
    let mut to = Elements::new();
    let strings = to.strings_of(&from);
    let [nodes, ways, relations] = id_orders(&from);
    let shifts: Vec<(i32, i32)> = (0..copies).map(|k| copy_shift(k, copies, centre)).collect();
    for &i in &nodes {
        for (k, &shift) in shifts.iter().enumerate() {
            to.copy_node(&from, i, id(from.nodes.id.get(i), k)?, shift, &strings)?;
        }
    }
    // Refs and members are ids of the file's elements or of missing ones: either way i·N + k
    // fits when the elements' ids do, or is left as it is (saturated) when it would not.
    let remap = |i: i64, k: usize| i.saturating_mul(n).saturating_add(k as i64);
    for &i in &ways {
        for k in 0..copies {
            to.copy_way(&from, i, id(from.ways.id.get(i), k)?, |r| remap(r, k), &strings)?;
        }
    }
    for &i in &relations {
        for k in 0..copies {
            to.copy_relation(&from, i, id(from.relations.id.get(i), k)?, |_, m| remap(m, k), &strings)?;
        }
    }
    let (lat0, lon0) = (to.lat.iter().min().unwrap_or(0), to.lon.iter().min().unwrap_or(0));
    let (lat1, lon1) = (to.lat.iter().max().unwrap_or(0), to.lon.iter().max().unwrap_or(0));
    Ok(write(header, &to, [lon0 as f64 * 1e-7, lat0 as f64 * 1e-7, lon1 as f64 * 1e-7, lat1 as f64 * 1e-7]))
}

/// Several real files merged by their own ids (an element in more than one is kept once, from
/// the first), in id order, as an extract of all their places would hold them.
/// Errors: those of reading the files.
pub fn merged(files: &[&[u8]]) -> Result<Vec<u8>, DecodeError> {
    let read: Vec<(proto::HeaderBlock, Elements)> = files.iter().map(|f| read(f)).collect::<Result<_, _>>()?;
    let mut to = Elements::new();
    let strings: Vec<Vec<u32>> = read.iter().map(|(_, e)| to.strings_of(e)).collect();
    let orders: Vec<[Vec<usize>; 3]> = read.iter().map(|(_, e)| id_orders(e)).collect();
    for kind in 0..3 {
        let mut all: Vec<(i64, usize, usize)> = Vec::new();
        for (f, (_, e)) in read.iter().enumerate() {
            let ids = [&e.nodes.id, &e.ways.id, &e.relations.id][kind];
            all.extend(orders[f][kind].iter().map(|&i| (ids.get(i), f, i)));
        }
        all.sort_unstable();
        all.dedup_by_key(|x| x.0);
        for (id, f, i) in all {
            let (from, s) = (&read[f].1, &strings[f]);
            match kind {
                0 => to.copy_node(from, i, id, (0, 0), s)?,
                1 => to.copy_way(from, i, id, |r| r, s)?,
                _ => to.copy_relation(from, i, id, |_, m| m, s)?,
            }
        }
    }
    let bboxes: Vec<[f64; 4]> = read.iter().filter_map(|(h, _)| h.bbox.as_ref()).map(|b| [b.left as f64 * 1e-9, b.bottom as f64 * 1e-9, b.right as f64 * 1e-9, b.top as f64 * 1e-9]).collect();
    let bbox = bboxes.iter().fold([180.0f64, 90.0, -180.0, -90.0], |a, b| [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]);
    let header = read.into_iter().next().map(|(h, _)| h).unwrap_or_default();
    Ok(write(header, &to, bbox))
}
