#!/usr/bin/env bash
# Every test: the Rust decoder on the real files in ../shared/data (cargo test), then the built
# app in headless Chromium (Playwright). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/setup.sh --browser

echo "== cargo test (decoder on real data)"
(cd wasm && cargo test --release)

echo "== build the app"
npm run build

echo "== Playwright (headless Chromium)"
npx playwright test "$@"
