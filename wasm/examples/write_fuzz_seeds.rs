//! Seeds for the fuzz targets from a real file: each Blob of its first frames for
//! `decode_blob` (also re-encoded as zstd, lz4 and raw); the broken fixtures (corrupt and
//! lying zstd and lz4 blobs among them), the good ones again with raw blobs (so mutations are
//! not rejected by a checksum) and the file's first frames for `scan_file`; the uncompressed
//! PrimitiveBlocks of the file's first frames and of the fixtures (the history file's among
//! them) for `scan_block`; their HeaderBlocks for `decode_header`.
//! `cargo run --release --example write_fuzz_seeds -- FILE.osm.pbf FUZZ_CORPUS_DIR`
use pbf_explorer::encode::{blob_with, reencode, Compression};
use pbf_explorer::{blob, fixtures, frame};
use prost::Message;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, dir] = &args[..] else { panic!("usage: write_fuzz_seeds FILE.osm.pbf DIR") };
    let file = std::fs::read(path).unwrap();
    let (blobs, files) = (format!("{dir}/decode_blob"), format!("{dir}/scan_file"));
    let (blocks, headers) = (format!("{dir}/scan_block"), format!("{dir}/decode_header"));
    for d in [&blobs, &files, &blocks, &headers] {
        std::fs::create_dir_all(d).unwrap();
    }
    // Every frame's uncompressed data: HeaderBlocks to one corpus, PrimitiveBlocks to the other.
    let write_blocks = |name: &str, file: &[u8], most: usize| {
        for (i, f) in frame::frames(file).take(most).enumerate() {
            let Ok(f) = f else { break };
            let Ok(data) = blob::blob_data(f.blob) else { continue };
            let to = if f.kind == "OSMHeader" { &headers } else { &blocks };
            std::fs::write(format!("{to}/{name}-{i}"), &data[..]).unwrap();
        }
    };
    write_blocks("real", &file, 4);
    let mut end = 0;
    for (i, f) in frame::frames(&file).take(4).enumerate() {
        let f = f.unwrap();
        std::fs::write(format!("{blobs}/real-{i}"), f.blob).unwrap();
        let data = blob::blob_data(f.blob).unwrap();
        for (name, c) in [("zstd", Compression::Zstd), ("lz4", Compression::Lz4), ("raw", Compression::Raw)] {
            std::fs::write(format!("{blobs}/real-{i}-{name}"), blob_with(&data, c).encode_to_vec()).unwrap();
        }
        end = f.offset as usize + 4 + 64 + f.blob.len();
    }
    std::fs::write(format!("{files}/real-first-frames"), &file[..end.min(file.len())]).unwrap();
    for (name, bytes) in fixtures::all() {
        write_blocks(name, &bytes, 16);
        if let Ok(raw) = reencode(&bytes, Compression::Raw) {
            std::fs::write(format!("{files}/{name}-raw"), raw).unwrap();
        }
        std::fs::write(format!("{files}/{name}"), bytes).unwrap();
    }
}
