#!/usr/bin/env bash
# Writes what osmium-tool (`osmium fileinfo -e -j`, libosmium; Debian's osmium-tool) says about
# each shared file into tests/answers/file-info/NAME.json: element counts, id ranges, the newest
# timestamp and the header's fields, which the file facts of our read (native and in the page)
# are compared with. Only a test-data generator: the product does not use it.
#   bash tests/answers/file-info/make-answers.sh [DATA_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${1:-$here/../../../../shared/data}"
for name in helsinki malta; do
  osmium fileinfo -e -j "$data/$name.osm.pbf" | python3 -c '
import calendar, json, sys, time
epoch = lambda iso: iso and calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
full = json.load(sys.stdin)
d = full["data"]
keep = {k: {t: d[k][t] for t in ("nodes", "ways", "relations")} for k in ("count", "minid", "maxid")}
keep["newest_timestamp"] = d["timestamp"]["last"]
keep["newest_timestamp_epoch"] = epoch(d["timestamp"]["last"])
option = full["header"]["option"]
keep["header"] = {
    "bbox": (full["header"]["boxes"] or [None])[0],
    "writing_program": option.get("generator"),
    "replication_timestamp": option.get("osmosis_replication_timestamp"),
    "replication_timestamp_epoch": epoch(option.get("osmosis_replication_timestamp")),
    "replication_sequence_number": option.get("osmosis_replication_sequence_number"),
    "replication_base_url": option.get("osmosis_replication_base_url"),
}
json.dump(keep, sys.stdout, indent=1)
print()' > "$here/$name.json"
  echo "tests/answers/file-info/$name.json"
done
