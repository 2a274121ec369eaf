"""The harness's own tests: what the sync scenarios build on works against today's binary."""

import pytest

from harness import SYNCED_TABLES, HarnessError, snapshot_differences, wait_converged


def test_a_node_starts_on_a_free_port_and_restarts_after_kill_9_on_the_same_port_and_data(cluster):
    node = cluster.node("one")
    node.create_user("admin@example.org", "a long password 1")
    node.start()
    assert node.port != 0 and node.health() == 200
    port, before = node.port, node.snapshot()
    node.kill9()
    assert not node.running
    node.restart()
    assert node.port == port and node.health() == 200
    assert node.snapshot() == before
    assert node.stop() == 0, "SIGTERM ends serve cleanly"


def test_snapshot_reads_every_synced_table_and_compares_nodes(cluster):
    one, two = cluster.node("one"), cluster.node("two")
    one.create_user("same@example.org", "a long password 1")
    two.create_user("other@example.org", "a long password 1")
    a, b = one.snapshot(), two.snapshot()
    assert set(a) == set(SYNCED_TABLES)
    assert a["activity_types"] and a["activity_types"] == b["activity_types"], \
        "predefined categories compare equal although each node seeded them at its own time"
    assert all("search_text" not in row for row in a["participants"].values())
    differences = snapshot_differences(a, b, "one", "two")
    assert len(differences) == 2 and all(d.startswith("users ") for d in differences), differences
    (user,) = a["users"].values()
    assert {"email", "role", "password_hash", "version", "created_at"} <= user.keys()


def test_demo_data_fills_a_node_the_snapshot_sees_all_of_it(cluster):
    node = cluster.node("demo")
    node.demo_data(participants=40, activities=8, venues=6)
    snapshot = node.snapshot()
    assert len(snapshot["participants"]) == 40 == node.count("participants")
    assert len(snapshot["activities"]) == 8 and len(snapshot["venues"]) == 6
    assert snapshot["participant_address_history"] and snapshot["assignments"]


def test_a_node_that_cannot_start_fails_with_its_log(cluster):
    node = cluster.node("broken")
    with pytest.raises(HarnessError, match="did not start"):
        node.start("--threads", "not-a-number", timeout=20)


def test_a_failing_command_reports_its_output(cluster):
    node = cluster.node("one")
    with pytest.raises(HarnessError, match="create-user"):
        node.create_user("not an email", "a long password 1")


class SettledClient:
    """Stands in for a node's API: says everything is pushed and synced just now."""

    def sync_run(self):
        pass

    def sync_status(self):
        return {"pending_operations": 0, "last_successful_sync": "2999-01-01T00:00:00.000Z"}


def test_wait_converged_fails_with_the_differences_when_data_differs(cluster):
    hub, node = cluster.node("hub"), cluster.node("node")
    hub.create_user("hub@example.org", "a long password 1")
    node.create_user("node@example.org", "a long password 1")
    with pytest.raises(AssertionError, match="not converged(.|\n)*users .*only on hub"):
        wait_converged([(node, SettledClient())], hub, timeout=1)
