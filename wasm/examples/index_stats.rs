//! Prints what the blob index of a file holds and what it saves:
//! `cargo run --release --example index_stats -- FILE [TAGS LAT LON RADIUS_M]...`
//! Blobs by kind, the index's size, how far node and way blobs spread (their bbox areas in
//! square degrees), the string filters' sizes, and per query the blobs and bytes an indexed
//! read takes, and the bytes of the index a read by its pages fetches. Figures for
//! `docs/planet.md` and `docs/decisions.md`.

use std::time::Instant;

use pbf_explorer::Area;
use pbf_explorer::WORLD_E7;
use pbf_explorer::{PreparedQuery, Query};
use pbf_explorer::scan_file_prepared;

fn area_deg2(b: [i32; 4]) -> f64 {
    if b[0] > b[2] || b == WORLD_E7 {
        return f64::NAN;
    }
    (b[2] - b[0]) as f64 * 1e-7 * (b[3] - b[1]) as f64 * 1e-7
}

fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = std::fs::read(&args[0]).expect("a PBF file");
    let plain = PreparedQuery::count_only();
    let mut indexed = plain.clone();
    indexed.index = true;
    // Alternating runs, the fastest of three each: the difference is a few percent, the noise as large.
    let (mut plain_ms, mut index_ms, mut index) = (f64::MAX, f64::MAX, None);
    for _ in 0..3 {
        let t = Instant::now();
        scan_file_prepared(&file, &plain).unwrap();
        plain_ms = plain_ms.min(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        index = scan_file_prepared(&file, &indexed).unwrap().index;
        index_ms = index_ms.min(t.elapsed().as_secs_f64() * 1e3);
    }
    // An index beside the file (`optimize` writes one with exact way cells) is used as it is.
    let index = match std::fs::read(format!("{}.idx", args[0])) {
        Ok(bytes) => pbf_explorer::BlobIndex::decode(&bytes).expect("the index beside the file"),
        Err(_) => index.unwrap(),
    };
    let bytes = index.encode();
    let e = &index.entries;
    let nodes: Vec<f64> = e.iter().filter(|e| e.summary.has_nodes()).map(|e| area_deg2(e.summary.bbox_e7)).collect();
    let ways: Vec<f64> = e.iter().filter(|e| e.summary.has_ways()).map(|e| area_deg2(e.summary.way_bbox_e7)).collect();
    let file_box = e.iter().filter(|e| e.summary.has_nodes()).fold([i32::MAX, i32::MAX, i32::MIN, i32::MIN], |b, e| {
        let s = e.summary.bbox_e7;
        [b[0].min(s[0]), b[1].min(s[1]), b[2].max(s[2]), b[3].max(s[3])]
    });
    println!("file {} bytes, {} blobs ({} with nodes, {} with ways, {} with relations)", file.len(), e.len(), nodes.len(), ways.len(), e.iter().filter(|e| e.summary.has_relations()).count());
    println!("index {} bytes = {:.3} % of the file; filters {} bytes", bytes.len(), bytes.len() as f64 / file.len() as f64 * 100.0, e.iter().map(|e| e.strings.words.len() * 8).sum::<usize>());
    println!("count-only read {plain_ms:.0} ms, with the index noted {index_ms:.0} ms ({:+.1} %)", (index_ms / plain_ms - 1.0) * 100.0);
    println!("file bbox {:.3} deg2; median node-blob bbox {:.4} deg2, median way-blob bbox {:.4} deg2 ({} unknown)", area_deg2(file_box), median(nodes), median(ways.clone()), ways.iter().filter(|w| w.is_nan()).count());
    if std::env::var_os("INDEX_DEBUG").is_some() {
        debug(&index);
    }
    for q in args[1..].chunks(4) {
        let (lat, lon, radius) = (q[1].parse().unwrap(), q[2].parse().unwrap(), q[3].parse().unwrap());
        let area = if radius > 0.0 { Area::Circle { lat, lon, radius } } else { Area::Everywhere };
        let prepared = Query::from_tags(&q[0], area).unwrap().prepare().unwrap();
        let plan = index.plan(&prepared);
        let (_, fetched) = pbf_explorer::scan_file_paged(&file, &prepared, &bytes).unwrap();
        println!("  by the index's pages: {fetched} of its {} bytes fetched (head {})", bytes.len(), pbf_explorer::IndexHead::head_len(&bytes).unwrap_or(0));
        let read = index.bytes_of(&plan);
        let kinds = |f: &dyn Fn(&pbf_explorer::IndexEntry) -> bool| plan.entries.iter().filter(|&&i| f(&e[i])).count();
        let bytes_of = |f: &dyn Fn(&pbf_explorer::IndexEntry) -> bool| plan.entries.iter().filter(|&&i| f(&e[i])).map(|&i| e[i].size).sum::<u64>();
        println!(
            "  bytes: nodes {}, ways {}, relations {}",
            bytes_of(&|e| e.summary.has_nodes()),
            bytes_of(&|e| e.summary.has_ways()),
            bytes_of(&|e| e.summary.has_relations())
        );
        println!(
            "{} r={radius}: {} of {} blobs ({} with nodes, {} with ways), {} bytes = {:.1} % of the file",
            q[0],
            plan.entries.len(),
            e.len(),
            kinds(&|e| e.summary.has_nodes()),
            kinds(&|e| e.summary.has_ways()),
            read,
            read as f64 / file.len() as f64 * 100.0
        );
    }
}

#[allow(dead_code)]
fn debug(index: &pbf_explorer::BlobIndex) {
    for e in index.entries.iter().filter(|e| e.summary.has_nodes()).step_by(60) {
        println!("node blob {} ids {}..{} bbox {:?}", e.index, e.summary.min_node_id, e.summary.max_node_id, e.summary.bbox_e7);
    }
    for e in index.entries.iter().filter(|e| e.summary.has_ways()).step_by(20) {
        println!("way blob {} ids {}..{} bbox {:?} cells level {} × {}", e.index, e.summary.min_way_id, e.summary.max_way_id, e.summary.way_bbox_e7, e.way_cells.level, e.way_cells.ids.len());
    }
}
