#!/usr/bin/env bash
# Fuzzes the decoder's entry points with cargo-fuzz (libFuzzer, nightly Rust): whole files,
# Blobs, PrimitiveBlocks straight into the block decoder (normal and history queries, the
# targeted reads), HeaderBlocks, blob indexes (checksums skipped in fuzzing builds), files
# grouped by place read by their index, and query text and JSON (with polygon areas) into the
# parser and the other tools' translations, seeded with real data from ../shared/data and the fixtures
# (also with raw blobs, so mutations reach the block decoder), with a dictionary of the
# format's field keys (wasm/fuzz/pbf.dict). `bash scripts/fuzz.sh [SECONDS]`
# runs each target for SECONDS (default 30); the test command runs it bounded, longer runs are
# for hunting. A crash is saved under wasm/fuzz/artifacts/ and fails the run: turn it into a
# regression test in wasm/tests/malformed.rs. Then the TypeScript polygon parsers under
# fast-check (workers/common/polygon-text.fuzz.test.ts), FUZZ_RUNS runs a property.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests >/dev/null
cd wasm
export PATH="$HOME/.cargo/bin:$PATH"
seconds="${1:-30}"
data_dir="${PBF_DATA_DIR:-$(cd ../.. && pwd)/shared/data}"


corpus="fuzz/corpus"
cargo run --release --quiet --example write_fuzz_seeds -- "$data_dir/helsinki.osm.pbf" "$corpus"
for target in decode_blob scan_file scan_block decode_header decode_index read_optimized parse_query; do
  echo "== fuzz $target for ${seconds}s"
  # -malloc_limit_mb: one allocation over 96 MiB is a failure (the decoder caps a Blob at 32 MiB).
  log="fuzz/$target.log"
  status=0
  cargo +nightly fuzz run "$target" "$corpus/$target" -- \
    -max_total_time="$seconds" -max_len=1048576 -rss_limit_mb=2048 -malloc_limit_mb=96 -print_final_stats=1 \
    -dict=fuzz/pbf.dict >"$log" 2>&1 || status=$?
  grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|SUMMARY)|panicked|ERROR' "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz target $target failed: the input is in wasm/fuzz/artifacts/$target/" >&2
    exit 1
  fi
done
# The polygon parsers (TypeScript: poly=, GeoJSON and .poly files) under fast-check, about as
# long as a target above (a thousand runs of each property a second).
cd ..
echo "== fuzz the polygon parsers (fast-check) with $((seconds * 1000)) runs a property"
FUZZ_RUNS=$((seconds * 1000)) npx vitest run workers/common/polygon-text.fuzz.test.ts
