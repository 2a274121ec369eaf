"""Plain HTTP for the reliability suite: one connection per request from a chosen loopback address (so requests
that count as failed sign-ins, or that fill a per-address limit, come from an address of their own), page sessions
with their CSRF token, API bearer tokens, and the route tables as `fieldbook routes --json` prints them.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import urllib.parse
import uuid
from dataclasses import dataclass

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "sync"))

from harness import binary_path, process_environment  # noqa: E402

CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')
# Access.refusal's wording on both surfaces: "... does not allow this; it is for <accessLabel>. ..."
ROLE_REFUSAL = "does not allow this; it is for "
# Which access levels each role passes, as Access.allows decides.
ROLES = ("anonymous", "read-only", "editor", "administrator")
ALLOWED = {
    "anonymous": {"anyone"},
    "read-only": {"anyone", "signed-in"},
    "editor": {"anyone", "signed-in", "editor"},
    "administrator": {"anyone", "signed-in", "editor", "administrator"},
}
PASSWORD = "reliability-passphrase-1"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")

    def json(self):
        return json.loads(self.body)


def routes() -> list[dict]:
    """Every route both tables declare: {surface, method, path, access, accessLabel}."""
    done = subprocess.run([str(binary_path()), "routes", "--json"], capture_output=True, text=True, check=True,
                          env=process_environment())
    return json.loads(done.stdout)


def concrete(path: str, fill: str | None = None) -> str:
    """The pattern with each {parameter} replaced by `fill` (default: a random id no record has)."""
    return re.sub(r"\{[^}]+\}", lambda _: fill or str(uuid.uuid4()), path)


class Http:
    """Requests to one server from one source address; a new connection each time, so nothing is shared."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.port, self.source = port, source

    def request(self, method: str, path: str, body: bytes | str = b"", headers: dict | None = None,
                timeout: float = 30, read_stream: bool = False) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(self.source, 0))
        try:
            data = body.encode() if isinstance(body, str) else body
            connection.putrequest(method, path, skip_accept_encoding=True)
            sent = {"Connection": "close", **(headers or {})}
            if data or method in ("POST", "PUT", "PATCH"):
                sent.setdefault("Content-Length", str(len(data)))
            for name, value in sent.items():
                connection.putheader(name, value)
            connection.endheaders(data or None)
            response = connection.getresponse()
            answer_headers: dict[str, str] = {}
            for name, value in response.getheaders():  # Set-Cookie comes once per cookie: keep them all, a line each
                key = name.lower()
                answer_headers[key] = answer_headers[key] + "\n" + value if key in answer_headers else value
            streaming = answer_headers.get("content-type", "").startswith("text/event-stream")
            content = b"" if streaming and not read_stream else response.read()
            return Answer(response.status, answer_headers, content)
        finally:
            connection.close()

    def healthy(self) -> bool:
        try:
            return self.request("GET", "/api/v1/health", timeout=5).status == 200
        except OSError:
            return False


def form(fields: dict[str, str]) -> tuple[bytes, dict]:
    return urllib.parse.urlencode(fields).encode(), {"Content-Type": "application/x-www-form-urlencoded"}


def cookie_from(answer: Answer, name: str) -> str | None:
    for header in answer.headers.get("set-cookie", "").split("\n"):
        match = re.search(rf"(?:^|[\s,]){name}=([^;]*)", header)
        if match and match.group(1):
            return match.group(1)
    return None


class PageSession:
    """A signed-in browser: the session cookie and the CSRF token its pages carry."""

    def __init__(self, http: Http, email: str, password: str = PASSWORD):
        self.http, self.email, self.password = http, email, password
        self.cookie = ""
        self.csrf = ""
        self.sign_in()

    def sign_in(self):
        page = self.http.request("GET", "/login")
        anonymous = cookie_from(page, "fieldbook_csrf")
        token = CSRF_INPUT.search(page.text).group(1)
        body, headers = form({"email": self.email, "password": self.password, "csrf_token": token})
        answer = self.http.request("POST", "/login", body, {**headers, "Cookie": f"fieldbook_csrf={anonymous}"})
        session = cookie_from(answer, "fieldbook_session")
        assert answer.status == 303 and session, f"signing in as {self.email} answered {answer.status}: {answer.text[:300]}"
        self.cookie = f"fieldbook_session={session}"
        home = self.get("/")
        self.csrf = CSRF_INPUT.search(home.text).group(1)

    def get(self, path: str, **options) -> Answer:
        return self.http.request("GET", path, headers={"Cookie": self.cookie}, **options)

    def post(self, path: str, fields: dict[str, str] | None = None, csrf: bool = True, **options) -> Answer:
        values = dict(fields or {})
        if csrf:
            values["csrf_token"] = self.csrf
        body, headers = form(values)
        return self.http.request("POST", path, body, {**headers, "Cookie": self.cookie}, **options)

    def still_signed_in(self) -> bool:
        return self.get("/").status == 200


class ApiSession:
    """A bearer token for one account."""

    def __init__(self, http: Http, email: str, password: str = PASSWORD):
        self.http, self.email, self.password = http, email, password
        self.token = ""
        self.sign_in()

    def sign_in(self):
        answer = self.http.request("POST", "/api/v1/auth/login", json.dumps({"email": self.email, "password": self.password}),
                                   {"Content-Type": "application/json"})
        assert answer.status == 200, f"API sign-in as {self.email} answered {answer.status}: {answer.text[:300]}"
        self.token = answer.json()["access_token"]

    def call(self, method: str, path: str, payload=None, **options) -> Answer:
        body = b"" if payload is None else json.dumps(payload).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        return self.http.request(method, path, body, headers, **options)

    def still_valid(self) -> bool:
        return self.call("GET", "/api/v1/areas?per_page=1").status == 200
