//! Seeds for the fuzz targets from a real file: each Blob of its first frames for
//! `decode_blob` (also re-encoded as zstd, lz4 and raw), and the broken fixtures (corrupt and
//! lying zstd and lz4 blobs among them) plus the file's first frames for `scan_file`.
//! `cargo run --release --example write_fuzz_seeds -- FILE.osm.pbf FUZZ_CORPUS_DIR`
use pbf_explorer::encode::{blob_with, Compression};
use pbf_explorer::{blob, fixtures, frame};
use prost::Message;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, dir] = &args[..] else { panic!("usage: write_fuzz_seeds FILE.osm.pbf DIR") };
    let file = std::fs::read(path).unwrap();
    let (blobs, files) = (format!("{dir}/decode_blob"), format!("{dir}/scan_file"));
    std::fs::create_dir_all(&blobs).unwrap();
    std::fs::create_dir_all(&files).unwrap();
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
        std::fs::write(format!("{files}/{name}"), bytes).unwrap();
    }
}
