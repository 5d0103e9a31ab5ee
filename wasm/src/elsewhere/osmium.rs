//! The query as `osmium tags-filter`'s filter expressions (osmium-tool manual, "FILTER
//! EXPRESSIONS"), for a query over a whole file that is an `or` of tag conditions, each maybe
//! for one type. Anything else is refused with the reason.

use crate::query::language::{Expr, KeyPattern, ValueTest};

/// Characters osmium's expressions give a meaning to and cannot escape.
const OSMIUM_SPECIAL: [char; 5] = ['=', '*', ',', '!', '/'];

/// The `osmium tags-filter` expressions (each `TYPES/KEY[=VALUE,…]`) whose union is exactly the
/// elements `expr` matches in a whole file: one per type set and key, values of one key joined.
///
/// Errors: a sentence naming what osmium's expressions cannot say (`and`, `not` or `!=`, a
/// regular expression, `id:`, a character osmium reads as syntax).
pub fn osmium_tags_filter(expr: &Expr) -> Result<Vec<String>, String> {
    let terms = match expr {
        Expr::Or(parts) => parts.iter().collect(),
        other => vec![other],
    };
    // (types, key, values: None for any value), in the query's order.
    let mut filters: Vec<(String, String, Option<Vec<String>>)> = Vec::new();
    for term in terms {
        let (types, key, value) = osmium_term(term)?;
        match filters.iter_mut().find(|(t, k, v)| *t == types && *k == key && v.is_some() && value.is_some()) {
            Some((_, _, Some(values))) => values.push(value.unwrap()),
            _ => filters.push((types, key, value.map(|v| vec![v]))),
        }
    }
    Ok(filters.into_iter().map(|(types, key, values)| match values {
        Some(values) => format!("{types}/{key}={}", values.join(",")),
        None => format!("{types}/{key}"),
    }).collect())
}

/// One term of the `or`: a tag condition, alone or with `type:`: its type letters, key and value.
fn osmium_term(term: &Expr) -> Result<(String, String, Option<String>), String> {
    let (types, key, value) = match term {
        Expr::Tag { key, value } => ("nwr".to_string(), key, value),
        // One type: its name's first letter, as osmium names types (n, w, r).
        Expr::And(parts) => match parts.as_slice() {
            [Expr::Type(t), Expr::Tag { key, value }] | [Expr::Tag { key, value }, Expr::Type(t)] => (t.name()[..1].to_string(), key, value),
            _ => return Err("osmium tags-filter has no \"and\" of tag conditions (its expressions are joined by \"or\")".into()),
        },
        Expr::Not(_) => return Err("osmium tags-filter has no \"not\" (its \"!=\" also needs the key to be there)".into()),
        Expr::Or(_) => return Err("osmium tags-filter has no nested \"or\" within \"and\"".into()),
        Expr::Type(_) => return Err("osmium tags-filter needs a tag in each expression, not a type alone".into()),
        Expr::Id(_) => return Err("osmium tags-filter matches tags, not ids (osmium getid does)".into()),
    };
    let key = match key {
        KeyPattern::Exact(k) => plain(k, "key")?,
        KeyPattern::Prefix(p) => format!("{}*", plain(p, "key")?),
    };
    let value = match value {
        ValueTest::Any => None,
        ValueTest::Equals(v) => Some(plain(v, "value")?),
        ValueTest::Regex(_) => return Err("osmium tags-filter has no regular expressions".into()),
    };
    if key.ends_with('*') && value.is_some() {
        return Err("osmium tags-filter cannot give a value to a key prefix (addr:*=…)".into());
    }
    Ok((types, key, value))
}

/// `text` when osmium reads it as itself: none of its special characters, no space at either end.
fn plain(text: &str, what: &str) -> Result<String, String> {
    if let Some(c) = text.chars().find(|c| OSMIUM_SPECIAL.contains(c)) {
        return Err(format!("osmium tags-filter cannot hold the {what} {text:?}: its expressions read {c:?} as syntax, with no escape"));
    }
    if text.is_empty() || text.trim() != text {
        return Err(format!("osmium tags-filter cannot hold the {what} {text:?} (empty, or a space at an end)"));
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(q: &str) -> Result<Vec<String>, String> {
        osmium_tags_filter(&Expr::parse(q).unwrap())
    }

    #[test]
    fn an_or_of_tag_conditions_becomes_expressions_values_of_a_key_joined() {
        assert_eq!(filter("amenity=cafe").unwrap(), vec!["nwr/amenity=cafe"]);
        assert_eq!(filter("amenity=cafe or amenity=restaurant or shop").unwrap(), vec!["nwr/amenity=cafe,restaurant", "nwr/shop"]);
        assert_eq!(filter("type:way building or addr:*").unwrap(), vec!["w/building", "nwr/addr:*"]);
        assert_eq!(filter("amenity or amenity=cafe").unwrap(), vec!["nwr/amenity", "nwr/amenity=cafe"]);
    }

    #[test]
    fn what_osmium_cannot_say_is_refused_with_the_reason() {
        assert!(filter("amenity=cafe cuisine").unwrap_err().contains("\"and\""));
        assert!(filter("shop and not shop=supermarket").unwrap_err().contains("\"and\""));
        assert!(filter("shop!=supermarket").unwrap_err().contains("\"not\""));
        assert!(filter("name~/^star/i").unwrap_err().contains("regular expressions"));
        assert!(filter("\"a=b\"=c").unwrap_err().contains("'='"));
        assert!(filter("name=\"x,y\"").unwrap_err().contains("','"));
        assert!(filter("type:way").is_err());
    }
}
