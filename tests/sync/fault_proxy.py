"""A fault-injecting HTTP proxy for sync tests: sits between a node and its hub on loopback.

The node talks to the proxy as if it were the hub. Each request the proxy reads is handled by the current mode:

    pass       forward the request, return the answer
    drop       close the client connection without forwarding (new connections are closed on accept, unless
               only_paths is set: then each request is read first and only matching ones are dropped)
    reset      forward the request (the hub acts on it), send part of the answer, then reset the client (RST)
    delay      wait delay_ms, then forward
    duplicate  send the same request upstream twice, return one answer (the second, by default)
    random     pick one of the above per request from a seeded generator (weights configurable)

Used as a class from tests (it runs in threads) or from the command line for manual use:

    python tests/sync/fault_proxy.py --upstream 127.0.0.1:8080 --listen 127.0.0.1:9080 --mode random --seed 7

Every upstream request gets its own connection ("Connection: close"), so one request's fault never leaks into
another's. The counters (requests seen, resets injected, duplicates sent, ...) let tests assert that faults really
happened instead of trusting that they did.
"""

from __future__ import annotations

import argparse
import random
import socket
import struct
import sys
import threading
import time
from dataclasses import dataclass, field

MODES = ("pass", "drop", "reset", "delay", "duplicate", "random")
DEFAULT_WEIGHTS = {"pass": 4, "drop": 1, "reset": 2, "delay": 1, "duplicate": 2}
HOP_BY_HOP = {b"connection", b"keep-alive", b"proxy-connection", b"expect"}


class ConnectionClosed(Exception):
    """The peer closed the connection before a whole HTTP message arrived."""


class Reader:
    """Buffered reads from a socket, with the few framings HTTP/1.1 needs."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buffer = b""

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def until(self, marker: bytes, limit: int = 1 << 20) -> bytes:
        while marker not in self.buffer:
            if len(self.buffer) > limit or not self._fill():
                raise ConnectionClosed()
        index = self.buffer.index(marker) + len(marker)
        data, self.buffer = self.buffer[:index], self.buffer[index:]
        return data

    def exactly(self, count: int) -> bytes:
        while len(self.buffer) < count:
            if not self._fill():
                raise ConnectionClosed()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def to_close(self) -> bytes:
        while self._fill():
            pass
        data, self.buffer = self.buffer, b""
        return data

    def has_pending(self) -> bool:
        return bool(self.buffer)


@dataclass
class Message:
    """One HTTP request or response: start line, headers (in order) and the body bytes as framed on the wire."""

    start: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes = b""
    chunked: bool = False

    def header(self, name: bytes) -> bytes | None:
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None

    def encode(self, extra: list[tuple[bytes, bytes]] = ()) -> bytes:
        kept = [(k, v) for k, v in self.headers if k.lower() not in HOP_BY_HOP]
        lines = [self.start] + [k + b": " + v for k, v in kept + list(extra)]
        return b"\r\n".join(lines) + b"\r\n\r\n" + self.body


def read_head(reader: Reader) -> Message:
    raw = reader.until(b"\r\n\r\n")
    lines = raw[:-4].split(b"\r\n")
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers.append((name.strip(), value.strip()))
    return Message(start=lines[0], headers=headers)


def read_chunked(reader: Reader) -> bytes:
    """Reads a chunked body and returns it still chunked (it is forwarded as it came)."""
    data = b""
    while True:
        size_line = reader.until(b"\r\n")
        data += size_line
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while True:  # trailers, then the empty line
                line = reader.until(b"\r\n")
                data += line
                if line == b"\r\n":
                    return data
        data += reader.exactly(size + 2)


def read_body(reader: Reader, message: Message, until_close_allowed: bool) -> bool:
    """Fills message.body; returns True when the body ended only because the peer closed."""
    encoding = (message.header(b"transfer-encoding") or b"").lower()
    length = message.header(b"content-length")
    if b"chunked" in encoding:
        message.body, message.chunked = read_chunked(reader), True
    elif length is not None:
        message.body = reader.exactly(int(length))
    elif until_close_allowed:
        message.body = reader.to_close()
        return True
    return False


def response_has_body(method: bytes, status: int) -> bool:
    return method != b"HEAD" and not (100 <= status < 200 or status in (204, 304))


@dataclass
class ProxyStats:
    """What the proxy did, for tests to assert that faults really happened."""

    connections: int = 0
    requests_seen: int = 0
    upstream_requests: int = 0
    responses_returned: int = 0
    dropped: int = 0
    resets: int = 0
    duplicates: int = 0
    delayed: int = 0
    upstream_failures: int = 0
    # (action, method, path): one per fault or pass, and a "sent" for every request sent upstream
    events: list[tuple[str, str, str]] = field(default_factory=list)

    def faults_on(self, action: str, path_prefix: str = "") -> int:
        return sum(1 for a, _, p in self.events if a == action and p.startswith(path_prefix))


class FaultProxy:
    """The proxy: start() it, point the node at .url, switch modes with set_mode() while tests run."""

    def __init__(self, upstream_host: str, upstream_port: int, listen_host: str = "127.0.0.1", listen_port: int = 0,
                 mode: str = "pass", seed: int = 0, delay_ms: int = 200, reset_fraction: float = 0.5,
                 duplicate_answer: str = "second", weights: dict[str, int] | None = None,
                 only_paths: tuple[str, ...] | None = None, upstream_timeout: float = 60.0):
        self.upstream = (upstream_host, upstream_port)
        self.upstream_timeout = upstream_timeout
        self._listen = (listen_host, listen_port)
        self._lock = threading.Lock()
        self.stats = ProxyStats()
        self._server: socket.socket | None = None
        self._threads: list[threading.Thread] = []
        self._clients: set[socket.socket] = set()
        # Connections to the upstream under way: closed on stop, so a thread waiting on a held answer ends at once.
        self._upstreams: set[socket.socket] = set()
        self._stopping = threading.Event()
        self.set_mode(mode, seed=seed, delay_ms=delay_ms, reset_fraction=reset_fraction,
                      duplicate_answer=duplicate_answer, weights=weights, only_paths=only_paths)

    # Control -----------------------------------------------------------------------------------------------------

    def set_mode(self, mode: str, *, seed: int | None = None, delay_ms: int | None = None,
                 reset_fraction: float | None = None, duplicate_answer: str | None = None,
                 weights: dict[str, int] | None = None, only_paths: tuple[str, ...] | None = ...,
                 times: int | None = None):
        """Switches the fault mode; parameters left out keep their current values. With `times` (1 or more), this
        mode goes back to "pass" by itself once it has picked that many requests, so a test that wants exactly one
        fault gets one, however soon the next request comes; a new set_mode without it ends the countdown. Requests
        outside only_paths are not counted, nor are connections refused on accept (mode drop without only_paths)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if times is not None and times < 1:
            raise ValueError(f"times must be 1 or more, got {times}")
        with self._lock:
            self.mode = mode
            self._times_left = times
            if seed is not None:
                self.seed = seed
                self._random = random.Random(seed)
            if delay_ms is not None:
                self.delay_ms = delay_ms
            if reset_fraction is not None:
                self.reset_fraction = reset_fraction
            if duplicate_answer is not None:
                if duplicate_answer not in ("first", "second"):
                    raise ValueError("duplicate_answer is 'first' or 'second'")
                self.duplicate_answer = duplicate_answer
            if weights is not None or not hasattr(self, "weights"):
                self.weights = dict(weights or DEFAULT_WEIGHTS)
            if only_paths is not ...:
                self.only_paths = tuple(only_paths) if only_paths else None

    def snapshot_stats(self) -> ProxyStats:
        with self._lock:
            copy = ProxyStats(**{k: v for k, v in vars(self.stats).items() if k != "events"})
            copy.events = list(self.stats.events)
            return copy

    def wait_for(self, action: str, path_prefix: str = "", count: int = 1, timeout: float = 30) -> bool:
        """Waits until `count` events of `action` ("sent", "reset", "drop", ...) happened on paths with the prefix."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.snapshot_stats().faults_on(action, path_prefix) >= count:
                return True
            time.sleep(0.01)
        return False

    def reset_stats(self):
        with self._lock:
            self.stats = ProxyStats()

    @property
    def port(self) -> int:
        return self._server.getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://{self._listen[0]}:{self.port}"

    def start(self) -> "FaultProxy":
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(self._listen)
        server.listen(128)
        self._server = server
        self._spawn(self._accept_loop, "fault-proxy-accept")
        return self

    def stop(self):
        self._stopping.set()
        if self._server:
            try:
                self._server.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._server.close()
        with self._lock:
            sockets = list(self._clients) + list(self._upstreams)
        for connection in sockets:
            _close_quietly(connection)
        for thread in list(self._threads):
            thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # Work ----------------------------------------------------------------------------------------------------------

    def _spawn(self, target, name, *args):
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def _accept_loop(self):
        while not self._stopping.is_set():
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            with self._lock:
                self.stats.connections += 1
                # With a path filter the request must be read before deciding; without one, drop refuses at once.
                refuse = self.mode == "drop" and self.only_paths is None
                if refuse:
                    self.stats.dropped += 1
                    self.stats.events.append(("drop", "", "(connection)"))
                else:
                    self._clients.add(client)
            if refuse:
                _close_quietly(client)
                continue
            self._spawn(self._serve_client, "fault-proxy-client", client)

    def _choose(self, path: str) -> str:
        with self._lock:
            self.stats.requests_seen += 1
            if self.only_paths is not None and not path.startswith(self.only_paths):
                return "pass"
            mode = self.mode
            if self._times_left is not None:
                self._times_left -= 1
                if self._times_left <= 0:
                    self.mode, self._times_left = "pass", None
            if mode != "random":
                return mode
            actions = list(self.weights)
            return self._random.choices(actions, weights=[self.weights[a] for a in actions])[0]

    def _record(self, action: str, method: str, path: str, counter: str | None):
        with self._lock:
            if counter:
                setattr(self.stats, counter, getattr(self.stats, counter) + 1)
            self.stats.events.append((action, method, path))

    def _serve_client(self, client: socket.socket):
        reader = Reader(client)
        try:
            while not self._stopping.is_set():
                try:
                    request = read_head(reader)
                    if (request.header(b"expect") or b"").lower() == b"100-continue":
                        client.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
                    read_body(reader, request, until_close_allowed=False)
                except (ConnectionClosed, OSError):
                    return  # the node closed its connection before a whole request arrived
                parts = request.start.split(b" ")
                method, path = parts[0], parts[1] if len(parts) > 1 else b"/"
                keep_alive = self._client_keeps_alive(request)
                try:
                    if not self._handle(client, request, method, path.decode("latin-1"), keep_alive):
                        return
                except OSError:
                    # The node gave up on this request (a timeout, or it was killed), or the proxy is stopping while
                    # an answer was held (a long poll): nothing left to answer.
                    return
                if not keep_alive:
                    return
        finally:
            with self._lock:
                self._clients.discard(client)
            _close_quietly(client)

    @staticmethod
    def _client_keeps_alive(request: Message) -> bool:
        connection = (request.header(b"connection") or b"").lower()
        if request.start.endswith(b"HTTP/1.0"):
            return b"keep-alive" in connection
        return b"close" not in connection

    def _handle(self, client, request: Message, method: bytes, path: str, keep_alive: bool) -> bool:
        """Serves one request in the chosen mode; False when the client connection must end."""
        action = self._choose(path)
        name = method.decode("latin-1")
        if action == "drop":
            self._record("drop", name, path, "dropped")
            return False
        if action == "delay":
            self._record("delay", name, path, "delayed")
            time.sleep(self.delay_ms / 1000)
        answers = 2 if action == "duplicate" else 1
        responses = []
        for _ in range(answers):
            try:
                responses.append(self._forward(request, method, path))
            except (OSError, ConnectionClosed):
                self._record("upstream-failure", name, path, "upstream_failures")
                return False
        if action == "duplicate":
            self._record("duplicate", name, path, "duplicates")
        response, closed_framing = responses[-1] if self.duplicate_answer == "second" else responses[0]
        must_close = closed_framing or not keep_alive
        data = response.encode([(b"Connection", b"close")] if must_close else [])
        # Counted before the client can see the outcome, so a test that reacts to it reads the new counts.
        if action == "reset":
            self._record("reset", name, path, "resets")
            self._reset_midway(client, data)
            return False
        with self._lock:
            self.stats.responses_returned += 1
        if action == "pass":
            self._record("pass", name, path, None)
        client.sendall(data)
        return not must_close

    def _forward(self, request: Message, method: bytes, path: str) -> tuple[Message, bool]:
        """Sends the request upstream on a fresh connection; returns the response and whether it was close-framed."""
        with self._lock:
            self.stats.upstream_requests += 1
        upstream = socket.create_connection(self.upstream, timeout=self.upstream_timeout)
        with self._lock:
            self._upstreams.add(upstream)
        try:
            upstream.sendall(request.encode([(b"Connection", b"close")]))
            self._record("sent", method.decode("latin-1"), path, None)
            reader = Reader(upstream)
            while True:
                response = read_head(reader)
                status = int(response.start.split(b" ")[1])
                if status != 100:
                    break
            closed = False
            if response_has_body(method, status):
                closed = read_body(reader, response, until_close_allowed=True)
            return response, closed
        finally:
            with self._lock:
                self._upstreams.discard(upstream)
            _close_quietly(upstream)

    def _reset_midway(self, client: socket.socket, data: bytes):
        cut = max(1, min(len(data) - 1, int(len(data) * self.reset_fraction)))
        try:
            client.sendall(data[:cut])
            time.sleep(0.05)  # let the client read the partial answer before the reset arrives
        except OSError:
            pass
        abort(client)


def abort(sock: socket.socket):
    """Closes with SO_LINGER 0: the peer gets a TCP RST, not an orderly FIN."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # no shutdown first: that would send a FIN before the RST
    except OSError:
        pass


def _close_quietly(sock: socket.socket):
    """Shut down first: on Linux, close alone does not wake a thread blocked reading the socket."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Fault-injecting HTTP proxy between a Fieldbook node and its hub.")
    parser.add_argument("--upstream", required=True, help="hub address, HOST:PORT")
    parser.add_argument("--listen", default="127.0.0.1:0", help="address to listen on, HOST:PORT (default a free port)")
    parser.add_argument("--mode", default="pass", choices=MODES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--delay-ms", type=int, default=200)
    parser.add_argument("--reset-fraction", type=float, default=0.5)
    parser.add_argument("--only-path", action="append", help="inject faults only on paths with this prefix (repeatable)")
    args = parser.parse_args(argv)
    upstream_host, upstream_port = _address(args.upstream)
    listen_host, listen_port = _address(args.listen)
    proxy = FaultProxy(upstream_host, upstream_port, listen_host, listen_port, mode=args.mode, seed=args.seed,
                       delay_ms=args.delay_ms, reset_fraction=args.reset_fraction,
                       only_paths=tuple(args.only_path) if args.only_path else None).start()
    print(f"fault proxy at {proxy.url} -> {upstream_host}:{upstream_port}, mode {args.mode}", flush=True)
    print("commands: mode NAME | delay MS | stats | quit", flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "mode" and len(words) == 2:
                proxy.set_mode(words[1])
            elif words[0] == "delay" and len(words) == 2:
                proxy.set_mode(proxy.mode, delay_ms=int(words[1]))
            elif words[0] == "stats":
                stats = proxy.snapshot_stats()
                print({k: v for k, v in vars(stats).items() if k != "events"}, flush=True)
            elif words[0] == "quit":
                break
            else:
                print("unknown command", flush=True)
        else:
            threading.Event().wait()  # stdin closed (run in the background): serve until interrupted
    except KeyboardInterrupt:
        pass
    finally:
        proxy.stop()


if __name__ == "__main__":
    main()
