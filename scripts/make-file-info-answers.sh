#!/usr/bin/env bash
# Writes what osmium-tool (`osmium fileinfo -e -j`, libosmium; Debian's osmium-tool) says about
# each shared file into tests/file-info/NAME.json: element counts and id ranges, which the file
# facts of our read are compared with. Only a test-data generator: the product does not use it.
#   bash scripts/make-file-info-answers.sh [DATA_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$here/../shared/data}"
for name in helsinki malta; do
  osmium fileinfo -e -j "$data/$name.osm.pbf" | python3 -c '
import json, sys
d = json.load(sys.stdin)["data"]
keep = {k: {t: d[k][t] for t in ("nodes", "ways", "relations")} for k in ("count", "minid", "maxid")}
json.dump(keep, sys.stdout, indent=1)
print()' > "$here/tests/file-info/$name.json"
  echo "tests/file-info/$name.json"
done
