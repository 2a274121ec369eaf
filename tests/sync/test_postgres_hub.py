"""Nodes syncing through a hub on PostgreSQL (issue 17), all real processes: `fieldbook hub` on a throwaway PostgreSQL
15 cluster, nodes linked to it. Nodes cannot tell it from a SQLite hub: they link, push, pull and list conflicts the same
way (the other scenarios of tests/sync run against both kinds of hub through the `hub_kind` fixture). Two hub processes on one database serve nodes at once, and a hub process killed with SIGKILL in
the middle of a push loses and doubles nothing. A restart of PostgreSQL fails no request. A SQLite hub moved into PostgreSQL keeps its nodes syncing."""

import json
import re
import subprocess
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from fault_proxy import FaultProxy
import requests

from harness import (HUB_ADMIN, HarnessError, binary_path, process_environment, snapshot_differences, start_hub, start_linked_node,
                     wait_converged, wait_until)
from postgres_hub import PostgresHubProcess, PostgresServer, migrate_into, start_postgres_hub
from test_faults import kill_hub_mid_push
from test_partition import synced_once

@pytest.fixture
def postgres():
    server = PostgresServer()
    yield server
    server.close()


def exactly_once(snapshot, expected_names):
    counts = Counter(row["name"] for row in snapshot["participants"].values())
    return {name: counts[name] for name in expected_names if counts[name] != 1}


def test_nodes_sync_through_a_postgres_hub_and_a_losing_edit_is_listed_as_a_conflict(cluster, postgres):
    hub = start_postgres_hub(cluster, postgres)
    one, one_api = start_linked_node(cluster, "one", hub.url, sync_interval=2)
    two, two_api = start_linked_node(cluster, "two", hub.url, sync_interval=2)
    area = one_api.create_area("Riverside", "CITY")
    venue = one_api.create_venue("Community hall", "1 River Road", area["id"])
    ann = one_api.create_participant("Ann Okafor", "ann@example.org", home_venue_id=venue["id"])
    snapshot = wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)
    assert ann["id"] in snapshot["participants"] and venue["id"] in snapshot["venues"]
    assert {u["email"] for u in snapshot["users"].values()} == {
        "hub-admin@example.org", "one-admin@example.org", "two-admin@example.org"}

    # With the hub down, both nodes change Ann's phone. One syncs first when the hub is back, so two's edit loses.
    hub.stop()
    one_api.update("participant", ann["id"], {"phone": "555-0100"})
    two_api.update("participant", ann["id"], {"phone": "555-0199"})
    two.stop()
    hub.start()
    synced_once(one_api, one, since=one.last_edit_at)
    two.start(*two.serve_args)
    snapshot = wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)
    assert snapshot["participants"][ann["id"]]["phone"] == "555-0100"
    conflicts = two_api.conflicts()
    assert [(c["entity_id"], [f["name"] for f in c["fields"]]) for c in conflicts] == [(ann["id"], ["phone"])], conflicts
    assert one_api.conflicts() == []

    # A deletion on one node reaches the other, and the hub keeps it.
    one_api.delete("participant", ann["id"])
    snapshot = wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)
    assert ann["id"] not in snapshot["participants"]


def test_two_hub_processes_serve_nodes_and_one_killed_mid_push_loses_and_doubles_nothing(cluster, postgres):
    first = start_postgres_hub(cluster, postgres, "hub-a")
    second = start_postgres_hub(cluster, postgres, "hub-b", admin=False)
    proxy = FaultProxy("127.0.0.1", first.port, only_paths=("/api/v1/sync/",)).start()
    cluster.proxies.append(proxy)
    one, one_api = start_linked_node(cluster, "one", proxy.url, sync_interval=2)
    two, two_api = start_linked_node(cluster, "two", second.url, sync_interval=2)
    wait_converged([(one, one_api), (two, two_api)], second, timeout=60)

    from_two = [f"From two {i}" for i in range(20)]
    for name in from_two:
        two_api.create_participant(name, name.replace(" ", "").lower() + "@example.org")
    wanted = kill_hub_mid_push(one_api, proxy, first)

    first.restart()
    snapshot = wait_converged([(one, one_api), (two, two_api)], second, timeout=90)
    assert not exactly_once(snapshot, wanted + from_two)
    for api in (one_api, two_api):
        status = api.sync_status()
        assert status["failed_operations"] == 0 and status["conflicts"] == 0, status
    applied = int(postgres.psql("SELECT count(*) FROM applied_operations").strip())
    assert applied >= len(wanted) + len(from_two)


def test_a_restart_of_postgresql_fails_no_request_on_the_hub(cluster, postgres):
    hub = start_postgres_hub(cluster, postgres)
    admin = hub.api(HUB_ADMIN.email, HUB_ADMIN.password)

    def read_changes(_=None):
        return admin.request("GET", "/api/v1/sync/changes?after=0&limit=50")

    read_changes()
    # Requests at once leave several connections idle in the hub's pool.
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(read_changes, range(48)))
    held = int(postgres.psql("SELECT count(*) FROM pg_stat_activity WHERE usename = 'fieldbook'").strip())
    assert held >= 2, f"the hub held {held} connections; the test needs idle ones to mean anything"

    # As in a failover, the server ends every connection; the hub's idle ones are now closed at the other end.
    postgres.restart()
    # Each request would fail (500) on a connection the server had ended; request() raises on any status but 200.
    for _ in range(held + 4):
        read_changes()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(read_changes, range(32)))


def test_a_sqlite_hub_moved_into_postgres_keeps_its_nodes_syncing_without_linking_again(cluster, postgres):
    hub, hub_api = start_hub(cluster)
    one, one_api = start_linked_node(cluster, "one", hub.url, sync_interval=2)
    two, two_api = start_linked_node(cluster, "two", hub.url, sync_interval=2)
    kept = [one_api.create_participant(f"Before {i}", f"before{i}@example.org") for i in range(5)]
    gone = two_api.create_participant("Gone soon", "gone@example.org")
    wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)
    one_api.delete("participant", gone["id"])
    before = wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)
    cursors = {node.name: node.saved_cursor() for node in (one, two)}
    # A hub still serving is not moved: what it accepted afterwards would be left behind.
    with pytest.raises(HarnessError, match="is still serving. Stop it"):
        migrate_into(postgres, hub.data_dir)
    hub.stop()

    print(migrate_into(postgres, hub.data_dir))
    # The new hub takes the old one's address; the nodes keep their links, tokens and cursors.
    moved = PostgresHubProcess("postgres-hub", cluster.workdir, postgres)
    moved.port = hub.port
    cluster.nodes[moved.name] = moved
    moved.start()
    assert snapshot_differences(before, moved.snapshot(), "sqlite hub", "postgres hub") == []

    # An operation the old hub applied, pushed again (its answer lost before the move), gets the answer it got then.
    with hub.connect_readonly() as db:
        operation_id, first_answer = db.execute("SELECT operation_id, result FROM applied_operations LIMIT 1").fetchone()
    replay = {"operation_id": operation_id, "operation": "create", "entity": "participant", "entity_id": str(uuid.uuid4()),
              "fields": {"name": "Replayed", "email": "replayed@example.org"}, "before": {}, "base_version": 0,
              "author": "system:test", "created_at": "2026-01-01T00:00:00.000Z"}
    answer = moved.api(HUB_ADMIN.email, HUB_ADMIN.password).request(
        "POST", "/api/v1/sync/push", {"node_id": str(uuid.uuid4()), "operations": [replay]}, expect=(200,))
    assert answer["results"] == [json.loads(first_answer)]
    assert "Replayed" not in {row["name"] for row in moved.snapshot()["participants"].values()}

    after_one = one_api.create_participant("After on one", "after1@example.org")
    two_api.update("participant", kept[0]["id"], {"phone": "555-0123"})
    snapshot = wait_converged([(one, one_api), (two, two_api)], moved, timeout=60)
    assert after_one["id"] in snapshot["participants"] and gone["id"] not in snapshot["participants"]
    assert snapshot["participants"][kept[0]["id"]]["phone"] == "555-0123"
    for node in (one, two):
        assert node.saved_cursor() > cursors[node.name], f"{node.name} did not carry on from its cursor"
    for api in (one_api, two_api):
        status = api.sync_status()
        assert status["hub"] == "online" and status["failed_operations"] == 0 and status["conflicts"] == 0, status


def test_a_postgres_hub_given_a_certificate_serves_https(postgres, tmp_path):
    """`fieldbook hub --tls-cert --tls-key` serves as serve does with an organization's certificate."""
    certificate, key = tmp_path / "hub.pem", tmp_path / "hub-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key),
                    "-out", str(certificate), "-days", "1", "-subj", "/CN=hub.example", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    hub = subprocess.Popen([str(binary_path()), "hub", "--database-url", postgres.url, "--port", "0", "--tls-cert", str(certificate),
                            "--tls-key", str(key)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=process_environment())
    try:
        said = ""
        while not (serving := re.search(r"serving at (https://127\.0\.0\.1:\d+)/", said)):
            line = hub.stdout.readline()
            assert line, f"the hub stopped: {said}"
            said += line
        answer = requests.get(serving.group(1) + "/api/v1/health", verify=str(certificate), timeout=30)
        assert answer.status_code == 200, answer.text
    finally:
        hub.terminate()
        hub.wait(timeout=30)
