"""Sync under faults, with real processes: a node behind the fault proxy (resets mid-response, duplicated requests,
delays, drops), a node killed with SIGKILL in the middle of its first pull, and a hub killed in the middle of a push.
Each must converge with every record present exactly once."""

from collections import Counter
from urllib.parse import parse_qs, quote, urlsplit

from fault_proxy import FaultProxy
from harness import start_hub, start_linked_node, wait_converged, wait_until

SYNC = "/api/v1/sync/"
PUSH = "/api/v1/sync/push"
CHANGES = "/api/v1/sync/changes"


def proxy_to(cluster, node, **options) -> FaultProxy:
    proxy = FaultProxy("127.0.0.1", node.port, **options).start()
    cluster.proxies.append(proxy)
    return proxy


def wait_for_fault(api, proxy, action, path, already, timeout=30):
    """Wakes the node's sync until the proxy has injected one more `action` on `path`."""
    def happened():
        api.sync_run()
        return proxy.snapshot_stats().faults_on(action, path) > already
    wait_until(happened, timeout, interval=0.5, message=f"a {action} on {path}")


def exactly_once(snapshot, expected_names):
    counts = Counter(row["name"] for row in snapshot["participants"].values())
    return {name: counts[name] for name in expected_names if counts[name] != 1}


def test_two_hundred_edits_through_resets_duplicates_delays_and_drops_converge_once_each(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    proxy = proxy_to(cluster, hub, only_paths=(SYNC,), delay_ms=300, seed=4)
    node, api = start_linked_node(cluster, "node", proxy.url, sync_interval=1)
    wait_converged([(node, api)], hub, timeout=60)

    created, updated, deleted = [], [], []
    # Each round puts one fault on every sync request while the node edits and syncs, and waits until that fault
    # really hit a push; the last round mixes all of them from a seed.
    for round_number, mode in enumerate(["reset", "duplicate", "delay", "drop", "random"]):
        proxy.set_mode(mode)
        before = proxy.snapshot_stats()
        for i in range(24):
            created.append(api.create_participant(f"Faulty {round_number}-{i}", f"f{round_number}-{i}@example.org")["id"])
            if mode == "random" and i % 3 == 2:  # more, smaller pushes: more requests for the mix to hit
                sent = proxy.snapshot_stats().faults_on("sent", SYNC)
                api.sync_run()
                proxy.wait_for("sent", SYNC, count=sent + 1, timeout=5)
        for record_id in created[-24:-12]:
            api.update("participant", record_id, {"notes": f"updated in round {round_number}"})
            updated.append(record_id)
        for record_id in created[-4:]:
            api.delete("participant", record_id)
            deleted.append(record_id)
        if mode != "random":
            wait_for_fault(api, proxy, mode, PUSH, already=before.faults_on(mode, PUSH))
    assert len(created) + len(updated) + len(deleted) == 200

    snapshot = wait_converged([(node, api)], hub, timeout=120)

    stats = proxy.snapshot_stats()
    print("faults on pushes:", {a: stats.faults_on(a, PUSH) for a in ("sent", "reset", "duplicate", "delay", "drop")},
          "on pulls:", {a: stats.faults_on(a, CHANGES) for a in ("sent", "reset", "duplicate", "delay", "drop")})
    assert min(stats.faults_on("reset", PUSH), stats.faults_on("duplicate", PUSH), stats.faults_on("delay", PUSH),
               stats.faults_on("drop", PUSH)) > 0, vars(stats)
    kept = [r for r in created if r not in deleted]
    people = snapshot["participants"]
    assert set(kept) <= people.keys() and not set(deleted) & people.keys()
    assert not exactly_once(snapshot, [people[r]["name"] for r in kept])
    assert all(people[r]["notes"].startswith("updated in round") for r in updated if r in people)
    status = api.sync_status()
    assert status["failed_operations"] == 0 and status["conflicts"] == 0, status


def test_node_killed_in_the_middle_of_its_first_sync_resumes_and_converges(cluster, hub_kind):
    hub, _ = start_hub(cluster, demo={"participants": 3000, "activities": 500, "venues": 200}, kind=hub_kind)
    total = hub.count("participants")
    # Six or seven pages of changes, each held a second: a slow link, on which the node saves what it gathered every
    # 3 seconds rather than when its batch (40,000 changes, more than this whole log) is full.
    proxy = proxy_to(cluster, hub, mode="delay", delay_ms=1000, only_paths=(CHANGES,))
    node, api = start_linked_node(cluster, "node", proxy.url, sync_interval=2)

    last = hub.change_log_end()
    assert last > 3 * 2000, f"the hub's log ({last} changes) must span more pages than the node gathers in 3 seconds"

    # The node commits its pull a batch of pages at a time; killed after one batch and before the last, it has part
    # of the log and a saved cursor between the two ends.
    wait_until(lambda: 0 < node.saved_cursor() < last, 120, interval=0.02, message="the first pull to be under way")
    node.kill9()
    print(f"killed the node at cursor {node.saved_cursor()} of {last}, with {node.count('participants')} of {total} participants")
    pages_before = proxy.snapshot_stats().faults_on("sent", CHANGES)
    proxy.set_mode("pass")
    node.restart()

    snapshot = wait_converged([(node, api)], hub, timeout=150)
    assert len(snapshot["participants"]) == total
    pages = [path for action, _, path in proxy.snapshot_stats().events if action == "sent" and path.startswith(CHANGES)]
    resumed = pages[pages_before:]
    assert resumed, "the restarted node pulled nothing"
    cursor = parse_qs(urlsplit(resumed[0]).query).get("after", ["0"])[0]
    assert cursor != "0", f"the restarted node pulled from the start instead of from its saved cursor: {resumed[:3]}"


def indexes_and_triggers(node) -> set[str]:
    with node.connect_readonly() as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')")}


def test_a_first_sync_cut_off_part_way_builds_the_indexes_it_dropped_at_once(cluster, hub_kind):
    """A first sync drops the node's secondary and search indexes with its first page and builds them with its last
    (Storage/Schema/DeferredIndexes.swift). Cut off part way, the node must build them as its session ends, while it keeps
    running: not only at its next start."""
    fresh = cluster.node("fresh")
    fresh.create_user("fresh@example.org", "a fresh node's password")
    expected = indexes_and_triggers(fresh)
    assert "participants_name_id" in expected and "participants_fts_insert" in expected

    hub, _ = start_hub(cluster, demo={"participants": 3000, "activities": 500, "venues": 200}, kind=hub_kind)
    proxy = proxy_to(cluster, hub, mode="delay", delay_ms=1000, only_paths=(CHANGES,))
    node, api = start_linked_node(cluster, "node", proxy.url, sync_interval=2)
    last = hub.change_log_end()
    # A page already on its way when the cut begins still arrives: at least two must be left after the first batch.
    assert last > 3 * 2000, f"the hub's log ({last} changes) must span more pages than the node gathers in 3 seconds"

    wait_until(lambda: 0 < node.saved_cursor() < last, 120, interval=0.02, message="the first pull to be under way")
    assert "participants_name_id" not in indexes_and_triggers(node), "the first sync kept its indexes up row by row"
    proxy.set_mode("reset")
    wait_until(lambda: "participants_name_id" in indexes_and_triggers(node), 60, interval=0.1,
               message="the indexes back once the cut-off session ended")
    assert node.running and node.saved_cursor() < last, "the indexes came back only because the sync had finished"
    assert indexes_and_triggers(node) == expected

    proxy.set_mode("pass")
    snapshot = wait_converged([(node, api)], hub, timeout=150)
    assert len(snapshot["participants"]) == hub.count("participants")
    assert indexes_and_triggers(node) == expected
    name = next(iter(snapshot["participants"].values()))["name"]
    assert api.request("GET", "/api/v1/participants?q=" + quote(name))["total"] >= 1, f"{name}, pulled, is not found by search"


def kill_hub_mid_push(api, proxy, hub, count=300) -> list[str]:
    """Queues `count` new participants on the node behind `proxy` (its pushes dropped meanwhile), lets it push, and
    kills the hub with SIGKILL once the push has reached it; answers the names queued."""
    proxy.set_mode("drop")
    wanted = [f"Queued {i}" for i in range(count)]
    for name in wanted:
        api.create_participant(name, name.replace(" ", "").lower() + "@example.org")
    assert api.sync_status()["pending_operations"] >= count
    proxy.set_mode("pass")
    proxy.reset_stats()
    api.sync_run()
    assert proxy.wait_for("sent", PUSH, timeout=60), "the node never pushed"
    hub.kill9()
    pending_at_kill = api.sync_status()["pending_operations"]
    assert pending_at_kill > 0, "the push finished before the hub was killed: nothing was tested"
    print(f"killed {hub.name} with {pending_at_kill} operations pending on the node")
    return wanted


def test_hub_killed_in_the_middle_of_a_push_loses_and_doubles_nothing(cluster, hub_kind):
    hub, _ = start_hub(cluster, kind=hub_kind)
    proxy = proxy_to(cluster, hub, only_paths=(SYNC,))
    node, api = start_linked_node(cluster, "node", proxy.url, sync_interval=2)
    wait_converged([(node, api)], hub, timeout=60)

    wanted = kill_hub_mid_push(api, proxy, hub)

    hub.restart()
    snapshot = wait_converged([(node, api)], hub, timeout=90)
    assert not exactly_once(snapshot, wanted)
    print("hub's answers to the node's pushes after the restart:", proxy.snapshot_stats().faults_on("sent", PUSH))
    status = api.sync_status()
    assert status["failed_operations"] == 0 and status["conflicts"] == 0, status


REFRESH = "/api/v1/auth/refresh"


def test_token_refreshes_cut_off_mid_answer_do_not_lock_the_node_out(cluster, hub_kind):
    """The hub rotates the refresh token and the answer never arrives, twice in a row: each time the node retries with
    the token it holds, which the hub accepts as a retry of that rotation instead of treating it as a stolen copy."""
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    proxy = proxy_to(cluster, hub, only_paths=(REFRESH,), seed=7)
    node, api = start_linked_node(cluster, "node", proxy.url, sync_interval=1, start=False)
    # Exactly two answers cut, however fast sync is woken (every half second here).
    proxy.set_mode("reset", times=2)
    node.start(*node.serve_args)
    wait_for_fault(api, proxy, "reset", REFRESH, already=1)
    assert proxy.snapshot_stats().faults_on("reset", REFRESH) == 2

    made = api.create_participant("Made after the cut refresh", "after-cut@example.org")["id"]
    snapshot = wait_converged([(node, api)], hub, timeout=60)

    assert made in snapshot["participants"]
    assert api.sync_status()["failed_operations"] == 0
