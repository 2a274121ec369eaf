"""Compares the pages two Fieldbook builds serve over the same demo community, byte for byte.

A refactoring that should change no page is checked with it: one database of demo data is made, copied for each
build, and each build serves its copy. The first build's pages are crawled for every role (following every link on
the site, a few of each kind of address), a set of refused form submissions is added, then the JSON API is asked with
a token for the same role (each record resource's list, its first record, and a refused create of an empty body; for
read-only users once more with the privacy setting hiding contacts and homes), and the second build is asked for exactly the same requests in the same order. Only what differs per request is masked (CSRF tokens and script
nonces); anything else that differs is reported, with the first lines of each difference.

    $VENV/bin/python scripts/compare_pages.py --before OLD_BINARY:OLD_CHECKOUT --after NEW_BINARY:NEW_CHECKOUT

Exits 0 when every answer is the same, 1 when any differs, 2 when a server does not start.
"""
import argparse
import collections
import difflib
import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zipfile

import requests

PASSWORD = "correct horse battery staple"
ROLES = [("administrator", "admin@example.org"), ("editor", "editor@example.org"), ("read-only", "reader@example.org")]
# Addresses whose GET changes what the session is or whose answer is a stream that never ends.
SKIPPED = re.compile(r"^/(logout|sign-out|events|status/events|api/)|/events$|\.(mbtiles|png|jpe?g|webp|pbf)$|/tiles/")
# What a server makes new for every answer.
VOLATILE = [
    (re.compile(rb'(name="csrf_token" value=")[^"]*'), rb"\1CSRF"),
    (re.compile(rb'(<meta name="csrf-token" content=")[^"]*'), rb"\1CSRF"),
    (re.compile(rb'nonce="[^"]*"'), rb'nonce="NONCE"'),
    (re.compile(rb"'nonce-[^']*'"), rb"'nonce-NONCE'"),
    (re.compile(rb'("exported_at" ?: ?")[^"]*'), rb"\1EXPORTED_AT"),
]
# Refused submissions: each form shown again with its errors (the form's error state).
REFUSED_FORMS = ["/participants/new", "/venues/new", "/areas/new", "/activities/new", "/visit-lists/new",
                 "/users/new", "/activity-types/new", "/roles/new"]
# The JSON API's record resources: each one's list, first record and a refused create are compared.
API_RESOURCES = ["participants", "venues", "areas", "activities", "activity-types", "roles", "users", "visit-lists"]
# Lists under the first record of a resource, compared with their first item.
API_SUB_RESOURCES = [("activities", "assignments"), ("visit-lists", "stops")]
PER_SHAPE = 3
MOST_PAGES_PER_ROLE = 600


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.found.append(href)


def shape(path):
    """The kind of address: ids and numbers replaced, query values dropped, so a few of each kind are visited."""
    parts = urllib.parse.urlsplit(path)
    bare = re.sub(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", "{id}", parts.path)
    bare = re.sub(r"/\d+", "/{n}", bare)
    keys = sorted(urllib.parse.parse_qs(parts.query, keep_blank_values=True))
    return bare + "?" + "&".join(keys)


class Server:
    def __init__(self, binary, resources, data, log):
        env = dict(os.environ, FIELDBOOK_PASSWORD_COST="test")
        self.log = open(log, "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data", data, "--resources", resources, "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        self.base = None
        deadline = time.time() + 60
        while time.time() < deadline and self.base is None:
            line = self.process.stdout.readline()
            if not line:
                break
            match = re.match(r"Fieldbook is serving at (\S+?)/?$", line.strip())
            if match:
                self.base = match.group(1)
        if self.base is None:
            self.stop()
            sys.stderr.write(f"compare_pages: {binary} did not start; see {log}\n")
            sys.exit(2)

    def stop(self):
        self.process.kill()
        self.process.wait()


def csrf(body):
    match = re.search(r'name="csrf_token" value="([^"]*)"', body)
    return match.group(1) if match else ""


def sign_in(base, email):
    session = requests.Session()
    page = session.get(base + "/login")
    answer = session.post(base + "/login", data={"csrf_token": csrf(page.text), "email": email, "password": PASSWORD,
                                                 "next": "/"}, allow_redirects=False)
    if answer.status_code not in (302, 303):
        sys.exit(f"compare_pages: signing in as {email} answered {answer.status_code}")
    return session


def crawl(ask):
    """Asks for every address reachable by links from the home page, at most PER_SHAPE of each shape, in the order
    found; `ask` answers the reference build's body. Both builds are asked in step, since a page may remember what
    was visited before it (the last list view)."""
    queue, seen, visited = collections.deque(["/"]), {"/"}, 0
    per_shape = collections.Counter()
    while queue and visited < MOST_PAGES_PER_ROLE:
        path = queue.popleft()
        visited += 1
        body = ask("GET", path)
        if body is None:
            continue
        parser = Links()
        parser.feed(body)
        for href in parser.found:
            target = urllib.parse.urlsplit(urllib.parse.urljoin("http://fieldbook" + path, href))
            if target.netloc != "fieldbook":
                continue
            address = target.path + ("?" + target.query if target.query else "")
            if address in seen or SKIPPED.search(target.path):
                continue
            seen.add(address)
            if per_shape[shape(address)] >= PER_SHAPE:
                continue
            per_shape[shape(address)] += 1
            queue.append(address)


def ask_every_request(ask):
    """The requests made as one role: every page reachable by links, the API's document, and each refused form."""
    crawl(ask)
    ask("GET", "/api/v1/openapi.json")
    for path in REFUSED_FORMS:
        ask("POST", path)


def ask_the_api(ask):
    """The JSON API's answers as one role: each record resource's list, its first record, a refused create of an empty
    body, the lists under a first record, their first item and a refused create there, and the caller's notifications."""
    for resource in API_RESOURCES:
        collection = "/api/v1/" + resource
        first = first_id(ask("GET", collection))
        if first:
            ask("GET", f"{collection}/{first}")
        ask("POST", collection, {})
    for resource, sub in API_SUB_RESOURCES:
        parent = first_id(ask("GET", "/api/v1/" + resource))
        if parent:
            listed = f"/api/v1/{resource}/{parent}/{sub}"
            item = first_id(ask("GET", listed))
            if item:
                ask("GET", f"{listed}/{item}")
            ask("POST", listed, {})
    ask("GET", "/api/v1/notifications")


def first_id(body):
    """The id of a list answer's first item, or None."""
    try:
        items = json.loads(body or "null")["items"]
        return items[0]["id"] if items else None
    except (ValueError, KeyError, TypeError):
        return None


def answer(base, session, method, path, json_body=None):
    if json_body is not None:
        reply = session.request(method, base + path, json=json_body, allow_redirects=False)
    elif method == "GET":
        reply = session.get(base + path, allow_redirects=False)
    else:
        form = session.get(base + path)
        reply = session.post(base + path, data={"csrf_token": csrf(form.text)}, allow_redirects=False)
    body = reply.content
    if reply.headers.get("Content-Type", "").startswith("application/zip"):
        body = unpacked(body)
    for pattern, replacement in VOLATILE:
        body = pattern.sub(replacement, body)
    location = reply.headers.get("Location", "")
    return f"{reply.status_code} {reply.headers.get('Content-Type', '')} {location}\n".encode() + body


def unpacked(archive):
    """An archive as its members' names and contents, in order: the bytes of a ZIP hold the time it was made."""
    with zipfile.ZipFile(io.BytesIO(archive)) as members:
        return b"".join(b"== " + name.encode() + b"\n" + members.read(name) + b"\n" for name in members.namelist())


def api_session(base, email):
    """A session that sends a bearer token for the account, as API clients do."""
    session = requests.Session()
    answer = session.post(base + "/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    if answer.status_code != 200:
        sys.exit(f"compare_pages: API sign-in as {email} answered {answer.status_code}")
    session.headers["Authorization"] = "Bearer " + answer.json()["access_token"]
    return session


def make_community(binary, resources, data, folder):
    env = dict(os.environ, FIELDBOOK_PASSWORD_COST="test")
    subprocess.run([binary, "demo-data", "--data", data, "--resources", resources, "--participants", "400",
                    "--activities", "80", "--venues", "40"], check=True, env=env, stdout=subprocess.DEVNULL)
    for role, email in ROLES:
        subprocess.run([binary, "create-user", "--data", data, "--resources", resources, "--email", email, "--role", role],
                       input=PASSWORD + "\n", text=True, check=True, env=env, stdout=subprocess.DEVNULL)
    add_visit_list(Server(binary, resources, data, os.path.join(folder, "community.log")))


def add_visit_list(server):
    """A visit list with a stop at the first venue, which demo data lacks, so that the API's visit answers hold one."""
    try:
        session = api_session(server.base, ROLES[0][1])
        organizer = session.get(server.base + "/api/v1/users").json()["items"][0]["id"]
        venue = session.get(server.base + "/api/v1/venues").json()["items"][0]["id"]
        made = session.post(server.base + "/api/v1/visit-lists", json={
            "name": "Door to door", "visit_date": "2026-03-12", "purpose": "Invitations", "script": "", "assigned_user_id": organizer,
            "status": "PLANNED"})
        if made.status_code != 201:
            sys.exit(f"compare_pages: making a visit list answered {made.status_code} {made.text}")
        session.post(f"{server.base}/api/v1/visit-lists/{made.json()['id']}/stops", json={"venue_id": venue})
    finally:
        server.stop()


def hide_from_read_only(base, session):
    """The administrators' privacy setting: read-only users see participants' notes, not their contacts or homes."""
    form = session.get(base + "/settings/privacy")
    session.post(base + "/settings/privacy", data={"csrf_token": csrf(form.text), "read_only_notes": "on"},
                 allow_redirects=False)


def build(argument):
    binary, _, resources = argument.partition(":")
    return os.path.abspath(binary), os.path.abspath(resources or ".")


def main():
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--before", required=True, help="BINARY:CHECKOUT of the build whose pages are the reference")
    options.add_argument("--after", required=True, help="BINARY:CHECKOUT of the build to compare with it")
    options.add_argument("--same-assets", action="store_true",
                         help="mask the version in /static/VERSION/ addresses, for a comparison across builds whose scripts or "
                              "styles changed on purpose")
    options.add_argument("--keep", help="a folder to write both sides' differing answers into")
    arguments = options.parse_args()
    if arguments.same_assets:
        VOLATILE.append((re.compile(rb"/static/[0-9a-f]{16}/"), rb"/static/VERSION/"))
    before, after = build(arguments.before), build(arguments.after)
    folder = tempfile.mkdtemp(prefix="fieldbook-compare-")
    try:
        make_community(*before, os.path.join(folder, "community"), folder)
        for side in ("before", "after"):
            shutil.copytree(os.path.join(folder, "community"), os.path.join(folder, side))
        servers = {side: Server(*build_, os.path.join(folder, side), os.path.join(folder, side + ".log"))
                   for side, build_ in (("before", before), ("after", after))}
        differing, compared = [], 0
        try:
            for role, email in ROLES:
                sessions = {side: sign_in(server.base, email) for side, server in servers.items()}

                def ask(method, path, json_body=None):
                    nonlocal compared
                    pair = {side: answer(servers[side].base, sessions[side], method, path, json_body) for side in servers}
                    compared += 1
                    if pair["before"] != pair["after"]:
                        differing.append((role, method, path, pair))
                    head, _, body = pair["before"].partition(b"\n")
                    return body.decode(errors="replace") if b"text/html" in head or b"application/json" in head else None

                ask_every_request(ask)
                sessions = {side: api_session(server.base, email) for side, server in servers.items()}
                ask_the_api(ask)
                if role == "read-only":
                    for side, server in servers.items():
                        hide_from_read_only(server.base, sign_in(server.base, ROLES[0][1]))
                    role = "read-only, contacts and homes hidden"
                    ask_the_api(ask)
        finally:
            for server in servers.values():
                server.stop()
        report(differing, compared, arguments.keep)
        return 1 if differing else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def report(differing, compared, keep):
    print(f"compare_pages: {compared} answers compared, {len(differing)} differ")
    for number, (role, method, path, pair) in enumerate(differing):
        print(f"\n== {role} {method} {path}")
        lines = difflib.unified_diff(pair["before"].decode(errors="replace").splitlines(),
                                     pair["after"].decode(errors="replace").splitlines(), "before", "after", n=1, lineterm="")
        for line in list(lines)[:20]:
            print(line[:300])
        if keep:
            os.makedirs(keep, exist_ok=True)
            for side, body in pair.items():
                with open(os.path.join(keep, f"{number:03d}-{side}.html"), "wb") as file:
                    file.write(body)


if __name__ == "__main__":
    sys.exit(main())
