//! The file's named multipolygons and boundaries, kept by the query worker for the page's place
//! field once a read has found them all ([`crate::assembly::places`]).

use wasm_bindgen::prelude::*;

use crate::assembly::places::Places;

/// The places of one file, searched by name.
#[wasm_bindgen]
pub struct PlaceList {
    places: Places,
}

impl PlaceList {
    pub(crate) fn new(places: Places) -> PlaceList {
        PlaceList { places }
    }
}

#[wasm_bindgen]
impl PlaceList {
    /// How many places there are.
    pub fn count(&self) -> u32 {
        self.places.len() as u32
    }

    /// At most `max` places whose name holds `text` (ignoring case), best first
    /// ([`Places::search`]), as JSON: `[{"id":7510580,"name":"Valletta","kind":"boundary",
    /// "what":"boundary=administrative","admin_level":"8","ways":3},…]`.
    pub fn search(&self, text: &str, max: u32) -> String {
        serde_json::to_string(&self.places.search(text, max as usize)).unwrap_or_else(|_| "[]".into())
    }
}
