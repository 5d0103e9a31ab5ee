//! The query language (README "Query language"): tag conditions joined by `and`, `or`, `not`
//! and parentheses, modelled on overpass turbo's query wizard. Parsed here, once, before any
//! byte of the file is read; errors name the column (1-based, in characters) and what was expected.
//!
//! ```text
//! query      := or
//! or         := and ( "or" and )*
//! and        := unary ( [ "and" ] unary )*
//! unary      := "not" unary | "(" query ")" | condition
//! condition  := KEY | KEY "=*" | KEY "!=*" | "!" KEY | KEY "=" VALUE | KEY "!=" VALUE
//!             | KEY "~" REGEX | KEY "!~" REGEX | "type:" ( "node" | "way" | "relation" )
//!             | "id:" DIGITS
//! ```
//!
//! A query comes from a link anyone can write: `not` and parentheses nest at most
//! [`MAX_NESTING`] deep, so that parsing, evaluating and dropping it (all recursive) stay within
//! the Wasm stack whatever the text.

use regex::{Regex, RegexBuilder};

use crate::element::ElementType;

/// How deep `not` and parentheses may nest, together. Far beyond what a person writes; each level
/// costs a few stack frames in the parser and in every evaluation, and Wasm's stack is 1 MiB.
pub const MAX_NESTING: usize = 100;

/// Which keys a condition looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPattern {
    /// Exactly this key.
    Exact(String),
    /// Every key starting with this (`addr:*` is `Prefix("addr:")`).
    Prefix(String),
}

impl KeyPattern {
    /// Whether `key` is one of the keys this pattern names.
    pub fn matches(&self, key: &[u8]) -> bool {
        match self {
            KeyPattern::Exact(k) => key == k.as_bytes(),
            KeyPattern::Prefix(p) => key.starts_with(p.as_bytes()),
        }
    }
}

/// What a condition asks of the value of a tag whose key matches.
#[derive(Debug, Clone)]
pub enum ValueTest {
    /// Any value.
    Any,
    /// Exactly this value.
    Equals(String),
    /// A value the expression finds a match in (a search, not a full match).
    Regex(Regex),
}

impl ValueTest {
    /// Whether `value` passes (invalid UTF-8 never matches a regular expression).
    pub fn matches(&self, value: &[u8]) -> bool {
        match self {
            ValueTest::Any => true,
            ValueTest::Equals(v) => value == v.as_bytes(),
            ValueTest::Regex(r) => regex_matches(r, value),
        }
    }
}

/// Whether `r` finds a match in `value` (invalid UTF-8 never matches).
pub fn regex_matches(r: &Regex, value: &[u8]) -> bool {
    std::str::from_utf8(value).is_ok_and(|s| r.is_match(s))
}

impl PartialEq for ValueTest {
    fn eq(&self, other: &ValueTest) -> bool {
        match (self, other) {
            (ValueTest::Any, ValueTest::Any) => true,
            (ValueTest::Equals(a), ValueTest::Equals(b)) => a == b,
            (ValueTest::Regex(a), ValueTest::Regex(b)) => a.as_str() == b.as_str(),
            _ => false,
        }
    }
}

/// A parsed query. Negated conditions (`!=`, `!~`, `!key`) are `Not` of the positive one.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// True when every part is (an empty `And` is always true).
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    /// Some tag has a key `key` names and a value `value` passes.
    Tag { key: KeyPattern, value: ValueTest },
    /// The element is of this type.
    Type(ElementType),
    /// The element has this id (overpass turbo's `id:`; with `type:` it names one element).
    Id(i64),
}

/// A syntax error: where (column, 1-based, in characters) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "syntax error at column {}: {}", self.column, self.message)
    }
}

impl Expr {
    /// Parses a query (grammar in the module documentation). Blank text is the query that every
    /// element satisfies (used internally; the page asks for a query first).
    ///
    /// Errors: [`ParseError`] with the column and what was expected; a regular expression that
    /// does not compile says why (the `regex` crate's syntax: no look-around or back-references).
    pub fn parse(text: &str) -> Result<Expr, ParseError> {
        if text.trim().is_empty() {
            return Ok(Expr::And(Vec::new()));
        }
        let mut p = Parser { chars: text.chars().collect(), at: 0, depth: 0 };
        let expr = p.or()?;
        p.skip_space();
        if p.at < p.chars.len() {
            return Err(p.error("unexpected \")\": no \"(\" before it"));
        }
        Ok(expr)
    }

    /// Whether an element of a block whose string table passes `has` (a set test that may say
    /// yes wrongly, never no wrongly, such as a Bloom filter) can satisfy the query. False only
    /// when a string the query needs is surely absent: an exact key, and an exact value with it.
    /// Conservative elsewhere: key prefixes, regular expressions' values and negations admit.
    pub fn admits(&self, has: &impl Fn(&[u8]) -> bool) -> bool {
        match self {
            Expr::And(parts) => parts.iter().all(|p| p.admits(has)),
            Expr::Or(parts) => parts.iter().any(|p| p.admits(has)),
            Expr::Not(_) | Expr::Type(_) | Expr::Id(_) => true,
            Expr::Tag { key: KeyPattern::Prefix(_), .. } => true,
            Expr::Tag { key: KeyPattern::Exact(k), value } => {
                has(k.as_bytes()) && !matches!(value, ValueTest::Equals(v) if !has(v.as_bytes()))
            }
        }
    }

    /// Which element types can satisfy the query, `[node, way, relation]`: false only where a
    /// `type:` condition every match must meet rules the type out (conservative under `not`).
    pub fn kinds(&self) -> [bool; 3] {
        match self {
            Expr::Type(t) => [*t == ElementType::Node, *t == ElementType::Way, *t == ElementType::Relation],
            Expr::And(parts) => parts.iter().fold([true; 3], |k, p| {
                let q = p.kinds();
                [k[0] && q[0], k[1] && q[1], k[2] && q[2]]
            }),
            Expr::Or(parts) => parts.iter().fold([false; 3], |k, p| {
                let q = p.kinds();
                [k[0] || q[0], k[1] || q[1], k[2] || q[2]]
            }),
            Expr::Not(_) | Expr::Tag { .. } | Expr::Id(_) => [true; 3],
        }
    }

    /// The one id every match must have, when an `id:` condition is a part the whole query needs.
    pub fn id(&self) -> Option<i64> {
        match self {
            Expr::Id(id) => Some(*id),
            Expr::And(parts) => parts.iter().find_map(Expr::id),
            _ => None,
        }
    }

    /// The exact keys the query names, in order, each once (the table's first tag columns).
    pub fn keys(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_keys(&mut out);
        out
    }

    fn collect_keys(&self, out: &mut Vec<String>) {
        match self {
            Expr::And(parts) | Expr::Or(parts) => parts.iter().for_each(|p| p.collect_keys(out)),
            Expr::Not(inner) => inner.collect_keys(out),
            Expr::Tag { key: KeyPattern::Exact(k), .. } if !out.contains(k) => out.push(k.clone()),
            _ => {}
        }
    }

    /// Whether an element of type `kind` and id `id` with `tags` (key, value) satisfies the
    /// query: the plain definition, tag by tag, against which the per-block evaluation is tested.
    pub fn eval_tags(&self, kind: ElementType, id: i64, tags: &[(&[u8], &[u8])]) -> bool {
        match self {
            Expr::And(parts) => parts.iter().all(|p| p.eval_tags(kind, id, tags)),
            Expr::Or(parts) => parts.iter().any(|p| p.eval_tags(kind, id, tags)),
            Expr::Not(inner) => !inner.eval_tags(kind, id, tags),
            Expr::Tag { key, value } => tags.iter().any(|(k, v)| key.matches(k) && value.matches(v)),
            Expr::Type(t) => *t == kind,
            Expr::Id(i) => *i == id,
        }
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    /// How many `not` and `(` enclose the cursor.
    depth: usize,
}

/// Characters of a bare word: letters of any script, digits, and `: _ - . /`.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, ':' | '_' | '-' | '.' | '/')
}

impl Parser {
    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError { column: self.at + 1, message: message.into() }
    }

    fn skip_space(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Consumes `s` if the text continues with it.
    fn eat(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.chars.len() >= self.at + n && self.chars[self.at..self.at + n].iter().copied().eq(s.chars()) {
            self.at += n;
            return true;
        }
        false
    }

    /// The bare word at the cursor (not consumed), if any.
    fn word_ahead(&self) -> String {
        self.chars[self.at..].iter().take_while(|&&c| is_word_char(c)).collect()
    }

    /// Whether the keyword `kw` (case-insensitive) stands at the cursor as a bare word that no
    /// operator follows (else it is a key: `not=1`).
    fn keyword_ahead(&self, kw: &str) -> bool {
        let word = self.word_ahead();
        word.eq_ignore_ascii_case(kw) && !self.operator_after(&word)
    }

    /// Whether an operator (`=`, `~`, `!`, `*`) follows `word` at the cursor, making it a key.
    fn operator_after(&self, word: &str) -> bool {
        matches!(self.chars.get(self.at + word.chars().count()), Some('=' | '~' | '!' | '*'))
    }

    /// Consumes the keyword `kw` if it stands at the cursor (see [`Parser::keyword_ahead`]).
    fn keyword(&mut self, kw: &str) -> bool {
        self.skip_space();
        if self.keyword_ahead(kw) {
            self.at += kw.chars().count();
            return true;
        }
        false
    }

    fn or(&mut self) -> Result<Expr, ParseError> {
        let mut parts = vec![self.and()?];
        while self.keyword("or") {
            parts.push(self.and()?);
        }
        Ok(if parts.len() == 1 { parts.pop().expect("one") } else { Expr::Or(parts) })
    }

    fn and(&mut self) -> Result<Expr, ParseError> {
        let mut parts = vec![self.unary()?];
        loop {
            if self.keyword("and") {
                parts.push(self.unary()?);
                continue;
            }
            self.skip_space();
            let ends = matches!(self.peek(), None | Some(')')) || self.keyword_ahead("or");
            if ends {
                break;
            }
            parts.push(self.unary()?); // juxtaposition means and
        }
        Ok(if parts.len() == 1 { parts.pop().expect("one") } else { Expr::And(parts) })
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        self.skip_space();
        let start = self.at;
        if self.keyword("not") {
            self.enter(start)?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        if self.eat("(") {
            self.enter(start)?;
            let inner = self.or()?;
            self.depth -= 1;
            self.skip_space();
            if !self.eat(")") {
                return Err(self.error("expected \")\" to close the \"(\""));
            }
            return Ok(inner);
        }
        self.condition()
    }

    /// One level deeper (a `not` or `(` at `start`), or an error naming the limit there.
    fn enter(&mut self, start: usize) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            self.at = start;
            return Err(self.error(format!("the query nests deeper than {MAX_NESTING} levels of \"not\" and parentheses")));
        }
        Ok(())
    }

    fn condition(&mut self) -> Result<Expr, ParseError> {
        self.skip_space();
        if self.eat("!") {
            let key = self.key()?;
            return Ok(Expr::Not(Box::new(Expr::Tag { key, value: ValueTest::Any })));
        }
        let word = self.word_ahead();
        if word.starts_with("type:") && !self.operator_after(&word) {
            let kind = match &word[5..] {
                "node" => ElementType::Node,
                "way" => ElementType::Way,
                "relation" => ElementType::Relation,
                _ => return Err(ParseError { column: self.at + 6, message: "expected node, way or relation after \"type:\"".into() }),
            };
            self.at += word.len();
            return Ok(Expr::Type(kind));
        }
        if word.starts_with("id:") && !self.operator_after(&word) {
            let Ok(id) = word[3..].parse::<i64>() else {
                return Err(ParseError { column: self.at + 4, message: "expected an element id (digits) after \"id:\"".into() });
            };
            self.at += word.chars().count();
            return Ok(Expr::Id(id));
        }
        let key = self.key()?;
        let tag = |value| Expr::Tag { key: key.clone(), value };
        let not = |e: Expr| Expr::Not(Box::new(e));
        if self.eat("!=*") {
            return Ok(not(tag(ValueTest::Any)));
        }
        if self.eat("!=") {
            return Ok(not(tag(ValueTest::Equals(self.value("a value after \"!=\"")?))));
        }
        if self.eat("!~") {
            return Ok(not(tag(ValueTest::Regex(self.regex()?))));
        }
        if self.eat("=*") {
            return Ok(tag(ValueTest::Any));
        }
        if self.eat("=") {
            return Ok(tag(ValueTest::Equals(self.value("a value after \"=\"")?)));
        }
        if self.eat("~") {
            return Ok(tag(ValueTest::Regex(self.regex()?)));
        }
        Ok(tag(ValueTest::Any))
    }

    /// A KEY: a bare word or quoted string; a trailing `*` makes it a prefix.
    fn key(&mut self) -> Result<KeyPattern, ParseError> {
        let text = self.text("a key (a word or a \"quoted string\")")?;
        if self.eat("*") {
            return Ok(KeyPattern::Prefix(text));
        }
        Ok(KeyPattern::Exact(text))
    }

    fn value(&mut self, what: &str) -> Result<String, ParseError> {
        self.text(what)
    }

    /// A bare word or a double-quoted string (with `\"` and `\\` escapes).
    fn text(&mut self, what: &str) -> Result<String, ParseError> {
        if self.peek() == Some('"') {
            return self.delimited('"', &['"', '\\'], "this quoted string is not closed: expected a closing '\"'");
        }
        let word = self.word_ahead();
        if word.is_empty() {
            return Err(self.error(format!("expected {what}")));
        }
        self.at += word.chars().count();
        Ok(word)
    }

    /// The text between the opening character at the cursor and the next unescaped `close`; a
    /// backslash before one of `escapable` stands for that character, any other stays as typed.
    /// Errors: `unclosed` (at the opening character) when the text ends first.
    fn delimited(&mut self, close: char, escapable: &[char], unclosed: &str) -> Result<String, ParseError> {
        let start = self.at;
        self.at += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => {
                    self.at = start;
                    return Err(self.error(unclosed));
                }
                Some(c) if c == close => {
                    self.at += 1;
                    return Ok(out);
                }
                Some('\\') if self.chars.get(self.at + 1).is_some_and(|c| escapable.contains(c)) => {
                    out.push(self.chars[self.at + 1]);
                    self.at += 2;
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }

    /// A bare REGEX: the text up to a space (or an unmatched `)`), parentheses balanced, so
    /// `amenity~^(cafe|bar)$` needs no quotes.
    fn bare_regex(&mut self) -> Result<String, ParseError> {
        let (start, mut depth) = (self.at, 0usize);
        while let Some(c) = self.peek() {
            match c {
                c if c.is_whitespace() && depth == 0 => break,
                ')' if depth == 0 => break,
                '(' => depth += 1,
                ')' => depth -= 1,
                '\\' => self.at += 1, // an escaped character is taken as it is
                _ => {}
            }
            self.at += 1;
        }
        self.at = self.at.min(self.chars.len());
        if self.at == start {
            return Err(self.error("expected a regular expression after \"~\" (a word, a \"quoted string\" or /…/)"));
        }
        Ok(self.chars[start..self.at].iter().collect())
    }

    /// A REGEX: `/…/` or `/…/i`, a quoted string or a bare word.
    fn regex(&mut self) -> Result<Regex, ParseError> {
        let start = self.at;
        let (pattern, insensitive) = if self.peek() == Some('/') {
            let pattern = self.delimited('/', &['/'], "this regular expression is not closed: expected a closing \"/\"")?;
            let insensitive = self.peek() == Some('i') && !self.chars.get(self.at + 1).is_some_and(|&c| is_word_char(c));
            if insensitive {
                self.at += 1;
            }
            (pattern, insensitive)
        } else if self.peek() == Some('"') {
            (self.text("a regular expression")?, false)
        } else {
            (self.bare_regex()?, false)
        };
        // `/…/i` as the inline flag, so that the expression's text says it (`Regex::as_str`, which
        // the programs for other engines are written from).
        let source = if insensitive { format!("(?i){pattern}") } else { pattern.clone() };
        RegexBuilder::new(&source).size_limit(1 << 20).build().map_err(|e| {
            let reason = e.to_string();
            let first = reason.lines().rev().find(|l| l.trim_start().starts_with("error:")).unwrap_or(&reason).trim().to_string();
            ParseError { column: start + 1, message: format!("the regular expression {pattern:?} does not compile: {first}") }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(key: &str, value: ValueTest) -> Expr {
        Expr::Tag { key: KeyPattern::Exact(key.into()), value }
    }
    fn eq(key: &str, value: &str) -> Expr {
        tag(key, ValueTest::Equals(value.into()))
    }
    fn not(e: Expr) -> Expr {
        Expr::Not(Box::new(e))
    }
    fn err(text: &str) -> (usize, String) {
        let e = Expr::parse(text).unwrap_err();
        (e.column, e.message)
    }

    #[test]
    fn every_production() {
        assert_eq!(Expr::parse("shop").unwrap(), tag("shop", ValueTest::Any));
        assert_eq!(Expr::parse("shop=*").unwrap(), tag("shop", ValueTest::Any));
        assert_eq!(Expr::parse("shop!=*").unwrap(), not(tag("shop", ValueTest::Any)));
        assert_eq!(Expr::parse("!shop").unwrap(), not(tag("shop", ValueTest::Any)));
        assert_eq!(Expr::parse("shop=bakery").unwrap(), eq("shop", "bakery"));
        assert_eq!(Expr::parse("shop!=bakery").unwrap(), not(eq("shop", "bakery")));
        assert_eq!(Expr::parse("name~/^star/i").unwrap(), tag("name", ValueTest::Regex(Regex::new("(?i)^star").unwrap())));
        assert_eq!(Expr::parse("name~\"^a b\"").unwrap(), tag("name", ValueTest::Regex(Regex::new("^a b").unwrap())));
        assert_eq!(Expr::parse("name~/a\\/b/").unwrap(), tag("name", ValueTest::Regex(Regex::new("a/b").unwrap())));
        assert_eq!(Expr::parse("name!~bucks").unwrap(), not(tag("name", ValueTest::Regex(Regex::new("bucks").unwrap()))));
        let bare = Expr::parse("(amenity~^(cafe|bar)$ cuisine)").unwrap();
        assert_eq!(bare, Expr::And(vec![tag("amenity", ValueTest::Regex(Regex::new("^(cafe|bar)$").unwrap())), tag("cuisine", ValueTest::Any)]));
        assert_eq!(Expr::parse("type:way").unwrap(), Expr::Type(ElementType::Way));
        assert_eq!(Expr::parse("type:relation id:42").unwrap(), Expr::And(vec![Expr::Type(ElementType::Relation), Expr::Id(42)]));
        assert_eq!(Expr::parse("id:x").unwrap_err().column, 4);
        let kinds = |q: &str| Expr::parse(q).unwrap().kinds();
        assert_eq!(kinds("type:relation id:42"), [false, false, true]);
        assert_eq!(kinds("type:way or (type:node shop)"), [true, true, false]);
        assert_eq!(kinds("not type:way"), [true; 3]);
        assert_eq!(Expr::parse("type:relation id:42").unwrap().id(), Some(42));
        assert_eq!(Expr::parse("id:42 or shop").unwrap().id(), None);
        assert_eq!(Expr::parse("addr:*").unwrap(), Expr::Tag { key: KeyPattern::Prefix("addr:".into()), value: ValueTest::Any });
        assert_eq!(Expr::parse("\"name:fi\"=\"Kauppa \\\"Iso\\\" \\\\ 1\"").unwrap(), eq("name:fi", "Kauppa \"Iso\" \\ 1"));
        assert_eq!(Expr::parse("name=Café").unwrap(), eq("name", "Café"));
        assert_eq!(Expr::parse("highway=bus_stop").unwrap(), eq("highway", "bus_stop"));
    }

    #[test]
    fn precedence_and_juxtaposition() {
        let a = || eq("amenity", "cafe");
        let b = || eq("amenity", "restaurant");
        let c = || tag("cuisine", ValueTest::Any);
        assert_eq!(Expr::parse("amenity=restaurant cuisine").unwrap(), Expr::And(vec![b(), c()]));
        assert_eq!(Expr::parse("amenity=cafe or amenity=restaurant cuisine").unwrap(), Expr::Or(vec![a(), Expr::And(vec![b(), c()])]));
        assert_eq!(Expr::parse("(amenity=cafe OR amenity=restaurant) AND cuisine").unwrap(), Expr::And(vec![Expr::Or(vec![a(), b()]), c()]));
        assert_eq!(Expr::parse("not amenity=cafe cuisine").unwrap(), Expr::And(vec![not(a()), c()]));
        assert_eq!(Expr::parse("Not not cuisine").unwrap(), not(not(c())));
        // A keyword followed by an operator is a key.
        assert_eq!(Expr::parse("not=1 or=2").unwrap(), Expr::And(vec![eq("not", "1"), eq("or", "2")]));
    }

    #[test]
    fn errors_name_the_column_and_what_was_expected() {
        assert_eq!(err("amenity="), (9, "expected a value after \"=\"".into()));
        assert_eq!(err("(shop"), (6, "expected \")\" to close the \"(\"".into()));
        assert_eq!(err("shop or"), (8, "expected a key (a word or a \"quoted string\")".into()));
        assert_eq!(err("name=\"open"), (6, "this quoted string is not closed: expected a closing '\"'".into()));
        assert_eq!(err("type:shop"), (6, "expected node, way or relation after \"type:\"".into()));
        assert_eq!(err("shop )"), (6, "unexpected \")\": no \"(\" before it".into()));
        let (column, message) = err("name~/(a/");
        assert_eq!(column, 6);
        assert!(message.starts_with("the regular expression \"(a\" does not compile"), "{message}");
        assert!(err("name~/x(?=y)/").1.contains("look-around"), "{}", err("name~/x(?=y)/").1);
        assert_eq!(err("name~/abc"), (6, "this regular expression is not closed: expected a closing \"/\"".into()));
    }

    #[test]
    fn nesting_is_bounded() {
        let limit = format!("the query nests deeper than {MAX_NESTING} levels of \"not\" and parentheses");
        let deepest = format!("{}shop{}", "(".repeat(MAX_NESTING / 2), ")".repeat(MAX_NESTING / 2));
        assert!(Expr::parse(&format!("{}{deepest}", "not ".repeat(MAX_NESTING / 2))).is_ok());
        assert_eq!(err(&format!("{}shop", "not ".repeat(5_000))), (4 * MAX_NESTING + 1, limit.clone()));
        assert_eq!(err(&format!("{}shop{}", "(".repeat(20_000), ")".repeat(20_000))), (MAX_NESTING + 1, limit.clone()));
        assert_eq!(err(&format!("shop or {}", "( not ".repeat(60))).0, 8 + 6 * 50 + 1);
    }

    #[test]
    fn the_plain_evaluation() {
        let tags: [(&[u8], &[u8]); 3] = [(b"amenity", b"cafe"), (b"name", b"Starbucks"), (b"addr:street", b"Mannerheimintie")];
        let yes = |q: &str, kind| Expr::parse(q).unwrap().eval_tags(kind, 1, &tags);
        assert!(yes("amenity=cafe or amenity=restaurant", ElementType::Node));
        assert!(yes("name~/^star/i addr:*", ElementType::Node));
        assert!(!yes("name~^star", ElementType::Node), "case-sensitive without /i");
        assert!(yes("name~/^STAR/i", ElementType::Node));
        assert!(yes("amenity!=restaurant !shop", ElementType::Node));
        assert!(!yes("type:way amenity", ElementType::Node));
        assert!(yes("type:way amenity", ElementType::Way));
        assert!(yes("", ElementType::Relation), "the empty query is true");
        assert_eq!(Expr::parse("(shop or amenity=cafe) not shop=bakery addr:*").unwrap().keys(), vec!["shop", "amenity"]);
    }
}
