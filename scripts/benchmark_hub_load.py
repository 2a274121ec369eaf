"""Many simulated nodes syncing with one hub at once (issue 17): each signs in, then for DURATION seconds pushes a
batch of new participants and pulls the change log after its own cursor, as a node's sync session does. Prints the
p50 and p99 of each kind of request, the errors (any answer but 200, or none), the operations applied per second, and
for a PostgreSQL hub the most connections the database held (sampled every 0.2 s).

  benchmark_hub_load.py --hub URL [--hub URL2 ...] --email E --password P [--nodes 200] [--duration 20] [--ops 5]
                        [--psql-port PORT]
Nodes are spread over the hub URLs given (several hub processes on one database)."""

import argparse
import datetime as dt
import statistics
import subprocess
import threading
import time
import uuid

import requests


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class SimulatedNode(threading.Thread):
    def __init__(self, index, hub, email, password, duration, ops, start_gate):
        super().__init__(daemon=True)
        self.index, self.hub, self.email, self.password = index, hub, email, password
        self.duration, self.ops, self.start_gate = duration, ops, start_gate
        self.session = requests.Session()
        self.session.trust_env = False
        self.latencies = {"push": [], "pull": []}
        self.errors, self.applied, self.cursor = [], 0, 0

    def call(self, kind, method, path, **options):
        began = time.perf_counter()
        try:
            answer = self.session.request(method, self.hub + path, timeout=60, **options)
        except requests.RequestException as error:
            self.errors.append(f"{kind}: {type(error).__name__}")
            return None
        self.latencies[kind].append((time.perf_counter() - began) * 1000)
        if answer.status_code != 200:
            self.errors.append(f"{kind}: {answer.status_code} {answer.text[:120]}")
            return None
        return answer.json()

    def run(self):
        try:
            answer = self.session.post(self.hub + "/api/v1/auth/login", json={"email": self.email, "password": self.password}, timeout=60)
            self.session.headers["Authorization"] = "Bearer " + answer.json()["access_token"]
        except (requests.RequestException, ValueError, KeyError) as error:
            self.errors.append(f"sign-in: {type(error).__name__}")
            return
        self.start_gate.wait()
        deadline = time.monotonic() + self.duration
        batch = 0
        while time.monotonic() < deadline:
            batch += 1
            now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            operations = [{
                "operation_id": str(uuid.uuid4()), "operation": "create", "entity": "participant", "entity_id": str(uuid.uuid4()),
                "fields": {"name": f"Node {self.index} batch {batch} #{n}", "email": f"n{self.index}b{batch}x{n}@example.org",
                           "phone": None, "notes": None, "home_venue_id": None},
                "before": {}, "base_version": 0, "author": "system:benchmark", "created_at": now} for n in range(self.ops)]
            pushed = self.call("push", "POST", "/api/v1/sync/push", json={"node_id": str(uuid.uuid4()), "operations": operations})
            if pushed:
                self.applied += sum(1 for result in pushed["results"] if result["outcome"] == "applied")
            pulled = self.call("pull", "GET", f"/api/v1/sync/changes?after={self.cursor}&limit=500")
            if pulled:
                self.cursor = pulled["next_cursor"]


def sample_connections(port, stop, peak):
    while not stop.is_set():
        done = subprocess.run(["/usr/lib/postgresql/15/bin/psql", "-X", "-At", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                               "-d", "fieldbook", "-c", "SELECT count(*) FROM pg_stat_activity WHERE datname = 'fieldbook'"],
                              capture_output=True, text=True)
        if done.returncode == 0:
            peak[0] = max(peak[0], int(done.stdout.strip()))
        time.sleep(0.2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hub", action="append", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--nodes", type=int, default=200)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--ops", type=int, default=5)
    parser.add_argument("--psql-port", type=int)
    args = parser.parse_args()
    gate = threading.Event()
    nodes = [SimulatedNode(i, args.hub[i % len(args.hub)].rstrip("/"), args.email, args.password, args.duration, args.ops, gate)
             for i in range(args.nodes)]
    for node in nodes:
        node.start()
    time.sleep(1 + args.nodes * 0.01)  # every node signed in before the clock starts
    stop, peak = threading.Event(), [0]
    sampler = threading.Thread(target=sample_connections, args=(args.psql_port, stop, peak), daemon=True) if args.psql_port else None
    if sampler:
        sampler.start()
    began = time.monotonic()
    gate.set()
    for node in nodes:
        node.join()
    elapsed = time.monotonic() - began
    stop.set()
    errors = [error for node in nodes for error in node.errors]
    applied = sum(node.applied for node in nodes)
    signed_in = sum(1 for node in nodes if not any(error.startswith("sign-in") for error in node.errors))
    print(f"{args.nodes} nodes ({signed_in} signed in) on {len(args.hub)} hub process(es) for {elapsed:.1f} s, {args.ops} operations per push:")
    for kind in ("push", "pull"):
        values = [value for node in nodes for value in node.latencies[kind]]
        print(f"  {kind}: {len(values)} requests, p50 {statistics.median(values):.0f} ms, p99 {percentile(values, 0.99):.0f} ms")
    print(f"  operations applied: {applied} ({applied / elapsed:.0f}/s); errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    if sampler:
        print(f"  most PostgreSQL connections at once: {peak[0]}")


if __name__ == "__main__":
    main()
