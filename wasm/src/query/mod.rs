//! A query: an expression of the query language ([`crate::query::language`]), an [`Area`], and whether a
//! way or relation must lie wholly inside it. The expression is bound to each PrimitiveBlock's
//! string table once ([`BlockQuery`]): keys and values are looked up there, a regular expression
//! runs at most once per distinct string of the table, and elements are tested with integer
//! comparisons. A block whose table cannot satisfy the query tests no element's tags.

use std::cell::Cell;

use serde::Deserialize;

pub mod area;
pub mod area_filter;
pub mod language;
pub mod polygon;

use crate::element::ElementType;
use crate::error::DecodeError;
use area::{Area, AreaTest};
use area_filter::AreaFilter;
use language::{regex_matches, Expr, KeyPattern, ValueTest};

/// Whether a way or relation matches with one node in the area (`Any`, the default) or only
/// with all of them (`All`: osmar's "exclude partial").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Inside {
    #[default]
    Any,
    All,
}

/// A parsed query over an area.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The query's text, as typed.
    pub text: String,
    pub expr: Expr,
    pub area: Area,
    pub inside: Inside,
    /// History files: the moment to answer as of, seconds since the Unix epoch (None: now).
    pub at: Option<i64>,
    /// History files: the earlier moment of a change view (seconds since the Unix epoch): the
    /// answer is then what changed from `from` to `at` ([`crate::assembly::changes`]).
    pub from: Option<i64>,
    /// The file is a history file (its header requires `HistoricalInformation`): elements are
    /// versions, and the answer is as of `at`. Set by the reader once it has read the header.
    pub history: bool,
    /// Scans note what the blob index needs (a full read that builds one).
    pub index: bool,
    /// Scans only count elements (no match is collected): a read for the file's facts or its
    /// blob index alone.
    pub count_only: bool,
    /// Whether scans read the elements' timestamps for the file's newest one (default true; a
    /// reader that shows no file facts, the command line's `query`, turns it off: 4–7 % of a read).
    pub newest_timestamp: bool,
}

/// The JSON form the web workers send (see [`Query::from_json`]).
#[derive(Deserialize)]
struct QueryJson {
    q: String,
    area: Area,
    #[serde(default)]
    inside: Inside,
    #[serde(default)]
    at: Option<i64>,
    #[serde(default)]
    from: Option<i64>,
    #[serde(default)]
    history: bool,
    #[serde(default)]
    index: bool,
    #[serde(default)]
    count_only: bool,
    #[serde(default = "yes")]
    newest_timestamp: bool,
}

fn yes() -> bool {
    true
}

impl Query {
    /// Parses `text` (the query language) over `area`, with `inside=any`.
    ///
    /// Errors: [`DecodeError::Query`] with the syntax error's column and what was expected.
    pub fn from_tags(text: &str, area: Area) -> Result<Query, DecodeError> {
        let expr = Expr::parse(text).map_err(|e| DecodeError::Query(e.to_string()))?;
        Ok(Query { text: text.to_string(), expr, area, inside: Inside::Any, at: None, from: None, history: false, index: false, count_only: false, newest_timestamp: true })
    }

    /// Parses the JSON form the web workers send: `{"q":"amenity=cafe or shop",
    /// "area":{"circle":{"lat":60.17,"lon":24.94,"radius":1000}},"inside":"any"}` (area also
    /// `"everywhere"` or `{"bbox":{"min_lon":…,"min_lat":…,"max_lon":…,"max_lat":…}}`; `inside`
    /// `"any"` by default, or `"all"`; `at`: seconds since the Unix epoch, the moment a history
    /// file is answered as of; `from`: the earlier moment of a change view, before `at`; `history`: the file is one, set once its header is read; `index`:
    /// the scans note what the blob index needs; `count_only`: the scans only count elements;
    /// `newest_timestamp`: false when no file facts are wanted, default true).
    ///
    /// Errors: [`DecodeError::Query`] for malformed JSON, a syntax error (with its column), or an
    /// invalid area.
    pub fn from_json(json: &str) -> Result<Query, DecodeError> {
        let raw: QueryJson = serde_json::from_str(json).map_err(|e| DecodeError::Query(e.to_string()))?;
        let mut query = Query::from_tags(&raw.q, raw.area)?;
        query.inside = raw.inside;
        query.at = raw.at;
        query.from = raw.from;
        query.history = raw.history;
        query.index = raw.index;
        query.count_only = raw.count_only;
        query.newest_timestamp = raw.newest_timestamp;
        query.prepare()?;
        Ok(query)
    }

    /// Checks the query and prepares it for scanning blocks.
    ///
    /// Errors: [`DecodeError::Query`] as for [`Area::prepare`], and for a `from` not before `at`.
    pub fn prepare(&self) -> Result<PreparedQuery, DecodeError> {
        if let (Some(from), at) = (self.from, self.at.unwrap_or(i64::MAX)) {
            if from >= at {
                return Err(DecodeError::Query("what changed: the first moment (from) must come before the second (at)".into()));
            }
        }
        let (expr, area, inside) = (self.expr.clone(), self.area.prepare()?, self.inside);
        // An index written by this read keeps each blob's newest timestamp: always read then.
        let newest_timestamp = self.newest_timestamp || self.index;
        if self.count_only {
            return Ok(PreparedQuery { index: self.index, newest_timestamp, ..PreparedQuery::count_only() });
        }
        Ok(PreparedQuery { expr, area, inside, collect: true, area_nodes: true, area_filter: None, at: self.at, from: self.from, history: self.history, index: self.index, newest_timestamp })
    }
}

/// A checked query, ready to be bound to each block's string table.
#[derive(Debug, Clone)]
pub struct PreparedQuery {
    pub expr: Expr,
    pub area: AreaTest,
    pub inside: Inside,
    /// False for a plain count: no matches, no node locations.
    pub collect: bool,
    /// Whether to report the locations of the nodes in the area ([`crate::scan::AreaNodes`]);
    /// the assembler turns this off once it has more of them than it keeps.
    pub area_nodes: bool,
    /// The area's node ids once the assembler has them all (a whole read of a file sorted by
    /// type then id, or an indexed read): scans then leave out the candidate ways none of whose
    /// refs it may hold, naming them in [`crate::scan::BlockScan::ways_outside`].
    pub area_filter: Option<AreaFilter>,
    /// As [`Query::at`], [`Query::from`] and [`Query::history`].
    pub at: Option<i64>,
    pub from: Option<i64>,
    pub history: bool,
    /// Whether scans note what the blob index needs ([`crate::index::IndexPart`]).
    pub index: bool,
    /// Whether scans note the newest element timestamp ([`Query::newest_timestamp`]).
    pub newest_timestamp: bool,
}

impl PreparedQuery {
    /// A query that only counts elements and tags (a full decode, nothing kept).
    pub fn count_only() -> PreparedQuery {
        let area = Area::Everywhere.prepare().expect("the whole world is a valid area");
        PreparedQuery { expr: Expr::And(Vec::new()), area, inside: Inside::Any, collect: false, area_nodes: false, area_filter: None, at: None, from: None, history: false, index: false, newest_timestamp: true }
    }

    /// For a history file, the moment versions are chosen at (seconds since the Unix epoch;
    /// `i64::MAX` for now); None for other files, whose elements are all current.
    pub fn as_of(&self) -> Option<i64> {
        self.history.then(|| self.at.unwrap_or(i64::MAX))
    }
}

/// A set of string-table indexes, one bit each.
struct Bits(Vec<u64>);

impl Bits {
    fn of(table: &[impl AsRef<[u8]>], test: impl Fn(&[u8]) -> bool) -> Bits {
        let mut bits = vec![0u64; table.len().div_ceil(64)];
        for (i, s) in table.iter().enumerate() {
            if test(s.as_ref()) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        Bits(bits)
    }

    #[inline]
    fn has(&self, i: u32) -> bool {
        self.0.get(i as usize / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// A value test bound to a string table.
enum BoundValue<'a> {
    Any,
    In(Bits),
    /// A regular expression, run on a string the first time an element asks (0 not yet, 1 yes, 2 no).
    Regex(&'a regex::Regex, Vec<Cell<u8>>),
}

/// The query bound to one block's string table.
enum Bound<'a> {
    Const(bool),
    And(Vec<Bound<'a>>),
    Or(Vec<Bound<'a>>),
    Not(Box<Bound<'a>>),
    Tag(Bits, BoundValue<'a>),
    Type(ElementType),
    Id(i64),
}

/// The query's expression bound to one block's string table (`table[i]` is string `i`).
pub struct BlockQuery<'a, S: AsRef<[u8]>> {
    root: Bound<'a>,
    table: &'a [S],
}

impl<'a, S: AsRef<[u8]>> BlockQuery<'a, S> {
    /// Looks the expression's keys and values up in `table` and folds what the table decides.
    pub fn bind(expr: &'a Expr, table: &'a [S]) -> BlockQuery<'a, S> {
        BlockQuery { root: bind(expr, table), table }
    }

    /// False when no element of the block can match (then no element's tags need testing).
    pub fn possible(&self) -> bool {
        !matches!(self.root, Bound::Const(false))
    }

    /// Whether an element of type `kind` and id `id` whose tags are the (key, value) index pairs
    /// yielded by `pairs` satisfies the query (indexes must be in the table; `pairs` may be
    /// called often).
    #[inline]
    pub fn matches<I: Iterator<Item = (u32, u32)>>(&self, kind: ElementType, id: i64, pairs: impl Fn() -> I) -> bool {
        self.eval(&self.root, kind, id, &pairs)
    }

    fn eval<I: Iterator<Item = (u32, u32)>>(&self, b: &Bound, kind: ElementType, id: i64, pairs: &impl Fn() -> I) -> bool {
        match b {
            Bound::Const(c) => *c,
            Bound::And(parts) => parts.iter().all(|p| self.eval(p, kind, id, pairs)),
            Bound::Or(parts) => parts.iter().any(|p| self.eval(p, kind, id, pairs)),
            Bound::Not(inner) => !self.eval(inner, kind, id, pairs),
            Bound::Type(t) => *t == kind,
            Bound::Id(i) => *i == id,
            Bound::Tag(keys, value) => pairs().any(|(k, v)| {
                keys.has(k)
                    && match value {
                        BoundValue::Any => true,
                        BoundValue::In(values) => values.has(v),
                        BoundValue::Regex(regex, memo) => {
                            let Some(cell) = memo.get(v as usize) else { return false };
                            if cell.get() == 0 {
                                let hit = regex_matches(regex, self.table[v as usize].as_ref());
                                cell.set(if hit { 1 } else { 2 });
                            }
                            cell.get() == 1
                        }
                    }
            }),
        }
    }
}

fn bind<'a, S: AsRef<[u8]>>(expr: &'a Expr, table: &[S]) -> Bound<'a> {
    match expr {
        Expr::Type(t) => Bound::Type(*t),
        Expr::Id(i) => Bound::Id(*i),
        Expr::Not(inner) => match bind(inner, table) {
            Bound::Const(c) => Bound::Const(!c),
            b => Bound::Not(Box::new(b)),
        },
        Expr::And(parts) | Expr::Or(parts) => {
            let is_and = matches!(expr, Expr::And(_));
            let mut bound = Vec::new();
            for part in parts {
                match bind(part, table) {
                    Bound::Const(c) if c == is_and => {}                 // true in an and, false in an or: no effect
                    Bound::Const(c) => return Bound::Const(c),           // decides the whole
                    b => bound.push(b),
                }
            }
            match bound.len() {
                0 => Bound::Const(is_and),
                1 => bound.pop().expect("one"),
                _ if is_and => Bound::And(bound),
                _ => Bound::Or(bound),
            }
        }
        Expr::Tag { key, value } => {
            let keys = match key {
                KeyPattern::Exact(k) => Bits::of(table, |s| s == k.as_bytes()),
                KeyPattern::Prefix(_) => Bits::of(table, |s| key.matches(s)),
            };
            if keys.is_empty() {
                return Bound::Const(false);
            }
            let value = match value {
                ValueTest::Any => BoundValue::Any,
                ValueTest::Equals(v) => {
                    let values = Bits::of(table, |s| s == v.as_bytes());
                    if values.is_empty() {
                        return Bound::Const(false);
                    }
                    BoundValue::In(values)
                }
                ValueTest::Regex(r) => BoundValue::Regex(r, (0..table.len()).map(|_| Cell::new(0)).collect()),
            };
            Bound::Tag(keys, value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(strings: &[&str]) -> Vec<Vec<u8>> {
        strings.iter().map(|s| s.as_bytes().to_vec()).collect()
    }

    #[test]
    fn binds_to_a_string_table_and_tests_with_indexes() {
        let q = Query::from_tags("amenity=cafe  cuisine", Area::Everywhere).unwrap();
        let t = table(&["", "amenity", "cafe", "cuisine", "pizza"]);
        let bound = BlockQuery::bind(&q.expr, &t);
        assert!(bound.possible());
        assert!(bound.matches(ElementType::Node, 1, || [(1, 2), (3, 4)].into_iter()));
        assert!(!bound.matches(ElementType::Node, 1, || [(1, 2)].into_iter()));
        assert!(!bound.matches(ElementType::Node, 1, || [(1, 4), (3, 4)].into_iter()));
        assert!(Query::from_tags("=x", Area::Everywhere).is_err());
    }

    #[test]
    fn a_table_that_cannot_satisfy_the_query_rules_the_block_out() {
        let t = table(&["", "amenity", "cafe", "name", "Starbucks"]);
        let impossible = |q: &str| !BlockQuery::bind(&Query::from_tags(q, Area::Everywhere).unwrap().expr, &t).possible();
        assert!(impossible("shop"));
        assert!(impossible("amenity=restaurant or shop=bakery"));
        assert!(impossible("amenity=cafe shop"));
        assert!(!impossible("amenity=restaurant or name"));
        assert!(!impossible("not shop"), "true for every element of the block");
        assert!(!impossible("name~bucks"));
    }

    #[test]
    fn regular_expressions_run_once_per_string() {
        let q = Query::from_tags("name~/^star/i or type:way", Area::Everywhere).unwrap();
        let t = table(&["", "name", "Starbucks", "Espresso House"]);
        let bound = BlockQuery::bind(&q.expr, &t);
        assert!(bound.matches(ElementType::Node, 1, || [(1, 2)].into_iter()));
        assert!(!bound.matches(ElementType::Node, 1, || [(1, 3)].into_iter()));
        assert!(bound.matches(ElementType::Way, 1, || [(1, 3)].into_iter()));
        let Bound::Or(parts) = &bound.root else { panic!("an or") };
        let Bound::Tag(_, BoundValue::Regex(_, memo)) = &parts[0] else { panic!("a regex") };
        assert_eq!(memo.iter().map(Cell::get).collect::<Vec<_>>(), vec![0, 0, 1, 2], "only the values asked about ran");
    }

    #[test]
    fn parses_the_worker_json_form() {
        let q = Query::from_json(r#"{"q":"shop or amenity=cafe","area":{"circle":{"lat":1,"lon":2,"radius":3}},"inside":"all"}"#).unwrap();
        assert_eq!(q.area, Area::Circle { lat: 1.0, lon: 2.0, radius: 3.0 });
        assert_eq!(q.inside, Inside::All);
        assert!(Query::from_json(r#"{"q":"shop","area":{"circle":{"lat":100,"lon":2,"radius":3}}}"#).is_err());
        let e = Query::from_json(r#"{"q":"shop=","area":"everywhere"}"#).unwrap_err().to_string();
        assert!(e.contains("syntax error at column 6"), "{e}");
    }
}
