# The set-up the demo-community benchmarks share, sourced by them (not run): a work folder and the processes started,
# both cleared on exit; the release binary; the demo community (FIELDBOOK_BENCH_DATA=DIR keeps it in DIR between runs,
# made there once with the bench user); and `start_bench_server`, which serves it (or another folder) and sets
# SERVER_PID, BASE and STARTUP_MS (launch to the "serving at" line, polled every 5 ms). Sizes are the sourcing script's arguments.
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

DATA=${FIELDBOOK_BENCH_DATA:-$WORK/data}
if [ ! -f "$DATA/fieldbook.sqlite" ]; then
  echo "== demo data: $PARTICIPANTS participants, $ACTIVITIES activities, $VENUES venues"
  "$BIN" demo-data --data "$DATA" --participants "$PARTICIPANTS" --activities "$ACTIVITIES" --venues "$VENUES" --seed 1
  printf '%s\n' "benchmark password 1" | FIELDBOOK_PASSWORD_COST=test "$BIN" create-user --data "$DATA" --email bench@example.org --role editor >/dev/null
fi

# start_bench_server [DATA_FOLDER [NAME]]: serves DATA_FOLDER (default $DATA), its output in $WORK/NAME.out.
start_bench_server() {
  local data=${1:-$DATA} name=${2:-server} started
  started=$(date +%s%N)
  "$BIN" serve --data "$data" --port 0 --log-level warning > "$WORK/$name.out" 2> "$WORK/$name.err" &
  SERVER_PID=$!
  PIDS+=($SERVER_PID)
  for _ in $(seq 2000); do grep -q "serving at" "$WORK/$name.out" 2>/dev/null && break; sleep 0.005; done
  STARTUP_MS=$(( ($(date +%s%N) - started) / 1000000 ))
  BASE=$(grep -o 'http://[^ ]*' "$WORK/$name.out" | tail -1); BASE=${BASE%/}
}
