//! A file of valid but pathological data near Helsinki's centre (60.1699, 24.9384), for the
//! bounds on time and memory (`tests/pathological.rs`, and the page's test):
//!
//! - relation 1, `leisure=park` multipolygon: an outer square (way 1) with 10 000 holes (ways
//!   2..=10 001, small squares on a 100 × 100 grid);
//! - way 20 001, `highway=footway`: 100 000 nodes;
//! - relation 2, `route=hiking`: 50 000 member ways (30 001..=80 000), one after another;
//! - relations 3 (a member of itself), 4 and 5 (members of each other), `test=cycle`, each with
//!   node 1 as a member too; relation 6, `test=missing`, of way 999 999, not in the file.

use crate::format::proto;
use crate::testing::encode::{file, header_block, primitive_block, with_relations, NodeSpec, RelationSpec, WaySpec};

const CENTRE: (f64, f64) = (60.1699, 24.9384);
/// Entities per block, as the spec recommends (OSM wiki "PBF Format": at most 8 000).
const PER_BLOCK: usize = 8000;
pub const HOLES: usize = 10_000;
pub const FOOTWAY_NODES: usize = 100_000;
pub const ROUTE_WAYS: usize = 50_000;

/// The file described in the module documentation.
pub fn pathological() -> Vec<u8> {
    let mut nodes: Vec<(i64, f64, f64)> = Vec::new();
    let mut ways: Vec<(i64, Vec<i64>, &[(&str, &str)])> = Vec::new();
    let mut next_node = 1i64;
    let mut square = |nodes: &mut Vec<(i64, f64, f64)>, lat: f64, lon: f64, size: f64| -> Vec<i64> {
        let first = next_node;
        for (dy, dx) in [(0.0, 0.0), (0.0, size), (size, size), (size, 0.0)] {
            nodes.push((next_node, lat + dy, lon + dx));
            next_node += 1;
        }
        vec![first, first + 1, first + 2, first + 3, first]
    };
    // The park: an outer square of 0.1°, holes of 0.0005° every 0.001°.
    let (lat0, lon0) = (CENTRE.0 - 0.05, CENTRE.1 - 0.05);
    ways.push((1, square(&mut nodes, lat0, lon0, 0.1), &[]));
    for h in 0..HOLES {
        let (row, col) = ((h / 100) as f64, (h % 100) as f64);
        ways.push((2 + h as i64, square(&mut nodes, lat0 + 0.0002 + row * 0.001, lon0 + 0.0002 + col * 0.001, 0.0005), &[]));
    }
    // The footway: a zigzag of 100 000 nodes, 1e-6° apart eastwards, north of the park.
    let first = next_node;
    for i in 0..FOOTWAY_NODES {
        nodes.push((next_node, CENTRE.0 + 0.06 + (i % 2) as f64 * 1e-5, lon0 + i as f64 * 1e-6));
        next_node += 1;
    }
    ways.push((20_001, (first..next_node).collect(), &[("highway", "footway"), ("name", "Long")]));
    // The route: 50 000 ways of two nodes, end to end, south of the park.
    let first = next_node;
    for i in 0..=ROUTE_WAYS {
        nodes.push((next_node, CENTRE.0 - 0.06 + (i % 2) as f64 * 1e-5, lon0 + i as f64 * 2e-6));
        next_node += 1;
    }
    for i in 0..ROUTE_WAYS as i64 {
        ways.push((30_001 + i, vec![first + i, first + i + 1], &[]));
    }
    let route_members: Vec<(i32, i64, &str)> = (0..ROUTE_WAYS as i64).map(|i| (1, 30_001 + i, "")).collect();
    let park_members: Vec<(i32, i64, &str)> = std::iter::once((1, 1, "outer")).chain((0..HOLES as i64).map(|h| (1, 2 + h, "inner"))).collect();
    let relations = [
        RelationSpec { id: 1, members: &park_members, tags: &[("type", "multipolygon"), ("leisure", "park"), ("name", "Holes")] },
        RelationSpec { id: 2, members: &route_members, tags: &[("type", "route"), ("route", "hiking"), ("name", "Many ways")] },
        RelationSpec { id: 3, members: &[(0, 1, ""), (2, 3, "self")], tags: &[("test", "cycle")] },
        RelationSpec { id: 4, members: &[(0, 1, ""), (2, 5, "")], tags: &[("test", "cycle")] },
        RelationSpec { id: 5, members: &[(0, 1, ""), (2, 4, "")], tags: &[("test", "cycle")] },
        RelationSpec { id: 6, members: &[(1, 999_999, "")], tags: &[("test", "missing")] },
    ];
    let mut blocks: Vec<proto::PrimitiveBlock> = Vec::new();
    for chunk in nodes.chunks(PER_BLOCK) {
        let specs: Vec<NodeSpec> = chunk.iter().map(|&(id, lat, lon)| NodeSpec { id, lat, lon, tags: &[] }).collect();
        blocks.push(primitive_block(&specs, &[]));
    }
    for chunk in ways.chunks(PER_BLOCK) {
        let specs: Vec<WaySpec> = chunk.iter().map(|(id, refs, tags)| WaySpec { id: *id, refs, tags }).collect();
        blocks.push(primitive_block(&[], &specs));
    }
    blocks.push(with_relations(primitive_block(&[], &[]), &relations));
    file(&header_block(&["OsmSchema-V0.6", "DenseNodes"], [24.85, 60.10, 25.05, 60.24]), &blocks)
}
