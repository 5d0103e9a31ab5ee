//! The table's calls on an answer: its order, its filter, a match's row, its tag statistics.

use wasm_bindgen::prelude::*;

use super::{element_type, QueryAssembler};

#[wasm_bindgen]
impl QueryAssembler {
    /// Orders the list's rows by `column` (`type`, `id`, `name` or a tag key; empty: by label).
    #[wasm_bindgen(js_name = orderBy)]
    pub fn order_by(&mut self, column: &str, descending: bool) {
        self.plan.answer_mut().set_order((!column.is_empty()).then(|| column.to_string()), descending);
    }

    /// Keeps in the list's rows only the matches whose type, id, or a tag's key or value holds
    /// `text`, ignoring case (empty: every match; `table::row_passes`); returns the rows left.
    /// `rows` and the exports then follow the filtered list.
    #[wasm_bindgen(js_name = filterRows)]
    pub fn filter_rows(&mut self, text: &str) -> u32 {
        let answer = self.plan.answer_mut();
        answer.set_filter(text);
        answer.row_count() as u32
    }

    /// The number of the list's rows: the matches, or those the filter keeps.
    #[wasm_bindgen(js_name = rowCount)]
    pub fn row_count(&mut self) -> u32 {
        self.plan.answer_mut().row_count() as u32
    }

    /// The position of match `type`/`id` in the list (its order and filter), or -1 when it is
    /// not a row of it. Throws for a `type` other than `node`, `way` or `relation`.
    #[wasm_bindgen(js_name = rowOf)]
    pub fn row_of(&mut self, r#type: &str, id: f64) -> Result<i32, JsError> {
        let t = element_type(r#type)?;
        Ok(self.plan.answer_mut().row_of(t, id as i64).map_or(-1, |i| i as i32))
    }

    /// Tag statistics of the answer as JSON: `{"types":[nodes,ways,relations],
    /// "keys":[[key,count]…],"values":[[value,count]…],"long_keys":n,"long_values":n,
    /// "columns":[key…]}` — the `top` most frequent keys, the `top` most frequent values of `key`
    /// (empty: none), how many keys and values were too long to list (`table::STATS_TEXT_BYTES`),
    /// and the table's tag columns (the query's keys, then the most frequent others; 6 at most).
    #[wasm_bindgen(js_name = tagStats)]
    pub fn tag_stats(&mut self, key: &str, top: u32) -> String {
        let stats = self.plan.answer_mut().tag_stats((!key.is_empty()).then_some(key), top as usize);
        let columns = crate::assembly::table::columns(&self.query_keys, &stats, 6);
        serde_json::json!({ "types": stats.types, "keys": stats.keys, "values": stats.values, "long_keys": stats.long_keys, "long_values": stats.long_values, "columns": columns }).to_string()
    }
}
