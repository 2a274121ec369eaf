#!/usr/bin/env bash
# Benchmark of the analytics views on the 100,000-participant demo community: the server time of each page and JSON
# twin, with and without an area filter, against the 50 ms target (issue 11). Builds the release binary once.
# All traffic goes to 127.0.0.1; every process started here is stopped on exit.
#   scripts/benchmark-analytics.sh [participants activities venues]
set -euo pipefail
cd "$(dirname "$0")/.."
PARTICIPANTS=${1:-100000}; ACTIVITIES=${2:-20000}; VENUES=${3:-5000}
WORK=$(mktemp -d /tmp/fieldbook-bench-analytics.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

swift build -c release --product fieldbook 2>&1 | tail -1
BIN=.build/release/fieldbook

echo "== demo data: $PARTICIPANTS participants, $ACTIVITIES activities, $VENUES venues"
"$BIN" demo-data --data "$WORK/data" --participants "$PARTICIPANTS" --activities "$ACTIVITIES" --venues "$VENUES" --seed 1
printf '%s\n' "benchmark password 1" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$WORK/data" --email bench@example.org --role read-only >/dev/null

"$BIN" serve --data "$WORK/data" --port 0 --log-level warning > "$WORK/server.out" 2> "$WORK/server.err" &
PIDS+=($!)
for _ in $(seq 100); do grep -q "serving at" "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
BASE=$(grep -o 'http://[^ ]*' "$WORK/server.out" | tail -1); BASE=${BASE%/}

python3 scripts/benchmark_analytics.py --base "$BASE" --database "$WORK/data/fieldbook.sqlite" \
  --email bench@example.org --password "benchmark password 1"
