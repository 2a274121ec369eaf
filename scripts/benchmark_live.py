"""Live changes between online nodes (issue 15): edits on one node, the time until each is in the other's database.

Both nodes sync on a 300 s interval, so an arrival within seconds is the hub's live changes stream at work.
    python3 scripts/benchmark_live.py URL1 DB1 URL2 DB2 PASSWORD   (each node has an administrator NAME@example.org)
"""

import json
import sqlite3
import statistics
import sys
import time
import urllib.request

EDITS = 10
TARGET_SECONDS = 2.0


def call(base: str, method: str, path: str, body=None, token=None) -> dict:
    request = urllib.request.Request(base.rstrip("/") + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"{}")


def scalar(db: str, sql: str, *args):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
        return connection.execute(sql, args).fetchone()[0]


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except sqlite3.Error:
            pass
        time.sleep(0.02)
    raise SystemExit(f"timed out waiting for {what}")


def main():
    url1, db1, url2, db2, password = sys.argv[1:6]
    nodes = [(url1, db1, "live1@example.org"), (url2, db2, "live2@example.org")]
    tokens = [call(url, "POST", "/api/v1/auth/login", {"email": email, "password": password})["access_token"]
              for url, _, email in nodes]
    for _, db, _ in nodes:  # each node's first sync, then a moment for its listener to hold a poll
        wait_for(lambda db=db: scalar(db, "SELECT COUNT(*) FROM sync_sessions WHERE outcome = 'succeeded'") > 0, 60,
                 "the first sync")
    time.sleep(2)
    latencies = []
    for edit in range(EDITS):
        source, target = (0, 1) if edit % 2 == 0 else (1, 0)
        name = f"Live benchmark {edit}"
        started = time.monotonic()
        call(nodes[source][0], "POST", "/api/v1/participants", {"name": name, "email": f"live{edit}@example.org"},
             tokens[source])
        wait_for(lambda: scalar(nodes[target][1], "SELECT COUNT(*) FROM participants WHERE name = ?", name) == 1, 30,
                 f"{name} to arrive")
        latencies.append(time.monotonic() - started)
    worst = max(latencies)
    print(f"live changes: {EDITS} edits, seconds to arrive: median {statistics.median(latencies):.2f}, max {worst:.2f}; "
          f"target <= {TARGET_SECONDS:.0f} s: {'met' if worst <= TARGET_SECONDS else 'NOT met'}")


if __name__ == "__main__":
    main()
