"""A corpus of malformed requests sent to every route both tables declare, pages included, signed in as an
administrator (so handlers run) and anonymously: never a 5xx, and the server keeps answering."""

import socket

from client import ApiSession, Http, PageSession, concrete, routes
from suite import ACCOUNTS, report

PROBE_ADDRESS = "127.0.0.6"
LONG = "x" * 100_000


def variants(route, credentials: dict[str, str], csrf: str):
    """(name, path, body, headers) of each malformed request for this route."""
    path = concrete(route["path"])
    writes = route["method"] in ("POST", "PUT", "PATCH")
    json_type = {"Content-Type": "application/json"}
    form_type = {"Content-Type": "application/x-www-form-urlencoded"}
    yield "invalid UTF-8 in the path", concrete(route["path"], "%FF%FE%00") if "{" in route["path"] else path + "%FF%FE", b"", {}
    yield "NUL and bad UTF-8 in the query", path + "?page=%00&per_page=-1&q=a%00b%C3%28&sort=%FF", b"", {}
    yield "a 10,000-character query value", path + "?q=" + "y" * 10_000, b"", {}
    if route["surface"] == "api":
        yield "a 10,000-character bearer token", path, b"", {"Authorization": "Bearer " + "z" * 10_000}
    else:
        yield "a 10,000-character session cookie", path, b"", {"Cookie": "fieldbook_session=" + "z" * 10_000}
    if not writes:
        return
    token = f"csrf_token={csrf}&"
    yield "broken JSON", path, b'{"name": "unfinished', json_type
    yield "deeply nested JSON", path, b"[" * 10_000 + b"]" * 10_000, json_type
    yield "JSON with a 100,000-character field", path, ('{"name": "%s", "notes": "%s"}' % (LONG, LONG)).encode(), json_type
    yield "JSON that is not an object", path, b'"just a string"', json_type
    yield "invalid UTF-8 in JSON", path, b'{"name": "\xff\xfe"}', json_type
    yield "a broken form encoding", path, (token + "%%%=&=&name=%G0%").encode(), form_type
    yield "a form with a 100,000-character field", path, (token + "name=" + LONG + "&notes=" + LONG).encode(), form_type
    yield "a form field with a NUL", path, (token + "name=a%00b&email=%00").encode(), form_type
    yield "multipart without a boundary", path, b"--x\r\n", {"Content-Type": "multipart/form-data"}
    yield "an unknown content type", path, b"\x00\x01\x02", {"Content-Type": "application/x-unknown"}
    yield "20 MB announced", path, b"", {"Content-Length": str(20 << 20), "Content-Type": "application/json"}


def send(probe: Http, method: str, path: str, body: bytes, headers: dict):
    announced = headers.get("Content-Length")
    if announced and int(announced) != len(body):
        return send_announced_only(probe, method, path, headers)
    return probe.request(method, path, body, headers, timeout=30).status


def send_announced_only(probe: Http, method: str, path: str, headers: dict) -> int:
    """Announces a body it never sends: the server must refuse it from the header alone."""
    with socket.create_connection(("127.0.0.1", probe.port), timeout=10, source_address=(probe.source, 0)) as connection:
        lines = [f"{method} {path} HTTP/1.1", "Host: fieldbook", "Connection: close"] + [f"{k}: {v}" for k, v in headers.items()]
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status_line = connection.recv(200).split(b"\r\n", 1)[0]
        return int(status_line.split()[1])


def test_malformed_requests_to_every_route_never_answer_5xx(node, http):
    table = routes()
    probe = Http(node.port, PROBE_ADDRESS)
    admin_page = PageSession(http, ACCOUNTS["administrator"])
    admin_api = ApiSession(http, ACCOUNTS["administrator"])
    failures, sent = [], 0
    for route in table:
        signed_in = {"Cookie": admin_page.cookie} if route["surface"] == "page" else {"Authorization": f"Bearer {admin_api.token}"}
        for who, credentials in (("anonymous", {}), ("administrator", signed_in)):
            for name, path, body, headers in variants(route, credentials, admin_page.csrf):
                try:
                    status = send(probe, route["method"], path, body, {**credentials, **headers})
                except OSError as error:
                    status = f"no answer ({error})"
                sent += 1
                if not isinstance(status, int) or status >= 500:
                    failures.append(f"{who} {route['method']} {route['path']} with {name}: {status}")
        if route["method"] != "GET":
            if not admin_page.still_signed_in():
                admin_page.sign_in()
            if not admin_api.still_valid():
                admin_api.sign_in()
    for traversal in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/css/..%2f..%2f..%2fetc%2fpasswd",
                      "/js/%00.js", "/" + "a/" * 2_000):
        status = probe.request("GET", traversal).status
        sent += 1
        if status >= 500 or status == 200:
            failures.append(f"GET {traversal[:60]}: {status}")
    report(f"malformed requests: {sent} to {len(table)} routes (pages and API), {len(failures)} answered 5xx or not at all; "
           f"server up: {node.health() == 200}")
    assert not failures, "\n".join(failures[:50])
    assert node.health() == 200
