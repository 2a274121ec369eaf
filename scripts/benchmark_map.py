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


def request(base, path, token, encoding, etag=None):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": encoding}
    if etag:
        headers["If-None-Match"] = etag
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    if response.status != (304 if etag else 200):
        raise SystemExit(f"{path}: {response.status} {body[:200]!r}")
    return elapsed, body, response.getheader("Content-Encoding"), response.getheader("ETag")


def edit_a_venue(base, token, venue_id, number):
    """Changes one venue's address through the API, so every kept answer is out of date."""
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.request("PATCH", f"/api/v1/venues/{venue_id}", json.dumps({"address": f"{number} Benchmark Road"}),
                       {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        raise SystemExit(f"edit: {response.status} {body[:200]!r}")


def p95(times):
    ordered = sorted(times)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


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
    first, _, _, _ = request(args.base, "/api/v1/map/venues", token, "gzip")
    print(f"First request after the server started (it reads the map model into memory): {first:.1f} ms")
    venue_id = database.execute("SELECT id FROM venues WHERE latitude IS NOT NULL LIMIT 1").fetchone()[0]
    print("Kept: the same filters asked again with nothing changed (what most map loads are). After an edit: a venue edited")
    print("through the API before each request, so the answer is read, written and compressed afresh. 304: the browser's")
    print("revalidation with the ETag it holds. Server CPU is per kept request.")
    print(f"{'filters':32} {'features':>8} {'gzip KB':>8} {'plain KB':>9} {'kept p50':>8} {'kept p95':>8} {'edit p50':>8}"
          f" {'edit p95':>8} {'304 p50':>7} {'server CPU ms':>13}")
    edits = 0
    for label, query in queries:
        path = "/api/v1/map/venues" + query
        _, plain, _, _ = request(args.base, path, token, "identity")
        _, _, _, etag = request(args.base, path, token, "gzip")  # warm-up
        times, compressed, encoding = [], b"", None
        cpu_before = server_cpu_ms(args.pid)
        for _ in range(args.runs):
            elapsed, compressed, encoding, _ = request(args.base, path, token, "gzip")
            times.append(elapsed)
        cpu = (server_cpu_ms(args.pid) - cpu_before) / args.runs if args.pid else float("nan")
        not_modified = [request(args.base, path, token, "gzip", etag)[0] for _ in range(args.runs)]
        after_edit = []
        for _ in range(max(5, args.runs // 3)):
            edits += 1
            edit_a_venue(args.base, token, venue_id, edits)
            after_edit.append(request(args.base, path, token, "gzip")[0])
        features = len(json.loads(gzip.decompress(compressed) if encoding == "gzip" else compressed)["features"])
        print(f"{label:32} {features:8d} {len(compressed) / 1024:8.0f} {len(plain) / 1024:9.0f} {statistics.median(times):8.1f} "
              f"{p95(times):8.1f} {statistics.median(after_edit):8.1f} {p95(after_edit):8.1f} {statistics.median(not_modified):7.1f}"
              f" {cpu:13.1f}" + ("" if encoding == "gzip" else "  (not gzipped)"))

if __name__ == "__main__":
    main()
