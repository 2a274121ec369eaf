"""One device cannot lock a room out. 1,100 half-finished requests from 127.0.0.2 (each trickling a header line, so
the idle timeout never fires) once filled the 1,000-connection limit and every other client failed; now 127.0.0.2
holds at most its per-address share while 127.0.0.1 is served, and headers that take too long in total are cut off."""

import resource
import socket
import threading
import time

from client import Http
from suite import FULL, make_node, report

SLOW_ADDRESS = "127.0.0.2"


class SlowClients:
    """Connections from one address that send a request line and then one header line every `interval` seconds."""

    def __init__(self, port: int, count: int, interval: float = 2.0):
        self.sockets: list[socket.socket] = []
        self.refused = 0
        for _ in range(count):
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(SLOW_ADDRESS, 0))
                connection.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: fieldbook\r\n")
                self.sockets.append(connection)
            except OSError:
                self.refused += 1
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._trickle, args=(interval,), daemon=True)
        self.thread.start()

    def _trickle(self, interval: float):
        while not self.stopping.wait(interval):
            for connection in self.sockets:
                try:
                    connection.sendall(b"X-Still-Typing: yes\r\n")
                except OSError:
                    pass

    def still_open(self) -> int:
        """Connections the server has not closed (a closed one reads as end of stream or an error)."""
        open_count = 0
        for connection in self.sockets:
            connection.setblocking(False)
            try:
                open_count += connection.recv(1, socket.MSG_PEEK) != b""
            except BlockingIOError:
                open_count += 1
            except OSError:
                pass
        return open_count

    def close(self):
        self.stopping.set()
        self.thread.join()
        for connection in self.sockets:
            connection.close()


def slow_client_count() -> int:
    """1,100, past the server's 1,000 connections, unless this process may not open that many sockets."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return min(1100, soft - 100)


def test_slow_clients_from_one_address_leave_the_server_to_others(node):
    count = slow_client_count()
    slow = SlowClients(node.port, count)
    try:
        time.sleep(1)
        others = Http(node.port, "127.0.0.1")
        started = time.monotonic()
        answers = [others.request("GET", path, timeout=5).status for path in ("/api/v1/health", "/login") * 5]
        elapsed = (time.monotonic() - started) / len(answers)
        held = slow.still_open()
        report(f"slow clients: {count:,} trickling connections from {SLOW_ADDRESS}"
               f"{'' if count > 1000 else ' (all this process may open: fewer than the 1,000 the server holds)'}: "
               f"server kept {held} (limit 64 per address); "
               f"127.0.0.1 answered {answers.count(200)}/{len(answers)} requests, {elapsed * 1000:.0f} ms each")
        assert answers == [200] * len(answers)
        assert held <= 64
    finally:
        slow.close()
    assert node.health() == 200


def test_headers_that_take_too_long_in_total_are_cut_off(tmp_path):
    limit = 20 if FULL else 3
    node = make_node(tmp_path, "deadline").start("--header-timeout", str(limit))
    try:
        slow = SlowClients(node.port, 5, interval=1.0)
        try:
            started = time.monotonic()
            while slow.still_open() and time.monotonic() - started < limit + 10:
                time.sleep(0.25)
            closed_after = time.monotonic() - started
            report(f"header deadline {limit} s: 5 connections trickling a header line a second were closed after "
                   f"{closed_after:.1f} s (the 30 s idle timeout never fires for them)")
            assert slow.still_open() == 0
            assert closed_after < limit + 6
        finally:
            slow.close()
        assert Http(node.port).request("GET", "/api/v1/health").status == 200
    finally:
        node.kill9()
