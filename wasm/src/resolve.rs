//! Merges the [`BlockScan`]s of a whole file into the query's answer: matched nodes as they
//! are, and candidate ways placed at the mean of their nodes that lie in the area. This is
//! the native twin of the browser's results stage (`workers/results.ts`).

use std::collections::HashMap;

use serde::Serialize;

use crate::scan::{BlockScan, Counts, MatchedNode, Tag, WayCandidate};

/// Whether a match is a node or a way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ElementType {
    Node,
    Way,
}

/// One answer to a query: an element with the position it is drawn at (degrees WGS84).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    pub element: ElementType,
    pub id: i64,
    pub lat: f64,
    pub lon: f64,
    pub tags: Vec<Tag>,
}

/// Accumulates block scans in any order; [`Resolver::finish`] gives the answer.
#[derive(Default)]
pub struct Resolver {
    pub counts: Counts,
    nodes: Vec<MatchedNode>,
    ways: Vec<WayCandidate>,
    locations: HashMap<i64, (i32, i32)>,
}

impl Resolver {
    /// Adds one block's scan.
    pub fn add(&mut self, scan: BlockScan) {
        self.counts.add(&scan.counts);
        self.nodes.extend(scan.nodes);
        self.ways.extend(scan.ways);
        let a = scan.area_nodes;
        for i in 0..a.ids.len() {
            self.locations.insert(a.ids[i], (a.lats_e7[i], a.lons_e7[i]));
        }
    }

    /// All matches: nodes, then ways with at least one node in the area, each sorted by id.
    pub fn finish(self) -> Vec<Match> {
        let mut out: Vec<Match> = self
            .nodes
            .into_iter()
            .map(|n| Match { element: ElementType::Node, id: n.id, lat: n.lat, lon: n.lon, tags: n.tags })
            .collect();
        out.sort_by_key(|m| m.id);
        let mut ways: Vec<Match> = self
            .ways
            .into_iter()
            .filter_map(|w| {
                let [lat, lon] = w.position.or_else(|| mean_location(&w.refs, &self.locations))?;
                Some(Match { element: ElementType::Way, id: w.id, lat, lon, tags: w.tags })
            })
            .collect();
        ways.sort_by_key(|m| m.id);
        out.extend(ways);
        out
    }
}

/// Mean `[lat, lon]` in degrees of the referenced nodes that have a known location.
fn mean_location(refs: &[i64], locations: &HashMap<i64, (i32, i32)>) -> Option<[f64; 2]> {
    let (mut lat, mut lon, mut n) = (0.0, 0.0, 0u32);
    for (y, x) in refs.iter().filter_map(|id| locations.get(id)) {
        lat += *y as f64;
        lon += *x as f64;
        n += 1;
    }
    (n > 0).then(|| [lat / n as f64 * 1e-7, lon / n as f64 * 1e-7])
}
