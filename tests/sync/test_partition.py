"""A hub and two nodes as real processes on loopback: the first sync, and the partition scenario of issue 4
(edits everywhere while the hub is down, then everyone converges with nothing lost, nothing doubled, and every
losing edit listed on the conflicts of the node that made it)."""

from collections import Counter

from harness import node_admin, parse_time, start_hub, start_linked_node, wait_converged, wait_until


def names(snapshot, table="participants"):
    return Counter(row["name"] for row in snapshot[table].values())


def assert_each_once(snapshot, expected_names, table="participants"):
    counts = names(snapshot, table)
    wrong = {name: counts[name] for name in expected_names if counts[name] != 1}
    assert not wrong, f"records not present exactly once: {wrong}"


def test_first_sync_brings_the_hubs_records_to_both_nodes(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    area = hub_api.create_area("Riverside", "CITY")
    venue = hub_api.create_venue("Community hall", "1 River Road", area["id"])
    people = [hub_api.create_participant(f"Hub person {i}", f"hub{i}@example.org", home_venue_id=venue["id"] if i == 0 else None)
              for i in range(3)]
    one, one_api = start_linked_node(cluster, "one", hub.url)
    two, two_api = start_linked_node(cluster, "two", hub.url)

    snapshot = wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)

    for person in people:
        assert person["id"] in snapshot["participants"]
    assert area["id"] in snapshot["geographic_areas"] and venue["id"] in snapshot["venues"]
    office = [node_admin(hub.office.node.name).email] if hub_kind == "postgres" else []  # the head office node beside it
    assert {u["email"] for u in snapshot["users"].values()} == {
        "hub-admin@example.org", "one-admin@example.org", "two-admin@example.org", *office}
    for api in (one_api, two_api):
        status = api.sync_status()
        assert status["hub"] == "online" and status["failed_operations"] == 0 and status["conflicts"] == 0


def synced_once(api, node, since, timeout=60):
    """Wakes the node's sync and waits until it has pushed everything and finished a sync after `since`."""
    def done():
        # Looked at before waking it again: a sync woken just before would still be running when asked.
        status = api.sync_status()
        last = parse_time(status["last_successful_sync"])
        if status["pending_operations"] == 0 and last is not None and last > since and not status["syncing"]:
            return True
        api.sync_run()
        return False
    wait_until(done, timeout, interval=1.0, message=f"{node.name} to finish a sync")


def test_partition_edits_everywhere_converge_with_nothing_lost_or_doubled_and_conflicts_listed(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    area = hub_api.create_area("Lakeside", "CITY")
    venue = hub_api.create_venue("Library", "2 Lake Street", area["id"])
    base = {key: hub_api.create_participant(f"Base {key}", f"{key.lower()}@example.org") for key in ("P1", "P2", "P3", "P4")}
    one, one_api = start_linked_node(cluster, "one", hub.url, sync_interval=2)
    two, two_api = start_linked_node(cluster, "two", hub.url, sync_interval=2)
    wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)
    p1, p2, p3, p4 = (base[k]["id"] for k in ("P1", "P2", "P3", "P4"))

    # The hub goes down; both nodes keep working.
    hub.stop()
    created_one = [one_api.create_participant(f"Made on one {i}", f"one{i}@example.org")["id"] for i in range(3)]
    created_two = [two_api.create_participant(f"Made on two {i}", f"two{i}@example.org", home_venue_id=venue["id"])["id"]
                   for i in range(3)]
    one_venue = one_api.create_venue("Made on one: shed", "3 Lake Street", area["id"])
    one_api.update("participant", p1, {"phone": "555-0101"})           # different fields of P1 ...
    two_api.update("participant", p1, {"notes": "Notes from two"})     # ... merge
    one_api.update("participant", p2, {"name": "P2 named on one"})     # the same field of P2: one pushes first, wins
    two_api.update("participant", p2, {"name": "P2 named on two"})
    one_api.delete("participant", p3)                                  # delete on one, edit on two
    two_api.update("participant", p3, {"notes": "Two edited P3"})
    one_api.update("participant", p4, {"notes": "One edited P4"})      # edit on one, delete on two
    two_api.delete("participant", p4)
    wait_until(lambda: one_api.sync_status()["pending_operations"] >= 8, 10, message="one's queued operations")
    wait_until(lambda: two_api.sync_status()["pending_operations"] >= 7, 10, message="two's queued operations")
    wait_until(lambda: one_api.sync_status()["hub"] == "offline", 30, message="one to see the hub offline")

    # Two stops too, so that one reaches the hub first (the hub's order decides the same-field conflict).
    two.stop()
    hub.restart()
    hub_api.update("participant", p1, {"email": "p1-from-hub@example.org"})
    made_on_hub = hub_api.create_participant("Made on hub", "hub-made@example.org")["id"]
    synced_once(one_api, one, since=hub.last_edit_at)
    two.restart()
    synced_once(two_api, two, since=hub.last_edit_at)
    synced_once(one_api, one, since=two.last_edit_at)

    snapshot = wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)

    people = snapshot["participants"]
    assert_each_once(snapshot, [f"Made on one {i}" for i in range(3)] + [f"Made on two {i}" for i in range(3)] + ["Made on hub"])
    assert set(created_one + created_two + [made_on_hub]) <= people.keys()
    assert names(snapshot, "venues")["Made on one: shed"] == 1 and one_venue["id"] in snapshot["venues"]
    assert (people[p1]["phone"], people[p1]["notes"], people[p1]["email"]) == (
        "555-0101", "Notes from two", "p1-from-hub@example.org"), "edits to different fields all survive"
    assert people[p2]["name"] == "P2 named on one", "the first edit to reach the hub wins the field"
    assert p3 not in people, "the delete reached the hub first"
    assert people[p4]["notes"] == "One edited P4", "the edit reached the hub first; the later delete lost"

    assert one_api.conflicts() == [], "one pushed first: none of its edits lost"
    lost = {(c["entity"], c["entity_id"]): c for c in two_api.conflicts()}
    assert set(lost) == {("participant", p2), ("participant", p3), ("participant", p4)}, lost
    assert {"name": "name", "mine": "P2 named on two", "theirs": "P2 named on one"} in lost[("participant", p2)]["fields"]
    for api in (one_api, two_api):
        status = api.sync_status()
        assert status["failed_operations"] == 0 and status["pending_operations"] == 0
    assert two_api.sync_status()["conflicts"] == 3
