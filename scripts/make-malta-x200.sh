#!/usr/bin/env bash
# Builds the 1.1 GB bench file of issue "Redesign": 200 copies of malta.osm.pbf, each renumbered
# into its own id range (osmium renumber), merged into one file sorted by type then id
# (osmium merge). The copies overlap in space, so a 1000 m query around Valletta answers 200 × 43
# and the whole-file amenity=cafe 200 × 228 = 45 600. Not committed: `npm run bench` uses it
# when bench/data/malta-x200.osm.pbf exists.
# `bash scripts/make-malta-x200.sh [COPIES=200] [spread]` (needs osmium-tool: apt-get install
# osmium-tool). With `spread`, copy k is moved by +1.2·(k mod 20)° lon and +1.0·⌊k/20⌋° lat (our
# `shift` example), as the 110 MB synthetic file places its 20, and the file is
# bench/data/malta-x200-spread.osm.pbf: what a query on a file much larger than its area reads
# (the blob index's HTTP row); a 1000 m query around 35.8989, 14.5146 (copy 0) answers 43.
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-200}"
spread="${2:-}"
data_dir="${PBF_DATA_DIR:-$(cd .. && pwd)/shared/data}"
command -v osmium >/dev/null || { echo "needs osmium-tool (apt-get install osmium-tool)" >&2; exit 1; }
[[ -z "${2:-}" ]] || (cd wasm && cargo build --release --quiet --example shift)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p bench/data
for ((k = 0; k < copies; k++)); do
  # Malta has 540 026 nodes, 89 991 ways and 1 674 relations: room for each copy.
  osmium renumber --no-progress -s "$((k * 600000 + 1)),$((k * 100000 + 1)),$((k * 2000 + 1))" \
    -o "$work/copy-$(printf %03d "$k").osm.pbf" "$data_dir/malta.osm.pbf"
  if [[ -n "$spread" ]]; then
    shift_lat=$(awk "BEGIN { print 1.0 * int($k / 20) }")
    shift_lon=$(awk "BEGIN { print 1.2 * ($k % 20) }")
    wasm/target/release/examples/shift "$work/copy-$(printf %03d "$k").osm.pbf" "$work/moved.osm.pbf" "$shift_lat" "$shift_lon"
    mv "$work/moved.osm.pbf" "$work/copy-$(printf %03d "$k").osm.pbf"
  fi
done
out=bench/data/malta-x200${spread:+-spread}.osm.pbf
osmium merge --no-progress -O -o "$out" "$work"/copy-*.osm.pbf
ls -l "$out"
