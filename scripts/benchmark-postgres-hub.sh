#!/usr/bin/env bash
# The PostgreSQL hub beside the SQLite hub (issue 17), release build, real processes on loopback:
#  1. push of about 10,000 operations from one node, into each kind of hub, then from two nodes at once into two
#     PostgreSQL hub processes on one database (scripts/benchmark-sync.sh);
#  2. first sync of the demo community from each kind of hub (the PostgreSQL one gets it by `fieldbook hub-migrate`);
#  3. 200 simulated nodes pushing and pulling at once, into one hub process and into two on the same database:
#     p50/p99 per request, errors, and the most connections PostgreSQL held (scripts/benchmark_hub_load.py).
#   scripts/benchmark-postgres-hub.sh [participants activities venues]   (FIELDBOOK_BENCH_ONLY=push|first-sync|load)
set -euo pipefail
cd "$(dirname "$0")/.."
ONLY=${FIELDBOOK_BENCH_ONLY:-all}
runs() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }
for part in push first-sync; do
  runs "$part" || continue
  for kind in sqlite postgres; do
    FIELDBOOK_BENCH_HUB=$kind FIELDBOOK_BENCH_ONLY=$part bash scripts/benchmark-sync.sh "$@"
  done
  if [ "$part" = push ]; then FIELDBOOK_BENCH_ONLY=push-two bash scripts/benchmark-sync.sh "$@"; fi
done
runs load || exit 0

WORK=$(mktemp -d /tmp/fieldbook-hub-load.XXXXXX)
chmod 711 "$WORK"  # the PostgreSQL cluster lives inside, run by the postgres user
cleanup() {
  for file in "$WORK"/*.pid; do [ -f "$file" ] && kill "$(cat "$file")" 2>/dev/null || true; done
  bash scripts/postgres-cluster.sh stop "$WORK/pg"
  rm -rf "$WORK"
}
trap cleanup EXIT
export FIELDBOOK_PASSWORD_COST=test no_proxy=127.0.0.1,localhost
BIN=.build/release/fieldbook
PASSWORD="benchmark password 1"
URL=$(bash scripts/postgres-cluster.sh start "$WORK/pg")
PORT=${URL##*:}; PORT=${PORT%%/*}
printf '%s\n' "$PASSWORD" | "$BIN" create-user --database-url "$URL" --email admin@example.org --role administrator >/dev/null
start_hub() {
  # Every simulated node connects from 127.0.0.1, as every node does from a load balancer's address.
  "$BIN" hub --database-url "$URL" --port 0 --log-level warning --connections-per-address 1000 > "$WORK/$1.out" 2> "$WORK/$1.err" &
  echo $! > "$WORK/$1.pid"
  for _ in $(seq 300); do grep -q "serving at" "$WORK/$1.out" 2>/dev/null && break; sleep 0.1; done
  local served; served=$(grep -o 'serving at http://[^ ]*' "$WORK/$1.out" | tail -1); echo "${served#serving at }"
}
A=$(start_hub a); B=$(start_hub b)
PYTHON=${FIELDBOOK_TOOLS_DIR:-$HOME/.cache/fieldbook-test-tools}/venv/bin/python
[ -x "$PYTHON" ] || PYTHON=python3
echo "== 200 nodes, one hub process"
"$PYTHON" scripts/benchmark_hub_load.py --hub "$A" --email admin@example.org --password "$PASSWORD" --psql-port "$PORT"
echo "== 200 nodes, two hub processes on the same database"
"$PYTHON" scripts/benchmark_hub_load.py --hub "$A" --hub "$B" --email admin@example.org --password "$PASSWORD" --psql-port "$PORT"
