//! Writes a planet-like test file (`crate::testing::planet_like`), in id order:
//! `cargo run --release --example planet_like -- OUT --copies N IN` (N copies of IN placed apart
//! on the globe, copy k's ids i·N + k), or `-- OUT IN1 IN2 …` (real files merged by their ids).
//! `scripts/make-planet-like.sh` runs it for the tests' and the bench's files.
use pbf_explorer::testing::planet_like::{interleaved_copies, merged};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: planet_like OUT --copies N IN | planet_like OUT IN1 IN2 ...");
        std::process::exit(2);
    };
    let read = |p: &String| std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let (out, file) = match &args[..] {
        [out, flag, n, input] if flag == "--copies" => (out, interleaved_copies(&read(input), n.parse().unwrap_or_else(|_| usage()))),
        [out, inputs @ ..] if inputs.len() >= 2 => {
            let files: Vec<Vec<u8>> = inputs.iter().map(read).collect();
            (out, merged(&files.iter().map(Vec::as_slice).collect::<Vec<_>>()))
        }
        _ => usage(),
    };
    let file = file.unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(out, &file).unwrap_or_else(|e| panic!("{out}: {e}"));
    println!("{out}: {} bytes", file.len());
}
