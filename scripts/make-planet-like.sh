#!/usr/bin/env bash
# The bench's planet-like files (not committed; `npm run bench` makes them when missing):
#   bench/data/malta-x64-planet-like.osm.pbf: 64 copies of malta.osm.pbf placed apart on the
#     globe with interleaved ids (copy k's element i gets id i·64 + k), in id order, so that
#     every node blob spans every copy, as on the planet;
#   bench/data/helsinki-malta.osm.pbf: the real files of two places merged by their own ids;
# and each one optimized beside it (`*.optimized.osm.pbf` and its `.idx`).
# `bash scripts/make-planet-like.sh [COPIES=64]`
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-64}"
data_dir="${PBF_DATA_DIR:-$(cd .. && pwd)/shared/data}"
(cd wasm && cargo build --release --quiet --example planet_like)
mkdir -p bench/data
wasm/target/release/examples/planet_like "bench/data/malta-x$copies-planet-like.osm.pbf" --copies "$copies" "$data_dir/malta.osm.pbf"
wasm/target/release/examples/planet_like bench/data/helsinki-malta.osm.pbf "$data_dir/helsinki.osm.pbf" "$data_dir/malta.osm.pbf"
