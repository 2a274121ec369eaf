#!/usr/bin/env bash
# Benchmark of the map's GeoJSON (/api/v1/map/venues) on a demo community of 20,000 venues (release build).
# Prints, per filter set: features, bytes (gzip and plain), and p50/p95/max time of 30 sequential requests with
# Accept-Encoding: gzip, measured by a client on 127.0.0.1 (request sent to last byte read), and the server's CPU time
# per request (what other load on a shared machine does not inflate); kept answers, answers after an edit, and 304s. Target: 150 ms.
# Every process started here is stopped on exit.
#   scripts/benchmark-map.sh [venues activities participants]
set -euo pipefail
cd "$(dirname "$0")/.."
VENUES=${1:-20000}; ACTIVITIES=${2:-20000}; PARTICIPANTS=${3:-20000}
WORK=$(mktemp -d /tmp/fieldbook-bench-map.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

swift build -c release --product fieldbook 2>&1 | tail -1
BIN=.build/release/fieldbook
echo "== demo data: $VENUES venues, $ACTIVITIES activities, $PARTICIPANTS participants"
"$BIN" demo-data --data "$WORK/data" --venues "$VENUES" --activities "$ACTIVITIES" --participants "$PARTICIPANTS" --seed 1
printf '%s\n' "benchmark password 1" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$WORK/data" --email bench@example.org --role editor >/dev/null
"$BIN" serve --data "$WORK/data" --port 0 --log-level warning > "$WORK/server.out" 2> "$WORK/server.err" &
SERVER=$!
PIDS+=($SERVER)
for _ in $(seq 100); do grep -q "serving at" "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
BASE=$(grep -o 'http://[^ ]*' "$WORK/server.out" | tail -1); BASE=${BASE%/}
python3 scripts/benchmark_map.py --base "$BASE" --email bench@example.org --password "benchmark password 1" --database "$WORK/data/fieldbook.sqlite" --pid "$SERVER"
VENV=${FIELDBOOK_TOOLS_DIR:-$HOME/.cache/fieldbook-test-tools}/venv
if [ -x "$VENV/bin/python" ] && [ -f tiles/basemap.mbtiles ]; then
  echo "== the map page in headless Chromium"
  "$VENV/bin/python" scripts/benchmark_map_page.py --base "$BASE" --email bench@example.org --password "benchmark password 1"
else
  echo "(the page figures need the test tools: make test-tools, and the basemap: scripts/install-basemap.sh)"
fi
