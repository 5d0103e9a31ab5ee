//! What a PrimitiveBlock holds, in brief, whatever the query: its element counts, id ranges,
//! bboxes, newest timestamp and compression. Scans make it; the assembler and the blob index
//! plan targeted reads from it.

use serde::{Deserialize, Serialize};

/// A bbox that meets every area: what is known of a blob's ways without their nodes.
pub const WORLD_E7: [i32; 4] = [i32::MIN, i32::MIN, i32::MAX, i32::MAX];

/// Element totals of a block (or, summed, of a file).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub nodes: u64,
    pub ways: u64,
    pub relations: u64,
    /// Tags on nodes, ways and relations together.
    pub tags: u64,
    /// Sum of the lengths of all ways' node-reference lists.
    pub way_refs: u64,
    /// Sum of the lengths of all relations' member lists.
    pub relation_members: u64,
}

impl Counts {
    /// Adds another block's totals to these.
    pub fn add(&mut self, o: &Counts) {
        self.nodes += o.nodes;
        self.ways += o.ways;
        self.relations += o.relations;
        self.tags += o.tags;
        self.way_refs += o.way_refs;
        self.relation_members += o.relation_members;
    }
}

/// What a block holds, whatever the query: the facts a later, targeted read needs to know
/// whether this block can hold a node (its id range and bbox).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockSummary {
    /// Smallest and largest node id in the block (`i64::MAX`, `i64::MIN` when it has no node).
    pub min_node_id: i64,
    pub max_node_id: i64,
    /// Bbox of its nodes in 1e-7 degrees: `[min_lat, min_lon, max_lat, max_lon]`
    /// (inverted, min > max, when it has no node).
    pub bbox_e7: [i32; 4],
    /// Bbox of the nodes of its ways in 1e-7 degrees, [`WORLD_E7`] when unknown
    /// (a scan does not know it; the blob index does).
    pub way_bbox_e7: [i32; 4],
    /// Smallest and largest way id in the block (`i64::MAX`, `i64::MIN` when it has no way).
    pub min_way_id: i64,
    pub max_way_id: i64,
    /// Smallest and largest relation id in the block (`i64::MAX`, `i64::MIN` when it has none).
    pub min_relation_id: i64,
    pub max_relation_id: i64,
    /// The newest element timestamp, seconds since the Unix epoch (`i64::MIN` when the block
    /// carries no metadata).
    pub max_timestamp: i64,
    /// The Blob's compression, an index into [`crate::format::blob::COMPRESSIONS`] (set by the caller
    /// that decompressed it).
    pub compression: u8,
}

impl Default for BlockSummary {
    fn default() -> Self {
        BlockSummary {
            min_node_id: i64::MAX,
            max_node_id: i64::MIN,
            bbox_e7: [i32::MAX, i32::MAX, i32::MIN, i32::MIN],
            way_bbox_e7: WORLD_E7,
            min_way_id: i64::MAX,
            max_way_id: i64::MIN,
            min_relation_id: i64::MAX,
            max_relation_id: i64::MIN,
            max_timestamp: i64::MIN,
            compression: 0,
        }
    }
}

impl BlockSummary {
    #[inline]
    pub(crate) fn add_node_id(&mut self, id: i64) {
        self.min_node_id = self.min_node_id.min(id);
        self.max_node_id = self.max_node_id.max(id);
    }

    /// Widens the node bbox to hold a point (1e-7 degrees).
    #[inline]
    pub(crate) fn add_location(&mut self, lat_e7: i32, lon_e7: i32) {
        let b = &mut self.bbox_e7;
        b[0] = b[0].min(lat_e7);
        b[1] = b[1].min(lon_e7);
        b[2] = b[2].max(lat_e7);
        b[3] = b[3].max(lon_e7);
    }

    #[inline]
    pub(crate) fn add_node(&mut self, id: i64, lat_e7: i32, lon_e7: i32) {
        self.add_node_id(id);
        self.add_location(lat_e7, lon_e7);
    }

    /// Whether the block holds any node.
    pub fn has_nodes(&self) -> bool {
        self.min_node_id <= self.max_node_id
    }

    /// Whether the block holds any way.
    pub fn has_ways(&self) -> bool {
        self.min_way_id <= self.max_way_id
    }

    /// Whether the block holds any relation.
    pub fn has_relations(&self) -> bool {
        self.min_relation_id <= self.max_relation_id
    }

    /// Whether the block's way-id range can hold one of `wanted` (ascending).
    pub fn may_hold_way(&self, wanted: &[i64]) -> bool {
        let first = wanted.partition_point(|&id| id < self.min_way_id);
        first < wanted.len() && wanted[first] <= self.max_way_id
    }

    /// Whether the block's node-id range can hold one of `wanted` (ascending).
    pub fn may_hold_node(&self, wanted: &[i64]) -> bool {
        let first = wanted.partition_point(|&id| id < self.min_node_id);
        first < wanted.len() && wanted[first] <= self.max_node_id
    }
}
