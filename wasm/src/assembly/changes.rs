//! The change view of a history file: what changed between two moments.
//!
//! An element is *present* at a moment when it is in the query's answer as of that moment (the
//! version current then carries the query's tags and, with an area, lies in it by the usual
//! rules). The view holds every element present at one moment or both, classed:
//!
//! - `created`: present at `at`, not at `from` (absent then, deleted, without the tags, or
//!   outside the area);
//! - `deleted`: present at `from`, not at `at`; kept as it was at `from`, drawn where it was;
//! - `modified`: present at both, in another version.
//!
//! One present at both in the same version is unchanged and left out, even when a node of a
//! way moved (the way's version is the same: as `osmium diff` compares versions). The query
//! language and area rules are those of any answer; only the moment differs.

use serde::Serialize;

use super::*;

/// What happened to a match between the two moments of a change view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Created,
    Modified,
    Deleted,
}

impl Change {
    /// The class as the exports and the page name it: `created`, `modified` or `deleted`.
    pub fn name(self) -> &'static str {
        match self {
            Change::Created => "created",
            Change::Modified => "modified",
            Change::Deleted => "deleted",
        }
    }

    /// Its number on the map's wire (1 created, 2 modified, 3 deleted; 0 is no change view).
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl Assembler {
    /// Makes this answer, as of the later moment, the change view from `before` (the same
    /// query's answer as of the earlier one; both finished with their geometry): each match
    /// gets its class, unchanged ones leave the answer, and the deleted ones join it with the
    /// position and shape they had. The map's queue and the list follow.
    pub fn keep_changes(&mut self, mut before: Assembler) {
        let mut classes: Vec<((ElementType, i64), Option<Change>)> = Vec::new();
        for key in self.match_keys() {
            let class = match before.version_of(key) {
                None => Some(Change::Created),
                Some(then) if then == self.version_of(key).expect("a match") => None,
                Some(_) => Some(Change::Modified),
            };
            classes.push((key, class));
        }
        let deleted: Vec<(ElementType, i64)> = before.match_keys().into_iter().filter(|&(t, id)| !self.is_match(t, id)).collect();
        let mut unchanged = FxHashSet::default();
        for (key, class) in classes {
            match class {
                Some(class) => drop(self.changes.insert(key, class)),
                None => drop(unchanged.insert(key)),
            }
        }
        self.leave_out(&unchanged);
        for key in deleted {
            self.take_deleted(&mut before, key);
            self.changes.insert(key, Change::Deleted);
        }
    }

    /// How many matches of each class a change view holds: `[created, modified, deleted]`.
    pub fn change_counts(&self) -> [usize; 3] {
        let mut counts = [0; 3];
        for class in self.changes.values() {
            counts[class.number() as usize - 1] += 1;
        }
        counts
    }

    /// The class of the match `(t, id)` in a change view (None otherwise).
    pub fn change_of(&self, t: ElementType, id: i64) -> Option<Change> {
        self.changes.get(&(t, id)).copied()
    }

    /// Every match's type and id.
    fn match_keys(&self) -> Vec<(ElementType, i64)> {
        self.match_tags().map(|(t, id, _)| (t, id)).collect()
    }

    /// The version of the match `(t, id)`, None when it is no match; a match without metadata
    /// is of version 0 (a history file always has it).
    fn version_of(&self, (t, id): (ElementType, i64)) -> Option<i32> {
        if !self.is_match(t, id) {
            return None;
        }
        let meta = match t {
            ElementType::Node => self.nodes.get(&id).and_then(|n| n.meta.as_ref()),
            ElementType::Way => self.ways.get(&id).and_then(|w| w.meta.as_deref()),
            ElementType::Relation => self.relations.get(&id).and_then(|r| r.meta.as_ref()),
        };
        Some(meta.map_or(0, |m| m.version))
    }

    /// Takes the matches `keys` out of the answer, the map and the list. A way's entry stays,
    /// unplaced, as relations' geometry may need its refs.
    fn leave_out(&mut self, keys: &FxHashSet<(ElementType, i64)>) {
        for &(t, id) in keys {
            self.changed(t, id, false);
            match t {
                ElementType::Node => drop(self.nodes.remove(&id)),
                ElementType::Way => {
                    let way = self.ways.get_mut(&id).expect("a match");
                    (way.position, way.unplaced, way.shape) = (None, false, None);
                }
                ElementType::Relation => drop(self.relations.remove(&id)),
            }
        }
        self.queue.retain(|key| !keys.contains(key));
    }

    /// Moves the match `key` of `before` into this answer as it was then, with its full shape.
    fn take_deleted(&mut self, before: &mut Assembler, (t, id): (ElementType, i64)) {
        let (shape, problem) = before.export_shape(t, id);
        match t {
            ElementType::Node => {
                let node = before.nodes.remove(&id).expect("a match");
                self.nodes.insert(id, NodeEntry { shown: Shown::default(), ..node });
            }
            ElementType::Way => {
                let mut way = before.ways.remove(&id).expect("a match");
                // Fixed: its shape is kept, never built again from this answer's locations.
                (way.shape, way.fixed, way.shown) = (shape.map(Box::new), true, Shown::default());
                self.ways.insert(id, way);
            }
            ElementType::Relation => {
                let mut relation = before.relations.remove(&id).expect("a match");
                relation.shape = shape.filter(|_| relation.position.is_some());
                relation.problem = problem.or(relation.problem);
                relation.shown = Shown::default();
                self.relations.insert(id, relation);
            }
        }
        self.changed(t, id, true);
    }
}
