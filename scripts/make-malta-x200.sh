#!/usr/bin/env bash
# Builds the 1.1 GB bench file of issue "Redesign": 200 copies of malta.osm.pbf, each renumbered
# into its own id range (osmium renumber), merged into one file sorted by type then id
# (osmium merge). The copies overlap in space, so a 1000 m query around Valletta answers 200 × 43
# and the whole-file amenity=cafe 200 × 228 = 45 600. Not committed: `npm run bench` uses it
# when bench/data/malta-x200.osm.pbf exists.
# `bash scripts/make-malta-x200.sh [COPIES=200]` (needs osmium-tool: apt-get install osmium-tool).
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-200}"
data_dir="${PBF_DATA_DIR:-$(cd .. && pwd)/shared/data}"
command -v osmium >/dev/null || { echo "needs osmium-tool (apt-get install osmium-tool)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p bench/data
for ((k = 0; k < copies; k++)); do
  # Malta has 540 026 nodes, 89 991 ways and 1 674 relations: room for each copy.
  osmium renumber --no-progress -s "$((k * 600000 + 1)),$((k * 100000 + 1)),$((k * 2000 + 1))" \
    -o "$work/copy-$(printf %03d "$k").osm.pbf" "$data_dir/malta.osm.pbf"
done
osmium merge --no-progress -O -o bench/data/malta-x200.osm.pbf "$work"/copy-*.osm.pbf
ls -l bench/data/malta-x200.osm.pbf
