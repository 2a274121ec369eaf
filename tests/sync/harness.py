"""Real `fieldbook` processes for multi-process sync tests: start, stop, kill -9, restart on the same port and data,
create accounts, link to a hub, call the JSON API, read a node's database read-only, wait for convergence.

The binary is $FIELDBOOK_BIN (default .build/debug/fieldbook of this repository); templates and Public come from the
repository root. Every node has its own data folder under the test's temporary directory and logs to a file there.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import signal
import sqlite3
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVING_LINE = re.compile(r"Fieldbook is serving at (https?://[^\s]+?)/?\s*$", re.MULTILINE)

# Every table whose rows travel between nodes (Sources/Storage/Schema/Migrations.swift; `RecordKind.all`).
SYNCED_TABLES = ("activity_types", "participant_roles", "geographic_areas", "venues", "participants",
                 "participant_address_history", "activities", "activity_venue_history", "assignments", "users",
                 "visit_lists", "visit_stops", "contact_logs", "notifications", "notification_preferences", "photos",
                 "participant_merges")
# Derived on each node from synced columns (SearchText), so not part of what must be equal.
NODE_LOCAL_COLUMNS = {"search_text"}
# Predefined categories are seeded by a migration on every node with that node's clock, and never travel: only
# their timestamps may differ. Everything else about them (ids, names) must match.
PREDEFINED_LOCAL_COLUMNS = {"created_at", "updated_at"}


def binary_path() -> Path:
    return Path(os.environ.get("FIELDBOOK_BIN") or REPO_ROOT / ".build/debug/fieldbook").resolve()


def process_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["FIELDBOOK_PASSWORD_COST"] = "test"
    env["no_proxy"] = env["NO_PROXY"] = "127.0.0.1,localhost,::1"
    for name in ("FIELDBOOK_DATA", "FIELDBOOK_PORT", "FIELDBOOK_UPSTREAM", "FIELDBOOK_SYNC_INTERVAL"):
        env.pop(name, None)
    return env


class HarnessError(AssertionError):
    """A process did not do what the harness asked (did not start, a command failed)."""


class Node:
    """One Fieldbook: a data folder, and at most one running `fieldbook serve` on it."""

    def __init__(self, name: str, workdir: Path):
        self.name = name
        self.data_dir = workdir / name
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = workdir / f"{name}.log"
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.serve_args: list[str] = []
        self.serve_env: dict[str, str] = {}  # set beside the usual environment for `serve` only
        self.last_edit_at = 0.0  # wall-clock time of the last write made through this node's API
        self._clients: dict[tuple[str, str], "ApiClient"] = {}

    # Processes ---------------------------------------------------------------------------------------------------

    @property
    def db_path(self) -> Path:
        return self.data_dir / "fieldbook.sqlite"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def command(self, *args: str, stdin: str | None = None, timeout: float = 300) -> str:
        """Runs a one-shot fieldbook command on this node's data folder; returns its output, raises when it fails."""
        argv = [str(binary_path()), *args, "--data", str(self.data_dir)]
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=process_environment(), timeout=timeout)
        if done.returncode != 0:
            raise HarnessError(f"{self.name}: {' '.join(args)} exited {done.returncode}\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def create_user(self, email: str, password: str, role: str = "administrator") -> str:
        return self.command("create-user", "--email", email, "--role", role, stdin=password + "\n")

    def link(self, upstream: str, email: str, password: str) -> str:
        """`fieldbook link` with the hub account's password on stdin (run while this node is stopped)."""
        return self.command("link", "--upstream", upstream, "--email", email, stdin=password + "\n", timeout=60)

    def demo_data(self, participants: int, activities: int, venues: int, seed: int = 1) -> str:
        return self.command("demo-data", "--participants", str(participants), "--activities", str(activities),
                            "--venues", str(venues), "--seed", str(seed), timeout=600)

    def start(self, *extra: str, sync_interval: int | None = None, timeout: float = 60) -> "Node":
        """Starts `fieldbook serve` (on the port it had before, if any) and waits for its "serving at" line."""
        if self.running:
            raise HarnessError(f"{self.name} is already running")
        args = list(extra)
        if sync_interval is not None:
            args += ["--sync-interval", str(sync_interval)]
        self.serve_args = args
        deadline = time.monotonic() + timeout
        while True:
            if self._start_once(deadline):
                return self
            if self.port == 0 or time.monotonic() > deadline:
                raise HarnessError(f"{self.name} did not start:\n{self._log_tail()}")
            time.sleep(0.3)  # the old port may still be held for a moment after a kill: try again

    def serve_argv(self) -> list[str]:
        """The command that serves this Fieldbook on its port."""
        return [str(binary_path()), "serve", "--port", str(self.port), "--data", str(self.data_dir),
                "--resources", str(REPO_ROOT), "--log-level", "info", *self.serve_args]

    def _start_once(self, deadline: float) -> bool:
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        argv = self.serve_argv()
        log = open(self.log_path, "ab")
        log.write(f"\n=== {' '.join(argv)}\n".encode())
        log.flush()
        self.process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        env={**process_environment(), **self.serve_env})
        log.close()
        while time.monotonic() < deadline:
            text = self.log_path.read_bytes()[offset:].decode(errors="replace")
            match = SERVING_LINE.search(text)
            if match:
                self.port = int(match.group(1).rsplit(":", 1)[1])
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.05)
        self.kill9()
        return False

    def stop(self, timeout: float = 15) -> int | None:
        """SIGTERM and wait (SIGKILL if it hangs); returns the exit status."""
        if not self.process:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise HarnessError(f"{self.name} did not stop within {timeout} s of SIGTERM")
        return self.process.returncode

    def kill9(self):
        """SIGKILL: no chance to flush, finish a transaction or say goodbye."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def restart(self, timeout: float = 60) -> "Node":
        """Starts again on the same data folder, port and options (stopping it first if it runs)."""
        if self.running:
            self.stop()
        return self.start(*self.serve_args, timeout=timeout)

    def _log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return "(no log)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    # API ---------------------------------------------------------------------------------------------------------

    def api(self, email: str, password: str) -> "ApiClient":
        """A signed-in JSON API client for this node (cached per account)."""
        key = (email, password)
        if key not in self._clients:
            self._clients[key] = ApiClient(self, email, password)
        return self._clients[key]

    def health(self, timeout: float = 5) -> int:
        return _session().get(self.url + "/api/v1/health", timeout=timeout).status_code

    # Database ----------------------------------------------------------------------------------------------------

    def connect_readonly(self) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)

    def change_log_end(self) -> int:
        """The number of the last change in this Fieldbook's change log (what nodes pull)."""
        with self.connect_readonly() as db:
            return db.execute("SELECT COALESCE(MAX(seq), 0) FROM change_log").fetchone()[0]

    def saved_cursor(self) -> int:
        """The change log position this node has committed its pull up to (0 before its first batch)."""
        with self.connect_readonly() as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'sync.cursor'").fetchone()
        return int(row[0]) if row else 0

    def photo_file(self, sha: str) -> bytes | None:
        """The contents of a photo file this Fieldbook holds, or None."""
        path = self.data_dir / "photos" / sha[:2] / f"{sha}.jpg"
        return path.read_bytes() if path.is_file() else None

    def count(self, table: str, where: str = "1", args: tuple = ()) -> int:
        with self.connect_readonly() as db:
            return db.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}", args).fetchone()[0]

    def snapshot(self) -> dict[str, dict[str, dict]]:
        """Every synced table as {table: {id: {column: value}}}, without node-local columns, read in one transaction."""
        db = self.connect_readonly()
        try:
            db.execute("BEGIN")
            return {table: _table_rows(db, table) for table in SYNCED_TABLES}
        finally:
            db.close()


def _table_rows(db: sqlite3.Connection, table: str) -> dict[str, dict]:
    columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})") if row[1] not in NODE_LOCAL_COLUMNS]
    rows = {}
    for values in db.execute(f"SELECT {', '.join(columns)} FROM {table}"):
        row = dict(zip(columns, values))
        if row.get("is_predefined"):
            for column in PREDEFINED_LOCAL_COLUMNS:
                row.pop(column, None)
        rows[row["id"]] = row
    return rows


def snapshot_differences(a: dict, b: dict, a_name: str = "a", b_name: str = "b", limit: int = 20) -> list[str]:
    """Readable differences between two snapshots (empty when equal)."""
    out = []
    for table in SYNCED_TABLES:
        rows_a, rows_b = a.get(table, {}), b.get(table, {})
        for key in sorted(rows_a.keys() - rows_b.keys()):
            out.append(f"{table} {key}: only on {a_name}: {rows_a[key]}")
        for key in sorted(rows_b.keys() - rows_a.keys()):
            out.append(f"{table} {key}: only on {b_name}: {rows_b[key]}")
        for key in sorted(rows_a.keys() & rows_b.keys()):
            if rows_a[key] != rows_b[key]:
                diff = {c: (rows_a[key].get(c), rows_b[key].get(c)) for c in rows_a[key].keys() | rows_b[key].keys()
                        if rows_a[key].get(c) != rows_b[key].get(c)}
                out.append(f"{table} {key}: {a_name} vs {b_name}: {diff}")
    return out[:limit] + ([f"... and {len(out) - limit} more"] if len(out) > limit else [])


def _session() -> requests.Session:
    session = requests.Session()
    session.trust_env = False  # never through an http_proxy from the environment: everything is on loopback
    return session


class ApiError(AssertionError):
    """An API call answered with an unexpected status."""


class ApiClient:
    """The JSON API of one node, signed in with bearer tokens. The record helpers below are the one place that
    knows the API's body shapes; if they change, change them here."""

    def __init__(self, node: Node, email: str, password: str):
        self.node, self.email, self.password = node, email, password
        self.session = _session()
        self.token: str | None = None

    def login(self):
        answer = self.session.post(self.node.url + "/api/v1/auth/login",
                                   json={"email": self.email, "password": self.password}, timeout=30)
        if answer.status_code != 200:
            raise ApiError(f"{self.node.name}: login as {self.email} answered {answer.status_code}: {answer.text[:500]}")
        self.token = answer.json()["access_token"]

    def request(self, method: str, path: str, body=None, expect=(200, 201, 202, 204), timeout: float = 60):
        """Sends one request (signing in first, and again once if the token expired); returns the decoded JSON."""
        for attempt in (1, 2):
            if self.token is None:
                self.login()
            answer = self.session.request(method, self.node.url + path, json=body, timeout=timeout,
                                          headers={"Authorization": f"Bearer {self.token}"})
            if answer.status_code == 401 and attempt == 1:
                self.token = None
                continue
            break
        if answer.status_code not in expect:
            raise ApiError(f"{self.node.name}: {method} {path} {body!r} answered {answer.status_code}: {answer.text[:800]}")
        if method != "GET":
            self.node.last_edit_at = time.time()
        return answer.json() if answer.content else None

    # Sync controls ------------------------------------------------------------------------------------------------

    def sync_status(self) -> dict:
        return self.request("GET", "/api/v1/sync/status")

    def sync_run(self):
        """"Sync now": wakes the node's sync thread."""
        before = self.node.last_edit_at
        self.request("POST", "/api/v1/sync/run", expect=(200,))
        self.node.last_edit_at = before  # waking the sync is not an edit

    def conflicts(self) -> list[dict]:
        return self.request("GET", "/api/v1/sync/conflicts")["items"]

    # Records ------------------------------------------------------------------------------------------------------

    RESOURCES = {"participant": "participants", "venue": "venues", "area": "areas", "activity": "activities",
                 "activity_type": "activity-types", "role": "roles", "visit_list": "visit-lists", "user": "users"}

    def create(self, kind: str, fields: dict) -> dict:
        return self.request("POST", f"/api/v1/{self.RESOURCES[kind]}", fields)

    def get(self, kind: str, record_id: str) -> dict:
        return self.request("GET", f"/api/v1/{self.RESOURCES[kind]}/{record_id}")

    def update(self, kind: str, record_id: str, fields: dict, version: int | None = None) -> dict:
        """PATCH the given fields, made on `version` (read from the node first when not given)."""
        if version is None:
            version = self.get(kind, record_id)["version"]
        return self.request("PATCH", f"/api/v1/{self.RESOURCES[kind]}/{record_id}", {**fields, "version": version})

    def delete(self, kind: str, record_id: str):
        return self.request("DELETE", f"/api/v1/{self.RESOURCES[kind]}/{record_id}")

    def create_area(self, name: str, area_type: str = "CITY", parent_id: str | None = None) -> dict:
        return self.create("area", {"name": name, "area_type": area_type, "parent_id": parent_id})

    def create_venue(self, name: str, address: str, area_id: str) -> dict:
        return self.create("venue", {"name": name, "address": address, "geographic_area_id": area_id})

    def create_participant(self, name: str, email: str, phone: str | None = None, notes: str | None = None,
                           home_venue_id: str | None = None) -> dict:
        return self.create("participant", {"name": name, "email": email, "phone": phone, "notes": notes,
                                           "home_venue_id": home_venue_id})

    def create_user(self, name: str, email: str, password: str, role: str = "editor") -> dict:
        return self.create("user", {"name": name, "email": email, "password": password, "role": role})

    def create_visit_list(self, name: str, visit_date: str, assigned_user_id: str, purpose: str = "") -> dict:
        return self.create("visit_list", {"name": name, "visit_date": visit_date, "purpose": purpose,
                                          "assigned_user_id": assigned_user_id, "status": "PLANNED"})

    def add_stop(self, list_id: str, venue_id: str, participant_id: str | None = None) -> dict:
        return self.request("POST", f"/api/v1/visit-lists/{list_id}/stops", {"venue_id": venue_id, "participant_id": participant_id})

    def log_contact(self, list_id: str, stop_id: str, result: str, note: str = "") -> dict:
        return self.request("POST", f"/api/v1/visit-lists/{list_id}/stops/{stop_id}/logs", {"result": result, "note": note})


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Pages:
    """A browser's session on one node's pages: signed in through the login form, each form posted with its token."""

    def __init__(self, node: Node, account: "Account"):
        self.node, self.session = node, _session()
        token = self.token("/login")
        answer = self.session.post(node.url + "/login", data={"email": account.email, "password": account.password,
                                                              "csrf_token": token}, allow_redirects=False, timeout=30)
        assert answer.status_code == 303, answer.text[:500]

    def get(self, path: str) -> requests.Response:
        return self.session.get(self.node.url + path, allow_redirects=False, timeout=30)

    def token(self, path: str) -> str:
        page = self.session.get(self.node.url + path, timeout=30)
        assert page.status_code == 200, f"{path}: {page.status_code}"
        return CSRF.search(page.text).group(1)

    def post(self, path: str, form_path: str, data: dict, files: dict | None = None):
        return self.session.post(self.node.url + path, data={**data, "csrf_token": self.token(form_path)}, files=files,
                                 allow_redirects=False, timeout=60)


@dataclass
class Account:
    email: str
    password: str
    role: str = "administrator"


@dataclass
class Cluster:
    """The processes of one test; stops every one of them at the end."""

    workdir: Path
    nodes: dict[str, Node] = field(default_factory=dict)
    proxies: list = field(default_factory=list)
    # Called after every process has stopped (a PostgreSQL cluster the test started, for one).
    closers: list = field(default_factory=list)

    def node(self, name: str) -> Node:
        self.nodes[name] = Node(name, self.workdir)
        return self.nodes[name]

    def close(self):
        for proxy in self.proxies:
            proxy.stop()
        for node in self.nodes.values():
            try:
                node.stop(timeout=10)
            except HarnessError:
                pass
        for close in reversed(self.closers):
            close()

    def logs(self) -> str:
        return "\n".join(f"--- {n.name} ({n.log_path})\n{n._log_tail(60)}" for n in self.nodes.values())


def parse_time(text: str | None) -> float | None:
    if not text:
        return None
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def wait_until(condition, timeout: float, interval: float = 0.2, message: str = "condition"):
    """Polls condition() until it returns something truthy; returns that, or fails after timeout seconds."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except (requests.RequestException, sqlite3.Error, ApiError) as error:
            last_error = error
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {message}" + (f" (last error: {last_error})" if last_error else ""))


def wait_converged(nodes: list[tuple[Node, ApiClient]], hub: Node, timeout: float = 60, since: float | None = None,
                   nudge_every: float | None = 3.0) -> dict:
    """Waits until every node has nothing pending, has synced successfully after the last edit anywhere (`since`),
    and holds exactly the hub's synced rows. Wakes the nodes' sync ("Sync now") every nudge_every seconds.
    Returns the hub's snapshot; fails with the differences and statuses when the time runs out."""
    if since is None:
        since = max([hub.last_edit_at] + [node.last_edit_at for node, _ in nodes])
    deadline = time.monotonic() + timeout
    next_nudge = 0.0
    statuses: dict[str, dict] = {}
    differences: list[str] = []
    while True:
        now = time.monotonic()
        if nudge_every is not None and now >= next_nudge:
            for node, client in nodes:
                _quietly(client.sync_run)
            next_nudge = now + nudge_every
        ready = True
        for node, client in nodes:
            status = _quietly(client.sync_status)
            statuses[node.name] = status
            last = parse_time(status.get("last_successful_sync")) if status else None
            if not status or status.get("pending_operations") != 0 or last is None or last <= since:
                ready = False
        if ready:
            hub_snapshot = hub.snapshot()
            differences = []
            for node, _ in nodes:
                differences += snapshot_differences(hub_snapshot, node.snapshot(), hub.name, node.name)
            if not differences:
                return hub_snapshot
        if time.monotonic() > deadline:
            raise AssertionError(f"not converged after {timeout} s\nstatuses: {statuses}\ndifferences:\n" + "\n".join(differences))
        time.sleep(0.3)


def _quietly(call):
    try:
        return call()
    except (requests.RequestException, ApiError):
        return None


# Topology: a hub and nodes linked to it -------------------------------------------------------------------------

HUB_ADMIN = Account("hub-admin@example.org", "hub admin password 1")


def node_admin(name: str) -> Account:
    """Each node's own administrator, created before linking so its API works before the first sync."""
    return Account(f"{name}-admin@example.org", f"{name} admin password 1")


HUB_KINDS = ("sqlite", "postgres")


def start_hub(cluster: Cluster, name: str = "hub", demo: dict | None = None, kind: str = "sqlite") -> tuple[Node, ApiClient]:
    """A hub with its administrator (and demo data if asked), serving, and the administrator's API on it.
    kind "sqlite": a Fieldbook (any Fieldbook can be a hub). kind "postgres": `fieldbook hub` on a throwaway PostgreSQL
    cluster, with a head office node beside it whose API stands for the hub's (postgres_hub.start_postgres_hub_with_office)."""
    if kind == "postgres":
        from postgres_hub import start_postgres_hub_with_office  # postgres_hub builds on this module
        return start_postgres_hub_with_office(cluster, name, demo)
    assert kind == "sqlite", kind
    hub = cluster.node(name)
    hub.create_user(HUB_ADMIN.email, HUB_ADMIN.password)
    if demo:
        hub.demo_data(**demo)
    hub.start()
    return hub, hub.api(HUB_ADMIN.email, HUB_ADMIN.password)


def start_linked_node(cluster: Cluster, name: str, upstream: str, sync_interval: int = 2,
                      start: bool = True) -> tuple[Node, ApiClient]:
    """A node with its own administrator, linked (while stopped) to `upstream` with the hub administrator's account."""
    node = cluster.node(name)
    account = node_admin(name)
    node.create_user(account.email, account.password)
    node.link(upstream, HUB_ADMIN.email, HUB_ADMIN.password)
    node.serve_args = ["--sync-interval", str(sync_interval)]
    if start:
        node.start(*node.serve_args)
    return node, node.api(account.email, account.password)
