#!/usr/bin/env bash
# Benchmark of Fieldbook's list pages on the 100,000-participant demo community, with Datasette on the same file for comparison.
# Prints one table: URL, requests/s, p50 and p99 (wrk: 2 threads, 32 connections, 8 s) and issue 15's target for each,
# with Datasette's page of the same sort and size and the ratio between the two; then the server's start-up time and
# its resident memory idle and under that load, beside their targets.
# All traffic goes to 127.0.0.1; every process started here is stopped on exit.
#   scripts/benchmark-lists.sh [participants activities venues]
#   BENCH_LANGUAGE=fa scripts/benchmark-lists.sh   # the same pages in Persian (Accept-Language), to compare with English
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/apt-install-missing.sh wrk
source scripts/benchmark-server.sh
[ -x "$VENV/bin/datasette" ] || "$VENV/bin/python" -m pip -q --disable-pip-version-check install datasette==0.65.5
start_bench_server

DATASETTE_PORT=$("$VENV/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$VENV/bin/datasette" serve "$DATA/fieldbook.sqlite" --host 127.0.0.1 --port "$DATASETTE_PORT" --immutable "$DATA/fieldbook.sqlite" \
  > "$WORK/datasette.log" 2>&1 &
PIDS+=($!)

"$VENV/bin/python" scripts/benchmark_lists.py --base "$BASE" --email bench@example.org --password "benchmark password 1" \
  --datasette "http://127.0.0.1:$DATASETTE_PORT" --pid "$SERVER_PID" --startup-ms "$STARTUP_MS" \
  --database-bytes "$(stat -c %s "$DATA/fieldbook.sqlite")"
