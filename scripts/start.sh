#!/usr/bin/env bash
# Sets up what is missing, builds the Wasm decoder and starts the app on http://127.0.0.1:5173.
# With no argument it opens the bundled Helsinki sample; `npm start -- path/to/file.osm.pbf`
# opens that file instead (served by the dev server, read with Range requests).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/setup.sh
npm run build:wasm
npm run build:cli # the command line (npx pbf-explorer), beside the app

port="${PORT:-5173}"
if [ $# -gt 0 ]; then
  file="$(realpath "$1")"
  [ -f "$file" ] || { echo "no such file: $1" >&2; exit 1; }
  export PBF_FILE="$file" # vite.config.ts lets the dev server read its folder
  src="/@fs${file}"
  query="q=amenity=cafe"
else
  src="/sample/helsinki.osm.pbf"
  query="q=amenity=cafe&near=60.1699,24.9384&radius=1000"
fi
url="http://127.0.0.1:${port}/?src=${src}&${query}"
printf '\n  pbf-explorer: open %s\n\n' "$url"
open_flag=()
[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && open_flag=(--open "/?src=${src}&${query}")
exec npx vite --host 127.0.0.1 --port "$port" --strictPort "${open_flag[@]}"
