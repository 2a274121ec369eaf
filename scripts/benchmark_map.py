"""Times /api/v1/map/venues with and without filters; see benchmark-map.sh. Standard library only.

Besides the client's wall-clock times it prints the server's CPU time per request (from /proc/PID/stat), which other
load on a shared machine does not inflate."""
import os
import argparse
import gzip
import http.client
import json
import sqlite3
import statistics
import time
import urllib.parse


def request(base, path, token, encoding):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}", "Accept-Encoding": encoding})
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    if response.status != 200:
        raise SystemExit(f"{path}: {response.status} {body[:200]!r}")
    return elapsed, body, response.getheader("Content-Encoding")


def server_cpu_ms(pid):
    """User plus system CPU time of the process so far, in milliseconds (0 without a pid)."""
    if not pid:
        return 0.0
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--pid", type=int, help="the server's process id, for its CPU time per request")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.base)
    connection = http.client.HTTPConnection(url.hostname, url.port)
    connection.request("POST", "/api/v1/auth/login", json.dumps({"email": args.email, "password": args.password}),
                       {"Content-Type": "application/json"})
    token = json.loads(connection.getresponse().read())["access_token"]
    database = sqlite3.connect(f"file:{args.database}?mode=ro", uri=True)
    type_id = database.execute("SELECT activity_type_id FROM activities GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1").fetchone()[0]
    area_id = database.execute("SELECT id FROM geographic_areas WHERE parent_id IS NULL LIMIT 1").fetchone()[0]
    queries = [
        ("all venues", ""),
        ("status=ACTIVE", "?status=ACTIVE"),
        ("one activity type", f"?activity_type_id={type_id}"),
        ("date range 2025", "?from=2025-01-01&to=2025-12-31"),
        ("one top-level area", f"?area_id={area_id}"),
        ("type + status + dates + area", f"?activity_type_id={type_id}&status=ACTIVE&from=2024-01-01&to=2026-12-31&area_id={area_id}"),
    ]
    print(f"{'filters':32} {'features':>8} {'gzip KB':>8} {'plain KB':>9} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'plain p50':>9}"
          f" {'server CPU ms':>13}")
    for label, query in queries:
        path = "/api/v1/map/venues" + query
        _, plain, _ = request(args.base, path, token, "identity")
        plain_p50 = statistics.median(request(args.base, path, token, "identity")[0] for _ in range(5))
        request(args.base, path, token, "gzip")  # warm-up
        times, compressed, encoding = [], b"", None
        cpu_before = server_cpu_ms(args.pid)
        for _ in range(args.runs):
            elapsed, compressed, encoding = request(args.base, path, token, "gzip")
            times.append(elapsed)
        cpu = (server_cpu_ms(args.pid) - cpu_before) / args.runs if args.pid else float("nan")
        features = len(json.loads(gzip.decompress(compressed) if encoding == "gzip" else compressed)["features"])
        times.sort()
        p95 = times[max(0, int(len(times) * 0.95) - 1)]
        print(f"{label:32} {features:8d} {len(compressed) / 1024:8.0f} {len(plain) / 1024:9.0f} {statistics.median(times):7.1f} "
              f"{p95:7.1f} {times[-1]:7.1f} {plain_p50:9.1f} {cpu:13.1f}" + ("" if encoding == "gzip" else "  (not gzipped)"))


if __name__ == "__main__":
    main()
