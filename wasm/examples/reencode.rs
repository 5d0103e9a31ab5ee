//! Rewrites a PBF file's blobs with another compression, keeping every frame and its contents:
//! `cargo run --release --example reencode -- IN.osm.pbf OUT.osm.pbf zstd|lz4|raw|zlib`.
//! The tests and the benchmark make their zstd, lz4 and raw twins of `../shared/data/` with it.
//! zstd blobs are written by the reference encoder (the `zstd` crate, C libzstd) at level 3, its
//! default and what zstd PBF writers use: an encoder apart from the decoder's own library.
use pbf_explorer::testing::encode::{reencode, reencode_with, Compression};
use pbf_explorer::proto::{blob::Data, Blob};

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
    let out = match compression {
        Compression::Zstd => reencode_with(&bytes, |data| {
            let z = zstd::bulk::compress(data, 3).expect("libzstd compresses");
            Blob { raw_size: Some(data.len() as i32), data: Some(Data::ZstdData(z.into())) }
        }),
        other => reencode(&bytes, other),
    }
    .unwrap_or_else(|e| panic!("{input}: {e}"));
    std::fs::write(output, out).unwrap_or_else(|e| panic!("{output}: {e}"));
}
