"""A node syncs with a Fieldbook hub served on the LAN (issue 38): the hub on 0.0.0.0 speaks HTTPS with its own
certificate authority, which no system trusts. `fieldbook link` fetches that authority, says its fingerprint, and
from then on trusts only it for the hub; an http:// address that reaches the TLS port says to use https://, and an
authority replaced later is refused, never trusted again by itself."""

import hashlib
import shutil
import socket
import ssl

import pytest
from harness import HUB_ADMIN, HarnessError, node_admin, wait_converged, wait_until


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_lan_hub(cluster):
    """A hub on every interface (so with its own HTTPS) whose plain guide listens on a free port."""
    hub = cluster.node("hub")
    hub.create_user(HUB_ADMIN.email, HUB_ADMIN.password)
    hub.demo_data(participants=5, activities=2, venues=2)
    hub.start("--host", "0.0.0.0", "--http-port", str(free_port()))
    return hub


def authority_fingerprint(hub) -> str:
    """As the hub's Add a device page and serve's log show it: SHA-256 of the certificate, upper-case hex pairs
    joined by colons."""
    der = ssl.PEM_cert_to_DER_cert((hub.data_dir / "tls" / "authority.pem").read_text())
    return ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())


def linked_node(cluster, name: str, upstream: str):
    node = cluster.node(name)
    account = node_admin(name)
    node.create_user(account.email, account.password)
    said = node.link(upstream, HUB_ADMIN.email, HUB_ADMIN.password)
    node.start("--sync-interval", "1")
    return node, node.api(account.email, account.password), said


def test_a_node_linked_by_https_to_a_lan_hub_pushes_and_pulls(cluster):
    hub = start_lan_hub(cluster)
    # The hub's certificate holds 127.0.0.1 beside its LAN addresses.
    node, node_api, said = linked_node(cluster, "field", f"https://127.0.0.1:{hub.port}")
    assert authority_fingerprint(hub) in said, said

    snapshot = wait_converged([(node, node_api)], hub, timeout=120)  # the demo data pulled
    assert len(snapshot["participants"]) >= 5
    area = node_api.create_area("Riverside", "CITY")
    snapshot = wait_converged([(node, node_api)], hub, timeout=120)  # and the node's area pushed
    assert area["id"] in snapshot["geographic_areas"]


def test_http_to_the_tls_port_says_to_use_https(cluster):
    hub = start_lan_hub(cluster)
    node = cluster.node("field")
    with pytest.raises(HarnessError) as refused:
        node.link(f"http://127.0.0.1:{hub.port}", HUB_ADMIN.email, HUB_ADMIN.password)
    assert f"use https://127.0.0.1:{hub.port} as its address" in str(refused.value)


def test_a_replaced_authority_is_refused_until_linked_again(cluster):
    hub = start_lan_hub(cluster)
    node, node_api, _ = linked_node(cluster, "field", f"https://127.0.0.1:{hub.port}")
    wait_converged([(node, node_api)], hub, timeout=120)
    first = authority_fingerprint(hub)

    hub.stop()
    shutil.rmtree(hub.data_dir / "tls")  # a new authority at the next start
    hub.restart()
    assert authority_fingerprint(hub) != first
    node_api.sync_run()
    status = wait_until(lambda: (s := node_api.sync_status()) and "trusted when it was linked" in (s.get("last_error") or "") and s,
                        timeout=60, message="the node to refuse the hub's new authority")
    assert first in status["last_error"], status
