#!/usr/bin/env bash
# Benchmark of the field visit pages: a demo community, many visit lists made through the API, then one table of
# URL, requests/s (wrk, 2 threads, 8 connections, 5 s), p50 and p95 latency of 200 sequential requests.
#   scripts/benchmark-visits.sh [participants lists]      BUILD=debug to measure the debug binary (default release)
set -euo pipefail
cd "$(dirname "$0")/.."
PARTICIPANTS=${1:-20000}; LISTS=${2:-200}
TOOLS_DIR=${FIELDBOOK_TOOLS_DIR:-$HOME/.cache/fieldbook-test-tools}
WORK=$(mktemp -d /tmp/fieldbook-bench-visits.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

bash scripts/apt-install-missing.sh wrk
bash scripts/install-test-tools.sh
BUILD=${BUILD:-release}
swift build -c "$BUILD" --product fieldbook 2>&1 | tail -1
BIN=.build/$BUILD/fieldbook

echo "== $BUILD binary; demo data: $PARTICIPANTS participants"
"$BIN" demo-data --data "$WORK/data" --participants "$PARTICIPANTS" --activities $((PARTICIPANTS / 10)) --venues $((PARTICIPANTS / 20)) --seed 1 >/dev/null
printf '%s\n' "benchmark password 1" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$WORK/data" --email bench@example.org --role administrator >/dev/null

"$BIN" serve --data "$WORK/data" --port 0 --log-level warning > "$WORK/server.out" 2> "$WORK/server.err" &
PIDS+=($!)
for _ in $(seq 100); do grep -q "serving at" "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
BASE=$(grep -o 'http://[^ ]*' "$WORK/server.out" | tail -1); BASE=${BASE%/}

cd scripts && "$TOOLS_DIR/venv/bin/python" benchmark_visits.py --base "$BASE" --email bench@example.org --password "benchmark password 1" \
  --lists "$LISTS"
