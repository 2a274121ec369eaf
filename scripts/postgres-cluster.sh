#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests and benchmarks: `start DIR` makes one in DIR (initdb, as the postgres user
# when run as root, since PostgreSQL refuses to run as root), listening on loopback on a free port, with a database
# "fieldbook" that the user "fieldbook" owns; it prints the connection URL. `restart DIR` stops it (ending every
# connection, as a failover does) and starts it again on the same port. `stop DIR` stops it (the caller removes DIR).
set -euo pipefail
BIN=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
command=${1:?usage: postgres-cluster.sh start|restart|stop DIR}
dir=${2:?usage: postgres-cluster.sh start|restart|stop DIR}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$BIN/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # fsync off: a test cluster is thrown away, so durability across a power cut buys nothing here.
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
    as_owner "$BIN/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
      -c "CREATE ROLE fieldbook LOGIN" -c "CREATE DATABASE fieldbook OWNER fieldbook" >/dev/null
    echo "postgresql://fieldbook@127.0.0.1:$port/fieldbook"
    ;;
  restart)
    # pg_ctl keeps the options the cluster was started with (postmaster.opts).
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null
    ;;
  stop)
    [ -d "$dir/data" ] && as_owner "$BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    ;;
  *) echo "usage: postgres-cluster.sh start|restart|stop DIR" >&2; exit 64 ;;
esac
