//! The matches coloured by their values of one key (the page's "Colour by", `style=KEY`): the
//! most frequent values each a colour, the rest "other", matches without the key "none".

use serde::Serialize;

use super::*;

/// The classes of an answer's matches by their value of a key.
#[derive(Debug, Serialize, PartialEq)]
pub struct StyleClasses {
    /// The most frequent values of the key among the matches, with their counts, most frequent
    /// first (ties by value; [`crate::assembly::table::tag_stats`]).
    pub values: Vec<(String, u64)>,
    /// How many matches have another value of the key, and how many have no such key.
    pub other: u64,
    pub none: u64,
    /// For each match the map draws: its feature id ([`ElementType::feature_id`]) and its class,
    /// the position of its value in `values`, `values.len()` for another value, `values.len() + 1`
    /// without the key.
    pub features: Vec<f64>,
}

impl Assembler {
    /// The matches classed by their value of `key`, with the `top` most frequent values each a
    /// class of its own (a repeated key counts by its first value).
    pub fn style_classes(&mut self, key: &str, top: usize) -> StyleClasses {
        let values = self.tag_stats(Some(key), top).values;
        let position: FxHashMap<&str, usize> = values.iter().enumerate().map(|(i, (v, _))| (v.as_str(), i)).collect();
        let (mut other, mut none, mut features) = (0, 0, Vec::new());
        for (t, id, tags) in self.match_tags() {
            let class = match tags.iter().find(|(k, _)| k == key) {
                Some((_, v)) => position.get(v.as_str()).copied().unwrap_or_else(|| {
                    other += 1;
                    values.len()
                }),
                None => {
                    none += 1;
                    values.len() + 1
                }
            };
            let fid = t.feature_id(id);
            if self.map_sample.keeps(fid) {
                features.extend([fid as f64, class as f64]);
            }
        }
        StyleClasses { values, other, none, features }
    }
}
