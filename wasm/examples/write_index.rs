//! Writes the blob index of a PBF file beside it, for a web server to serve with the file
//! (docs/blob-index.md): `cargo run --release --example write_index -- FILE.osm.pbf [OUT.idx]`
//! (OUT defaults to `FILE.osm.pbf.idx`). The same index the app builds on a full read.

use pbf_explorer::PreparedQuery;
use pbf_explorer::scan_file_prepared;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: write_index FILE.osm.pbf [OUT.idx]");
        std::process::exit(2);
    };
    let out = args.get(1).cloned().unwrap_or_else(|| format!("{path}.idx"));
    let file = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let mut query = PreparedQuery::count_only();
    query.index = true;
    let scan = scan_file_prepared(&file, &query).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let Some(index) = scan.index else { fail(&format!("{path}: a history file gets no blob index")) };
    let bytes = index.encode();
    std::fs::write(&out, &bytes).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    println!("{out}: {} blobs, {} bytes ({:.2} % of the file)", index.entries.len(), bytes.len(), bytes.len() as f64 / file.len() as f64 * 100.0);
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}
