"""How a node links to its hub and signs in there (issue 36), with real processes against both kinds of hub: a stale
copy of a password re-sent on linking is never a conflict."""

import time

import requests

from fault_proxy import FaultProxy
from harness import HUB_ADMIN, Pages, node_admin, start_hub, start_linked_node, wait_converged, wait_until

NEW_PASSWORD = "hub admin password 2"


def sign_in_status(node, email, password):
    answer = requests.post(node.url + "/api/v1/auth/login", json={"email": email, "password": password}, timeout=30)
    return answer.status_code


def user_id(api, email):
    return next(user["id"] for user in api.request("GET", "/api/v1/users")["items"] if user["email"] == email)


def test_relinking_after_a_password_change_on_the_hub_brings_no_credential_conflict(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    # The node reaches the hub through a proxy, cut while the password changes, so it keeps its old copy of the hash.
    proxy = FaultProxy("127.0.0.1", hub.port).start()
    cluster.proxies.append(proxy)
    one, one_api = start_linked_node(cluster, "one", proxy.url)
    wait_converged([(one, one_api)], hub, timeout=90)

    proxy.set_mode("drop")
    hub_api.request("POST", f"/api/v1/users/{user_id(hub_api, HUB_ADMIN.email)}/password", {"password": NEW_PASSWORD})
    wait_until(lambda: sign_in_status(hub, HUB_ADMIN.email, NEW_PASSWORD) == 200, 60, message="the new password on the hub")

    pages = Pages(one, node_admin("one"))
    assert pages.post("/settings/sync/unlink", "/settings/sync/unlink", {}).status_code == 303
    relinked = pages.post("/settings/sync", "/settings/sync", {"upstream": hub.url, "email": HUB_ADMIN.email,
                                                               "password": NEW_PASSWORD})
    assert relinked.status_code == 303, relinked.text[:800]
    wait_converged([(one, one_api)], hub, timeout=90, since=time.time())

    assert [c for c in one_api.conflicts() if c["entity"] == "user"] == []
    assert sign_in_status(hub, HUB_ADMIN.email, NEW_PASSWORD) == 200
    assert sign_in_status(hub, HUB_ADMIN.email, HUB_ADMIN.password) == 401
    assert sign_in_status(one, HUB_ADMIN.email, NEW_PASSWORD) == 200
