#!/usr/bin/env bash
# A history file written by libosmium, not by us, and its snapshots cut by osmium, for the
# history tests (wasm/tests/history_osmium.rs): later versions of Malta's cafés within 1000 m
# of Valletta (scripts/make-history-changes.mjs: retagged, deleted, moved; one café created),
# applied with `osmium apply-changes --with-history`, then `osmium time-filter` at two moments
# and now. Needs osmium-tool (scripts/setup.sh installs it). Writes test-results/history/.
#   bash scripts/make-history-fixtures.sh [DATA_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-${PBF_DATA_DIR:-$here/../shared/data}}"
out="$here/test-results/history"
command -v osmium >/dev/null || { echo "needs osmium-tool (apt-get install osmium-tool)" >&2; exit 1; }
mkdir -p "$out"
ids=$(node -e '
const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
console.log([...a.nodes.map((n) => "n" + n), ...a.ways.slice(0, 1).map((w) => "w" + w)].join(" "));
' "$data/expected/with-relations/malta.cafe-1000m.json")
# shellcheck disable=SC2086
osmium getid --no-progress -f opl "$data/malta.osm.pbf" $ids | node "$here/scripts/make-history-changes.mjs" > "$out/changes.osc"
osmium apply-changes --no-progress -H -O -o "$out/malta-history.osh.pbf" "$data/malta.osm.pbf" "$out/changes.osc"
osmium time-filter --no-progress -O -o "$out/malta-2024-06-01.osm.pbf" "$out/malta-history.osh.pbf" 2024-06-01T00:00:00Z
osmium time-filter --no-progress -O -o "$out/malta-2025-01-15.osm.pbf" "$out/malta-history.osh.pbf" 2025-01-15T00:00:00Z
osmium time-filter --no-progress -O -o "$out/malta-now.osm.pbf" "$out/malta-history.osh.pbf"
echo "test-results/history: malta-history.osh.pbf and its snapshots"
