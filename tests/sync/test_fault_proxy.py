"""The fault proxy's own tests: each mode against a real `fieldbook serve` (GET /api/v1/health through the proxy), so
the faults the sync tests rely on are shown to be real; and against a small counting server where only the
upstream side can prove what happened (a duplicated POST arrives twice with the same body)."""

import errno
import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

from fault_proxy import FaultProxy

HEALTH = "/api/v1/health"


def session():
    s = requests.Session()
    s.trust_env = False
    return s


@pytest.fixture
def server(cluster):
    return cluster.node("server").start()


def make_proxy(cluster, port, **options) -> FaultProxy:
    proxy = FaultProxy("127.0.0.1", port, **options).start()
    cluster.proxies.append(proxy)
    return proxy


def raw_exchange(port: int, request: bytes) -> tuple[bytes, BaseException | None]:
    """Sends raw bytes, reads until the connection ends; returns what arrived and the error that ended it, if any."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    received = b""
    try:
        sock.sendall(request)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return received, None
            received += chunk
    except OSError as error:
        return received, error
    finally:
        sock.close()


HEALTH_REQUEST = b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def test_pass_through_forwards_requests_and_keeps_the_client_connection(cluster, server):
    proxy = make_proxy(cluster, server.port)
    direct = session().get(server.url + HEALTH, timeout=10).json()
    client = session()
    answers = [client.get(proxy.url + HEALTH, timeout=10) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert all(a.json() == direct for a in answers)
    stats = proxy.snapshot_stats()
    assert (stats.requests_seen, stats.upstream_requests, stats.responses_returned) == (3, 3, 3)
    assert stats.connections == 1, "the client's keep-alive connection is kept across requests"
    assert (stats.dropped, stats.resets, stats.duplicates, stats.delayed) == (0, 0, 0, 0)


def test_drop_closes_connections_without_forwarding(cluster, server):
    proxy = make_proxy(cluster, server.port, mode="drop")
    with pytest.raises(requests.ConnectionError):
        session().get(proxy.url + HEALTH, timeout=10)
    received, _ = raw_exchange(proxy.port, HEALTH_REQUEST)
    assert received == b""
    stats = proxy.snapshot_stats()
    assert stats.dropped == 2 and stats.upstream_requests == 0
    proxy.set_mode("pass")
    assert session().get(proxy.url + HEALTH, timeout=10).status_code == 200


def test_drop_also_ends_an_open_keep_alive_connection_at_its_next_request(cluster, server):
    proxy = make_proxy(cluster, server.port)
    client = session()
    assert client.get(proxy.url + HEALTH, timeout=10).status_code == 200
    proxy.set_mode("drop")
    with pytest.raises(requests.ConnectionError):
        client.get(proxy.url + HEALTH, timeout=10)
    stats = proxy.snapshot_stats()
    assert stats.dropped >= 1 and stats.upstream_requests == 1


def test_reset_forwards_then_sends_part_of_the_answer_and_a_tcp_reset(cluster, server):
    full, _ = raw_exchange(server.port, HEALTH_REQUEST)
    assert full.startswith(b"HTTP/1.1 200")
    proxy = make_proxy(cluster, server.port, mode="reset", reset_fraction=0.5)
    received, error = raw_exchange(proxy.port, HEALTH_REQUEST)
    assert isinstance(error, ConnectionResetError) and error.errno == errno.ECONNRESET, f"ended by {error!r}, not a reset"
    assert received.startswith(b"HTTP/1.1 200") and 0 < len(received) < len(full) - 20, received
    with pytest.raises(requests.RequestException):
        session().get(proxy.url + HEALTH, timeout=10)
    stats = proxy.snapshot_stats()
    assert stats.resets == 2 and stats.upstream_requests == 2, "the hub saw (and acted on) every reset request"
    assert stats.responses_returned == 0


def test_delay_holds_each_request_before_forwarding(cluster, server):
    proxy = make_proxy(cluster, server.port, mode="delay", delay_ms=400)
    started = time.monotonic()
    answer = session().get(proxy.url + HEALTH, timeout=10)
    elapsed = time.monotonic() - started
    assert answer.status_code == 200 and elapsed >= 0.4
    assert proxy.snapshot_stats().delayed == 1


def test_duplicate_sends_the_request_upstream_twice_and_answers_once(cluster, server):
    proxy = make_proxy(cluster, server.port, mode="duplicate")
    client = session()
    first = client.get(proxy.url + HEALTH, timeout=10)
    second = client.get(proxy.url + HEALTH, timeout=10)
    assert first.status_code == second.status_code == 200 and first.json()["status"] == "ok"
    stats = proxy.snapshot_stats()
    assert (stats.requests_seen, stats.upstream_requests, stats.duplicates, stats.responses_returned) == (2, 4, 2, 2)


def test_only_paths_limits_faults_to_matching_requests(cluster, server):
    proxy = make_proxy(cluster, server.port, mode="reset", only_paths=("/api/v1/sync/",))
    assert session().get(proxy.url + HEALTH, timeout=10).status_code == 200
    assert proxy.snapshot_stats().resets == 0


def test_random_mix_is_reproducible_from_its_seed_and_every_fault_is_counted(cluster, server):
    def run(seed):
        proxy = make_proxy(cluster, server.port, mode="random", seed=seed, delay_ms=10)
        failures = 0
        for _ in range(60):
            try:
                assert session().get(proxy.url + HEALTH, timeout=10).status_code == 200
            except requests.RequestException:
                failures += 1
        proxy.stop()
        return proxy.snapshot_stats(), failures

    stats, failures = run(seed=11)
    assert stats.requests_seen == 60
    assert min(stats.dropped, stats.resets, stats.duplicates, stats.delayed) > 0, vars(stats)
    assert failures == stats.dropped + stats.resets, "each drop and each reset failed exactly one client request"
    assert stats.upstream_requests == 60 - stats.dropped + stats.duplicates
    again, _ = run(seed=11)
    assert [e[0] for e in again.events] == [e[0] for e in stats.events]
    other, _ = run(seed=12)
    assert [e[0] for e in other.events] != [e[0] for e in stats.events]


class CountingHandler(BaseHTTPRequestHandler):
    """Records every request it gets; answers with how many it has seen (chunked on /chunked)."""

    protocol_version = "HTTP/1.1"
    seen: list = []
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with self.lock:
            self.seen.append((self.command, self.path, body))
            count = len(self.seen)
        payload = json.dumps({"count": count}).encode()
        self.send_response(200)
        if self.path == "/chunked":
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in (payload[:5], payload[5:]):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def counting_server():
    CountingHandler.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), CountingHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def test_duplicate_delivers_the_same_post_twice_and_returns_the_second_answer(cluster, counting_server):
    proxy = make_proxy(cluster, counting_server.server_address[1], mode="duplicate")
    body = {"operations": [{"operation_id": "a"}]}
    answer = session().post(proxy.url + "/push", json=body, timeout=10)
    assert answer.json() == {"count": 2}
    assert [(m, p, json.loads(b)) for m, p, b in CountingHandler.seen] == [("POST", "/push", body)] * 2
    proxy.set_mode("duplicate", duplicate_answer="first")
    assert session().post(proxy.url + "/push", json=body, timeout=10).json() == {"count": 3}


def test_chunked_answers_and_large_bodies_pass_intact(cluster, counting_server):
    proxy = make_proxy(cluster, counting_server.server_address[1])
    big = "x" * 3_000_000
    assert session().post(proxy.url + "/chunked", data=big, timeout=30).json() == {"count": 1}
    assert CountingHandler.seen[0][2] == big.encode()


def test_command_line_proxy_serves_and_reports(cluster, server):
    script = Path(__file__).with_name("fault_proxy.py")
    with subprocess.Popen([sys.executable, str(script), "--upstream", f"127.0.0.1:{server.port}", "--mode", "pass"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as process:
        try:
            url = process.stdout.readline().split()[3]
            assert session().get(url + HEALTH, timeout=10).status_code == 200
            process.stdin.write("stats\n")
            process.stdin.flush()
            process.stdout.readline()  # the commands line
            assert "'requests_seen': 1" in process.stdout.readline()
            process.stdin.write("quit\n")
            process.stdin.flush()
            assert process.wait(timeout=10) == 0
        finally:
            if process.poll() is None:
                process.kill()
