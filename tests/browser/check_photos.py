"""Browser checks of photos (issue 14): the upload form, an upload made with the keyboard, the form sent back for its
caption with the upload kept, a refused file, the gallery, a photo's page, its edit and deletion, and a photo whose
file has not arrived, for each role, through axe-core and the Nu HTML Checker, and at 320 px wide.

    $VENV/bin/python tests/browser/check_photos.py --binary .build/debug/fieldbook
"""
import pathlib
import re
import sqlite3
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from check_pages import USERS, Browser, csrf, finish, ids, press_enter  # noqa: E402
from check_reflow import LAYOUT, set_width, start_on_demo_data  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Fixtures" / "photos"
PHOTO = FIXTURES / "gps-orientation.jpg"


def photo_ids(html):
    return list(dict.fromkeys(re.findall(r'href="(/photos/[0-9a-f-]{36})"', html)))


def upload_with_keyboard(checker, browser, label, form, caption, file_path, expect_text):
    """In Chromium, as a keyboard user: chooses the file, types the caption, presses Enter; axe judges where it lands."""
    try:
        browser.driver.get(browser.base + form)
        browser.driver.find_element(By.ID, "photo").send_keys(str(file_path))
        field = browser.driver.find_element(By.ID, "caption")
        field.clear()
        field.send_keys(caption)
        press_enter(browser.driver, field)
        checker.expect(label, expect_text in browser.driver.page_source, f"the page does not say “{expect_text}”")
        checker.axe(browser, label)
    except Exception as error:  # noqa: BLE001 - reported as a failure of this state
        checker.results.append((label, "error", [f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"]))


def upload_for_vnu(checker, browser, label, form, person, caption, name, content, expect):
    """The same upload with requests, whose answer goes to the Nu HTML Checker."""
    page = browser.http.get(browser.base + form)
    response = browser.http.post(browser.base + "/photos", data={"csrf_token": csrf(page.text), "participant_id": person, "caption": caption},
                                 files={"photo": (name, content, "image/jpeg")}, allow_redirects=True)
    if response.status_code != expect:
        checker.results.append((label, "status", [f"expected {expect}, got {response.status_code}"]))
    out = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") + ".html"
    (checker.out / out).write_text(response.text)
    checker.files[out] = label


def check_editing(checker, browser, role, person):
    form = f"/photos/new?participant_id={person[len('/participants/'):]}"
    checker.page(browser, f"{role}: photo upload form", form)
    upload_with_keyboard(checker, browser, f"{role}: keyboard upload, then the gallery", form, f"Front steps ({role})", PHOTO,
                         f"Front steps ({role})")
    upload_for_vnu(checker, browser, f"{role}: gallery after an upload", form, person[len("/participants/"):], f"Porch ({role})",
                   "IMG_1.jpg", PHOTO.read_bytes(), 200)
    upload_with_keyboard(checker, browser, f"{role}: upload without a caption (kept, sent back)", form, "", PHOTO,
                         "Your photo is uploaded and kept")
    upload_for_vnu(checker, browser, f"{role}: upload without a caption (vnu)", form, person[len("/participants/"):], "",
                   "IMG_2.jpg", PHOTO.read_bytes(), 422)
    not_a_photo = pathlib.Path(tempfile.mkdtemp(prefix="fieldbook-photo-")) / "notes.jpg"
    not_a_photo.write_text("<html>not a photo</html>")
    upload_with_keyboard(checker, browser, f"{role}: a file that is not a photo", form, "Notes", not_a_photo,
                         "This file is not a photo Fieldbook can read")
    upload_for_vnu(checker, browser, f"{role}: a file that is not a photo (vnu)", form, person[len("/participants/"):], "Notes",
                   "notes.jpg", not_a_photo.read_bytes(), 422)
    photo = photo_ids(browser.http.get(browser.base + person).text)[0]
    checker.page(browser, f"{role}: photo page", photo)
    checker.page(browser, f"{role}: photo edit", photo + "/edit")
    checker.page(browser, f"{role}: photo edit (errors)", post=(photo + "/edit", {"caption": "", "taken_on": "2024-13-01"}),
                 fill=(photo + "/edit", {"caption": "", "taken_on": "2024-13-01"}), expect=422)
    checker.page(browser, f"{role}: photo delete (confirm)", photo + "/delete")


def check_placeholder(checker, browser, server, person):
    """A photo whose files have not arrived (as on a node that pulled it before its contents): its thumbnail's file is
    taken away, so the gallery shows a placeholder and its page a notice."""
    photo = photo_ids(browser.http.get(browser.base + person).text)[-1]
    with sqlite3.connect(pathlib.Path(server.data) / "db" / "fieldbook.sqlite", timeout=10) as db:
        (thumb,) = db.execute("SELECT thumb_sha256 FROM photos WHERE id = ?", (photo[len("/photos/"):],)).fetchone()
        db.execute("DELETE FROM photo_files WHERE sha256 = ?", (thumb,))
    checker.page(browser, "administrator: gallery with a photo not arrived", person)
    checker.expect("administrator: a placeholder stands for the photo", "Arrives with the next sync" in browser.driver.page_source,
                   "no placeholder in the gallery")
    checker.page(browser, "administrator: photo page of a photo not arrived", photo)


def check_narrow(checker, browser, role, paths):
    set_width(browser.driver, 320)
    try:
        for path in paths:
            browser.driver.get(browser.base + path)
            label = f"{role} 320px {re.sub(r'[0-9a-f-]{36}', '{id}', path)}"
            checker.results.append((label, "reflow", browser.driver.execute_script(LAYOUT)))
            checker.axe(browser, label)
    finally:
        browser.driver.set_window_size(1280, 900)


def main():
    args, server, checker = start_on_demo_data(__doc__.splitlines()[0], "fieldbook-photos-")
    try:
        for role, (_, email) in USERS.items():
            browser = Browser(server.base)
            try:
                browser.sign_in(email)
                people = ids(browser.http.get(browser.base + "/participants").text, "/participants")
                person = people[0]
                if role == "read-only":
                    checker.page(browser, f"{role}: participant with photos", person)
                    checker.expect(f"{role}: no Add a photo for a reader", "Add a photo" not in browser.driver.page_source,
                                   "a reader is offered Add a photo")
                    photo = photo_ids(browser.http.get(browser.base + person).text)[0]
                    checker.page(browser, f"{role}: photo page", photo)
                    checker.page(browser, f"{role}: photo upload form (forbidden)", f"/photos/new?participant_id={person[14:]}", expect=403)
                    checker.page(browser, f"{role}: photo delete (forbidden)", photo + "/delete", expect=403)
                else:
                    checker.page(browser, f"{role}: participant without photos", people[1 if role == "administrator" else 2])
                    check_editing(checker, browser, role, person)
                if role == "administrator":
                    check_placeholder(checker, browser, server, person)
                check_narrow(checker, browser, role, [person, photo_ids(browser.http.get(browser.base + person).text)[0]]
                             + ([f"/photos/new?participant_id={person[14:]}"] if role != "read-only" else []))
            finally:
                browser.quit()
        checker.run_vnu()
    finally:
        server.stop()
    finish(checker, server, args.keep)


if __name__ == "__main__":
    main()
