"""The hub's live changes stream (issue 15): nodes hold a long poll of the hub's change log open, so an edit on one
online node reaches another within two seconds, although both sync on a five-minute interval. When the stream is
cut, the interval still brings the edit; when it comes back, edits are live again. The fault proxy cuts only the long
polls (their path starts with `changes?wait=`), so the fallback is the engine's interval and nothing else."""

import time

import pytest

from fault_proxy import FaultProxy
from harness import start_hub, start_linked_node, wait_converged, wait_until

# The two-second bound is the product's, measured on real processes: these run on their own, after the scenarios that
# share the machine (Makefile, sync-tests), so that no other scenario's processes take the cores they measure on.
pytestmark = pytest.mark.latency

LONG_POLL = "/api/v1/sync/changes?wait="
SLOW_INTERVAL = 300  # far longer than any wait below: only the stream can explain a fast arrival


def arrival_seconds(source_api, target, name: str, timeout: float) -> float:
    """Creates a participant through `source_api` and returns how long until `target`'s database holds it."""
    started = time.monotonic()
    source_api.create_participant(name, f"{name.lower().replace(' ', '.')}@example.org")
    wait_until(lambda: target.count("participants", "name = ?", (name,)) == 1, timeout, interval=0.05,
               message=f"{name} to reach {target.name}")
    return time.monotonic() - started


def test_an_edit_on_one_online_node_reaches_another_within_two_seconds(cluster, hub_kind):
    hub, _ = start_hub(cluster, kind=hub_kind)
    one, one_api = start_linked_node(cluster, "one", hub.url, sync_interval=SLOW_INTERVAL)
    two, two_api = start_linked_node(cluster, "two", hub.url, sync_interval=SLOW_INTERVAL)
    wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)
    time.sleep(2)  # both listeners past their first-sync pause and holding a poll

    latencies = []
    for round_number in range(3):
        latencies.append(arrival_seconds(one_api, two, f"Live one {round_number}", timeout=10))
        latencies.append(arrival_seconds(two_api, one, f"Live two {round_number}", timeout=10))
    print("seconds from an edit on one node to its arrival on the other:", [round(s, 2) for s in latencies])
    assert max(latencies) <= 2.0, latencies


def test_with_the_stream_cut_the_interval_still_syncs_and_the_stream_comes_back(cluster, hub_kind):
    hub, _ = start_hub(cluster, kind=hub_kind)
    proxy = FaultProxy("127.0.0.1", hub.port).start()
    cluster.proxies.append(proxy)
    one, one_api = start_linked_node(cluster, "one", hub.url, sync_interval=SLOW_INTERVAL)
    two, two_api = start_linked_node(cluster, "two", proxy.url, sync_interval=10)
    wait_converged([(one, one_api), (two, two_api)], hub, timeout=60)

    # Only the long polls are cut; pushes and ordinary pulls pass.
    proxy.set_mode("drop", only_paths=(LONG_POLL,))
    assert proxy.wait_for("drop", LONG_POLL, timeout=30), "the node never polled the hub's changes"
    # A poll the hub was already holding when the cut began passes when it is answered (the proxy counts it then); the
    # node polls again only after that one, so once one poll was dropped none from before the cut is left.
    proxy.reset_stats()
    seconds = arrival_seconds(one_api, two, "Fallback person", timeout=25)
    print(f"with the stream cut, the edit arrived after {seconds:.1f} s (interval 10 s)")
    assert proxy.snapshot_stats().faults_on("pass", LONG_POLL) == 0, "a long poll got through while they were cut"

    proxy.set_mode("pass", only_paths=None)
    proxy.reset_stats()
    # The listener retries after its pause (at most 30 s); a poll that got through is recorded once answered, at the
    # latest when the hub's 25 s hold ends. The next one is then held, and edits are live again.
    assert proxy.wait_for("pass", LONG_POLL, timeout=90), "the node's long poll never passed the proxy again"
    latencies = [arrival_seconds(one_api, two, f"Back live {n}", timeout=15) for n in range(3)]
    print("with the stream back, seconds to arrive:", [round(s, 2) for s in latencies])
    assert max(latencies) <= 2.0, latencies
