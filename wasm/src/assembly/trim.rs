//! What one element may cost the page. A tag value may hold 30 MB and an element 100 000 tags
//! or 50 000 members (anyone writes them): the list's rows and a popup show a match cut to
//! bounds in characters and counts, saying what was cut ([`Cut`]), and the page asks for the
//! whole match only when the person does ("show all"). Exports and the command line are never cut.

use serde::Serialize;

use super::Match;

/// Bounds on a match as the page shows it.
#[derive(Debug, Clone, Copy)]
pub struct ShownLimits {
    /// Characters of a tag key or value; a longer one ends in `…`.
    pub text_chars: usize,
    /// Tags shown (the first ones, in the element's order).
    pub tags: usize,
    /// Bytes of tag text (keys and values, once shortened): tags past it are left out.
    pub tag_bytes: usize,
    /// Members of a relation shown (the first ones).
    pub members: usize,
}

/// A list row: enough for its label and columns (a row's text never needs more).
pub const LIST_LIMITS: ShownLimits = ShownLimits { text_chars: 200, tags: 100, tag_bytes: 8 << 10, members: 0 };
/// A popup: what a person reads at once; "show all" asks for the rest.
pub const POPUP_LIMITS: ShownLimits = ShownLimits { text_chars: 2_000, tags: 500, tag_bytes: 128 << 10, members: 500 };

/// What was left out of a match shown cut: tags and members left out, keys and values shortened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Cut {
    pub tags: usize,
    pub texts: usize,
    pub members: usize,
}

/// Cuts `m` to `limits`, setting [`Match::cut`] when anything was left out.
pub fn trim(m: &mut Match, limits: &ShownLimits) {
    let mut cut = Cut::default();
    let (mut kept, mut bytes) = (0, 0);
    for (k, v) in m.tags.iter_mut() {
        if kept == limits.tags || bytes >= limits.tag_bytes {
            break;
        }
        cut.texts += shorten(k, limits.text_chars) as usize + shorten(v, limits.text_chars) as usize;
        bytes += k.len() + v.len();
        kept += 1;
    }
    cut.tags = m.tags.len() - kept;
    m.tags.truncate(kept);
    m.tags.shrink_to_fit();
    if m.members.len() > limits.members {
        cut.members = m.members.len() - limits.members;
        m.members.truncate(limits.members);
        m.members.shrink_to_fit();
    }
    if cut != Cut::default() {
        m.cut = Some(cut);
    }
}

/// Shortens `text` to `chars` characters and a `…`; whether it was longer. The long text's
/// memory goes back at once (a truncated `String` would keep it: a page of list rows of 30 MB
/// names then held them all, 1.2 GB, until the page was sent).
fn shorten(text: &mut String, chars: usize) -> bool {
    if text.len() <= chars {
        return false; // no more bytes than characters allowed: short enough
    }
    match text.char_indices().nth(chars) {
        Some((at, _)) => {
            *text = format!("{}…", &text[..at]);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::ElementType;

    fn cafe(tags: Vec<(String, String)>, members: usize) -> Match {
        let members = (0..members as i64).map(|i| (1, i, String::new())).collect();
        Match { element: ElementType::Relation, id: 1, lat: None, lon: None, tags, members, problem: None, meta: None, distance: None, change: None, cut: None }
    }

    #[test]
    fn long_values_many_tags_and_members_are_cut_and_counted() {
        let huge = "W".repeat(30 << 20);
        let mut m = cafe(vec![("amenity".into(), "cafe".into()), ("name".into(), huge), ("näme".into(), "ä".repeat(300))], 2);
        trim(&mut m, &LIST_LIMITS);
        assert_eq!(m.tags[1].1.chars().count(), 201);
        assert!(m.tags[1].1.ends_with('…'));
        assert!(m.tags[1].1.capacity() < 1000, "the 30 MB value's memory is given back");
        assert_eq!(m.tags[2].1, format!("{}…", "ä".repeat(200)));
        assert_eq!(m.members.len(), 0);
        assert_eq!(m.cut, Some(Cut { tags: 0, texts: 2, members: 2 }));

        let many: Vec<(String, String)> = (0..100_000).map(|i| (format!("k{i}"), "v".into())).collect();
        let mut m = cafe(many, 50_000);
        trim(&mut m, &POPUP_LIMITS);
        assert_eq!((m.tags.len(), m.members.len()), (500, 500));
        assert_eq!(m.cut, Some(Cut { tags: 99_500, texts: 0, members: 49_500 }));

        let mut small = cafe(vec![("amenity".into(), "cafe".into())], 3);
        trim(&mut small, &POPUP_LIMITS);
        assert_eq!(small.cut, None);
    }

    #[test]
    fn tag_text_is_bounded_in_bytes() {
        let tags: Vec<(String, String)> = (0..100).map(|i| (format!("k{i}"), "x".repeat(200))).collect();
        let mut m = cafe(tags, 0);
        trim(&mut m, &LIST_LIMITS);
        let bytes: usize = m.tags.iter().map(|(k, v)| k.len() + v.len()).sum();
        assert!(bytes < (8 << 10) + 210, "{bytes}");
        assert_eq!(m.cut.unwrap().tags, 100 - m.tags.len());
    }
}
