//! A query's regular expression (the `regex` crate's syntax, `docs/query-language.md`) in the
//! syntax of another engine that reads it with the same meaning: RE2 for DuckDB's
//! `regexp_matches`, `java.util.regex` for Spark's `RLIKE`. A pattern that engine would read
//! otherwise is refused with the reason, never passed on.

/// Rust-regex syntax that RE2 reads otherwise or not at all: Perl classes and word boundaries
/// are Unicode in ours, ASCII in RE2; class set operations are ours.
const RE2_DIFFERENT: [&str; 11] = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "&&", "--", "~~"];

/// `pattern` for RE2 (DuckDB), which reads it the same way unless it uses what
/// [`RE2_DIFFERENT`] lists.
///
/// Errors: the construct RE2 reads otherwise, and how to write it instead.
pub fn re2(pattern: &str) -> Result<String, String> {
    match RE2_DIFFERENT.iter().find(|s| pattern.contains(*s)) {
        Some(s) => Err(format!("DuckDB's regular expressions (RE2) read {s:?} otherwise than pbf-explorer's (Unicode classes and word boundaries, class set operations): write it with explicit classes ([0-9], [[:alpha:]], \\pL)")),
        None => Ok(pattern.to_string()),
    }
}

/// Java's flags that give its syntax the `regex` crate's meanings: `d` (only `\n` ends a line,
/// for `.`), `U` (`\d \w \s \b` and case folding by Unicode, as ours are).
const JAVA_FLAGS: &str = "(?dU)";

/// `pattern` for `java.util.regex` (Spark's `RLIKE`, which finds a match anywhere, as ours):
/// prefixed with [`JAVA_FLAGS`], `$` outside a class written `\z` (Java's `$` also matches
/// before a final line break, ours only at the end). Walks the pattern once, knowing escapes and
/// class nesting, since the `regex` crate has accepted it already.
///
/// Errors: what Java reads otherwise or not at all: POSIX classes (`[[:alpha:]]`), class
/// difference `--` and symmetric difference `~~`, property names other than a general category
/// (`\p{Greek}`), `\<` `\>` `\b{…}`, `\v`, `\u{…}` `\U`, `(?P<name>`, the flags `m`, `x`, `u`,
/// `U` and `R`.
pub fn java(pattern: &str) -> Result<String, String> {
    let refuse = |what: &str| Err(format!("Spark's regular expressions (java.util.regex) read {what} otherwise than pbf-explorer's: write it another way (explicit classes such as [0-9] or \\pL, anchors ^ and $)"));
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::from(JAVA_FLAGS);
    let mut class_depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\\' => {
                let e = next.unwrap_or('\\');
                let after = chars.get(i + 2).copied();
                match (e, after) {
                    ('v' | 'U' | '<' | '>', _) => return refuse(&format!("\\{e}")),
                    ('u' | 'b' | 'B', Some('{')) => return refuse(&format!("\\{e}{{…}}")),
                    ('p' | 'P', Some('{')) => {
                        let name: String = chars[i + 3..].iter().take_while(|c| **c != '}').collect();
                        if name.is_empty() || name.len() > 2 || !name.chars().all(|c| c.is_ascii_alphabetic()) {
                            return refuse(&format!("\\{e}{{{name}}}"));
                        }
                    }
                    _ => {}
                }
                out.push(c);
                out.push(e);
                i += 2;
                continue;
            }
            '[' => {
                if class_depth > 0 && next == Some(':') {
                    return refuse("POSIX classes ([[:alpha:]])");
                }
                class_depth += 1;
                out.push(c);
                // `[]…]` and `[^]…]`: a `]` first in a class is itself, in both.
                let mut j = i + 1;
                if chars.get(j) == Some(&'^') {
                    out.push('^');
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    out.push(']');
                    j += 1;
                }
                i = j;
                continue;
            }
            ']' if class_depth > 0 => class_depth -= 1,
            '-' | '~' if class_depth > 0 && next == Some(c) => return refuse(&format!("the class operation {c}{c}")),
            '$' if class_depth == 0 => {
                out.push_str("\\z");
                i += 1;
                continue;
            }
            '(' if class_depth == 0 && next == Some('?') => {
                let flags: String = chars[i + 2..].iter().take_while(|c| !matches!(c, ':' | ')')).collect();
                if flags.starts_with("P<") {
                    return refuse("(?P<name>…)");
                }
                if !flags.starts_with('<') && !flags.starts_with('=') && !flags.starts_with('!') {
                    if let Some(f) = flags.chars().find(|f| "mxuUR".contains(*f)) {
                        return refuse(&format!("the flag {f}"));
                    }
                }
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// `pattern` for Overpass QL's `~` filters (POSIX extended regular expressions, matched on the
/// value's UTF-8 bytes), with whether it is case-insensitive (a leading `(?i)`, Overpass's `,i`).
/// Only what both read alike passes: literals (escaped punctuation), `^ $ | ( ) * + ? {m,n}`
/// (a lazy `?` is dropped: whether a match exists does not depend on it), ASCII bracket
/// expressions (`[[:alpha:]]` is ASCII in both), other characters as literals not repeated.
/// Case-insensitive patterns are ASCII: POSIX folds ASCII alone (ours also fold U+212A KELVIN
/// SIGN to `k` and U+017F LONG S to `s`, the one difference left, said in the program).
///
/// Errors: `.` (POSIX's matches a line break, ours not), `\d \w \s \b`, `\pL` and other
/// escapes of letters, `(?…)` groups and flags past a leading `(?i)`, class escapes and set
/// operations, empty alternatives, a repeated non-ASCII character.
pub fn posix(pattern: &str) -> Result<(String, bool), String> {
    let refuse = |what: &str| Err(format!("Overpass's regular expressions (POSIX) read {what} otherwise than pbf-explorer's: write it with literals, ASCII classes ([0-9], [[:alpha:]]), anchors and |"));
    let (body, icase) = match pattern.strip_prefix("(?i)") {
        Some(rest) => (rest, true),
        None => (pattern, false),
    };
    if icase && !body.is_ascii() {
        return refuse("case-insensitive letters beyond ASCII");
    }
    if body.is_empty() || body.starts_with('|') || body.ends_with('|') || ["||", "(|", "|)", "()"].iter().any(|s| body.contains(s)) {
        return refuse("an empty alternative");
    }
    let chars: Vec<char> = body.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\\' => match next {
                Some(e) if e.is_ascii_punctuation() => {
                    out.push(c);
                    out.push(e);
                    i += 2;
                    continue;
                }
                _ => return refuse(&format!("\\{}", next.unwrap_or(' '))),
            },
            '.' => return refuse("."),
            '(' if next == Some('?') => return refuse("(?…)"),
            '?' if i > 0 && matches!(chars[i - 1], '*' | '+' | '?' | '}') && !(i > 1 && chars[i - 2] == '\\') => {
                i += 1;
                continue;
            }
            '[' => {
                // The bracket expression up to its `]` (one first, after an optional `^`, is itself).
                let mut j = i + 1;
                if chars.get(j) == Some(&'^') {
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    j += 1;
                }
                while j < chars.len() && chars[j] != ']' {
                    if chars[j] == '[' && chars.get(j + 1) == Some(&':') {
                        j += chars[j..].iter().position(|c| *c == ']').unwrap_or(0);
                    }
                    j += 1;
                }
                let class: String = chars[i..=j.min(chars.len() - 1)].iter().collect();
                if !class.is_ascii() || class.contains('\\') || ["&&", "--", "~~"].iter().any(|s| class.contains(s)) || class[1..].replace("[:", "").contains('[') {
                    return refuse(&format!("the class {class}"));
                }
                out.push_str(&class);
                i = j + 1;
                continue;
            }
            c if !c.is_ascii() && matches!(next, Some('*' | '+' | '?' | '{')) => return refuse(&format!("{c} repeated (POSIX repeats its last byte)")),
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    Ok((out, icase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_gets_unicode_classes_and_an_end_that_is_the_end() {
        assert_eq!(java("^\\d+ St$").unwrap(), "(?dU)^\\d+ St\\z");
        assert_eq!(java("[$]x[]$]").unwrap(), "(?dU)[$]x[]$]");
        assert_eq!(java("\\$(?i)caf[eé]").unwrap(), "(?dU)\\$(?i)caf[eé]");
        assert_eq!(java("\\pL\\p{Lu}[a-z&&[^aeiou]]").unwrap(), "(?dU)\\pL\\p{Lu}[a-z&&[^aeiou]]");
    }

    #[test]
    fn java_refuses_what_it_reads_otherwise() {
        for p in ["[[:alpha:]]", "[a-z--[aeiou]]", "[a~~b]", "\\p{Greek}", "\\<x", "\\b{start}", "\\v", "\\u{e9}", "(?m)^x$", "(?x) a", "(?-u:\\w)", "(?P<n>x)"] {
            assert!(java(p).unwrap_err().contains("java.util.regex"), "{p}");
        }
        assert!(java("a--b").is_ok(), "-- outside a class is two hyphens in both");
        assert!(java("(?<n>x)(?i:y)").is_ok());
    }

    #[test]
    fn posix_takes_what_both_read_alike() {
        assert_eq!(posix("(?i)^star").unwrap(), ("^star".to_string(), true));
        assert_eq!(posix("^(cafe|bar)$").unwrap(), ("^(cafe|bar)$".to_string(), false));
        assert_eq!(posix("^St\\.? [[:upper:]][a-z]*?é$").unwrap(), ("^St\\.? [[:upper:]][a-z]*é$".to_string(), false));
        for p in [".", "\\d", "\\pL", "(?:a)", "(?i)é", "[é]", "é+", "a||b", "[\\w]", "[a-z&&[^e]]"] {
            assert!(posix(p).unwrap_err().contains("POSIX"), "{p}");
        }
    }

    #[test]
    fn re2_refuses_unicode_classes() {
        assert!(re2("\\d").unwrap_err().contains("RE2"));
        assert_eq!(re2("(?i)^star").unwrap(), "(?i)^star");
    }
}
