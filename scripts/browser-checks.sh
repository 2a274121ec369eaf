#!/usr/bin/env bash
# Runs every tests/browser/check_*.py against PROGRAM, JOBS at a time (each starts its own server on a free port, data
# folder and Chromium, so they do not meet), and prints each script's output whole when it ends, with its time. Fails if
# any script fails, after all have run.
#   browser-checks.sh PYTHON PROGRAM [JOBS]   (JOBS defaults to 2: a script waits much of its time on its server,
#                                              Chromium and vnu's Java in turn, so two share a 2-core machine)
set -uo pipefail
PYTHON=$1 PROGRAM=$2 JOBS=${3:-2}
cd "$(dirname "$0")/.."
OUTPUT=$(mktemp -d)
trap 'rm -rf "$OUTPUT"' EXIT

run_one() {
  local script=$1 log="$OUTPUT/$(basename "$1").log" started=$SECONDS status
  "$PYTHON" "$script" --binary "$PROGRAM" >"$log" 2>&1
  status=$?
  { echo "== $script (exit $status, $((SECONDS - started)) s)"; cat "$log"; } | flock "$OUTPUT" cat
  return $status
}
export -f run_one
export PYTHON PROGRAM OUTPUT

ls tests/browser/check_*.py | xargs -d '\n' -P "$JOBS" -I{} bash -c 'run_one "$1"' _ {}
