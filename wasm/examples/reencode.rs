//! Rewrites a PBF file's blobs with another compression, keeping every frame and its contents:
//! `cargo run --release --example reencode -- IN.osm.pbf OUT.osm.pbf zstd|lz4|raw|zlib`.
//! The tests and the benchmark make their zstd, lz4 and raw twins of `../shared/data/` with it.
use pbf_explorer::encode::{reencode, Compression};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, compression] = &args[..] else {
        eprintln!("usage: reencode IN.osm.pbf OUT.osm.pbf zstd|lz4|raw|zlib");
        std::process::exit(2);
    };
    let compression: Compression = compression.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let bytes = std::fs::read(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let out = reencode(&bytes, compression).unwrap_or_else(|e| panic!("{input}: {e}"));
    std::fs::write(output, out).unwrap_or_else(|e| panic!("{output}: {e}"));
}
