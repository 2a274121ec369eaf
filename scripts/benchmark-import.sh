#!/usr/bin/env bash
# Benchmark of imports (issue 14) on the 100,000-participant demo community: the demo's export of everything restored
# into an empty Fieldbook, then, on a copy of the demo, its own participant list made into 100,000 new people
# uploaded, checked and imported through the pages. Prints the time and records per second of each step and how much
# each server's memory grows. All traffic goes to 127.0.0.1; every process started here is stopped, and the copies
# removed.
#   scripts/benchmark-import.sh [participants activities venues]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/benchmark-server.sh
# An empty Fieldbook with the same bench account, for the restore.
printf '%s\n' "benchmark password 1" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$WORK/empty" --email bench@example.org --role editor >/dev/null
start_bench_server "$WORK/empty" empty
EMPTY_PID=$SERVER_PID EMPTY_BASE=$BASE

# The import adds 100,000 participants: to a copy, so the kept demo stays as other benchmarks expect it.
mkdir -p "$WORK/copy"
cp "$DATA"/fieldbook.sqlite* "$WORK/copy/"
start_bench_server "$WORK/copy"

"$VENV/bin/python" scripts/benchmark_import.py --base "$BASE" --email bench@example.org --password "benchmark password 1" \
  --pid "$SERVER_PID" --file "$WORK/people.csv" --restore-base "$EMPTY_BASE" --restore-pid "$EMPTY_PID"
