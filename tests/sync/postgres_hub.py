"""A sync hub on PostgreSQL for the multi-process tests: a throwaway PostgreSQL 15 cluster (scripts/postgres-cluster.sh:
initdb and pg_ctl as the postgres user, in a temporary folder, on a free port) and `fieldbook hub` processes on it.
A hub process is a harness Node whose command is `fieldbook hub` and whose snapshot is read from PostgreSQL, so
wait_converged and the node helpers work with it unchanged."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from harness import (HUB_ADMIN, PREDEFINED_LOCAL_COLUMNS, REPO_ROOT, ApiClient, Cluster, HarnessError, Node, binary_path,
                     process_environment, start_linked_node, wait_converged, wait_until)

SCRIPT = REPO_ROOT / "scripts/postgres-cluster.sh"
PSQL = "/usr/lib/postgresql/15/bin/psql"

# Each kind's table on a node (Sources/Storage/Kinds), for snapshots comparable with a node's.
TABLE_OF_ENTITY = {
    "activity_type": "activity_types", "participant_role": "participant_roles", "geographic_area": "geographic_areas",
    "venue": "venues", "participant": "participants", "participant_address": "participant_address_history",
    "activity": "activities", "activity_venue": "activity_venue_history", "assignment": "assignments", "user": "users",
    "visit_list": "visit_lists", "visit_stop": "visit_stops", "contact_log": "contact_logs", "notification": "notifications",
    "notification_preferences": "notification_preferences", "photo": "photos", "participant_merge": "participant_merges",
}


class PostgresServer:
    """One throwaway cluster with a database "fieldbook"; `close` stops it and removes its folder."""

    def __init__(self):
        # Not under pytest's tmp_path: the postgres user must be able to reach the folder.
        self.directory = Path(tempfile.mkdtemp(prefix="fieldbook-pg-"))
        done = subprocess.run(["bash", str(SCRIPT), "start", str(self.directory)], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise HarnessError(f"could not start PostgreSQL: {done.stderr}{done.stdout}")
        self.url = done.stdout.strip()

    def psql(self, sql: str) -> str:
        port = str(urlsplit(self.url).port)
        done = subprocess.run([PSQL, "-X", "-At", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", "fieldbook",
                               "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise HarnessError(f"psql failed: {done.stderr}")
        return done.stdout

    def restart(self):
        """Stops the cluster, which ends every connection to it as a failover would, and starts it again."""
        done = subprocess.run(["bash", str(SCRIPT), "restart", str(self.directory)], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise HarnessError(f"could not restart PostgreSQL: {done.stderr}{done.stdout}")

    def close(self):
        subprocess.run(["bash", str(SCRIPT), "stop", str(self.directory)], capture_output=True, timeout=60)
        shutil.rmtree(self.directory, ignore_errors=True)


class PostgresHubProcess(Node):
    """`fieldbook hub --database-url` on a free port; several may serve one database."""

    def __init__(self, name: str, workdir: Path, server: PostgresServer):
        super().__init__(name, workdir)
        self.server = server
        self.office: ApiClient | None = None  # the head office node's administrator, when the scenario has one

    def api(self, email: str, password: str) -> ApiClient:
        """An account's API "on the hub": on the head office node, each edit waited for until the hub has it. Without
        a head office, a client of the hub process itself (sign-in and the sync endpoints are all it serves)."""
        if self.office is None:
            return super().api(email, password)
        key = (email, password)
        if key not in self._clients:
            self._clients[key] = HeadOfficeClient(self.office, self, email, password)
        return self._clients[key]

    def change_log_end(self) -> int:
        return int(self.server.psql("SELECT COALESCE(max(seq), 0) FROM records").strip())

    def photo_file(self, sha: str) -> bytes | None:
        held = self.server.psql(f"SELECT encode(bytes, 'hex') FROM photo_files WHERE sha256 = '{sha}'").strip()
        return bytes.fromhex(held) if held else None

    def connect_readonly(self) -> sqlite3.Connection:
        """The hub's live records copied into an in-memory SQLite database, a table per kind with a node's columns,
        so the checks that read a SQLite hub's tables read this hub's records the same way."""
        copy = sqlite3.connect(":memory:")
        snapshot = self.snapshot()
        with self.office.node.connect_readonly() if self.office else sqlite3.connect(":memory:") as node_schema:
            for table, rows in snapshot.items():
                columns = [row[1] for row in node_schema.execute(f"PRAGMA table_info({table})")]
                columns = list(dict.fromkeys(columns + [c for row in rows.values() for c in row])) or ["id"]
                copy.execute(f"CREATE TABLE {table} ({', '.join(columns)})")
                copy.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                                 [[_sqlite_value(row.get(c)) for c in columns] for row in rows.values()])
        return copy

    def serve_argv(self) -> list[str]:
        return [str(binary_path()), "hub", "--database-url", self.server.url, "--port", str(self.port), "--log-level", "info",
                *self.serve_args]

    def create_user(self, email: str, password: str, role: str = "administrator") -> str:
        done = subprocess.run([str(binary_path()), "create-user", "--database-url", self.server.url, "--email", email, "--role", role],
                              input=password + "\n", capture_output=True, text=True, env=process_environment(), timeout=60)
        if done.returncode != 0:
            raise HarnessError(f"create-user on the PostgreSQL hub exited {done.returncode}: {done.stdout}{done.stderr}")
        return done.stdout

    def snapshot(self) -> dict[str, dict[str, dict]]:
        """The hub's live records as {table: {id: row}}, the shape of a node's snapshot."""
        text = self.server.psql("SELECT coalesce(json_agg(json_build_object('entity', entity, 'id', id::text, "
                                "'version', version, 'fields', fields)), '[]') FROM records WHERE NOT deleted")
        tables: dict[str, dict] = {table: {} for table in TABLE_OF_ENTITY.values()}
        for record in json.loads(text):
            row = {**record["fields"], "id": record["id"], "version": record["version"]}
            if row.get("is_predefined"):
                for column in PREDEFINED_LOCAL_COLUMNS:
                    row.pop(column, None)
            tables[TABLE_OF_ENTITY[record["entity"]]][row["id"]] = row
        return tables


def _sqlite_value(value):
    return json.dumps(value) if isinstance(value, (dict, list)) else value


def start_postgres_hub(cluster: Cluster, server: PostgresServer, name: str = "hub", admin: bool = True) -> PostgresHubProcess:
    """A hub process on `server`, with the hub administrator created first (once per database)."""
    hub = PostgresHubProcess(name, cluster.workdir, server)
    cluster.nodes[name] = hub
    if admin:
        hub.create_user(HUB_ADMIN.email, HUB_ADMIN.password)
    return hub.start()


class HeadOfficeClient(ApiClient):
    """The hub administrator's API beside a PostgreSQL hub. That hub has no pages or record API (pages stay on nodes),
    so what a scenario does "on the hub" it does on the head office node linked to it: a read waits until the head
    office holds what the hub holds, and an edit counts as made on the hub once the head office has pushed it there."""

    def __init__(self, office_admin: ApiClient, hub: "PostgresHubProcess", email: str, password: str):
        super().__init__(office_admin.node, email, password)
        self.office_admin = office_admin  # sync status and "Sync now" are the head office administrator's
        self.hub = hub

    def request(self, method: str, path: str, body=None, expect=(200, 201, 202, 204), timeout: float = 60):
        about_records = not path.startswith("/api/v1/sync/")
        if method == "GET" and about_records and self.hub.running:
            wait_converged([(self.node, self.office_admin)], self.hub, timeout=60, since=time.time())
        conflicts_before = self.office_admin.sync_status()["conflicts"] if method != "GET" and about_records else 0
        answer = super().request(method, path, body, expect, timeout)
        if method != "GET" and about_records:
            self._wait_pushed(conflicts_before)
            self.hub.last_edit_at = time.time()
        return answer

    def _wait_pushed(self, conflicts_before: int):
        """Until the head office has pushed the edit; an edit the hub refused, or that lost a conflict there, was not
        made on the hub, and the scenario fails here rather than later."""
        def pushed():
            self.office_admin.sync_run()
            status = self.office_admin.sync_status()
            if status["failed_operations"] or status["conflicts"] > conflicts_before:
                raise HarnessError(f"the hub did not take an edit made at the head office as it was made: {status}")
            return status["pending_operations"] == 0
        wait_until(pushed, 60, interval=0.3, message="the head office to push its edit to the hub")


def start_postgres_hub_with_office(cluster: Cluster, name: str = "hub", demo: dict | None = None
                                   ) -> tuple["PostgresHubProcess", HeadOfficeClient]:
    """A PostgreSQL hub (its cluster stopped when the test ends) holding the hub administrator, and demo data if asked
    (made by `demo-data` in a SQLite folder and moved in with `hub-migrate`), with a head office node linked to it."""
    server = PostgresServer()
    cluster.closers.append(server.close)
    if demo:
        seed = Node(f"{name}-seed", cluster.workdir)
        seed.create_user(HUB_ADMIN.email, HUB_ADMIN.password)
        seed.demo_data(**demo)
        migrate_into(server, seed.data_dir)
    hub = start_postgres_hub(cluster, server, name, admin=not demo)
    office, office_api = start_linked_node(cluster, f"{name}-office", hub.url, sync_interval=1)
    wait_converged([(office, office_api)], hub, timeout=120)
    hub.office = office_api
    return hub, hub.api(HUB_ADMIN.email, HUB_ADMIN.password)


def migrate_into(server: PostgresServer, data_dir: Path) -> str:
    """`fieldbook hub-migrate` from a SQLite hub's data folder; returns what it printed."""
    done = subprocess.run([str(binary_path()), "hub-migrate", "--from", str(data_dir), "--database-url", server.url],
                          capture_output=True, text=True, env=process_environment(), timeout=300)
    if done.returncode != 0:
        raise HarnessError(f"hub-migrate exited {done.returncode}: {done.stdout}{done.stderr}")
    return done.stdout
