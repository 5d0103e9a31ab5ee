//! Writes the broken and hostile PBF files of `pbf_explorer::testing::fixtures` into a folder, for the
//! browser tests: `cargo run --release --example write_fixtures -- DIR`.
fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).expect("usage: write_fixtures DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in pbf_explorer::testing::fixtures::all() {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}
