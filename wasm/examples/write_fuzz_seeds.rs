//! Seeds for the fuzz targets from a real file: each Blob of its first frames for
//! `decode_blob` (also re-encoded as zstd, lz4 and raw); the broken fixtures (corrupt and
//! lying zstd and lz4 blobs among them), the good ones again with raw blobs (so mutations are
//! not rejected by a checksum) and the file's first frames for `scan_file`; the uncompressed
//! PrimitiveBlocks of the file's first frames, small blocks cut from them, and those of the
//! fixtures (the history file's among them) for `scan_block`; their HeaderBlocks for `decode_header`;
//! the inputs of `wasm/tests/inputs` (once crashes) for `scan_file`; the blob indexes of the
//! file and the good fixtures grouped by place (`optimize`) for `decode_index`, each with its
//! file for `read_optimized`; the queries of `tests/answers/language` and `tests/queries.json`,
//! as text and in the workers' JSON form with each kind of area, for `parse_query`.
//! `cargo run --release --example write_fuzz_seeds -- FILE.osm.pbf FUZZ_CORPUS_DIR`
use pbf_explorer::testing::encode::{blob_with, reencode, Compression};
use pbf_explorer::{blob_data, frames, optimize, proto, testing::fixtures};
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
    let (indexes, optimized, queries) = (format!("{dir}/decode_index"), format!("{dir}/read_optimized"), format!("{dir}/parse_query"));
    for d in [&blobs, &files, &blocks, &headers, &indexes, &optimized, &queries] {
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
    // Files grouped by place and their indexes: for read_optimized, the index's length, the
    // index, then the file.
    let write_optimized = |name: &str, file: &[u8]| {
        let Ok((grouped, index)) = optimize(file) else { return };
        std::fs::write(format!("{indexes}/{name}"), &index).unwrap();
        let mut input = (index.len() as u32).to_le_bytes().to_vec();
        input.extend_from_slice(&index);
        input.extend_from_slice(&grouped);
        std::fs::write(format!("{optimized}/{name}"), input).unwrap();
    };
    write_optimized("real", &file);
    for (name, bytes) in fixtures::all() {
        write_optimized(name, &bytes);
        write_blocks(name, &bytes, 16, false);
        if let Ok(raw) = reencode(&bytes, Compression::Raw) {
            std::fs::write(format!("{files}/{name}-raw"), raw).unwrap();
        }
        std::fs::write(format!("{files}/{name}"), bytes).unwrap();
    }
    // Queries: text, and JSON with each kind of area (the polygon with a hole).
    let listed = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/answers/language/answers.json");
    let texts: Vec<String> = serde_json::from_str::<Vec<serde_json::Value>>(&std::fs::read_to_string(listed).unwrap())
        .unwrap()
        .iter()
        .filter_map(|a| a["q"].as_str().map(String::from))
        .collect();
    let areas = [
        r#""everywhere""#,
        r#"{"circle":{"lat":60.17,"lon":24.94,"radius":1000}}"#,
        r#"{"bbox":{"min_lon":14.5,"min_lat":35.88,"max_lon":14.53,"max_lat":35.91}}"#,
        r#"{"polygon":[[[[14.5,35.88],[14.53,35.88],[14.53,35.91],[14.5,35.88]],[[14.51,35.885],[14.52,35.885],[14.52,35.89],[14.51,35.885]]]]}"#,
        r#"{"relation":7510580}"#,
    ];
    for (i, q) in texts.iter().enumerate() {
        std::fs::write(format!("{queries}/text-{i}"), q).unwrap();
        let area = areas[i % areas.len()];
        let json = format!(r#"{{"q":{},"area":{area},"inside":"{}"}}"#, serde_json::to_string(q).unwrap(), if i % 3 == 0 { "all" } else { "any" });
        std::fs::write(format!("{queries}/json-{i}"), json).unwrap();
    }
    // Inputs that once crashed `scan_file` (wasm/tests/inputs/), run first by every fuzz run,
    // whose build checks overflow as the release build of the tests does not.
    // Blob indexes that once crashed `decode_index` go to its corpus.
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs")).unwrap() {
        let path = entry.unwrap().path();
        let to = if path.extension().is_some_and(|e| e == "idx") { &indexes } else { &files };
        std::fs::write(format!("{to}/regression-{}", path.file_name().unwrap().to_string_lossy()), std::fs::read(&path).unwrap()).unwrap();
    }
}
