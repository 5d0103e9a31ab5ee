//! Seeds for the fuzz targets from a real file: each Blob of its first frames for
//! `decode_blob` (also re-encoded as zstd, lz4 and raw); the broken fixtures (corrupt and
//! lying zstd and lz4 blobs among them), the good ones again with raw blobs (so mutations are
//! not rejected by a checksum) and the file's first frames for `scan_file`; the uncompressed
//! PrimitiveBlocks of the file's first frames, small blocks cut from them, and those of the
//! fixtures (the history file's among them) for `scan_block`; their HeaderBlocks for `decode_header`;
//! the inputs of `wasm/tests/inputs` (once crashes) for `scan_file`.
//! `cargo run --release --example write_fuzz_seeds -- FILE.osm.pbf FUZZ_CORPUS_DIR`
use pbf_explorer::testing::encode::{blob_with, reencode, Compression};
use pbf_explorer::{blob_data, frames, proto, testing::fixtures};
use prost::bytes::Bytes;
use prost::Message;

/// Small real-shaped PrimitiveBlocks cut from `data`: its string table and `n` of its nodes,
/// ways and relations from element `from` on (DenseNodes: their first `n`, without metadata).
/// A whole 1 MB block costs the block decoder's target about 5 ms an execution; these, µs.
fn small_blocks(data: &[u8]) -> Vec<Vec<u8>> {
    let Ok(block) = proto::PrimitiveBlock::decode(data) else { return Vec::new() };
    // The first `n` varints of a packed array (each ends at a byte < 0x80).
    let prefix = |pieces: &[Bytes], n: usize| -> Vec<Bytes> {
        let all = pieces.concat();
        let end = all.iter().enumerate().filter(|(_, &b)| b < 0x80).nth(n - 1).map_or(all.len(), |(i, _)| i + 1);
        vec![Bytes::from(all[..end].to_vec())]
    };
    let mut out = Vec::new();
    for (n, from) in [(8, 0), (64, 0), (16, 500), (64, 2000)] {
        let mut small = block.clone();
        for g in &mut small.primitivegroup {
            g.nodes = g.nodes.iter().skip(from).take(n).cloned().collect();
            g.ways = g.ways.iter().skip(from).take(n).cloned().collect();
            g.relations = g.relations.iter().skip(from).take(n).cloned().collect();
            if let Some(d) = &mut g.dense {
                (d.id, d.lat, d.lon) = (prefix(&d.id, n), prefix(&d.lat, n), prefix(&d.lon, n));
                d.denseinfo.clear();
                let kv_end = d.keys_vals.iter().enumerate().filter(|(_, &k)| k == 0).nth(n - 1).map_or(d.keys_vals.len(), |(i, _)| i + 1);
                d.keys_vals.truncate(kv_end);
            }
        }
        out.push(small.encode_to_vec());
    }
    out
}

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
    let write_blocks = |name: &str, file: &[u8], most: usize, cut: bool| {
        for (i, f) in frames(file).take(most).enumerate() {
            let Ok(f) = f else { break };
            let Ok(data) = blob_data(f.blob) else { continue };
            let to = if f.kind == "OSMHeader" { &headers } else { &blocks };
            std::fs::write(format!("{to}/{name}-{i}"), &data[..]).unwrap();
            if cut && f.kind == "OSMData" {
                for (j, small) in small_blocks(&data).into_iter().enumerate() {
                    std::fs::write(format!("{blocks}/{name}-{i}-small-{j}"), small).unwrap();
                }
            }
        }
    };
    write_blocks("real", &file, 4, true);
    let mut end = 0;
    for (i, f) in frames(&file).take(4).enumerate() {
        let f = f.unwrap();
        std::fs::write(format!("{blobs}/real-{i}"), f.blob).unwrap();
        let data = blob_data(f.blob).unwrap();
        for (name, c) in [("zstd", Compression::Zstd), ("lz4", Compression::Lz4), ("raw", Compression::Raw)] {
            std::fs::write(format!("{blobs}/real-{i}-{name}"), blob_with(&data, c).encode_to_vec()).unwrap();
        }
        end = f.offset as usize + 4 + 64 + f.blob.len();
    }
    std::fs::write(format!("{files}/real-first-frames"), &file[..end.min(file.len())]).unwrap();
    for (name, bytes) in fixtures::all() {
        write_blocks(name, &bytes, 16, false);
        if let Ok(raw) = reencode(&bytes, Compression::Raw) {
            std::fs::write(format!("{files}/{name}-raw"), raw).unwrap();
        }
        std::fs::write(format!("{files}/{name}"), bytes).unwrap();
    }
    // Inputs that once crashed `scan_file` (wasm/tests/inputs/), run first by every fuzz run,
    // whose build checks overflow as the release build of the tests does not.
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::write(format!("{files}/regression-{}", path.file_name().unwrap().to_string_lossy()), std::fs::read(&path).unwrap()).unwrap();
    }
}
