"""Field visits across real processes (issue 12): a visit list made on the hub reaches the organizer's node, and the
contact logs the organizer makes there while the hub is down arrive after it returns, once each; a log made on the hub
about the same stop meanwhile is kept beside them (logs are append-only, so they never conflict)."""

import datetime as dt

from harness import start_hub, start_linked_node, wait_converged, wait_until

ORGANIZER = ("organizer@example.org", "organizer password 1")


def test_a_list_reaches_the_node_and_logs_made_offline_arrive_once_each(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    area = hub_api.create_area("Riverside", "CITY")
    venue = hub_api.create("venue", {"name": "Green house", "address": "4 River Road", "geographic_area_id": area["id"],
                                     "coordinates": {"latitude": -1.29, "longitude": 36.82}})
    person = hub_api.create_participant("Amina Odhiambo", "amina@example.org", home_venue_id=venue["id"])
    organizer = hub_api.create_user("Olu Organizer", *ORGANIZER)
    today = dt.date.today().isoformat()
    visit_list = hub_api.create_visit_list("Riverside doors", today, organizer["id"], purpose="Invite to the festival")
    stop = hub_api.add_stop(visit_list["id"], venue["id"], person["id"])
    hall_stop = hub_api.add_stop(visit_list["id"], venue["id"])

    node, node_admin_api = start_linked_node(cluster, "field", hub.url, sync_interval=1)
    snapshot = wait_converged([(node, node_admin_api)], hub, timeout=90)
    assert visit_list["id"] in snapshot["visit_lists"] and {stop["id"], hall_stop["id"]} <= set(snapshot["visit_stops"])

    # The organizer signs in on the node with the account the hub made, and sees the list there.
    organizer_api = node.api(*ORGANIZER)
    mine = organizer_api.request("GET", f"/api/v1/visit-lists?assigned_user_id={organizer['id']}&from={today}")
    assert [item["id"] for item in mine["items"]] == [visit_list["id"]]

    hub.stop()
    results = ["NOT_HOME", "FOLLOW_UP", "MET"]
    logs = [organizer_api.log_contact(visit_list["id"], stop["id"] if i != 1 else hall_stop["id"], result, f"door {i}")
            for i, result in enumerate(results)]
    status = node_admin_api.sync_status()
    assert status["pending_operations"] >= len(logs), status  # the logs (and the list's start) wait in the queue

    hub.restart()
    hub_log = hub_api.log_contact(visit_list["id"], stop["id"], "REFUSED", "from the hub")
    snapshot = wait_converged([(node, node_admin_api)], hub, timeout=90)

    on_hub = snapshot["contact_logs"]
    assert set(on_hub) == {log["id"] for log in logs} | {hub_log["id"]}, "every log once, none merged away"
    assert sorted(row["result"] for row in on_hub.values()) == sorted(results + ["REFUSED"])
    with hub.connect_readonly() as db:
        assert db.execute("SELECT COUNT(*) FROM contact_logs").fetchone()[0] == 4
        assert db.execute("SELECT status FROM visit_lists WHERE id = ?", (visit_list["id"],)).fetchone()[0] == "IN_PROGRESS"
    final = node_admin_api.sync_status()
    assert final["failed_operations"] == 0 and final["conflicts"] == 0, final
    stops = hub_api.request("GET", f"/api/v1/visit-lists/{visit_list['id']}/stops")["items"]
    assert {item["id"]: item["log_count"] for item in stops} == {stop["id"]: 3, hall_stop["id"]: 1}
