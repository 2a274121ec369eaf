"""How a node links to its hub and signs in there (issue 36), with real processes against both kinds of hub: a stale
copy of a password re-sent on linking is never a conflict; a node bringing its first copy offers no setup, and a hub
takes no account that none of its administrators granted; a node signs in with its own credential, which outlives
password changes, and an administrator revokes it or signs the node in again."""

import time
import uuid

import requests

from fault_proxy import FaultProxy
from harness import CSRF, HUB_ADMIN, Account, ApiClient, Pages, node_admin, start_hub, start_linked_node, wait_converged, wait_until

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


def forged_account_push(hub, author):
    """A push, with the hub administrator's own token, of an administrator account made by `author` on a node."""
    login = requests.post(hub.url + "/api/v1/auth/login", json={"email": HUB_ADMIN.email, "password": HUB_ADMIN.password},
                          timeout=30)
    assert login.status_code == 200, login.text
    operation = {"operation_id": str(uuid.uuid4()), "operation": "create", "entity": "user", "entity_id": str(uuid.uuid4()),
                 "fields": {"email": f"forged-{uuid.uuid4().hex[:8]}@example.org", "name": "Forged", "role": "administrator",
                            "password_hash": "$2b$04$abcdefghijklmnopqrstuuKxZL4qRZsVL4FrbI3bD0G2m7qG9Y8e6", "is_disabled": 0},
                 "before": {}, "base_version": 0, "author": author, "created_at": "2025-01-01T00:00:00.000Z"}
    answer = requests.post(hub.url + "/api/v1/sync/push", json={"node_id": str(uuid.uuid4()), "operations": [operation]},
                           headers={"Authorization": f"Bearer {login.json()['access_token']}"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()["results"][0]


def test_a_node_bringing_its_first_copy_offers_no_setup_and_the_hub_takes_no_account_it_did_not_grant(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind, demo={"participants": 2000, "activities": 200, "venues": 80})
    # Each page of the change log is held back, so the first copy takes a while, as a large hub's does.
    proxy = FaultProxy("127.0.0.1", hub.port, only_paths=("/api/v1/sync/changes",), mode="delay", delay_ms=2500).start()
    cluster.proxies.append(proxy)
    fresh = cluster.node("fresh")
    fresh.link(proxy.url, HUB_ADMIN.email, HUB_ADMIN.password)
    fresh.start("--sync-interval", "2")
    assert "setup code" not in fresh.log_path.read_text()

    browser = requests.Session()
    home = browser.get(fresh.url + "/", allow_redirects=False, timeout=30)
    assert home.status_code == 303 and "/setup" not in home.headers["Location"], home.headers
    assert browser.get(fresh.url + "/setup", allow_redirects=False, timeout=30).headers["Location"].startswith("/login")
    login = browser.get(fresh.url + "/login", timeout=30)
    assert login.status_code == 200 and "bringing its records and accounts from its hub" in login.text, login.text
    # Tries with the hub's account before it arrives are told why, and do not trip the sign-in throttle.
    for _ in range(6):
        token = CSRF.search(browser.get(fresh.url + "/login", timeout=30).text).group(1)
        tried = browser.post(fresh.url + "/login", data={"email": HUB_ADMIN.email, "password": HUB_ADMIN.password,
                                                         "csrf_token": token}, allow_redirects=False, timeout=30)
        if tried.status_code == 303:
            break  # the accounts arrived meanwhile
        assert tried.status_code == 422 and "have not all arrived" in tried.text, (tried.status_code, tried.text[:2000])

    for author in ("system:setup", "system:command-line", str(uuid.uuid4())):
        result = forged_account_push(hub, author)
        assert result["outcome"] == "rejected" and "Only an administrator of the hub" in result["reason"], result

    proxy.set_mode("pass")
    wait_until(lambda: "bringing its records" not in browser.get(fresh.url + "/login", timeout=30).text, 180, interval=1,
               message="the first copy to finish")
    assert Pages(fresh, HUB_ADMIN).get("/").status_code == 200


def node_id(node):
    with node.connect_readonly() as db:
        return db.execute("SELECT value FROM settings WHERE key = 'node_id'").fetchone()[0]


def test_a_node_outlives_a_password_change_says_when_it_is_revoked_and_is_signed_in_again_from_settings(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    one, one_api = start_linked_node(cluster, "one", hub.url)
    wait_converged([(one, one_api)], hub, timeout=90)

    # The account that linked the node picks a new password on the hub: the node's own sign-in goes on working.
    hub_api.request("POST", f"/api/v1/users/{user_id(hub_api, HUB_ADMIN.email)}/password", {"password": NEW_PASSWORD})
    wait_until(lambda: sign_in_status(hub, HUB_ADMIN.email, NEW_PASSWORD) == 200, 60, message="the new password on the hub")
    one_api.create_participant("After the password change", "after@example.org")
    wait_converged([(one, one_api)], hub, timeout=90)

    # The hub lists the node; an administrator revokes it, and the node's pages say so while its changes wait.
    hub_admin = ApiClient(hub, HUB_ADMIN.email, NEW_PASSWORD)
    linked = [n for n in hub_admin.request("GET", "/api/v1/linked-nodes")["items"] if node_id(one)[:8] in n["name"]]
    assert len(linked) == 1 and linked[0]["linked_by"] == HUB_ADMIN.email and linked[0]["revoked_at"] is None, linked
    hub_admin.request("POST", f"/api/v1/linked-nodes/{linked[0]['id']}/revoke", expect=(204,))
    made_meanwhile = one_api.create_participant("Made while revoked", "meanwhile@example.org")
    one_api.sync_run()
    wait_until(lambda: one_api.sync_status()["hub"] == "refused", 60, message="the node to see its sign-in refused")
    pages = Pages(one, node_admin("one"))
    for path in ("/", "/participants"):
        assert "Hub refused this node" in pages.get(path).text, path
    assert "sign-in-again" in pages.get("/").text
    assert one_api.sync_status()["pending_operations"] >= 1
    if hub_kind == "sqlite":
        listed = Pages(hub, Account(HUB_ADMIN.email, NEW_PASSWORD)).get("/settings/linked-nodes").text
        assert node_id(one)[:8] in listed and "Revoked" in listed

    # An administrator of the hub signs the node in again on its settings page: nothing was lost, the queue drains.
    signed_in = pages.post("/settings/sync/sign-in", "/settings/sync", {"email": HUB_ADMIN.email, "password": NEW_PASSWORD})
    assert signed_in.status_code == 303, signed_in.text[:2000]
    wait_converged([(one, one_api)], hub, timeout=90, since=time.time())
    assert made_meanwhile["id"] in hub.snapshot()["participants"]
    assert one_api.sync_status()["hub"] == "online"
