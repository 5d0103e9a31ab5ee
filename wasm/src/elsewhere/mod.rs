//! The query as another tool's program, where that tool answers the same question:
//! `osmium tags-filter`'s expressions ([`osmium`]), Overpass QL ([`overpass`]), DuckDB SQL over `ST_ReadOSM` ([`duckdb`])
//! and Spark SQL over Apache Sedona's `osmpbf` reader ([`sedona`]), the two SQL dialects
//! sharing what they write alike ([`sql`], [`regex`]). Anything a tool cannot say the same way
//! is refused with the reason: a program that answers another question is never given. Above
//! `query` and `assembly`: it writes their rules (the query language, the areas, the area rule
//! of ways) in the other tool's terms.

pub mod duckdb;
pub mod osmium;
pub mod overpass;
pub mod regex;
pub mod sedona;
pub mod sql;
