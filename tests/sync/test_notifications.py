"""Notifications across nodes, with real processes (issue 13): an assignment made on the hub reaches the assigned
person's notifications on their node after a sync, exactly once; reading it there reaches the hub; and the hub's
administrators hear once that a node linked."""

from harness import HUB_ADMIN, start_hub, start_linked_node, wait_converged, wait_until

ORGANIZER = ("organizer@example.org", "organizer password 1")
WORKSHOP = "0d2f3a10-0000-4000-8000-000000000001"
FACILITATOR = "0d2f3a20-0000-4000-8000-000000000003"


def notifications(api, kind=None):
    path = "/api/v1/notifications?per_page=500" + (f"&kind={kind}" if kind else "")
    return api.request("GET", path)


def test_an_assignment_made_on_the_hub_notifies_its_person_on_their_node_exactly_once(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    # The person is a participant and an account with the same email: that is how Fieldbook knows the assignment is theirs.
    person = hub_api.create_participant("Olu Organizer", ORGANIZER[0])
    hub_api.create_user("Olu Organizer", ORGANIZER[0], ORGANIZER[1], role="editor")
    activity = hub_api.create("activity", {"name": "Tuesday study circle", "activity_type_id": WORKSHOP, "start_date": "2026-01-05",
                                           "status": "ACTIVE"})
    one, one_api = start_linked_node(cluster, "one", hub.url)
    wait_converged([(one, one_api)], hub, timeout=60)

    hub_api.request("POST", f"/api/v1/activities/{activity['id']}/assignments", {"participant_id": person["id"], "role_id": FACILITATOR})
    organizer_on_node = one.api(*ORGANIZER)
    wait_until(lambda: notifications(organizer_on_node)["total"] > 0, 60, interval=0.5,
               message="the hub's notification to reach the node")
    # More syncs in both directions bring nothing twice.
    one_api.sync_run()
    wait_converged([(one, one_api)], hub, timeout=60)
    one_api.sync_run()
    wait_converged([(one, one_api)], hub, timeout=60)

    on_node = notifications(organizer_on_node)
    assert on_node["total"] == 1 and on_node["unread"] == 1, on_node
    told = on_node["items"][0]
    assert told["kind"] == "assigned_to_activity"
    assert told["text"] == "You were assigned to the activity “Tuesday study circle” as Facilitator."
    assert told["link"] == f"/activities/{activity['id']}"
    assert one.count("notifications") == hub.count("notifications")
    assert one.count("notifications", "kind = 'assigned_to_activity'") == 1
    assert hub.count("notifications", "kind = 'assigned_to_activity'") == 1

    # Read on the node, read everywhere after the next sync.
    organizer_on_node.request("POST", f"/api/v1/notifications/{told['id']}/read")
    wait_converged([(one, one_api)], hub, timeout=60)
    wait_until(lambda: notifications(hub.api(*ORGANIZER))["unread"] == 0, 30, interval=0.5, message="the read to reach the hub")

    # The hub's administrator heard once that each node linked, however often they synced since. Beside a PostgreSQL
    # hub, the head office node (where the administrator reads them) linked too.
    expected = 2 if hub_kind == "postgres" else 1
    one_api.sync_run()
    wait_converged([(one, one_api)], hub, timeout=60)
    assert hub.count("notifications", "kind = 'node_linked' AND user_id = (SELECT id FROM users WHERE email = ?)",
                     (HUB_ADMIN.email,)) == expected
    linked = notifications(hub_api, kind="node_linked")  # beside a PostgreSQL hub, read once the head office caught up
    assert linked["total"] == expected, linked
    assert all("signed in as " + HUB_ADMIN.email in item["text"] for item in linked["items"]), linked
