"""The OpenAPI document tells the truth: every operation it describes is called on a real server holding demo data,
with success and with the documented errors a caller can provoke (401, 403, 404, 400, 422 and some 409s), and each
request and answer is validated against the served document by openapi-core (issue 41)."""

from __future__ import annotations

import hashlib
import secrets
import sys
import uuid
from pathlib import Path

import pytest
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent / "sync"))

from conformance import Checked, wrong_body  # noqa: E402
from harness import Account, Node, Pages  # noqa: E402

PASSWORD = "conformance-passphrase-1"
ADMIN, EDITOR, READER = "admin@api.test", "editor@api.test", "reader@api.test"
PHOTO = Path(__file__).resolve().parents[2] / "Tests" / "Fixtures" / "photos" / "gps-orientation.jpg"
V1 = "/api/v1"
# Errors any caller can provoke on any operation that documents them; the others (429, 503, 507) need a throttled
# address, a busy or broken server, or a full disk, and are the reliability suite's.
GENERIC_ERRORS = {400, 401, 403, 404, 422}
# Operations whose success needs another process: a hub this node is linked to (tests/sync covers them).
NEEDS_A_HUB = {"runSync"}
# A push that is not a sync request at all is 400; 422 is for an operation breaking a stated limit.
WRONG_BODIES = {"pushOperations": {"node_id": str(uuid.uuid4()), "operations": [{
    "operation_id": str(uuid.uuid4()), "operation": "create", "entity": "venue", "entity_id": str(uuid.uuid4()),
    "fields": {}, "before": {}, "base_version": 0, "author": "x" * 1000, "created_at": "2026-01-01T00:00:00Z"}]}}


@pytest.fixture(scope="module")
def node(tmp_path_factory):
    served = Node("api", tmp_path_factory.mktemp("api"))
    for email, role in ((ADMIN, "administrator"), (EDITOR, "editor"), (READER, "read-only")):
        served.create_user(email, PASSWORD, role=role)
    served.demo_data(participants=60, activities=12, venues=10)
    served.start()
    yield served
    served.stop()


def sign_in(api: Checked, email: str, **extra) -> dict:
    return api.json("POST", f"{V1}/auth/login", body={"email": email, "password": PASSWORD, **extra}, expect=200)


def test_every_operation_answers_as_the_served_document_says(node):
    api = Checked(node.url, requests.get(node.url + f"{V1}/openapi.json", timeout=30).json())
    api.call("GET", f"{V1}/openapi.json")
    api.call("GET", f"{V1}/health")
    admin_tokens = sign_in(api, ADMIN)
    admin = admin_tokens["access_token"]
    editor = sign_in(api, EDITOR)["access_token"]
    reader = sign_in(api, READER)["access_token"]

    deletions = succeed(api, node, admin, editor)
    for path, _ in deletions:
        api.examples.setdefault(api.operation("DELETE", path).id, path)
    provoke_errors(api, admin, reader)
    for path, status in deletions:
        api.call("DELETE", path, admin, expect=status)
    api.call("POST", f"{V1}/auth/logout", admin, expect=204)

    uncalled = [op.id for op in api.operations
                if op.id not in NEEDS_A_HUB and not any(200 <= status < 300 for status in api.seen[op.id])]
    unprovoked = [f"{op.id}: {sorted(op.statuses & GENERIC_ERRORS - api.seen[op.id])}" for op in api.operations
                  if op.statuses & GENERIC_ERRORS - api.seen[op.id]]
    assert not (api.mismatches or uncalled or unprovoked), "\n".join(
        [f"{len(api.mismatches)} answers differ from the document:", *api.mismatches,
         f"operations never called with success: {uncalled}", "documented errors never provoked:", *unprovoked])


def succeed(api: Checked, node: Node, admin: str, editor: str) -> list[tuple[str, int]]:
    """Every operation once with success, on records the calls make (their ids are then reused for the errors);
    returns the deletes, to be made after the errors."""
    deletions = []
    def first(path: str) -> dict:
        return api.json("GET", f"{V1}/{path}", admin)["items"][0]

    def unique(word: str) -> str:
        return f"{word} {secrets.token_hex(3)}"

    refreshed = api.json("POST", f"{V1}/auth/refresh", body={"refresh_token": sign_in(api, ADMIN)["refresh_token"]}, expect=200)
    api.call("POST", f"{V1}/auth/logout", refreshed["access_token"], expect=204)
    me = next(user for user in api.json("GET", f"{V1}/users?per_page=50", admin)["items"] if user["email"] == ADMIN)
    editor_user = next(user for user in api.json("GET", f"{V1}/users?per_page=50", admin)["items"] if user["email"] == EDITOR)

    categories = {}
    for plural in ("activity-types", "roles"):
        api.call("GET", f"{V1}/{plural}", admin)
        made = api.json("POST", f"{V1}/{plural}", admin, {"name": unique("Kind")}, expect=201)
        api.json("POST", f"{V1}/{plural}", admin, {"name": made["name"]}, expect=409)
        api.call("GET", f"{V1}/{plural}/{made['id']}", admin)
        made = api.json("PUT", f"{V1}/{plural}/{made['id']}", admin, {"name": unique("Kind"), "version": made["version"]})
        api.json("PATCH", f"{V1}/{plural}/{made['id']}", admin, {"name": unique("Kind"), "version": made["version"]})
        api.json("PATCH", f"{V1}/{plural}/{made['id']}", admin, {"name": unique("Kind"), "version": made["version"]}, expect=409)
        deletions.append((f"{V1}/{plural}/{made['id']}", 204))
        categories[plural] = first(plural)

    area = api.json("POST", f"{V1}/areas", admin, {"name": unique("Ward"), "area_type": "CITY", "parent_id": None}, expect=201)
    for tail in ("", "/children", "/ancestors", "/venues", "/statistics", "/export", "/export?format=csv"):
        api.call("GET", f"{V1}/areas/{area['id']}{tail}", admin)
    api.call("GET", f"{V1}/areas", admin)
    area = api.json("PUT", f"{V1}/areas/{area['id']}", admin, {"name": unique("Ward"), "area_type": "CITY", "parent_id": None,
                                                                "version": area["version"]})
    area = api.json("PATCH", f"{V1}/areas/{area['id']}", admin, {"name": unique("Ward")})

    venue_body = {"name": unique("Hall"), "address": "1 Main Street", "geographic_area_id": area["id"],
                  "coordinates": None, "venue_type": None}
    venue = api.json("POST", f"{V1}/venues", admin, venue_body, expect=201)
    api.call("DELETE", f"{V1}/areas/{area['id']}", admin, expect=409)
    for tail in ("", "/activities", "/participants"):
        api.call("GET", f"{V1}/venues/{venue['id']}{tail}", admin)
    for query in ("", "?q=Hall&sort=name"):
        api.call("GET", f"{V1}/venues{query}", admin)
        api.call("GET", f"{V1}/venues/export{query}", admin)
    api.call("GET", f"{V1}/venues/export?format=csv", admin)
    venue = api.json("PUT", f"{V1}/venues/{venue['id']}", admin,
                     {**venue_body, "coordinates": {"latitude": -1.28, "longitude": 36.82}, "version": venue["version"]})
    venue = api.json("PATCH", f"{V1}/venues/{venue['id']}", admin, {"venue_type": "PRIVATE_RESIDENCE"})

    person_body = {"name": unique("Amina"), "email": f"{secrets.token_hex(4)}@example.org", "phone": None, "notes": None,
                   "home_venue_id": venue["id"]}
    person = api.json("POST", f"{V1}/participants", admin, person_body, expect=201)
    twin = api.json("POST", f"{V1}/participants", admin, {**person_body, "email": f"{secrets.token_hex(4)}@example.org",
                                                           "home_venue_id": None}, expect=201)
    for tail in ("", "/address-history"):
        api.call("GET", f"{V1}/participants/{person['id']}{tail}", admin)
    for query in ("", "?q=Amina&sort=name&order=desc"):
        api.call("GET", f"{V1}/participants{query}", admin)
        api.call("GET", f"{V1}/participants/export{query}", admin)
    api.call("GET", f"{V1}/participants/export?format=csv", admin)
    api.call("GET", f"{V1}/participants/possible-duplicates?name={person['name']}", admin)
    person = api.json("PUT", f"{V1}/participants/{person['id']}", admin, {**person_body, "notes": "Met at the well",
                                                                            "version": person["version"]})
    person = api.json("PATCH", f"{V1}/participants/{person['id']}", admin, {"phone": "+254 700 000001"})
    twin_again = api.json("POST", f"{V1}/participants", admin, {**person_body, "email": f"{secrets.token_hex(4)}@example.org"},
                          expect=201)
    api.json("POST", f"{V1}/participants/{twin['id']}/merge", admin, {"with": twin_again["id"], "from_removed": ["notes"]})

    activity_body = {"name": unique("Circle"), "activity_type_id": categories["activity-types"]["id"],
                     "start_date": "2026-01-05", "end_date": None, "status": "PLANNED", "venue_ids": [venue["id"]]}
    activity = api.json("POST", f"{V1}/activities", admin, activity_body, expect=201)
    assignments = f"{V1}/activities/{activity['id']}/assignments"
    assignment = api.json("POST", assignments, admin, {"participant_id": person["id"], "role_id": categories["roles"]["id"]},
                          expect=201)
    api.call("DELETE", f"{V1}/venues/{venue['id']}", admin, expect=409)
    api.call("GET", assignments, admin)
    api.call("GET", f"{assignments}/{assignment['id']}", admin)
    api.call("DELETE", f"{assignments}/{assignment['id']}", admin, expect=204)
    for query in ("", "?status=PLANNED&sort=name"):
        api.call("GET", f"{V1}/activities{query}", admin)
        api.call("GET", f"{V1}/activities/export{query}", admin)
    for tail in ("", "/export", "/export?format=csv"):
        api.call("GET", f"{V1}/activities/{activity['id']}{tail}", admin)
    activity = api.json("PUT", f"{V1}/activities/{activity['id']}", admin, {**activity_body, "status": "ACTIVE",
                                                                            "version": activity["version"]})
    activity = api.json("PATCH", f"{V1}/activities/{activity['id']}", admin, {"end_date": "2027-01-05"})
    api.call("POST", f"{V1}/activities/{activity['id']}/completion", admin)

    visit_list = api.json("POST", f"{V1}/visit-lists", admin, {"name": unique("Round"), "visit_date": "2026-12-01",
                                                               "assigned_user_id": editor_user["id"], "status": "PLANNED",
                                                               "purpose": None, "script": None}, expect=201)
    stops = f"{V1}/visit-lists/{visit_list['id']}/stops"
    stop = api.json("POST", stops, admin, {"venue_id": venue["id"], "participant_id": None}, expect=201)
    api.json("POST", f"{stops}/from-filter", admin, {"source": "venues", "area_id": area["id"], "venue_type": None,
                                                      "activity_id": None, "not_visited_since": None})
    api.call("GET", stops, admin)
    api.call("GET", f"{stops}/{stop['id']}", admin)
    # A planned list loses a stop; once its walk has started (the first log) its stops stay.
    other_stop = api.json("POST", stops, admin, {"venue_id": venue["id"], "participant_id": person["id"]}, expect=201)
    api.call("DELETE", f"{stops}/{other_stop['id']}", admin, expect=204)
    log = api.json("POST", f"{stops}/{stop['id']}/logs", admin, {"result": "MET", "note": None, "coordinates": None, "id": None},
                   expect=201)
    api.call("GET", f"{stops}/{stop['id']}/logs", admin)
    api.call("GET", f"{stops}/{stop['id']}/logs/{log['id']}", admin)
    kept = api.call("DELETE", f"{stops}/{stop['id']}", admin, expect=409).json()["error"]["message"]
    assert kept.startswith("This stop cannot be removed: the list's walk has started"), kept
    api.call("GET", f"{V1}/visit-lists/{visit_list['id']}", admin)
    api.call("GET", f"{V1}/visit-lists?assigned_user_id={editor_user['id']}", admin)
    visit_list = api.json("PATCH", f"{V1}/visit-lists/{visit_list['id']}", admin, {"status": "IN_PROGRESS"})
    visit_list = api.json("PUT", f"{V1}/visit-lists/{visit_list['id']}", admin,
                          {"name": unique("Round"), "visit_date": "2026-12-02", "assigned_user_id": editor_user["id"],
                           "status": "IN_PROGRESS", "version": visit_list["version"]})
    spare = api.json("POST", f"{V1}/visit-lists", admin, {"name": unique("Round"), "visit_date": "2026-12-01",
                                                          "assigned_user_id": me["id"], "status": "PLANNED"}, expect=201)
    api.call("DELETE", f"{V1}/visit-lists/{spare['id']}", admin, expect=204)
    # A list whose walk has started (taken onto a phone, nothing logged yet) is not deleted, nor planned again.
    started = api.json("POST", f"{V1}/visit-lists", admin, {"name": unique("Round"), "visit_date": "2026-12-01",
                                                            "assigned_user_id": me["id"], "status": "IN_PROGRESS"}, expect=201)
    refused = api.call("DELETE", f"{V1}/visit-lists/{started['id']}", admin, expect=409).json()["error"]["message"]
    assert refused.startswith("This list cannot be deleted: its walk has started"), refused
    api.call("PATCH", f"{V1}/visit-lists/{started['id']}", admin, expect=422, json={"status": "PLANNED"})

    for query in ("", f"?area_id={area['id']}&from=2026-01-01&to=2026-12-31"):
        api.call("GET", f"{V1}/analytics/engagement{query}", admin)
        api.call("GET", f"{V1}/analytics/growth{query}", admin)
    api.call("GET", f"{V1}/map/venues", admin)
    found = api.json("GET", f"{V1}/search?q=an", admin)
    assert found["q"] == "an" and found["participants"]["total"] > 0, found
    # " a" is as long as the document asks, but SearchTerms counts the words trimmed: one letter is refused.
    api.call("GET", f"{V1}/search?q=%20a", admin, expect=400)
    api.call("GET", f"{V1}/search?q=a", admin, expect=400, valid_request=False)
    api.call("GET", f"{V1}/map/homes", admin, expect=403)
    saved = Pages(node, Account(ADMIN, PASSWORD)).post("/settings/map", "/settings/map", {"homes_layer": "counts", "online_tile_url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png"})
    assert saved.status_code == 303, saved.text[:500]
    api.call("GET", f"{V1}/map/homes", admin)
    api.call("GET", f"{V1}/export", admin)

    notifications = api.json("GET", f"{V1}/notifications", editor)["items"]
    api.call("POST", f"{V1}/notifications/{notifications[0]['id']}/read", editor)
    api.call("POST", f"{V1}/notifications/read-all", editor)
    preferences = api.json("GET", f"{V1}/notifications/preferences", editor)
    api.json("PUT", f"{V1}/notifications/preferences", editor, {"received_kinds": preferences["received_kinds"]})

    user_body = {"name": "Wanjiru", "email": f"{secrets.token_hex(4)}@example.org", "role": "editor"}
    user = api.json("POST", f"{V1}/users", admin, {**user_body, "password": PASSWORD}, expect=201)
    api.json("POST", f"{V1}/users", admin, {**user_body, "password": PASSWORD}, expect=409)
    api.call("GET", f"{V1}/users/{user['id']}", admin)
    user = api.json("PUT", f"{V1}/users/{user['id']}", admin, {**user_body, "is_disabled": False, "version": user["version"]})
    api.json("PATCH", f"{V1}/users/{user['id']}", admin, {"name": "Wanjiru K."})
    api.call("POST", f"{V1}/users/{user['id']}/password", admin, expect=204, json={"password": PASSWORD + "-new"})

    sync(api, node, admin, person)

    photo = photos(api, admin, person)
    deletions.append((f"{V1}/photos/{photo['id']}", 204))

    note_body = {"noted_on": "2026-03-12", "text": "Asked about the Saturday circle", "participant_id": person["id"],
                 "venue_id": None, "activity_id": None}
    note = api.json("POST", f"{V1}/notes", admin, note_body, expect=201)
    api.call("GET", f"{V1}/notes", admin)
    api.call("GET", f"{V1}/notes/{note['id']}", admin)
    note = api.json("PUT", f"{V1}/notes/{note['id']}", admin, {**note_body, "version": note["version"]})
    api.json("PATCH", f"{V1}/notes/{note['id']}", admin, {"text": "Will come on Saturday"})

    spare_area = api.json("POST", f"{V1}/areas", admin, {"name": unique("Ward"), "area_type": "CITY"}, expect=201)
    spare_venue = api.json("POST", f"{V1}/venues", admin, {**venue_body, "geographic_area_id": spare_area["id"]}, expect=201)
    return deletions + [(f"{V1}/notes/{note['id']}", 204), (f"{V1}/activities/{activity['id']}", 204),
                        (f"{V1}/participants/{person['id']}", 204), (f"{V1}/venues/{spare_venue['id']}", 204),
                        (f"{V1}/areas/{spare_area['id']}", 204)]


def photos(api: Checked, admin: str, person: dict) -> dict:
    """A participant's photos: the upload (multipart, as the photo page's), its caption changed, the list."""
    owner = {"participant_id": person["id"]}
    image = {"photo": ("IMG_2041.jpg", PHOTO.read_bytes(), "image/jpeg")}
    photo = api.call("POST", f"{V1}/photos", admin, expect=201, data={**owner, "caption": "At the well"}, files=image).json()
    assert photo["participant_id"] == person["id"] and photo["taken_on"], photo
    api.call("POST", f"{V1}/photos", admin, expect=422, data={**owner, "caption": "Not a photo"},
             files={"photo": ("notes.jpg", b"plain text, not an image", "image/jpeg")})
    api.call("POST", f"{V1}/photos", admin, expect=422, valid_request=False, data={**owner, "caption": "No file"})
    api.call("POST", f"{V1}/photos", admin, expect=400, data={"caption": "Whose?"}, files=image)
    api.call("POST", f"{V1}/photos", admin, expect=404, data={"venue_id": str(uuid.uuid4()), "caption": "Nowhere"}, files=image)
    api.call("POST", f"{V1}/photos", expect=401, valid_request=False, data={**owner, "caption": "x"}, files=image)
    api.call("GET", f"{V1}/photos?participant_id={person['id']}", admin)
    api.call("GET", f"{V1}/photos/{photo['id']}", admin)
    changed = api.json("PATCH", f"{V1}/photos/{photo['id']}", admin, {"caption": "Amina at the well", "version": photo["version"]})
    assert changed["caption"] == "Amina at the well" and changed["taken_on"] == photo["taken_on"]
    api.json("PATCH", f"{V1}/photos/{photo['id']}", admin, {"caption": "Stale", "version": photo["version"]}, expect=409)
    return changed


def sync(api: Checked, node: Node, admin: str, person: dict):
    """The sync routes: status, conflicts, the change log (its null fields), a push, photo files, linked nodes."""
    api.call("GET", f"{V1}/sync/status", admin)
    api.call("POST", f"{V1}/sync/run", admin, expect=(200, 409))
    api.call("GET", f"{V1}/sync/conflicts", admin)
    api.call("GET", f"{V1}/sync/conflicts?show=all", admin)
    changes = api.json("GET", f"{V1}/sync/changes?after=0&limit=1000", admin)
    assert any(value is None for change in changes["changes"] for value in change["state"]["fields"].values()), \
        "the change log has no null field to check"
    api.json("POST", f"{V1}/sync/push", admin, {"node_id": str(uuid.uuid4()), "operations": []})

    # A photo as Fieldbook keeps it, from the photo page's upload; sent again, the hub side takes it.
    pages = Pages(node, Account(ADMIN, PASSWORD))
    uploaded = pages.post("/photos", f"/photos/new?participant_id={person['id']}",
                          {"participant_id": person["id"], "caption": "At the well"},
                          files={"photo": ("IMG_1.jpg", PHOTO.read_bytes(), "image/jpeg")})
    assert uploaded.status_code == 303, uploaded.text[:500]
    with node.connect_readonly() as db:
        (sha,) = db.execute("SELECT file_sha256 FROM photos").fetchone()
    content = api.call("GET", f"{V1}/sync/photo-files/{sha}", admin).content
    assert hashlib.sha256(content).hexdigest() == sha
    api.call("PUT", f"{V1}/sync/photo-files/{sha}", admin, expect=204, data=content, headers={"Content-Type": "image/jpeg"})
    raw = PHOTO.read_bytes()
    api.call("PUT", f"{V1}/sync/photo-files/{hashlib.sha256(raw).hexdigest()}", admin, expect=409, data=raw,
             headers={"Content-Type": "image/jpeg"})
    api.json("POST", f"{V1}/sync/photo-files/missing", admin, {"sha256": [sha, "0" * 64]})

    sign_in(api, ADMIN, node_name="Tablet 4")
    linked = api.json("GET", f"{V1}/linked-nodes", admin)
    api.call("POST", f"{V1}/linked-nodes/{linked['items'][0]['id']}/revoke", admin, expect=204)


def provoke_errors(api: Checked, admin: str, reader: str):
    """For each operation, the errors it documents that any caller can provoke, on the path it answered with success."""
    for op in api.operations:
        path = api.examples.get(op.id) or (op.template if not op.parameters else None)
        if path is None:
            continue
        bare = path.split("?")[0]
        if 401 in op.statuses:
            if op.id == "refreshTokens":
                api.call("POST", bare, expect=401, json={"refresh_token": "not-a-token"})
            else:
                api.call(op.method, bare, expect=401, valid_request=False, **body_for(op, api))
        if 403 in op.statuses and not op.spec.get("security") == []:
            api.call(op.method, bare, reader, expect=(403, 404, 409) if op.method != "get" else (200, 403), **body_for(op, api))
        if 404 in op.statuses and op.parameters:
            api.call(op.method, missing(op), admin, expect=404, valid_request="sha256" not in op.parameters, **body_for(op, api))
        named = [parameter["name"] for parameter in op.spec.get("parameters", [])
                 if parameter["in"] == "query" and parameter["schema"].get("format") == "uuid"]
        if 404 in op.statuses and not op.parameters and named:  # a record named in the query
            api.call(op.method, f"{bare}?{named[-1]}={uuid.uuid4()}", admin, expect=404)
        if op.body_schema:
            api.call(op.method, bare, admin, expect=400, valid_request=False, data=b"{not json",
                     headers={"Content-Type": "application/json"})
            api.call(op.method, bare, admin, expect=422, valid_request=False, json=WRONG_BODIES.get(op.id) or wrong_body(api.schema(op.body_schema)))
        elif 400 in op.statuses and op.method == "get":
            api.call(op.method, f"{bare}?{out_of_range(op)}", admin, expect=400, valid_request=False)


def body_for(op, api: Checked) -> dict:
    """A body valid for the operation's schema in shape, for calls whose error comes before the body is read."""
    if op.body_schema:
        return {"json": minimal(api.schema(op.body_schema), api)}
    content = op.spec.get("requestBody", {}).get("content", {})
    if "multipart/form-data" in content:
        return {"data": {"participant_id": str(uuid.uuid4()), "caption": "x"}, "files": {"photo": ("x.jpg", b"\xff\xd8\xff", "image/jpeg")}}
    if content:
        return {"data": b"\xff\xd8\xff", "headers": {"Content-Type": "image/jpeg"}}
    return {}


def minimal(schema: dict, api: Checked) -> dict:
    values = {"string": "x", "integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}
    body = {}
    for name in schema.get("required", []):
        field = schema["properties"][name]
        if "$ref" in field:
            field = api.schema(field["$ref"].rsplit("/", 1)[-1])
        if "enum" in field:
            body[name] = field["enum"][0]
        elif field.get("format") == "uuid":
            body[name] = str(uuid.uuid4())
        elif field.get("format") == "email":
            body[name] = "someone@example.org"
        elif field.get("format") == "date":
            body[name] = "2026-01-01"
        else:
            body[name] = values.get(field.get("type"), "x") if field.get("type") != "string" else "x" * max(1, field.get("minLength", 1))
    return body


def missing(op) -> str:
    path = op.template
    for name in op.parameters:
        path = path.replace("{" + name + "}", "not-a-file" if name == "sha256" else str(uuid.uuid4()))
    return path


def out_of_range(op) -> str:
    names = {parameter["name"] for parameter in op.spec.get("parameters", []) if parameter["in"] == "query"}
    if "per_page" in names:
        return "per_page=100000"
    if "limit" in names:
        return "limit=-1"
    if "format" in names:
        return "format=xml"
    if "range" in names:
        return "range=forever"
    if "show" in names:
        return "show=nothing"
    return "area_id=not-an-id"


def test_a_logged_visits_photos_are_its_organizers_as_on_the_pages(node):
    """The API's photo upload keeps the photo pages' rule: a logged visit's photos are added by its visit list's
    organizer (or an administrator), not by any editor."""
    api = Checked(node.url, requests.get(node.url + f"{V1}/openapi.json", timeout=30).json())
    admin, editor = sign_in(api, ADMIN)["access_token"], sign_in(api, EDITOR)["access_token"]
    me = next(user for user in api.json("GET", f"{V1}/users?per_page=50", admin)["items"] if user["email"] == ADMIN)
    venue = api.json("GET", f"{V1}/venues", admin)["items"][0]
    visit_list = api.json("POST", f"{V1}/visit-lists", admin, {"name": "Photo round", "visit_date": "2026-12-01",
                                                               "assigned_user_id": me["id"], "status": "PLANNED"}, expect=201)
    stops = f"{V1}/visit-lists/{visit_list['id']}/stops"
    stop = api.json("POST", stops, admin, {"venue_id": venue["id"]}, expect=201)
    log = api.json("POST", f"{stops}/{stop['id']}/logs", admin, {"result": "MET"}, expect=201)
    form = {"contact_log_id": log["id"], "caption": "The flyer left at the door"}
    image = {"photo": ("door.jpg", PHOTO.read_bytes(), "image/jpeg")}

    refused = api.call("POST", f"{V1}/photos", editor, expect=403, data=form, files=image)
    assert "organizer" in refused.json()["error"]["message"]
    photo = api.call("POST", f"{V1}/photos", admin, expect=201, data=form, files=image).json()
    assert photo["contact_log_id"] == log["id"]
    api.json("PATCH", f"{V1}/photos/{photo['id']}", editor, {"caption": "Not mine to change"}, expect=403)
    api.call("DELETE", f"{V1}/photos/{photo['id']}", editor, expect=403)
    api.call("DELETE", f"{V1}/photos/{photo['id']}", admin, expect=204)
    assert not api.mismatches, "\n".join(api.mismatches)
