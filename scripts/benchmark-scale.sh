#!/usr/bin/env bash
# How Fieldbook's costs grow with the community (issue 42): serves the demo community at each size in turn (release
# build, one request at a time) and prints one table with the sizes side by side: start-up, resident memory (VmRSS from
# /proc) idle and after each heavy page, list pages, the participants CSV export, analytics (first request after start
# and after), the map's venues, a two-letter search and the visit-list form (its size and time).
# The communities are made once with `fieldbook demo-data` (participants ÷ 10 activities, ÷ 50 venues, seed 1) and kept
# in FIELDBOOK_SCALE_DATA (default ~/.cache/fieldbook-scale-data) between runs: the million takes about ten minutes.
# FIELDBOOK_BIN=PATH measures that binary instead of building one. All traffic goes to 127.0.0.1; every process
# started here is stopped on exit.
#   scripts/benchmark-scale.sh [participants...]        # default 10000 100000 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("${@:-10000 100000 1000000}"); read -r -a SIZES <<< "${SIZES[*]}"
STORE=${FIELDBOOK_SCALE_DATA:-$HOME/.cache/fieldbook-scale-data}
WORK=$(mktemp -d /tmp/fieldbook-bench-scale.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
if [ -z "${FIELDBOOK_BIN:-}" ]; then swift build -c release --product fieldbook 2>&1 | tail -1; fi
BIN=${FIELDBOOK_BIN:-.build/release/fieldbook}
PASSWORD="benchmark password 1"

# community N: the folder holding the N-participant community with the bench user, made when missing.
community() {
  local dir="$STORE/p$1"
  if [ ! -f "$dir/fieldbook.sqlite" ]; then
    mkdir -p "$STORE"; rm -rf "$dir.partial"
    echo "== demo data: $1 participants (made once, kept in $dir)" >&2
    "$BIN" demo-data --data "$dir.partial" --participants "$1" --activities $(($1 / 10)) --venues $(($1 / 50)) --seed 1 >&2
    mv "$dir.partial" "$dir"
  fi
  if [ ! -f "$dir/bench-user" ]; then
    printf '%s\n' "$PASSWORD" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$dir" --email bench@example.org --role editor >/dev/null
    touch "$dir/bench-user"
  fi
  echo "$dir"
}

COLUMNS=()
for size in "${SIZES[@]}"; do
  data=$(community "$size")
  started=$(date +%s%N)
  "$BIN" serve --data "$data" --port 0 --log-level warning > "$WORK/server.out" 2> "$WORK/server.err" &
  server=$!
  PIDS+=($server)
  for _ in $(seq 6000); do grep -q "serving at" "$WORK/server.out" 2>/dev/null && break; sleep 0.005; done
  startup_ms=$(( ($(date +%s%N) - started) / 1000000 ))
  base=$(grep -o 'http://[^ ]*' "$WORK/server.out" | tail -1); base=${base%/}
  python3 scripts/benchmark_scale.py --base "$base" --email bench@example.org --password "$PASSWORD" --pid "$server" \
    --startup-ms "$startup_ms" --participants "$size" --out "$WORK/column-$size.json"
  COLUMNS+=("$WORK/column-$size.json")
  kill "$server"; wait "$server" 2>/dev/null || true
done
python3 scripts/benchmark_scale.py --table "${COLUMNS[@]}"
