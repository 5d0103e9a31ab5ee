//! A change view's reads ([`crate::assembly::changes`]): the query's answer as of `from`, then
//! as of `at`, each a plan of its own; the plan that holds them takes the second's answer, made
//! the change view of the first's.

use super::{Assembler, ReadPlan};
use crate::query::PreparedQuery;

/// The reads of a change view ([`crate::assembly::changes`]): the query's answer as of `from`,
/// then as of `at`.
pub(super) struct ChangeRead {
    /// The answer as of `from`, once its read is done.
    pub(super) before: Option<Assembler>,
    /// The read under way.
    pub(super) plan: ReadPlan,
    /// The query as of `at`, for the second read.
    pub(super) at: PreparedQuery,
}

impl ChangeRead {
    /// The reads of `query`'s change view, when it is one (`from` set).
    pub(super) fn of(query: &PreparedQuery, budget: usize) -> Option<Box<ChangeRead>> {
        let moment = |at| PreparedQuery { at, from: None, ..query.clone() };
        let from = query.from?;
        Some(Box::new(ChangeRead { before: None, plan: ReadPlan::new(&moment(Some(from)), budget), at: moment(query.at) }))
    }
}

impl ReadPlan {
    /// After a change view's read as of `from`: the read as of `at` follows. After that one
    /// (or a stop): this plan takes its answer, made the change view, and is done.
    pub(super) fn next_change_read(&mut self, stop: bool) {
        let mut change = self.change_read.take().expect("a change view's read");
        if change.before.is_none() && !stop {
            let mut at = ReadPlan::new(&change.at, self.budget);
            at.scan_version = change.plan.scan_version + 1;
            change.before = Some(std::mem::replace(&mut change.plan, at).assembler);
            self.change_read = Some(change);
            return;
        }
        let (query, outline, version) = (self.query.clone(), self.outline.take(), change.plan.scan_version + 1);
        let mut done = change.plan;
        if stop {
            done.stop();
        }
        match change.before {
            Some(before) => done.assembler.keep_changes(before),
            // Stopped before the first moment's answer was whole: there is no change to show.
            None => done.assembler = Assembler::new(done.query.area.clone(), self.budget),
        }
        *self = ReadPlan { query, outline, scan_version: version, ..done };
    }
}

/// Why a change view cannot be read from a file that is not a history file.
pub(super) const NOT_HISTORY: &str = "what changed between two moments (from=) needs a history file (.osh.pbf, every version of each element); this file holds only one version of each";

