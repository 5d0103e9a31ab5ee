#!/usr/bin/env bash
# Installs what pbf-explorer needs on a fresh machine, skipping whatever is already there:
# the wasm32 Rust target, wasm-bindgen-cli (the exact version in wasm/Cargo.lock), wasm-pack and
# the npm packages; with --tests nightly Rust and cargo-fuzz (the fuzz run), a Python venv
# with DuckDB, pyarrow, PySpark and Apache Sedona (they read the GeoParquet export back and run
# the generated programs) and Sedona's jars from Maven Central, and with --browser
# Debian's Chromium for the Playwright tests and osmium-tool for test files written by another
# writer. `npm start` needs neither.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

want_browser=false
want_tests=false
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=true ;;
    --tests) want_tests=true ;;
    *) echo "setup.sh: unknown option $arg (--browser, --tests)" >&2; exit 2 ;;
  esac
done

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

command -v cargo >/dev/null || { echo "Rust (cargo) is required: install it with rustup first." >&2; exit 1; }
command -v npm >/dev/null || { echo "Node.js 20.19+ with npm is required." >&2; exit 1; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown Rust target"
  rustup target add wasm32-unknown-unknown
fi

# wasm-pack runs the wasm-bindgen found on PATH, which must match the crate's version exactly.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' wasm/Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
  say "installing wasm-bindgen-cli $bindgen_version (a few minutes)"
  cargo install wasm-bindgen-cli --version "=$bindgen_version" --force
fi
if $want_tests && ! rustup toolchain list | grep -q '^nightly'; then
  say "installing the nightly Rust toolchain (for cargo-fuzz)"
  rustup toolchain install nightly --profile minimal
fi
if $want_tests && ! command -v cargo-fuzz >/dev/null; then
  say "installing cargo-fuzz (a few minutes)"
  cargo install cargo-fuzz --locked
fi
if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack (a few minutes)"
  cargo install wasm-pack --locked
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  # `npm install`, not `npm ci`: the lock file holds only this platform's optional packages
  # (rollup's native builds), which `npm ci` refuses as out of sync; install follows the lock.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund
fi

# The tests read our GeoParquet exports back with DuckDB's spatial extension and pyarrow, and
# run the generated programs in DuckDB and in PySpark with Apache Sedona (PyPI wheels, in a venv
# of the tests' own; tests/python/requirements.txt pins them).
venv=test-results/venv
if $want_tests && { [ ! -x "$venv/bin/python" ] || [ tests/python/requirements.txt -nt "$venv/.installed" ]; }; then
  command -v python3 >/dev/null || { echo "Python 3 is required for the tests (DuckDB, pyarrow, PySpark)." >&2; exit 1; }
  say "installing DuckDB, its spatial extension, pyarrow, PySpark and Sedona for the tests (PyPI, into $venv)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r tests/python/requirements.txt
  touch "$venv/.installed"
fi

# Sedona's jars for the Spark run of the generated programs (tests/python/sedona_run.py): the
# shaded Sedona jar and the GeoTools wrapper Sedona's docs name, from Maven Central (their other
# dependencies are in the shaded jar or unused; Maven's own resolution asks repositories
# unreachable here).
jars=test-results/sedona-jars
if $want_tests && [ ! -f "$jars/.fetched" ]; then
  command -v java >/dev/null && command -v mvn >/dev/null || { echo "Java 17 and Maven are required for the tests (Spark with Sedona runs the generated programs)." >&2; exit 1; }
  say "fetching Apache Sedona's jars for the tests (Maven Central, into $jars)"
  for artifact in org.apache.sedona:sedona-spark-shaded-3.5_2.12:1.8.0 org.datasyslab:geotools-wrapper:1.8.0-33.1; do
    mvn -q -B dependency:copy -Dartifact="$artifact" -DoutputDirectory="$jars" >/dev/null
  done
  touch "$jars/.fetched"
fi

# osmium-tool writes the test files of another writer (scripts/make-osmium-fixtures.sh).
if $want_browser && ! command -v osmium >/dev/null; then
  say "installing Debian's osmium-tool for the test files of another writer"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq osmium-tool >/dev/null
fi

if $want_browser && [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  say "installing Debian's Chromium for the browser tests"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi
say "ready"
