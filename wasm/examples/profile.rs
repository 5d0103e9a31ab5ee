//! Rough single-thread timings of the decode stages on one file (for profiling work):
//! `cargo run --release --example profile -- ../../shared/data/malta-x20-synthetic.osm.pbf`
use std::time::Instant;

use pbf_explorer::{blob_data, frames, proto, scan_block, Area, Query};
use prost::Message;

fn main() {
    let path = std::env::args().nth(1).expect("usage: profile FILE.osm.pbf");
    let file = std::fs::read(&path).unwrap();
    let blobs: Vec<proto::Blob> = frames(&file)
        .map(|f| f.unwrap())
        .filter(|f| f.kind == "OSMData")
        .map(|f| proto::Blob::decode(f.blob).unwrap())
        .collect();
    let zlib = |b: &proto::Blob| match &b.data {
        Some(proto::blob::Data::ZlibData(z)) => (z.to_vec(), b.raw_size.unwrap() as usize),
        _ => panic!("not zlib"),
    };
    let t = Instant::now();
    for b in &blobs {
        let (z, n) = zlib(b);
        let mut out = vec![0u8; n];
        let (got, rc) = zlib_rs::decompress_slice(&mut out, &z, zlib_rs::InflateConfig::default());
        assert!(rc == zlib_rs::ReturnCode::Ok && got.len() == n);
    }
    println!("inflate zlib-rs: {:?}", t.elapsed());
    let t = Instant::now();
    let datas: Vec<_> = frames(&file).map(|f| f.unwrap()).filter(|f| f.kind == "OSMData").map(|f| blob_data(f.blob).unwrap()).collect();
    println!("blob_data (ours): {:?}", t.elapsed());
    let t = Instant::now();
    for d in &datas {
        let _ = proto::PrimitiveBlock::decode(d.clone()).unwrap();
    }
    println!("prost decode only: {:?}", t.elapsed());
    let t = Instant::now();
    let mut ways = 0;
    for d in &datas {
        ways += pbf_explorer::Block::read(d).unwrap().groups.iter().map(|g| g.ways.len()).sum::<usize>();
    }
    println!("Block::read (in place, elements left encoded): {:?} ({ways} ways)", t.elapsed());
    let q = Query::from_tags("amenity=cafe", Area::Circle { lat: 36.8989, lon: 15.7146, radius: 1000.0 }).unwrap().prepare().unwrap();
    let t = Instant::now();
    let mut n = 0;
    for d in &datas {
        n += scan_block(d, &q).unwrap().counts.nodes;
    }
    println!("scan_block (decode + circle query): {:?} ({n} nodes)", t.elapsed());
    // The same query without the newest timestamp (as the command line asks), and building the
    // blob index (which forces it on): the scan's share of an index build's cost.
    for (label, index, newest) in [("no timestamp", false, false), ("building the index", true, true), ("no timestamp", false, false), ("building the index", true, true)] {
        let mut q = q.clone();
        (q.index, q.newest_timestamp) = (index, newest);
        let t = Instant::now();
        for d in &datas {
            let _ = scan_block(d, &q).unwrap();
        }
        println!("scan_block, {label}: {:?}", t.elapsed());
    }
}
