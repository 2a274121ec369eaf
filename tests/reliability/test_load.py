"""The load figures the issue started from, measured again so a regression shows: keep-alive clients on a list page
(no error answers, no socket errors), and 500 open event streams (what they cost in threads and memory, and how
fast pages answer meanwhile). Figures are printed; only errors fail the test (speed is judged by people, not asserts).
The streams come from eight loopback addresses, since one address may hold 64 connections."""

import http.client
import socket
import statistics
import threading
import time

from client import PageSession
from suite import ACCOUNTS, FULL, report

LIST_PAGE = "/participants"


def process_status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as status:
        return dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)


def test_keep_alive_clients_on_a_list_page_get_no_errors(node, http):
    cookie = PageSession(http, ACCOUNTS["read-only"]).cookie
    seconds, clients = (30, 64) if FULL else (3, 64)
    answered, failures, counting = [0], [], threading.Lock()
    deadline = time.monotonic() + seconds

    def client(source: str):
        connection = http_connection(node.port, source)
        while time.monotonic() < deadline:
            try:
                connection.request("GET", LIST_PAGE, headers={"Cookie": cookie})
                response = connection.getresponse()
                response.read()
                with counting:
                    if response.status == 200:
                        answered[0] += 1
                    else:
                        failures.append(response.status)
            except OSError as error:
                with counting:
                    failures.append(type(error).__name__)
                connection.close()
                connection = http_connection(node.port, source)

    # From two addresses, so the clients stay clear of the 64 one address may hold while old connections close.
    threads = [threading.Thread(target=client, args=(f"127.0.0.{1 + 2 * (index % 2)}",)) for index in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    report(f"load: {clients} keep-alive connections (from two addresses) for {seconds} s on {LIST_PAGE} (debug build): {answered[0]} answers "
           f"({answered[0] / seconds:.0f}/s), {len(failures)} errors")
    assert not failures, failures[:10]


def http_connection(port: int, source: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))


def test_500_open_event_streams_leave_pages_answering(node, http):
    session = PageSession(http, ACCOUNTS["read-only"])
    before = process_status(node.process.pid)
    streams = []
    try:
        for index in range(500):
            source = f"127.0.0.{10 + index % 8}"
            stream = socket.create_connection(("127.0.0.1", node.port), timeout=10, source_address=(source, 0))
            stream.sendall(f"GET /events HTTP/1.1\r\nHost: fieldbook\r\nCookie: {session.cookie}\r\n\r\n".encode())
            streams.append(stream)
        opened = sum(1 for stream in streams if stream.recv(64).startswith(b"HTTP/1.1 200"))
        latencies = []
        for _ in range(20):
            started = time.monotonic()
            assert session.get(LIST_PAGE).status == 200
            latencies.append((time.monotonic() - started) * 1000)
        during = process_status(node.process.pid)
        report(f"event streams: {opened} of 500 open; server threads {before['Threads']} -> {during['Threads']}, "
               f"RSS {before['VmRSS'].strip()} -> {during['VmRSS'].strip()}; {LIST_PAGE} answered in "
               f"{statistics.median(latencies):.0f} ms (median of 20, debug build)")
        assert opened == 500
    finally:
        for stream in streams:
            stream.close()
    assert node.health() == 200
