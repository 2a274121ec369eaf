"""Notes, a kind made of its declaration, migration, templates and route lines alone, sync like every kind: a note
written on one node's pages reaches another node through the hub, and so does its edit and its deletion."""

import re

from harness import Pages, node_admin, start_hub, start_linked_node, wait_until


def note_text(node, note_id):
    db = node.connect_readonly()
    try:
        row = db.execute("SELECT text FROM notes WHERE id = ?", (note_id,)).fetchone()
    finally:
        db.close()
    return row[0] if row else None


def test_a_note_written_on_one_node_is_edited_and_deleted_on_another(cluster, hub_kind):
    hub, _ = start_hub(cluster, kind=hub_kind)
    one, _ = start_linked_node(cluster, "one", hub.url)
    two, _ = start_linked_node(cluster, "two", hub.url)
    on_one, on_two = Pages(one, node_admin("one")), Pages(two, node_admin("two"))

    created = on_one.post("/notes/new", "/notes/new", {"noted_on": "2025-03-12", "text": "Asked about the choir"})
    assert created.status_code == 303, created.text[:500]
    note_id = re.search(r"/notes/([0-9a-f-]{36})", created.headers["Location"]).group(1)
    wait_until(lambda: note_text(two, note_id) == "Asked about the choir", 30, message="the note to reach two")

    edited = on_two.post(f"/notes/{note_id}/edit", f"/notes/{note_id}/edit",
                         {"version": "1", "noted_on": "2025-03-12", "text": "Will join the choir"})
    assert edited.status_code == 303, edited.text[:500]
    wait_until(lambda: note_text(one, note_id) == "Will join the choir", 30, message="the edit to reach one")

    deleted = on_one.post(f"/notes/{note_id}/delete", f"/notes/{note_id}/delete", {})
    assert deleted.status_code == 303, deleted.text[:500]
    wait_until(lambda: one.count("notes") == 0 and two.count("notes") == 0, 30, message="the deletion to reach two")
