#!/usr/bin/env bash
# Fieldbook's hand-written code beside the library each piece stands in for, the same work in one run, in turns
# (scripts/library-benchmarks): the template engine against swift-mustache on GET /participants, the ZIP writer and
# reader against ZIPFoundation, CSV against CSV.swift, the sync wire's JSON against JSONEncoder and JSONDecoder and its
# timestamps against Foundation's ISO 8601 format style and formatter, the libcurl wrapper against URLSession, the
# PostgreSQL hub's pool over libpq against PostgresNIO's client. Requests go to servers on 127.0.0.1 only: one inside
# the curl benchmark, a throwaway PostgreSQL cluster (scripts/postgres-cluster.sh) for the last, stopped at the end.
#   scripts/benchmark-libraries.sh [templates zip csv wire curl postgres]
set -euo pipefail
cd "$(dirname "$0")/.."
package=scripts/library-benchmarks
swift build -c release --package-path "$package" --scratch-path "$package/.build" 2>&1 | tail -1
bin="$(swift build -c release --package-path "$package" --scratch-path "$package/.build" --show-bin-path)"
for benchmark in ${@:-templates zip csv wire curl postgres}; do
    echo "== $benchmark"
    case "$benchmark" in
        templates) "$bin/benchmark-templates" "$PWD/templates" ;;
        postgres)
            cluster="$(mktemp -d)"
            trap 'scripts/postgres-cluster.sh stop "$cluster"; rm -rf "$cluster"' EXIT
            "$bin/benchmark-postgres" "$(scripts/postgres-cluster.sh start "$cluster")"
            ;;
        *) "$bin/benchmark-$benchmark" ;;
    esac
done
