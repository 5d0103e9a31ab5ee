#!/usr/bin/env bash
# Every test: the Rust decoder on the real files in ../shared/data and on broken ones (cargo test),
# a bounded fuzz run, TypeScript unit tests (Vitest), then the built app in headless Chromium
# (Playwright). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/setup.sh --browser --tests

echo "== test files written by libosmium (osmium cat, add-locations-to-ways, apply-changes --with-history, time-filter)"
bash scripts/make-osmium-fixtures.sh

echo "== cargo test (decoder on real data)"
(cd wasm && cargo test --release)

echo "== fuzz the decoder (bounded: 30 s a target)"
bash scripts/fuzz.sh 30

echo "== build the app, and write the broken and hostile test files"
npm run build
(cd wasm && cargo run --release --quiet --example write_fixtures -- ../test-results/fixtures)
DATA="${PBF_DATA_DIR:-$(cd .. && pwd)/shared/data}"
# zstd, lz4 and raw twins of the shared files, for the same queries through the page (and a
# look-alike of a raw one for the command line's blob index).
for f in helsinki malta; do
  for c in zstd lz4 raw; do
    (cd wasm && cargo run --release --quiet --example reencode -- "$DATA/$f.osm.pbf" "../test-results/fixtures/$f.$c.osm.pbf" "$c")
  done
done

echo "== unit tests (Vitest: framer, HTTP helpers, URL state, the command line)"
npx vitest run
# A second build that differs only in its id: the "new deployment" of the update test.
PBF_EXPLORER_BUILD_ID=test-b PBF_EXPLORER_OUT_DIR=../test-results/dist-b npx vite build --logLevel error
# A build whose decoder traps on the query key test:trap (feature test-trap), for the trap test.
(cd wasm && wasm-pack --quiet build --target web --release --out-dir pkg-test-trap --no-pack -- --features test-trap)
PBF_WASM_PKG=pkg-test-trap PBF_EXPLORER_OUT_DIR=../test-results/dist-test-trap npx vite build --logLevel error
# A file grouped by place, with its blob index beside it (pbf-explorer optimize), for the page's test.
mkdir -p test-results/fixtures/optimized
node cli/pbf-explorer.mjs optimize "$DATA/malta.osm.pbf" test-results/fixtures/optimized/malta.osm.pbf

echo "== Playwright (headless Chromium)"
npx playwright test "$@"
