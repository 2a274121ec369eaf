#!/usr/bin/env bash
# Benchmark of importing participants (issue 14) on the 100,000-participant demo community: a copy of the demo is
# served, and its own participant list, made into 100,000 new people, is uploaded, checked and imported through the
# pages. Prints the time and rows per second of each step and how much the server's memory grows. All traffic goes to
# 127.0.0.1; every process started here is stopped and the copy removed.
#   scripts/benchmark-import.sh [participants activities venues]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/benchmark-server.sh
# The import adds 100,000 participants: to a copy, so the kept demo stays as other benchmarks expect it.
mkdir -p "$WORK/copy"
cp "$DATA"/fieldbook.sqlite* "$WORK/copy/"
DATA="$WORK/copy"
start_bench_server

"$VENV/bin/python" scripts/benchmark_import.py --base "$BASE" --email bench@example.org --password "benchmark password 1" \
  --pid "$SERVER_PID" --file "$WORK/people.csv"
