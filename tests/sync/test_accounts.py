"""Accounts across nodes, with real processes: a user made on the hub signs in on a node while the hub is down,
and a role changed on the hub applies on the node after its next sync."""

import os

import requests

from harness import ApiError, start_hub, start_linked_node, wait_converged, wait_until


def sign_in_status(node, email, password):
    answer = requests.post(node.url + "/api/v1/auth/login", json={"email": email, "password": password}, timeout=30)
    return answer.status_code, (answer.json() if answer.content else {})


def test_a_hub_user_signs_in_on_an_offline_node_and_a_role_change_arrives_with_the_next_sync(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    user = hub_api.request("POST", "/api/v1/users", {"name": "Field Editor", "email": "editor@example.org", "role": "editor",
                                                     "password": "editor password 1"})
    one, one_api = start_linked_node(cluster, "one", hub.url)
    wait_converged([(one, one_api)], hub, timeout=60)

    hub.stop()
    wait_until(lambda: one_api.sync_status()["hub"] == "offline", 30, message="the node to see the hub offline")
    status, body = sign_in_status(one, "editor@example.org", "editor password 1")
    assert status == 200 and body["user"]["role"] == "editor", (status, body)
    assert sign_in_status(one, "editor@example.org", "wrong password")[0] == 401

    hub.restart()
    hub_api.request("PATCH", f"/api/v1/users/{user['id']}", {"role": "read-only"})
    one_api.sync_run()
    wait_until(lambda: sign_in_status(one, "editor@example.org", "editor password 1")[1].get("user", {}).get("role") == "read-only",
               60, interval=0.5, message="the role change to reach the node")
    editor = one.api("editor@example.org", "editor password 1")
    try:
        editor.create_participant("Should not be made", "nope@example.org")
        raise AssertionError("a read-only user could still create a participant on the node")
    except ApiError as refusal:
        assert "answered 403" in str(refusal)


def test_a_standalone_fieldbook_opens_no_outside_connection(cluster):
    hub, hub_api = start_hub(cluster)
    for index in range(5):
        hub_api.create_participant(f"Standalone {index}", f"standalone{index}@example.org")
    hub_api.sync_status()
    pid = hub.process.pid
    # /proc/PID/net/tcp lists the whole network namespace: keep the sockets this process holds (by inode).
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    connected_out = []
    for table in ("tcp", "tcp6"):
        for line in open(f"/proc/{pid}/net/{table}").read().splitlines()[1:]:
            fields = line.split()
            local_port, state, inode = int(fields[1].rsplit(":", 1)[1], 16), fields[3], fields[9]
            if inode in inodes and local_port != hub.port and state != "0A":  # 0A: listening
                connected_out.append(fields[2])
    assert connected_out == [], f"the standalone process holds connections it opened, to {connected_out}"
    assert hub_api.sync_status()["hub"] == "standalone"
