"""Photos across real processes (issue 14): a photo taken on one node appears on another, its content moved by hash
through the hub and verified, over a connection that breaks in the middle of the file; deleting it removes it, and
its files, everywhere."""

import hashlib
from pathlib import Path

from fault_proxy import FaultProxy
from harness import Pages, _session, node_admin, start_hub, start_linked_node, wait_converged, wait_until

FIXTURES = Path(__file__).resolve().parents[2] / "Tests" / "Fixtures" / "photos"
PHOTO_FILES = "/api/v1/sync/photo-files/"
def test_a_photo_taken_on_one_node_appears_on_another_verified_through_a_broken_connection(cluster, hub_kind):
    hub, hub_api = start_hub(cluster, kind=hub_kind)
    person = hub_api.create_participant("Amina Odhiambo", "amina@example.org")
    camera, camera_api = start_linked_node(cluster, "camera", hub.url, sync_interval=1)
    proxy = FaultProxy("127.0.0.1", hub.port, only_paths=(PHOTO_FILES,), mode="reset", seed=3).start()
    cluster.proxies.append(proxy)
    viewer, viewer_api = start_linked_node(cluster, "viewer", proxy.url, sync_interval=1)
    wait_converged([(camera, camera_api), (viewer, viewer_api)], hub, timeout=90)

    pages = Pages(camera, node_admin("camera"))
    form = f"/photos/new?participant_id={person['id']}"
    original = (FIXTURES / "gps-orientation.jpg").read_bytes()
    answer = pages.post("/photos", form, {"participant_id": person["id"], "caption": "Amina at the well"},
                        files={"photo": ("IMG_2041.jpg", original, "image/jpeg")})
    assert answer.status_code == 303, answer.text[:800]
    with camera.connect_readonly() as db:
        photo_id, display, thumbnail = db.execute("SELECT id, file_sha256, thumb_sha256 FROM photos").fetchone()

    # The hub receives the contents before the photo, verified by hash.
    wait_until(lambda: hub.photo_file(display) and hub.photo_file(thumbnail) and hub.count("photos") == 1, 60,
               message="the photo and its files on the hub")
    for sha in (display, thumbnail):
        assert hashlib.sha256(hub.photo_file(sha)).hexdigest() == sha

    # The viewer's fetches of the file are cut off part way until the network heals; it shows a placeholder meanwhile.
    wait_until(lambda: viewer.count("photos") == 1, 60, interval=0.5, message="the photo's metadata on the viewer")
    wait_until(lambda: (viewer_api.sync_run(), proxy.snapshot_stats().faults_on("reset", PHOTO_FILES) >= 2)[1], 60,
               interval=0.5, message="two photo file fetches cut off")
    assert viewer.photo_file(display) is None, "a file cut off part way is never kept"
    proxy.set_mode("pass")
    for sha in (display, thumbnail):
        wait_until(lambda: (viewer_api.sync_run(), viewer.photo_file(sha))[1], 60, interval=0.5,
                   message=f"the file {sha[:12]} on the viewer")
        content = viewer.photo_file(sha)
        assert hashlib.sha256(content).hexdigest() == sha
        assert b"Exif" not in content and b"GPS" not in content and b"FieldCam" not in content
    viewer_pages = Pages(viewer, node_admin("viewer"))
    shown = viewer_pages.session.get(viewer.url + f"/photos/{photo_id}", timeout=30).text
    assert 'alt="Amina at the well"' in shown and "has not arrived here yet" not in shown

    # Deleted on the camera: gone from the hub and the viewer, and with it the files nobody shows any more.
    deleted = pages.post(f"/photos/{photo_id}/delete", f"/photos/{photo_id}/delete", {})
    assert deleted.status_code == 303, deleted.text[:500]
    wait_converged([(camera, camera_api), (viewer, viewer_api)], hub, timeout=90)
    for node in (camera, hub, viewer):
        wait_until(lambda: node.photo_file(display) is None and node.photo_file(thumbnail) is None, 30,
                   message=f"the files gone from {node.name}")


def test_a_hub_that_cannot_check_photos_refuses_no_file_and_gets_it_once_it_can(cluster):
    """libvips is opened by the first photo (Sources/CVips), so a hub may run without it. Files sent to it are then
    neither kept nor refused (503): the node keeps them to send, and sends them once the hub can check them."""
    hub, hub_api = start_hub(cluster)
    hub.stop()
    hub.serve_env = {"FIELDBOOK_LIBVIPS": "libvips-not-installed.so.42"}
    hub.start()
    person = hub_api.create_participant("Baraka Mwangi", "baraka@example.org")
    camera, camera_api = start_linked_node(cluster, "camera", hub.url, sync_interval=1)
    wait_converged([(camera, camera_api)], hub, timeout=60)

    original = (FIXTURES / "gps-orientation.jpg").read_bytes()
    answer = Pages(camera, node_admin("camera")).post(
        "/photos", f"/photos/new?participant_id={person['id']}", {"participant_id": person["id"], "caption": "Baraka"},
        files={"photo": ("IMG_7.jpg", original, "image/jpeg")})
    assert answer.status_code == 303, answer.text[:800]
    with camera.connect_readonly() as db:
        display, thumbnail = db.execute("SELECT file_sha256, thumb_sha256 FROM photos").fetchone()

    wait_until(lambda: "libvips-not-installed" in hub.log_path.read_text(errors="replace"), 60, interval=0.5,
               message="the hub's log to say why photos cannot be checked")
    wait_until(lambda: hub.count("photos") == 1, 60, message="the photo's record on the hub")
    for _ in range(3):
        camera_api.sync_run()
    assert hub.photo_file(display) is None and hub.photo_file(thumbnail) is None
    assert camera.count("photo_files", "on_hub = 0") == 2, "the node counted files the hub could not check as sent"

    hub.stop()
    hub.serve_env = {}
    hub.start()
    for sha in (display, thumbnail):
        wait_until(lambda: (camera_api.sync_run(), hub.photo_file(sha))[1], 60, interval=0.5,
                   message=f"the file {sha[:12]} on the hub once it can check photos")
        assert hashlib.sha256(hub.photo_file(sha)).hexdigest() == sha
    # Those sessions sent only files, and are in the sync history for it, not folded away as checks that found nothing.
    def files_sent_in_history():
        with camera.connect_readonly() as db:
            return db.execute("SELECT SUM(photos_sent) FROM sync_sessions WHERE outcome = 'succeeded'").fetchone()[0]
    wait_until(lambda: files_sent_in_history() == 2, 30, interval=0.5,
               message="the node's sync history to count the 2 photo files sent")
