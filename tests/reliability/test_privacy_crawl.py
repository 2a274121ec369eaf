"""Each privacy setting applies on every page, download and API read (issue 36, item 8). As each role, with each
setting hiding its details from read-only users, every GET route both route tables declare (`fieldbook routes --json`,
so a route added later is crawled without anyone listing it) is read with its ids filled from the node's records, and
every answer is searched for the hidden values: contacts (emails, phones), notes, and where people live (the home of a
person on a visit list: its name, address, and where a visit there was logged). A venue's own pages, the map's venue
layer, area pages and a walk's starting-venue choices show places as places and are not searched for homes;
everything else is, and so is the map of the visit list ("Show on map": the page and its GeoJSON with visit_list_id),
which would pick the home out as a stop."""

import re
import uuid

from client import ApiSession, Http, PageSession, routes
from suite import ACCOUNTS, report

# A person and a home no demo record shares, so finding one of these strings is a leak, never a coincidence.
PROBE = {
    "name": "Ifeoma Privacy-Probe",
    "email": "ifeoma.probe@privacy-crawl.test",
    "phone": "+234 803 555 0199",
    "notes": "Crawl probe note: gate code 4417",
    "home": "Okonkwo-Probe Residence",
    "address": "17 Hidden Lane, Probeville",
    "logged_at": "7.123456",
}
HIDDEN = {
    "contacts": ("email", "phone"),
    "notes": ("notes",),
    "homes": ("home", "address", "logged_at"),
}
SETTING_FIELDS = {"contacts": "read_only_contacts", "notes": "read_only_notes", "homes": "read_only_homes"}
# Places as places: where a home's venue is rightly named, without who lives there.
PLACE_ROUTES = ("/venues", "/api/v1/venues", "/map", "/api/v1/map/venues", "/areas", "/api/v1/areas")
# A walk's "Starting venue" choices: every venue with coordinates, as /venues lists them, whatever the list holds.
PLACE_CHOICES = re.compile(r'<select[^>]*\bname="from"[^>]*>.*?</select>', re.DOTALL)
# The map of the probe's visit list, whose stop is the probe's home: a place only as someone's home, so searched.
LIST_MAP_READS = (("page", "/map?visit_list_id={visit-lists}"), ("api", "/api/v1/map/venues?visit_list_id={visit-lists}"))


def make_records(api: ApiSession) -> dict:
    """The probe person at the probe home, assigned to an activity, as a stop on a visit list with a logged visit."""
    def made(answer):
        assert answer.status in (200, 201), f"{answer.status}: {answer.text[:300]}"
        return answer.json()

    def first(path):
        return api.call("GET", path).json()["items"][0]

    area = first("/api/v1/areas?per_page=1")
    # With coordinates, so the map can show it (not the probe's, which marks where the visit was logged).
    home = made(api.call("POST", "/api/v1/venues", {"name": PROBE["home"], "address": PROBE["address"],
                                                     "geographic_area_id": area["id"], "venue_type": "PRIVATE_RESIDENCE",
                                                     "coordinates": {"latitude": 6.5, "longitude": 3.4}}))
    person = made(api.call("POST", "/api/v1/participants", {"name": PROBE["name"], "email": PROBE["email"],
                                                            "phone": PROBE["phone"], "notes": PROBE["notes"],
                                                            "home_venue_id": home["id"]}))
    activity = first("/api/v1/activities?per_page=1")
    role = first("/api/v1/roles?per_page=1")
    made(api.call("POST", f"/api/v1/activities/{activity['id']}/assignments", {"participant_id": person["id"], "role_id": role["id"]}))
    admin = next(user for user in api.call("GET", "/api/v1/users?per_page=100").json()["items"]
                 if user["email"] == ACCOUNTS["administrator"])
    visits = made(api.call("POST", "/api/v1/visit-lists", {"name": "Crawl doors", "visit_date": "2030-01-15",
                                                           "assigned_user_id": admin["id"], "status": "PLANNED"}))
    stop = made(api.call("POST", f"/api/v1/visit-lists/{visits['id']}/stops", {"venue_id": home["id"], "participant_id": person["id"]}))
    log = made(api.call("POST", f"/api/v1/visit-lists/{visits['id']}/stops/{stop['id']}/logs",
                        {"result": "MET", "note": "Doorstep chat",
                         "coordinates": {"latitude": float(PROBE["logged_at"]), "longitude": 3.654321, "accuracy_m": 8}}))
    user = next(user for user in api.call("GET", "/api/v1/users?per_page=100").json()["items"]
                if user["email"] == ACCOUNTS["read-only"])
    return {"participants": person["id"], "venues": home["id"], "activities": activity["id"], "visit-lists": visits["id"],
            "stops": stop["id"], "logs": log["id"], "areas": area["id"], "users": user["id"]}


def concrete(pattern: str, ids: dict) -> str:
    """The route's address with each {parameter} filled: the record of the collection named just before it."""
    parts = pattern.split("/")
    for index, part in enumerate(parts):
        if part.startswith("{"):
            before = parts[index - 1] if index else ""
            parts[index] = {"{line}": "2", "{z}": "0", "{x}": "0", "{y}": "0"}.get(part) or ids.get(before) or str(uuid.uuid4())
    return "/".join(parts)


def crawl(http: Http, role: str, ids: dict, get_routes: list[dict]) -> dict[str, str]:
    """Every GET route read as `role` (a page session and an API token; anonymous: neither): address → answer text."""
    page = PageSession(http, ACCOUNTS[role]) if role in ACCOUNTS else None
    api = ApiSession(http, ACCOUNTS[role]) if role in ACCOUNTS else None
    answers = {}
    reads = [(route["surface"], concrete(route["path"], ids)) for route in get_routes]
    reads += [(surface, path.format(**ids)) for surface, path in LIST_MAP_READS]
    for surface, path in reads:
        if surface == "page":
            answer = http.request("GET", path, headers={"Cookie": page.cookie} if page else {})
        else:
            answer = http.request("GET", path, headers={"Authorization": f"Bearer {api.token}"} if api else {})
        assert answer.status < 500, f"{role} GET {path}: {answer.status}"
        answers[path] = answer.text
    return answers


def leaks(answers: dict[str, str], hidden: list[str]) -> list[str]:
    found = []
    for path, text in answers.items():
        for kind in hidden:
            if kind == "homes" and path.startswith(PLACE_ROUTES) and "visit_list_id=" not in path:
                continue
            searched = PLACE_CHOICES.sub("", text) if kind == "homes" and path.endswith("/walk") else text
            found += [f"{path}: {PROBE[key]!r} ({kind} hidden)" for key in HIDDEN[kind] if PROBE[key] in searched]
    return found


def set_privacy(admin: PageSession, shown: set[str]):
    fields = {SETTING_FIELDS[kind]: "on" for kind in shown}
    answer = admin.post("/settings/privacy", fields)
    assert answer.status == 303, f"saving the privacy settings answered {answer.status}"


def test_no_privacy_setting_leaks_through_any_page_download_or_api_read(tmp_path):
    from suite import make_node
    node = make_node(tmp_path)
    node.demo_data(participants=30, activities=6, venues=10)
    node.start()
    try:
        http = Http(node.port)
        ids = make_records(ApiSession(http, ACCOUNTS["administrator"]))
        get_routes = [route for route in routes() if route["method"] == "GET" and "/sync/" not in route["path"]
                      and route["path"] != "/events"]
        admin = PageSession(http, ACCOUNTS["administrator"])

        # Whoever keeps the records sees every value somewhere: the crawl reaches the places a leak would show.
        for role in ("administrator", "editor"):
            answers = crawl(http, role, ids, get_routes)
            unseen = [key for key in PROBE if not any(PROBE[key] in text for text in answers.values())]
            assert not unseen, f"the crawl as {role} never met {unseen}: it would not notice them leaking"

        failures = []
        hiding = [set(HIDDEN), {"contacts"}, {"notes"}, {"homes"}]
        for hidden in hiding:
            set_privacy(admin, set(HIDDEN) - hidden)
            for role in ("read-only", "anonymous"):
                failures += [f"{role}, hiding {sorted(hidden)}: {leak}"
                             for leak in leaks(crawl(http, role, ids, get_routes), sorted(hidden))]
        # The same reader sees what the settings allow.
        set_privacy(admin, set(HIDDEN))
        shown = crawl(http, "read-only", ids, get_routes)
        unseen = [key for key in PROBE if not any(PROBE[key] in text for text in shown.values())]
        report(f"privacy crawl: {len(get_routes)} GET routes x (2 roles seeing all + {len(hiding)} settings x 2 roles + 1), "
               f"{len(failures)} hidden values found")
        assert not failures, "\n".join(failures)
        assert not unseen, f"with every detail shown to read-only users, the crawl never met {unseen}"
    finally:
        node.kill9()
