#!/usr/bin/env bash
# Benchmark of the exports (issue 14) on the 100,000-participant demo community: each download's time, size and lines
# per second (for the ZIP of everything: records), and how much the server's resident memory grows while it writes it
# (target: less than 20 MB for every participant). All traffic goes to 127.0.0.1; every process started here is stopped.
#   scripts/benchmark-export.sh [participants activities venues]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/benchmark-server.sh
start_bench_server

"$VENV/bin/python" scripts/benchmark_export.py --base "$BASE" --email bench@example.org --password "benchmark password 1" --pid "$SERVER_PID"
