#!/usr/bin/env bash
# Test files written by libosmium, not by us (so a field number wrong on both sides of our own
# writer and reader cannot pass), into test-results/osmium/. Needs osmium-tool (scripts/setup.sh
# installs it).
# - Each shared file (Helsinki, Malta) rewritten with lz4 blobs, raw blobs, plain (non-dense)
#   nodes, no metadata, LocationsOnWays, and unsorted (ways before nodes), and Malta with
#   duplicate ids (two overlapping extracts concatenated; once with the same versions, once with
#   the second one's changed by changes.osc below), for wasm/tests/other_writers.rs;
# - a history file: later versions of Malta's cafés within 1000 m of Valletta
#   (scripts/make-history-changes.mjs: retagged, deleted, moved; one café created) applied with
#   `osmium apply-changes --with-history`, and `osmium time-filter` snapshots of it at two
#   moments and now, for wasm/tests/history_osmium.rs;
# - Malta's nodes with a place tag, as OPL, for the place search's Playwright test.
#   bash scripts/make-osmium-fixtures.sh [DATA_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-${PBF_DATA_DIR:-$here/../shared/data}}"
out="$here/test-results/osmium"
command -v osmium >/dev/null || { echo "needs osmium-tool (apt-get install osmium-tool)" >&2; exit 1; }
mkdir -p "$out"
for name in helsinki malta; do
  in="$data/$name.osm.pbf"
  osmium cat --no-progress -O -o "$out/$name.lz4.osm.pbf" -f pbf,pbf_compression=lz4 "$in"
  osmium cat --no-progress -O -o "$out/$name.none.osm.pbf" -f pbf,pbf_compression=none "$in"
  osmium cat --no-progress -O -o "$out/$name.plain-nodes.osm.pbf" -f pbf,pbf_dense_nodes=false "$in"
  osmium cat --no-progress -O -o "$out/$name.no-metadata.osm.pbf" -f pbf,add_metadata=false "$in"
  osmium add-locations-to-ways --no-progress --ignore-missing-nodes --keep-untagged-nodes -O -o "$out/$name.locations-on-ways.osm.pbf" "$in"
  # Unsorted: the ways and relations, then the nodes (`osmium cat` concatenates, it does not sort).
  osmium cat --no-progress -O -o "$out/$name.ways-relations.osm.pbf" -t way -t relation "$in"
  osmium cat --no-progress -O -o "$out/$name.nodes.osm.pbf" -t node "$in"
  osmium cat --no-progress -O -o "$out/$name.unsorted.osm.pbf" "$out/$name.ways-relations.osm.pbf" "$out/$name.nodes.osm.pbf"
  rm "$out/$name.ways-relations.osm.pbf" "$out/$name.nodes.osm.pbf"
done
# Duplicate ids: two extracts of Malta that overlap over Valletta (lon 14.45-14.54) and together
# hold all of it, concatenated: everything in the overlap is there twice.
osmium extract --no-progress -O -o "$out/malta.west.osm.pbf" -b -180,-90,14.54,90 "$data/malta.osm.pbf"
osmium extract --no-progress -O -o "$out/malta.east.osm.pbf" -b 14.45,-90,180,90 "$data/malta.osm.pbf"
osmium cat --no-progress -O -o "$out/malta.duplicates.osm.pbf" "$out/malta.west.osm.pbf" "$out/malta.east.osm.pbf"
# And with the later versions of changes.osc (below) in the east extract, which comes second.

ids=$(node -e '
const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
console.log([...a.nodes.map((n) => "n" + n), ...a.ways.slice(0, 1).map((w) => "w" + w)].join(" "));
' "$data/expected/with-relations/malta.cafe-1000m.json")
# shellcheck disable=SC2086
osmium getid --no-progress -f opl "$data/malta.osm.pbf" $ids | node "$here/scripts/make-history-changes.mjs" > "$out/changes.osc"
osmium apply-changes --no-progress -H -O -o "$out/malta-history.osh.pbf" "$data/malta.osm.pbf" "$out/changes.osc"
osmium apply-changes --no-progress -O -o "$out/malta.east-changed.osm.pbf" "$out/malta.east.osm.pbf" "$out/changes.osc"
osmium cat --no-progress -O -o "$out/malta.duplicates-changed.osm.pbf" "$out/malta.west.osm.pbf" "$out/malta.east-changed.osm.pbf"
rm "$out"/malta.{west,east,east-changed}.osm.pbf
osmium time-filter --no-progress -O -o "$out/malta-2024-06-01.osm.pbf" "$out/malta-history.osh.pbf" 2024-06-01T00:00:00Z
osmium time-filter --no-progress -O -o "$out/malta-2025-01-15.osm.pbf" "$out/malta-history.osh.pbf" 2025-01-15T00:00:00Z
osmium time-filter --no-progress -O -o "$out/malta-now.osm.pbf" "$out/malta-history.osh.pbf"
osmium tags-filter --no-progress -O -f opl -o "$out/malta-places.opl" "$data/malta.osm.pbf" n/place
echo "test-results/osmium: the shared files as osmium rewrites them, malta-history.osh.pbf and its snapshots"
