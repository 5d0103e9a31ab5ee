//! An area copy: the elements of a file that a query of an area within a bbox can need, written
//! with `optimize`'s layout (`docs/optimize.md`, "Area copies"), so that a second question about
//! the same place on a file sorted by id reads a small file grouped by place instead of most of
//! the original. The copy holds, with their tags and metadata:
//!
//! - every node inside the bbox;
//! - every way with a node inside it, and every node of those ways (complete ways);
//! - every relation with a node member inside it or a member way kept above, its member ways
//!   and their nodes, and its node members (member relations are listed, not followed).
//!
//! A query whose area lies within the bbox matches the same elements with the same geometry on
//! the copy as on the file (the rules of `docs/query-language.md`: a way by any of its nodes,
//! a relation by its node members or its member ways' nodes). The file is read in five passes,
//! each of its own kind, so the file's order does not matter; after the first, frames of a kind
//! the pass does not take are not even inflated.

use prost::Message;
use rustc_hash::FxHashSet;

use super::store::{Elements, Keep, KINDS_NODES, KINDS_RELATIONS, KINDS_WAYS};
use super::Optimizer;
use crate::error::DecodeError;
use crate::format::blob::blob_data;
use crate::format::header::decode_header;
use crate::format::proto;

/// The most bytes of distinct strings (tags, roles, user names) a copy keeps: a copy is a
/// convenience, made in the query worker's memory beside the answer, which it must never
/// endanger (an area of 40 names of 30 MB each took the worker past Wasm's 4 GB). A city's copy
/// holds a few MB.
pub const MAX_COPY_STRING_BYTES: usize = 256 << 20;

/// The least margin a copy keeps around a query's area, in degrees (about 1 km).
const MIN_MARGIN_DEG: f64 = 0.01;

/// The bbox of the copy kept after a query of the area with `bounds` (`[min_lat, max_lat,
/// min_lon, max_lon]`, degrees, as [`crate::query::area::AreaTest::bounds`]): the area's bounds
/// widened on each side by their own height and width (at least [`MIN_MARGIN_DEG`]), so that a
/// second question near the first, or of a larger radius, is still within it. Returned as
/// `[min_lat, min_lon, max_lat, max_lon]`, degrees.
pub fn copy_bbox(bounds: [f64; 4]) -> [f64; 4] {
    let [s, n, w, e] = bounds;
    let (dlat, dlon) = ((n - s).max(MIN_MARGIN_DEG), (e - w).max(MIN_MARGIN_DEG));
    [(s - dlat).max(-90.0), (w - dlon).max(-180.0), (n + dlat).min(90.0), (e + dlon).min(180.0)]
}

/// Whether an area with `bounds` (as for [`copy_bbox`]) lies within the copy's `bbox`
/// (`[min_lat, min_lon, max_lat, max_lon]`, degrees): then a query of it answers on the copy as
/// on the file.
pub fn area_within(bounds: [f64; 4], bbox: [f64; 4]) -> bool {
    let [s, n, w, e] = bounds;
    s >= bbox[0] && w >= bbox[1] && n <= bbox[2] && e <= bbox[3]
}

/// The passes over the file, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Nodes inside the bbox.
    Nodes,
    /// Ways with a node inside.
    Ways,
    /// Relations with a node member inside or a member way kept.
    Relations,
    /// The kept relations' other member ways.
    MemberWays,
    /// The nodes of kept ways and the node members of kept relations not taken yet.
    MoreNodes,
}

impl Pass {
    fn kinds(self) -> u8 {
        match self {
            Pass::Nodes | Pass::MoreNodes => KINDS_NODES,
            Pass::Ways | Pass::MemberWays => KINDS_WAYS,
            Pass::Relations => KINDS_RELATIONS,
        }
    }
}

/// What the passes found so far, and which elements the current one keeps.
#[derive(Debug, Default)]
struct Found {
    /// `[min_lat, min_lon, max_lat, max_lon]`, 1e-7 degrees, edges included.
    bbox_e7: [i32; 4],
    /// Nodes inside the bbox, and ways kept, by id.
    inside: FxHashSet<i64>,
    ways: FxHashSet<i64>,
    /// Member ways and nodes still to take.
    want_ways: FxHashSet<i64>,
    want_nodes: FxHashSet<i64>,
    pass: Option<Pass>,
}

impl Keep for Found {
    fn node(&mut self, id: i64, lat: i32, lon: i32) -> bool {
        match self.pass {
            Some(Pass::Nodes) => {
                let [s, w, n, e] = self.bbox_e7;
                let inside = (s..=n).contains(&lat) && (w..=e).contains(&lon);
                if inside {
                    self.inside.insert(id);
                }
                inside
            }
            Some(Pass::MoreNodes) => self.want_nodes.remove(&id),
            _ => false,
        }
    }

    fn way(&mut self, id: i64, refs: &[i64]) -> bool {
        let keep = match self.pass {
            Some(Pass::Ways) => refs.iter().any(|r| self.inside.contains(r)) && self.ways.insert(id),
            Some(Pass::MemberWays) => self.want_ways.remove(&id) && self.ways.insert(id),
            _ => false,
        };
        if keep {
            self.want_nodes.extend(refs.iter().filter(|r| !self.inside.contains(r)));
        }
        keep
    }

    fn relation(&mut self, _: i64, members: &[(u8, i64)]) -> bool {
        let keep = self.pass == Some(Pass::Relations) && members.iter().any(|&(t, id)| (t == 0 && self.inside.contains(&id)) || (t == 1 && self.ways.contains(&id)));
        if keep {
            for &(t, id) in members {
                match t {
                    0 if !self.inside.contains(&id) => _ = self.want_nodes.insert(id),
                    1 if !self.ways.contains(&id) => _ = self.want_ways.insert(id),
                    _ => {}
                }
            }
        }
        keep
    }
}

/// Takes a file's frames in order, once per pass ([`AreaCopier::end_pass`] says whether
/// another is needed), then [`AreaCopier::finish`] gives the copy's layout.
#[derive(Debug)]
pub struct AreaCopier {
    header: Option<proto::HeaderBlock>,
    elements: Elements,
    found: Found,
    /// Each OSMData frame's kinds, noted in the first pass, and the frame the pass is at.
    kinds: Vec<u8>,
    frame: usize,
}

impl AreaCopier {
    /// A copy of the elements for `bbox` (`[min_lat, min_lon, max_lat, max_lon]`, degrees
    /// WGS84, as [`copy_bbox`] gives it; widened to the 1e-7 degree grid, edges included).
    pub fn new(bbox: [f64; 4]) -> AreaCopier {
        let e7 = |x: f64, round: fn(f64) -> f64| round(x * 1e7).clamp(i32::MIN as f64, i32::MAX as f64) as i32;
        let bbox_e7 = [e7(bbox[0], f64::floor), e7(bbox[1], f64::floor), e7(bbox[2], f64::ceil), e7(bbox[3], f64::ceil)];
        AreaCopier { header: None, elements: Elements::new(), found: Found { bbox_e7, pass: Some(Pass::Nodes), ..Found::default() }, kinds: Vec::new(), frame: 0 }
    }

    /// Adds the next frame of the file in this pass: its BlobHeader's `kind` and its Blob's
    /// bytes. Frames of other kinds than OSMHeader and OSMData are skipped.
    ///
    /// Errors: those of inflating and decoding it; [`DecodeError::Inconsistent`] for a history
    /// file (a copy keeps one version of each element), OSMData before the OSMHeader, or a
    /// frame after the last pass.
    pub fn add_frame(&mut self, kind: &str, blob: &[u8]) -> Result<(), DecodeError> {
        let pass = self.found.pass.ok_or(DecodeError::Inconsistent("the area copy has read every pass"))?;
        match kind {
            "OSMHeader" if pass == Pass::Nodes => {
                let data = blob_data(blob)?;
                if decode_header(&data)?.is_history() {
                    return Err(DecodeError::Inconsistent("a history file has no area copy: its versions of an element must stay together"));
                }
                self.header = Some(proto::HeaderBlock::decode(&data[..]).map_err(|e| DecodeError::protobuf("HeaderBlock", e))?);
            }
            "OSMData" => {
                if self.header.is_none() {
                    return Err(DecodeError::Inconsistent("OSMData before the OSMHeader"));
                }
                let frame = self.frame;
                self.frame += 1;
                if pass != Pass::Nodes && self.kinds.get(frame).is_some_and(|k| k & pass.kinds() == 0) {
                    return Ok(());
                }
                let kinds = self.elements.add_block_where(&blob_data(blob)?, &mut self.found)?;
                if self.elements.strings.bytes > MAX_COPY_STRING_BYTES {
                    return Err(DecodeError::Limit("the area's elements hold over 256 MB of tag text: no area copy is kept for it"));
                }
                if pass == Pass::Nodes {
                    self.kinds.push(kinds);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Ends a pass over the file: true when another is needed (the file is then read again
    /// from its start), false when the copy is complete.
    pub fn end_pass(&mut self) -> bool {
        let f = &mut self.found;
        self.frame = 0;
        f.pass = match f.pass {
            Some(Pass::Nodes) => Some(Pass::Ways),
            Some(Pass::Ways) => Some(Pass::Relations),
            Some(Pass::Relations) if !f.want_ways.is_empty() => Some(Pass::MemberWays),
            Some(Pass::Relations | Pass::MemberWays) if !f.want_nodes.is_empty() => Some(Pass::MoreNodes),
            _ => None,
        };
        f.pass.is_some()
    }

    /// Elements kept so far: nodes, ways, relations.
    pub fn counts(&self) -> [usize; 3] {
        [self.elements.nodes.len(), self.elements.ways.len(), self.elements.relations.len()]
    }

    /// The copy's layout (written as `optimize` writes a file), once every pass has ended.
    /// Its header is the file's, without the bbox (the copy holds less) and without claims of
    /// order. Errors: [`DecodeError::Inconsistent`] before the last pass ended, or when no
    /// OSMHeader came.
    pub fn finish(self) -> Result<super::Layout, DecodeError> {
        if self.found.pass.is_some() {
            return Err(DecodeError::Inconsistent("the area copy is finished before its last pass"));
        }
        let mut header = self.header.ok_or(DecodeError::Inconsistent("no OSMHeader"))?;
        header.bbox = None;
        Optimizer { header: Some(header), elements: self.elements }.finish()
    }
}
