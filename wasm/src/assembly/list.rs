//! The list's rows in their stable order: label, then type and id. Each row is 16 bytes (a
//! label is kept once however many rows have it: `building=yes` is the label of millions), and a
//! label is kept to its first [`LABEL_KEY_BYTES`], so that the order of an answer of millions, or
//! of names of megabytes, costs little beside the answer itself.

use std::cmp::Ordering;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::element::ElementType;

/// The bytes of a label the order reads (cut at a character boundary): far more than a list row
/// shows (`trim::LIST_LIMITS`), so the order is the labels' but among labels that agree in all of
/// those bytes, which then go by type and id. Whole, 40 names of 30 MB doubled the answer's
/// memory (1.2 GB more) and took the query worker past Wasm's 4 GB on export.
pub const LABEL_KEY_BYTES: usize = 1024;

/// One row: its label's position in [`SortedRows`]' labels, its type and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Row {
    label: u32,
    element: ElementType,
    id: i64,
}

/// Rows sorted by label, then type and id, without repeats.
#[derive(Default)]
pub(super) struct SortedRows {
    rows: Vec<Row>,
    labels: Vec<Arc<str>>,
    label_ids: FxHashMap<Arc<str>, u32>,
}

impl SortedRows {
    /// Drops every row and label.
    pub fn clear(&mut self) {
        *self = SortedRows::default();
    }

    /// The type and id of the row at `position`.
    pub fn at(&self, position: usize) -> (ElementType, i64) {
        let row = self.rows[position];
        (row.element, row.id)
    }

    /// How many rows there are.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The rows' types and ids in order.
    pub fn iter(&self) -> impl Iterator<Item = (ElementType, i64)> + '_ {
        self.rows.iter().map(|r| (r.element, r.id))
    }

    /// Adds rows `(type, id)` in their place, each labelled by what `label` writes into the
    /// buffer it is given (false: no such row). A row already there is not repeated; a label
    /// is allocated once, when first met. `fresh`'s room is reused for the rows (same size),
    /// and the sort merges the sorted rows with the new ones as two runs (Rust's stable sort
    /// finds them): O(n + k log k) for k new rows, with scratch of at most half the rows.
    pub fn add(&mut self, fresh: Vec<(ElementType, i64)>, label: impl Fn(ElementType, i64, &mut String) -> bool) {
        let mut buffer = String::new();
        let (labels, label_ids) = (&mut self.labels, &mut self.label_ids);
        let mut fresh: Vec<Row> = fresh
            .into_iter()
            .filter_map(|(element, id)| {
                buffer.clear();
                let found = label(element, id, &mut buffer);
                buffer.truncate(buffer.floor_char_boundary(LABEL_KEY_BYTES));
                found.then(|| Row { label: label_id(labels, label_ids, &buffer), element, id })
            })
            .collect();
        let labels = &self.labels;
        let order = |a: &Row, b: &Row| -> Ordering { labels[a.label as usize].cmp(&labels[b.label as usize]).then(a.element.cmp(&b.element)).then(a.id.cmp(&b.id)) };
        fresh.sort_unstable_by(order);
        if self.rows.is_empty() {
            self.rows = fresh;
        } else {
            self.rows.extend(fresh);
            self.rows.sort_by(order);
        }
        self.rows.dedup();
    }

}

/// The position of `label` in `labels`, added if new (`ids`: the positions by label).
fn label_id(labels: &mut Vec<Arc<str>>, ids: &mut FxHashMap<Arc<str>, u32>, label: &str) -> u32 {
    if let Some(&id) = ids.get(label) {
        return id;
    }
    let id = labels.len() as u32;
    let label: Arc<str> = label.into();
    labels.push(label.clone());
    ids.insert(label, id);
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_label_type_and_id_and_merges_without_repeats() {
        let mut rows = SortedRows::default();
        let labels = [(5, "b"), (9, "a"), (7, "b"), (2, "a"), (1, "c")];
        let label = |_, id, out: &mut String| labels.iter().find(|l| l.0 == id).map(|l| out.push_str(l.1)).is_some();
        rows.add(vec![(ElementType::Way, 5), (ElementType::Node, 9), (ElementType::Node, 7), (ElementType::Node, 3)], label);
        rows.add(vec![(ElementType::Node, 7), (ElementType::Node, 2), (ElementType::Node, 1)], label);
        let got: Vec<(ElementType, i64)> = rows.iter().collect();
        use ElementType::{Node, Way};
        assert_eq!(got, vec![(Node, 2), (Node, 9), (Node, 7), (Way, 5), (Node, 1)]);
        assert_eq!((rows.iter().count(), rows.at(3), rows.labels.len()), (5, (Way, 5), 3));
        // Labels are kept to their first LABEL_KEY_BYTES (at a character boundary): those that
        // agree in all of them go by type and id.
        let long = |c: &str| "é".repeat(LABEL_KEY_BYTES) + c;
        let mut rows = SortedRows::default();
        rows.add(vec![(ElementType::Node, 2), (ElementType::Node, 1), (ElementType::Node, 3)], |_, id, out: &mut String| {
            out.push_str(&if id == 3 { "a".into() } else { long(if id == 2 { "a" } else { "b" }) });
            true
        });
        assert_eq!(rows.iter().collect::<Vec<_>>(), [(Node, 3), (Node, 1), (Node, 2)]);
        assert!(rows.labels.iter().all(|l| l.len() <= LABEL_KEY_BYTES));
    }
}
