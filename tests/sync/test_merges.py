"""Merging one person's two records on two nodes apart (issue 36): whichever way round each node merged, and whatever
the other node did meanwhile to the record merged away, every Fieldbook ends with exactly one record of the person,
the same one, holding what both records had (details by the usual merge, assignments, stops with their contact logs,
photos), and the merged-away record's address leads to it."""

import datetime as dt
import re
from pathlib import Path

import pytest

from harness import node_admin, start_hub, start_linked_node, wait_converged, wait_until
from test_partition import synced_once
from test_photos import Pages

WORKSHOP = "0d2f3a10-0000-4000-8000-000000000001"
FACILITATOR = "0d2f3a20-0000-4000-8000-000000000003"
PHOTO = Path(__file__).resolve().parents[2] / "Tests" / "Fixtures" / "photos" / "gps-orientation.jpg"


class Pair:
    """A hub and two linked nodes holding "Kwame Mensah" and "Kwame Mensa", each assigned to an activity of its own."""

    def __init__(self, cluster, hub_kind):
        self.hub, self.hub_api = start_hub(cluster, kind=hub_kind)
        area = self.hub_api.create_area("Riverside", "CITY")
        self.venue = self.hub_api.create_venue("Green house", "4 River Road", area["id"])
        self.mensah = self.hub_api.create_participant("Kwame Mensah", "kwame@example.org")["id"]
        self.mensa = self.hub_api.create_participant("Kwame Mensa", "k.mensa@example.org", notes="Met at the market")["id"]
        self.activities = {name: self.hub_api.create("activity", {"name": name, "activity_type_id": WORKSHOP, "start_date": "2026-01-05",
                                                                   "status": "ACTIVE"})["id"] for name in ("Choir", "Market", "Garden")}
        self.assign(self.hub_api, "Choir", self.mensah)
        self.assign(self.hub_api, "Market", self.mensa)
        organizer = self.hub_api.create_user("Olu Organizer", "olu@example.org", "organizer password 1")
        self.doors = self.hub_api.create_visit_list("Riverside doors", dt.date.today().isoformat(), organizer["id"])["id"]
        self.one, self.one_api = start_linked_node(cluster, "one", self.hub.url)
        self.two, self.two_api = start_linked_node(cluster, "two", self.hub.url)
        self.converge()
        # The rule every Fieldbook follows: of the pair, the record whose id comes first stays.
        self.survivor, self.gone = sorted([self.mensah, self.mensa])

    def nodes(self):
        return [(self.one, self.one_api), (self.two, self.two_api)]

    def converge(self):
        return wait_converged(self.nodes(), self.hub, timeout=120)

    def assign(self, api, activity, person):
        api.request("POST", f"/api/v1/activities/{self.activities[activity]}/assignments", {"participant_id": person, "role_id": FACILITATOR})

    @staticmethod
    def merge(api, kept, removed, from_removed=()):
        return api.request("POST", f"/api/v1/participants/{kept}/merge", {"with": removed, "from_removed": list(from_removed)})

    def visit(self, api, person):
        """A stop at the person and a contact logged there."""
        stop = api.add_stop(self.doors, self.venue["id"], person)
        api.log_contact(self.doors, stop["id"], "MET", "at the door")
        return stop["id"]

    def expect_one_person(self, snapshot, activities, stops=(), photos=0):
        people = snapshot["participants"]
        assert self.survivor in people and self.gone not in people, "exactly one record of the person, the same everywhere"
        assert snapshot["participant_merges"][self.gone]["survivor_id"] == self.survivor
        held = sorted(name for name, activity in self.activities.items() for row in snapshot["assignments"].values()
                      if row["activity_id"] == activity and row["participant_id"] == self.survivor)
        assert held == sorted(activities), f"assignments of the survivor: {held}"
        assert not [row for row in snapshot["assignments"].values() if row["participant_id"] == self.gone]
        for stop in stops:
            assert snapshot["visit_stops"][stop]["participant_id"] == self.survivor
            assert [log for log in snapshot["contact_logs"].values() if log["visit_stop_id"] == stop], "its contact log"
        assert len([p for p in snapshot["photos"].values() if p["participant_id"] == self.survivor]) == photos
        for node, api in self.nodes():
            with node.connect_readonly() as db:
                failed = db.execute("SELECT operation, entity, last_error FROM outbox WHERE state = 'failed'").fetchall()
            assert not failed, f"{node.name} had operations refused: {failed}"

    def expect_address_leads_to_survivor(self, node):
        pages = Pages(node, node_admin(node.name))
        answer = pages.session.get(node.url + f"/participants/{self.gone}", allow_redirects=False, timeout=30)
        assert answer.status_code == 303 and answer.headers["Location"] == f"/participants/{self.survivor}", answer.status_code
        page = pages.session.get(node.url + answer.headers["Location"], timeout=30).text
        assert "merged into this one" in page, "the page says which record stayed"


def add_photo(node, person):
    pages = Pages(node, node_admin(node.name))
    answer = pages.post("/photos", f"/photos/new?participant_id={person}", {"participant_id": person, "caption": "Kwame at the door"},
                        files={"photo": ("kwame.jpg", PHOTO.read_bytes(), "image/jpeg")})
    assert answer.status_code == 303, answer.text[:500]


def test_opposite_merges_made_while_the_hub_is_down_leave_one_person_holding_everything(cluster, hub_kind):
    pair = Pair(cluster, hub_kind)
    pair.hub.stop()
    # Each node's duplicates page offers to merge the other record into its own; both organizers accept.
    pair.assign(pair.one_api, "Garden", pair.mensa)
    stop_one = pair.visit(pair.one_api, pair.mensa)
    add_photo(pair.one, pair.mensa)
    pair.merge(pair.one_api, pair.mensah, pair.mensa, from_removed=["notes"])
    pair.assign(pair.two_api, "Garden", pair.mensah)
    stop_two = pair.visit(pair.two_api, pair.mensah)
    add_photo(pair.two, pair.mensah)
    pair.merge(pair.two_api, pair.mensa, pair.mensah)
    pair.hub.restart()

    snapshot = pair.converge()

    pair.expect_one_person(snapshot, ["Choir", "Garden", "Market"], stops=[stop_one, stop_two], photos=2)
    assert snapshot["participants"][pair.survivor]["notes"] == "Met at the market"
    pair.expect_address_leads_to_survivor(pair.one)
    pair.expect_address_leads_to_survivor(pair.two)


def test_the_same_merge_made_on_both_nodes_is_one_merge(cluster, hub_kind):
    pair = Pair(cluster, hub_kind)
    pair.hub.stop()
    stop = pair.visit(pair.one_api, pair.mensa)
    pair.merge(pair.one_api, pair.mensah, pair.mensa, from_removed=["notes"])
    pair.assign(pair.two_api, "Garden", pair.mensa)
    pair.merge(pair.two_api, pair.mensah, pair.mensa)
    pair.hub.restart()

    snapshot = pair.converge()

    pair.expect_one_person(snapshot, ["Choir", "Garden", "Market"], stops=[stop])
    assert pair.one_api.conflicts() == [], "one reached the hub first, or both made the same changes"


@pytest.mark.parametrize("first", ["merging", "editing"])
def test_an_edit_of_the_merged_away_record_made_on_another_node_lands_on_the_survivor(cluster, hub_kind, first):
    pair = Pair(cluster, hub_kind)
    pair.hub.stop()
    pair.merge(pair.one_api, pair.mensah, pair.mensa)
    # Two has not heard of the merge: it edits the record that is merged away, assigns it, and visits it.
    pair.two_api.update("participant", pair.gone, {"phone": "555-0199"})
    pair.assign(pair.two_api, "Garden", pair.gone)
    stop = pair.visit(pair.two_api, pair.gone)
    # The hub's order is forced: the other node is stopped until the first has synced.
    (first_node, first_api), (second_node, second_api) = pair.nodes() if first == "merging" else pair.nodes()[::-1]
    second_node.stop()
    pair.hub.restart()
    synced_once(first_api, first_node, since=max(pair.one.last_edit_at, pair.two.last_edit_at))
    second_node.restart()

    snapshot = pair.converge()

    pair.expect_one_person(snapshot, ["Choir", "Garden", "Market"], stops=[stop])
    assert snapshot["participants"][pair.survivor]["phone"] == "555-0199", "the edit landed on the survivor"
    pair.expect_address_leads_to_survivor(pair.two)
