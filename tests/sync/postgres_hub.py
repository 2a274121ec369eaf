"""A sync hub on PostgreSQL for the multi-process tests: a throwaway PostgreSQL 15 cluster (scripts/postgres-cluster.sh:
initdb and pg_ctl as the postgres user, in a temporary folder, on a free port) and `fieldbook hub` processes on it.
A hub process is a harness Node whose command is `fieldbook hub` and whose snapshot is read from PostgreSQL, so
wait_converged and the node helpers work with it unchanged."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from harness import HUB_ADMIN, PREDEFINED_LOCAL_COLUMNS, REPO_ROOT, Cluster, HarnessError, Node, binary_path, process_environment

SCRIPT = REPO_ROOT / "scripts/postgres-cluster.sh"
PSQL = "/usr/lib/postgresql/15/bin/psql"

# Each kind's table on a node (Sources/Storage/Kinds), for snapshots comparable with a node's.
TABLE_OF_ENTITY = {
    "activity_type": "activity_types", "participant_role": "participant_roles", "geographic_area": "geographic_areas",
    "venue": "venues", "participant": "participants", "participant_address": "participant_address_history",
    "activity": "activities", "activity_venue": "activity_venue_history", "assignment": "assignments", "user": "users",
    "visit_list": "visit_lists", "visit_stop": "visit_stops", "contact_log": "contact_logs", "notification": "notifications",
    "notification_preferences": "notification_preferences", "photo": "photos",
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

    def close(self):
        subprocess.run(["bash", str(SCRIPT), "stop", str(self.directory)], capture_output=True, timeout=60)
        shutil.rmtree(self.directory, ignore_errors=True)


class PostgresHubProcess(Node):
    """`fieldbook hub --database-url` on a free port; several may serve one database."""

    def __init__(self, name: str, workdir: Path, server: PostgresServer):
        super().__init__(name, workdir)
        self.server = server

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


def start_postgres_hub(cluster: Cluster, server: PostgresServer, name: str = "hub", admin: bool = True) -> PostgresHubProcess:
    """A hub process on `server`, with the hub administrator created first (once per database)."""
    hub = PostgresHubProcess(name, cluster.workdir, server)
    cluster.nodes[name] = hub
    if admin:
        hub.create_user(HUB_ADMIN.email, HUB_ADMIN.password)
    return hub.start()
