#!/usr/bin/env bash
# Benchmark of the exports (issue 14) on the 100,000-participant demo community: each download's time, size and lines
# per second (for the ZIP of everything: records), and how much the server's resident memory grows while it writes it
# (target: less than 20 MB for every participant). All traffic goes to 127.0.0.1; every process started here is stopped.
#   scripts/benchmark-export.sh [participants activities venues]
set -euo pipefail
cd "$(dirname "$0")/.."
PARTICIPANTS=${1:-100000}; ACTIVITIES=${2:-20000}; VENUES=${3:-5000}
TOOLS_DIR=${FIELDBOOK_TOOLS_DIR:-$HOME/.cache/fieldbook-test-tools}
VENV="$TOOLS_DIR/venv"
WORK=$(mktemp -d /tmp/fieldbook-bench.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

bash scripts/install-test-tools.sh
swift build -c release --product fieldbook 2>&1 | tail -1
BIN=.build/release/fieldbook

# FIELDBOOK_BENCH_DATA=DIR keeps the demo community in DIR between runs (made there once, with the bench user).
DATA=${FIELDBOOK_BENCH_DATA:-$WORK/data}
if [ ! -f "$DATA/fieldbook.sqlite" ]; then
  echo "== demo data: $PARTICIPANTS participants, $ACTIVITIES activities, $VENUES venues"
  "$BIN" demo-data --data "$DATA" --participants "$PARTICIPANTS" --activities "$ACTIVITIES" --venues "$VENUES" --seed 1
  printf '%s\n' "benchmark password 1" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$DATA" --email bench@example.org --role editor >/dev/null
fi

"$BIN" serve --data "$DATA" --port 0 --log-level warning > "$WORK/server.out" 2> "$WORK/server.err" &
SERVER_PID=$!
PIDS+=($SERVER_PID)
for _ in $(seq 2000); do grep -q "serving at" "$WORK/server.out" 2>/dev/null && break; sleep 0.005; done
BASE=$(grep -o 'http://[^ ]*' "$WORK/server.out" | tail -1); BASE=${BASE%/}

"$VENV/bin/python" scripts/benchmark_export.py --base "$BASE" --email bench@example.org --password "benchmark password 1" --pid "$SERVER_PID"
