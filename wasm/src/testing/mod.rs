//! Writers for tests, benches and examples (feature `testing`, never in the shipped build): PBF
//! files built element by element, and small files for every case the tests name.

pub mod encode;
pub mod fixtures;
pub mod huge_tags;
pub mod pathological;
pub mod planet_like;
