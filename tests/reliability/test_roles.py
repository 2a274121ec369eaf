"""Every route, every role: the expected answer is computed from the access each route table declares
(`fieldbook routes --json`), so a route added later is checked without anyone writing a test for it.
Also: every POST page refuses a missing or wrong CSRF token, and no API write accepts the pages' session cookie."""

import secrets

import pytest

from client import (ALLOWED, CSRF_INPUT, ROLE_REFUSAL, ROLES, ApiSession, Http, PageSession, concrete,
                    cookie_from, form, routes)
from suite import ACCOUNTS, PASSWORD, report

# Requests that count as failed sign-ins come from an address of their own, so the throttle does not lock out the
# sessions the test signs in from 127.0.0.1.
PROBE_ADDRESS = "127.0.0.5"


def page_check(route, role, answer):
    """What a page route must answer this role, as its declared access says; None when it does."""
    access = route["access"]
    if role == "anonymous" and access != "anyone":
        location = answer.headers.get("location", "")
        return None if answer.status == 303 and location.startswith(("/login", "/setup")) else \
            f"expected a redirect to sign in, got {answer.status} {location}"
    if access not in ALLOWED[role]:
        refusal = ROLE_REFUSAL + route["accessLabel"]
        return None if answer.status == 403 and refusal in answer.text else f"expected 403 '{refusal}', got {answer.status}"
    if answer.status >= 500 or answer.status == 401 or ROLE_REFUSAL in answer.text:
        return f"expected the route to run for {role}, got {answer.status}"
    # A signed-in reader of a page that needs sign-in is never sent to sign in (sign-out and a finished setup do
    # send people to the sign-in page, but without ?next=).
    if access != "anyone" and answer.status == 303 and answer.headers.get("location", "").startswith("/login?next="):
        return f"expected the route to run for {role}, got sent to sign in"
    return None


def api_check(route, role, answer):
    access = route["access"]
    if role == "anonymous" and access != "anyone":
        return None if answer.status == 401 else f"expected 401, got {answer.status}"
    if access not in ALLOWED[role]:
        refusal = ROLE_REFUSAL + route["accessLabel"]
        return None if answer.status == 403 and refusal in answer.text else f"expected 403 '{refusal}', got {answer.status}"
    if answer.status >= 500 or answer.status == 401 or ROLE_REFUSAL in answer.text:
        return f"expected the route to run for {role}, got {answer.status}"
    return None


def test_every_route_answers_every_role_as_declared(node, http):
    table = routes()
    probe = Http(node.port, PROBE_ADDRESS)
    pages = {role: PageSession(http, email) for role, email in ACCOUNTS.items()}
    tokens = {role: ApiSession(http, email) for role, email in ACCOUNTS.items()}
    failures, checked = [], 0
    for role in ROLES:
        for route in table:
            path = concrete(route["path"])
            if route["surface"] == "page":
                session = pages.get(role)
                headers = {"Cookie": session.cookie} if session else {}
                body = b""
                if route["method"] == "POST":
                    body, form_headers = form({"csrf_token": session.csrf} if session else {})
                    headers.update(form_headers)
                answer = probe.request(route["method"], path, body, headers)
                problem = page_check(route, role, answer)
                if session and route["method"] == "POST" and not session.still_signed_in():
                    session.sign_in()  # the route was sign-out
            else:
                token = tokens.get(role)
                headers = {"Authorization": f"Bearer {token.token}"} if token else {}
                body = b""
                if route["method"] in ("POST", "PUT", "PATCH"):
                    body, headers["Content-Type"] = b"{}", "application/json"
                answer = probe.request(route["method"], path, body, headers)
                problem = api_check(route, role, answer)
                if token and route["method"] != "GET" and not token.still_valid():
                    token.sign_in()  # the route revoked the token (sign-out)
            checked += 1
            if problem:
                failures.append(f"{role:13} {route['surface']:4} {route['method']:6} {route['path']}: {problem}")
    pages_count = sum(r["surface"] == "page" for r in table)
    report(f"role matrix: {pages_count} page routes and {len(table) - pages_count} API operations x {len(ROLES)} roles = "
           f"{checked} requests, {len(failures)} answered otherwise than their declared access")
    assert not failures, "\n".join(failures)
    assert node.health() == 200


def test_every_post_page_refuses_a_missing_or_wrong_csrf_token(node, http):
    posts = [r for r in routes() if r["surface"] == "page" and r["method"] == "POST"]
    admin = PageSession(http, ACCOUNTS["administrator"])
    probe = Http(node.port, PROBE_ADDRESS)
    anonymous_token = secrets.token_hex(24)
    failures = []
    for route in posts:
        path = concrete(route["path"])
        signed_in = route["access"] != "anyone"
        cookie = admin.cookie if signed_in else f"fieldbook_csrf={anonymous_token}"
        for label, fields in (("no token", {}), ("a wrong token", {"csrf_token": secrets.token_hex(24)})):
            body, headers = form({**fields, "name": "CSRF probe", "email": "csrf@reliability.test", "password": "x"})
            answer = probe.request("POST", path, body, {**headers, "Cookie": cookie})
            if answer.status != 403 or "did not come from Fieldbook" not in answer.text:
                failures.append(f"POST {route['path']} with {label}: {answer.status}")
    report(f"CSRF: {len(posts)} POST page routes x 2 (no token, wrong token): {len(failures)} accepted")
    assert not failures, "\n".join(failures)
    assert admin.still_signed_in(), "a refused form must not sign the user out"


def test_no_api_write_accepts_the_pages_session_cookie(node, http):
    writes = [r for r in routes() if r["surface"] == "api" and r["method"] != "GET" and r["access"] != "anyone"]
    admin = PageSession(http, ACCOUNTS["administrator"])
    failures = []
    for route in writes:
        answer = http.request(route["method"], concrete(route["path"]), b"{}",
                              {"Cookie": admin.cookie, "Content-Type": "application/json"})
        if answer.status != 401:
            failures.append(f"{route['method']} {route['path']} with a session cookie: {answer.status}")
    report(f"API writes with only a session cookie: {len(writes)} operations, {len(failures)} not refused with 401")
    assert not failures, "\n".join(failures)


def test_sign_in_issues_a_new_session_and_secrets_never_reach_the_log(node, http):
    planted = "fieldbook_session=" + secrets.token_hex(24)
    page = http.request("GET", "/login", headers={"Cookie": planted})
    token = CSRF_INPUT.search(page.text).group(1)
    anonymous = cookie_from(page, "fieldbook_csrf")
    body, headers = form({"email": ACCOUNTS["editor"], "password": PASSWORD, "csrf_token": token})
    answer = http.request("POST", "/login", body, {**headers, "Cookie": f"{planted}; fieldbook_csrf={anonymous}"})
    issued = cookie_from(answer, "fieldbook_session")
    assert answer.status == 303 and issued and f"fieldbook_session={issued}" != planted, "a planted session id must not be kept"
    assert http.request("GET", "/", headers={"Cookie": planted}).status == 303, "the planted id must not be signed in"
    second = PageSession(http, ACCOUNTS["editor"])
    assert second.cookie != f"fieldbook_session={issued}", "each sign-in gets a session of its own"
    api = ApiSession(http, ACCOUNTS["editor"])
    log = node.log_path.read_text(errors="replace")
    leaked = [name for name, secret in (("the password", PASSWORD), ("a session id", issued), ("a bearer token", api.token),
                                        ("a CSRF token", second.csrf)) if secret in log]
    report(f"sessions: a planted session id is never adopted, each sign-in gets a new one; secrets in the log: {leaked or 'none'}")
    assert not leaked, f"the server log contains {leaked}"


def test_a_token_in_the_address_is_not_accepted(node, http):
    token = ApiSession(http, ACCOUNTS["editor"]).token
    for name in ("access_token", "token", "bearer"):
        answer = http.request("GET", f"/api/v1/areas?{name}={token}")
        assert answer.status == 401, f"?{name}= answered {answer.status}"
