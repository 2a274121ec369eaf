"""Calls to a real server, each request and its answer checked against the server's own OpenAPI document by
openapi-core (an outside validator), with every mismatch kept so one run lists them all."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field

import requests
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

METHODS = ("get", "put", "post", "patch", "delete")
# openapi-core reads only application/json as JSON; the document's other text types are read as what they are.
MEDIA_TYPES = {"application/geo+json": lambda content, **_: json.loads(content),
               "text/csv": lambda content, **_: content.decode("utf-8")}


@dataclass
class Operation:
    id: str
    method: str
    template: str
    spec: dict

    @property
    def parameters(self) -> list[str]:
        return re.findall(r"\{([^}]+)\}", self.template)

    @property
    def statuses(self) -> set[int]:
        return {int(status) for status in self.spec["responses"]}

    @property
    def body_schema(self) -> str | None:
        content = self.spec.get("requestBody", {}).get("content", {}).get("application/json")
        return content["schema"]["$ref"].rsplit("/", 1)[-1] if content else None


@dataclass
class Checked:
    """One server, its document, and what was called: each operation's statuses seen, and every mismatch."""

    base: str
    document: dict
    session: requests.Session = field(default_factory=requests.Session)
    seen: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    # A path each operation answered with success, to provoke its errors on afterwards.
    examples: dict[str, str] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)

    def __post_init__(self):
        self.session.trust_env = False
        self.api = OpenAPI.from_dict(self.document, config=Config(extra_media_type_deserializers=MEDIA_TYPES))
        self.operations = [Operation(spec["operationId"], method, path, spec)
                           for path, item in self.document["paths"].items()
                           for method, spec in item.items() if method in METHODS]
        self._patterns = sorted(
            ((re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(op.template)) + "$"), op) for op in self.operations),
            key=lambda pair: len(pair[1].parameters))

    def operation(self, method: str, path: str) -> Operation:
        for pattern, op in self._patterns:  # a literal segment wins over a parameter (/participants/export)
            if op.method == method.lower() and pattern.match(path):
                return op
        raise AssertionError(f"{method} {path} is not in the document")

    def schema(self, name: str) -> dict:
        return self.document["components"]["schemas"][name]

    def call(self, method: str, path: str, token: str | None = None, expect: int | tuple | None = None,
             valid_request: bool = True, **send) -> requests.Response:
        """Sends one request; checks the request (when it is meant to be valid) and the answer against the document,
        and the status against `expect` (any 2xx when None)."""
        headers = dict(send.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token}"
        answer = self.session.request(method, self.base + path, headers=headers, timeout=60, allow_redirects=False, **send)
        op = self.operation(method, path.split("?")[0])
        self.seen[op.id].add(answer.status_code)
        where = f"{op.id} {method} {path} → {answer.status_code}"
        request = RequestsOpenAPIRequest(answer.request)
        if valid_request:
            for error in self.api.iter_request_errors(request):
                self.mismatches.append(f"{where}: request: {describe(error)}")
        for error in self.api.iter_response_errors(request, RequestsOpenAPIResponse(answer)):
            self.mismatches.append(f"{where}: answer: {describe(error)}; body: {answer.text[:300]}")
        wanted = expect if isinstance(expect, tuple) else (expect,) if expect else None
        if wanted and answer.status_code not in wanted or not wanted and not 200 <= answer.status_code < 300:
            self.mismatches.append(f"{where}: expected {wanted or '2xx'}; body: {answer.text[:300]}")
        elif answer.status_code < 300:
            self.examples.setdefault(op.id, path)
        return answer

    def json(self, method: str, path: str, token: str | None = None, body=None, expect=None) -> dict:
        answer = self.call(method, path, token, expect, json=body)
        return answer.json() if answer.content else {}


def describe(error: Exception) -> str:
    """The validator's error with the schema errors under it (which field, which rule)."""
    details = []
    cause = error
    while cause is not None:
        for schema_error in getattr(cause, "schema_errors", []) or []:
            details.append(f"{'/'.join(map(str, schema_error.absolute_path))}: {schema_error.message[:200]}")
        cause = cause.__cause__
    return f"{type(error).__name__}: {str(error)[:200]}" + (f" [{'; '.join(details[:5])}]" if details else "")


def wrong_body(schema: dict) -> dict:
    """A JSON object valid as JSON but breaking the body's rules: its required fields left out or, when none is
    required, one field of the wrong type."""
    if schema.get("required"):
        return {}
    name, field_schema = next(iter(sorted(schema["properties"].items())))
    return {name: [] if field_schema.get("type") != "array" else "not a list"}


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
