//! Compiles the PBF message definitions in `proto/` with prost, using the pure-Rust
//! `protox` parser so no `protoc` binary is needed.

fn main() {
    let files = ["proto/fileformat.proto", "proto/osmformat.proto"];
    for f in files {
        println!("cargo:rerun-if-changed={f}");
    }
    let descriptors = protox::compile(files, ["proto"]).expect("parse .proto files");
    prost_build::Config::new()
        // bytes fields become `bytes::Bytes`: slices of the inflated block, not copies.
        .bytes(["."])
        .compile_fds(descriptors)
        .expect("generate Rust code for .proto files");
}
