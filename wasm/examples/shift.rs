//! Moves every node of a file by DLAT, DLON degrees, for synthetic bench files made of copies
//! of a real one placed apart: `cargo run --release --example shift -- IN OUT DLAT DLON`.
//! Each PrimitiveBlock's `lat_offset`/`lon_offset` (spec: nanodegrees added to every
//! coordinate of the block) grows by the shift; blobs are written again with zlib.
use pbf_explorer::testing::encode::{blob_with, frame, Compression};
use pbf_explorer::proto::PrimitiveBlock;
use prost::Message;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, dlat, dlon] = &args[..] else {
        eprintln!("usage: shift IN.osm.pbf OUT.osm.pbf DLAT DLON");
        std::process::exit(2);
    };
    let nano = |d: &str| (d.parse::<f64>().expect("degrees") * 1e9).round() as i64;
    let (dlat, dlon) = (nano(dlat), nano(dlon));
    let bytes = std::fs::read(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let mut out = Vec::with_capacity(bytes.len());
    for f in pbf_explorer::frames(&bytes) {
        let f = f.unwrap_or_else(|e| panic!("{input}: {e}"));
        let data = pbf_explorer::blob_data(f.blob).unwrap_or_else(|e| panic!("{input}: {e}"));
        let data = if f.kind == "OSMData" {
            let mut block = PrimitiveBlock::decode(data).unwrap_or_else(|e| panic!("{input}: {e}"));
            block.lat_offset = Some(block.lat_offset.unwrap_or(0) + dlat);
            block.lon_offset = Some(block.lon_offset.unwrap_or(0) + dlon);
            block.encode_to_vec().into()
        } else {
            data
        };
        out.extend(frame(f.kind, &blob_with(&data, Compression::Zlib)));
    }
    std::fs::write(output, out).unwrap_or_else(|e| panic!("{output}: {e}"));
}
