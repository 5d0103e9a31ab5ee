//! The new order: which elements go in which blob, blob after blob.

use super::column::Column;
use super::hilbert::hilbert_key;
use super::store::Elements;
use crate::index::Cells;

/// The level of the cells the index of an optimized file notes (0.0055° × 0.0027°, about
/// 600 × 300 m in the middle latitudes): a blob of a city covers a few of them, where a scan's
/// [`crate::index::CELL_LEVEL`] cell (16 times as wide and tall) would hold many blobs.
pub const FINE_LEVEL: u8 = 16;

/// Nodes, and ways or relations, a blob: a quarter and an eighth of what osmium writes, so a
/// blob covers a few streets. Measured on Helsinki and Malta merged (`docs/decisions.md`): 8 000
/// a blob read 17 % of the file for `amenity=cafe` 1000 m in Valletta, 2 000 and 1 000 3.8 %,
/// for a file 1.08× as large (each blob has its own string table and compression dictionary).
const NODES_PER_BLOB: usize = 2_000;
const OTHERS_PER_BLOB: usize = 1_000;
/// Way node refs, and relation members, a blob at most: keeps a blob's raw size far below the
/// spec's 16 MiB advice whatever the elements.
const REFS_PER_BLOB: usize = 400_000;
/// A way or relation whose bbox is wider or taller than this (1e-7 degrees: 0.25°) goes apart.
const LARGE_E7: i64 = 2_500_000;

/// One blob's elements, by position in [`Elements`], in id order.
#[derive(Debug)]
pub enum Piece {
    Nodes(Vec<u32>),
    Ways(Vec<u32>),
    Relations(Vec<u32>),
}

/// Every blob of the new file, in file order, and what finding node locations needs.
#[derive(Debug)]
pub struct Pieces {
    pieces: Vec<Piece>,
    nodes: IdLookup,
    ways: IdLookup,
}

/// Finds an element's position in its column of ids (the first of several with that id).
#[derive(Debug)]
struct IdLookup {
    /// Positions in id order; None when the column is in id order already.
    by_id: Option<Vec<u32>>,
}

impl IdLookup {
    fn new(ids: &Column<i64>, ascending: bool) -> IdLookup {
        if ascending {
            return IdLookup { by_id: None };
        }
        let mut by_id: Vec<u32> = (0..ids.len() as u32).collect();
        by_id.sort_unstable_by_key(|&i| (ids.get(i as usize), i));
        IdLookup { by_id: Some(by_id) }
    }

    /// The position of `id` in `ids` (the column this lookup was made for).
    fn find(&self, ids: &Column<i64>, id: i64) -> Option<usize> {
        let at = match &self.by_id {
            None => Some(ids.partition_point_lt(id)).filter(|&p| p < ids.len()),
            Some(by_id) => by_id.get(by_id.partition_point(|&i| ids.get(i as usize) < id)).map(|&i| i as usize),
        }?;
        (ids.get(at) == id).then_some(at)
    }

    /// The location (1e-7 degrees: lat, lon) of node `id`, if the file has it: for the lookup
    /// of [`Elements::nodes`].
    fn locate(&self, e: &Elements, id: i64) -> Option<(i32, i32)> {
        self.find(&e.nodes.id, id).map(|at| (e.lat.get(at), e.lon.get(at)))
    }
}

/// A bbox `[min_lat, min_lon, max_lat, max_lon]` (1e-7 degrees) growing by points and boxes.
#[derive(Debug, Clone, Copy)]
struct Bbox([i32; 4]);

impl Bbox {
    const EMPTY: Bbox = Bbox([i32::MAX, i32::MAX, i32::MIN, i32::MIN]);

    fn add(&mut self, other: [i32; 4]) {
        let b = &mut self.0;
        *b = [b[0].min(other[0]), b[1].min(other[1]), b[2].max(other[2]), b[3].max(other[3])];
    }

    /// (group, key): 0 with the Hilbert key of its centre, 1 when large, 2 when empty.
    fn placement(&self) -> (u8, u64) {
        let [lat0, lon0, lat1, lon1] = self.0;
        if lat0 > lat1 {
            return (2, 0);
        }
        let centre = hilbert_key(((lat0 as i64 + lat1 as i64) / 2) as i32, ((lon0 as i64 + lon1 as i64) / 2) as i32);
        let large = lat1 as i64 - lat0 as i64 > LARGE_E7 || lon1 as i64 - lon0 as i64 > LARGE_E7;
        (large as u8, centre)
    }
}

/// Cuts `order` (positions sorted by placement) into blobs of at most `per_blob` elements
/// and [`REFS_PER_BLOB`] refs or members (`weight`), each sorted by id.
fn cut(order: Vec<u32>, ids: &Column<i64>, per_blob: usize, weight: impl Fn(usize) -> usize, piece: fn(Vec<u32>) -> Piece, out: &mut Vec<Piece>) {
    let mut blob: Vec<u32> = Vec::new();
    let mut refs = 0;
    let mut flush = |blob: &mut Vec<u32>| {
        if !blob.is_empty() {
            let mut b = std::mem::take(blob);
            b.sort_unstable_by_key(|&i| ids.get(i as usize));
            out.push(piece(b));
        }
    };
    for i in order {
        let w = weight(i as usize);
        if blob.len() == per_blob || (refs + w > REFS_PER_BLOB && !blob.is_empty()) {
            flush(&mut blob);
            refs = 0;
        }
        blob.push(i);
        refs += w;
    }
    flush(&mut blob);
}

impl Pieces {
    /// Plans the blobs of `e`: nodes, then ways, then relations, each in placement order.
    pub fn plan(e: &Elements) -> Pieces {
        let nodes = IdLookup::new(&e.nodes.id, e.nodes_ascending);
        let mut pieces = Vec::new();

        let mut keyed: Vec<(u64, u32)> = (0..e.nodes.len()).map(|i| (hilbert_key(e.lat.get(i), e.lon.get(i)), i as u32)).collect();
        keyed.sort_unstable();
        let order: Vec<u32> = keyed.into_iter().map(|(_, i)| i).collect();
        cut(order, &e.nodes.id, NODES_PER_BLOB, |_| 0, Piece::Nodes, &mut pieces);

        let way_boxes: Vec<Bbox> = (0..e.ways.len())
            .map(|w| {
                let mut b = Bbox::EMPTY;
                e.refs_of(w).filter_map(|r| nodes.locate(e, r)).for_each(|(lat, lon)| b.add([lat, lon, lat, lon]));
                b
            })
            .collect();
        let ways_by_id = IdLookup::new(&e.ways.id, false);
        let mut keyed: Vec<(u8, u64, i64, u32)> = way_boxes.iter().enumerate().map(|(w, b)| {
            let (group, key) = b.placement();
            (group, key, e.ways.id.get(w), w as u32)
        }).collect();
        keyed.sort_unstable();
        let weight = |w: usize| (e.refs_start.get(w + 1) - e.refs_start.get(w)) as usize;
        cut(keyed.into_iter().map(|k| k.3).collect(), &e.ways.id, OTHERS_PER_BLOB, weight, Piece::Ways, &mut pieces);

        let mut keyed: Vec<(u8, u64, i64, u32)> = (0..e.relations.len())
            .map(|r| {
                let mut b = Bbox::EMPTY;
                for (ty, id, _) in e.members_of(r) {
                    match ty {
                        0 => {
                            if let Some((lat, lon)) = nodes.locate(e, id) {
                                b.add([lat, lon, lat, lon]);
                            }
                        }
                        1 => {
                            if let Some(w) = ways_by_id.find(&e.ways.id, id) {
                                b.add(way_boxes[w].0);
                            }
                        }
                        _ => {}
                    }
                }
                let (group, key) = b.placement();
                // Large and unplaced relations in id order.
                let key = if group == 0 { key } else { 0 };
                (group, key, e.relations.id.get(r), r as u32)
            })
            .collect();
        keyed.sort_unstable();
        let weight = |r: usize| (e.members_start.get(r + 1) - e.members_start.get(r)) as usize;
        cut(keyed.into_iter().map(|k| k.3).collect(), &e.relations.id, OTHERS_PER_BLOB, weight, Piece::Relations, &mut pieces);

        Pieces { pieces, nodes, ways: ways_by_id }
    }

    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    pub fn get(&self, i: usize) -> Option<&Piece> {
        self.pieces.get(i)
    }

    /// The cells at [`FINE_LEVEL`] of the nodes of `ways` (positions in [`Elements::ways`]),
    /// and whether one of them has no node in the file (`IndexEntry::unplaced_ways`).
    pub fn way_cells(&self, e: &Elements, ways: &[u32]) -> (Cells, bool) {
        let mut cells = Cells { level: FINE_LEVEL, ids: Vec::new() };
        let mut unplaced = false;
        for &w in ways {
            let before = cells.ids.len();
            cells.ids.extend(e.refs_of(w as usize).filter_map(|r| self.nodes.locate(e, r)).map(|(lat, lon)| Cells::cell_at(lat, lon, FINE_LEVEL)));
            unplaced |= cells.ids.len() == before;
        }
        cells.tidy();
        (cells, unplaced)
    }

    /// The cells at [`FINE_LEVEL`] of the members of `relations` (positions in
    /// [`Elements::relations`]): their node members' and their member ways' nodes (member
    /// relations are not followed, as a query does not follow them).
    pub fn member_cells(&self, e: &Elements, relations: &[u32]) -> Cells {
        let mut cells = Cells { level: FINE_LEVEL, ids: Vec::new() };
        let mut ways = Vec::new();
        for &r in relations {
            for (ty, id, _) in e.members_of(r as usize) {
                match ty {
                    0 => cells.ids.extend(self.nodes.locate(e, id).map(|(lat, lon)| Cells::cell_at(lat, lon, FINE_LEVEL))),
                    1 => ways.extend(self.ways.find(&e.ways.id, id).map(|w| w as u32)),
                    _ => {}
                }
            }
        }
        ways.sort_unstable();
        ways.dedup();
        cells.ids.extend(self.way_cells(e, &ways).0.ids);
        cells.tidy();
        cells
    }

    /// The cells at [`FINE_LEVEL`] of `nodes` (positions in [`Elements::nodes`]).
    pub fn node_cells(e: &Elements, nodes: &[u32]) -> Cells {
        let ids = nodes.iter().map(|&i| Cells::cell_at(e.lat.get(i as usize), e.lon.get(i as usize), FINE_LEVEL)).collect();
        let mut cells = Cells { level: FINE_LEVEL, ids };
        cells.tidy();
        cells
    }
}

/// The blobs of a store already in id order (type by type), kept in that order: what an
/// id-sorted writer makes (test files: `crate::testing::planet_like`).
#[cfg(any(test, feature = "testing"))]
pub(crate) fn in_id_order(e: &Elements) -> Vec<Piece> {
    let mut pieces = Vec::new();
    cut((0..e.nodes.len() as u32).collect(), &e.nodes.id, 8_000, |_| 0, Piece::Nodes, &mut pieces);
    let weight = |w: usize| (e.refs_start.get(w + 1) - e.refs_start.get(w)) as usize;
    cut((0..e.ways.len() as u32).collect(), &e.ways.id, 8_000, weight, Piece::Ways, &mut pieces);
    let weight = |r: usize| (e.members_start.get(r + 1) - e.members_start.get(r)) as usize;
    cut((0..e.relations.len() as u32).collect(), &e.relations.id, 8_000, weight, Piece::Relations, &mut pieces);
    pieces
}
