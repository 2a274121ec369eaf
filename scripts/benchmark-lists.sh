#!/usr/bin/env bash
# Benchmark of Fieldbook's list pages on the 100,000-participant demo community, with Datasette on the same file for comparison.
# Prints one table: URL, requests/s, p50 and p99 (wrk: 2 threads, 32 connections, 8 s) and issue 15's target for each,
# with Datasette's page of the same sort and size and the ratio between the two; then the server's start-up time and
# its resident memory idle and under that load, beside their targets.
# All traffic goes to 127.0.0.1; every process started here is stopped on exit.
#   scripts/benchmark-lists.sh [participants activities venues]
set -euo pipefail
cd "$(dirname "$0")/.."
PARTICIPANTS=${1:-100000}; ACTIVITIES=${2:-20000}; VENUES=${3:-5000}
TOOLS_DIR=${FIELDBOOK_TOOLS_DIR:-$HOME/.cache/fieldbook-test-tools}
VENV="$TOOLS_DIR/venv"
WORK=$(mktemp -d /tmp/fieldbook-bench.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

bash scripts/apt-install-missing.sh wrk
bash scripts/install-test-tools.sh
[ -x "$VENV/bin/datasette" ] || "$VENV/bin/python" -m pip -q --disable-pip-version-check install datasette==0.65.5
swift build -c release --product fieldbook 2>&1 | tail -1
BIN=.build/release/fieldbook

# FIELDBOOK_BENCH_DATA=DIR keeps the demo community in DIR between runs (made there once, with the bench user).
DATA=${FIELDBOOK_BENCH_DATA:-$WORK/data}
if [ ! -f "$DATA/fieldbook.sqlite" ]; then
  echo "== demo data: $PARTICIPANTS participants, $ACTIVITIES activities, $VENUES venues"
  "$BIN" demo-data --data "$DATA" --participants "$PARTICIPANTS" --activities "$ACTIVITIES" --venues "$VENUES" --seed 1
  printf '%s\n' "benchmark password 1" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$DATA" --email bench@example.org --role editor >/dev/null
fi

# Start-up: from launch to the "serving at" line (migrations checked, the port open), polled every 5 ms.
STARTED=$(date +%s%N)
"$BIN" serve --data "$DATA" --port 0 --log-level warning > "$WORK/server.out" 2> "$WORK/server.err" &
SERVER_PID=$!
PIDS+=($SERVER_PID)
for _ in $(seq 2000); do grep -q "serving at" "$WORK/server.out" 2>/dev/null && break; sleep 0.005; done
STARTUP_MS=$(( ($(date +%s%N) - STARTED) / 1000000 ))
BASE=$(grep -o 'http://[^ ]*' "$WORK/server.out" | tail -1); BASE=${BASE%/}

DATASETTE_PORT=$("$VENV/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$VENV/bin/datasette" serve "$DATA/fieldbook.sqlite" --host 127.0.0.1 --port "$DATASETTE_PORT" --immutable "$DATA/fieldbook.sqlite" \
  > "$WORK/datasette.log" 2>&1 &
PIDS+=($!)

"$VENV/bin/python" scripts/benchmark_lists.py --base "$BASE" --email bench@example.org --password "benchmark password 1" \
  --datasette "http://127.0.0.1:$DATASETTE_PORT" --pid "$SERVER_PID" --startup-ms "$STARTUP_MS" \
  --database-bytes "$(stat -c %s "$DATA/fieldbook.sqlite")"
