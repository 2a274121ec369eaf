"""Browser checks of field visits (issue 12): every visit page and state, for each role, at a tablet in portrait
(768×1024) and a phone (390×844), and at 320 px wide, through axe-core and the Nu HTML Checker; logging a visit with the keyboard only;
touch targets and no sideways scrolling at both sizes.

    $VENV/bin/python tests/browser/check_visits.py --binary .build/debug/fieldbook
"""
import datetime as dt
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from check_pages import (PASSWORD, USERS, Browser, await_next_page, create_places, finish, location_id,  # noqa: E402
                         start)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

VIEWPORTS = {"tablet 768x1024": (768, 1024), "phone 390x844": (390, 844)}
# The team's bar: every page at 320 px wide too (layout and axe on the organizer's pages).
NARROW = ("narrow 320x640", (320, 640))


def set_viewport(browser, width, height):
    """Makes the page area (not the window) exactly width × height, as on the device."""
    driver = browser.driver
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))
    return tuple(driver.execute_script("return [window.innerWidth, window.innerHeight]"))


def set_up(server):
    """The administrator from /setup, an editor and a read-only user, places and people, and a second home with coordinates."""
    admin = Browser(server.base)
    name, email = USERS["administrator"]
    admin.post("/setup", {"setup_code": server.code, "name": name, "email": email, "password": PASSWORD,
                          "password_confirmation": PASSWORD})
    admin.sign_in(email)
    for role in ("editor", "read-only"):
        name, email = USERS[role]
        admin.post("/users/new", {"name": name, "email": email, "role": role, "password": PASSWORD, "password_confirmation": PASSWORD})
    return admin


def add_homes(editor):
    page = editor.http.get(editor.base + "/venues/new").text
    area = re.findall(r'<option value="([0-9a-f-]{36})">', page)[1]
    for index, (lat, lon) in enumerate((("-1.3100", "36.7900"), ("-1.3200", "36.8000"))):
        home = location_id(editor.post("/venues/new", {"name": f"House {index + 1}", "address": f"{index + 2} Olympic Road",
                                                       "geographic_area_id": area, "latitude": lat, "longitude": lon,
                                                       "venue_type": "PRIVATE_RESIDENCE"}), "/venues")
        editor.post("/participants/new", {"name": f"Neighbour {index + 1}", "email": f"n{index + 1}@example.org",
                                          "home_venue_id": home, "moved_on": "2024-01-01"})
    return area


def organizer_id(browser):
    page = browser.http.get(browser.base + "/visit-lists/new").text
    return re.search(r'<option value="([0-9a-f-]{36})">Eddie Editor</option>', page).group(1)


def make_list(editor, name, day, area):
    fields = {"name": name, "visit_date": day, "purpose": "Invite to the festival", "script": "Hello, we are neighbours.",
              "assigned_user_id": organizer_id(editor), "status": "PLANNED", "source": "participants", "area_id": area}
    return location_id(editor.post("/visit-lists/new", fields), "/visit-lists")


def layout_checks(checker, browser, label):
    driver = browser.driver
    wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    checker.expect(label + " (no sideways scroll)", wide <= 0, f"the page is {wide} px wider than the screen")
    small = driver.execute_script("""
        const controls = 'main .button, main select, main input:not([type=hidden]):not([type=checkbox]):not([type=radio]), main .checkbox';
        return Array.from(document.querySelectorAll(controls))
          .filter(e => e.offsetParent !== null)
          .filter(e => e.getBoundingClientRect().height < 44)
          .map(e => `${e.tagName.toLowerCase()}.${e.className} “${(e.textContent || e.name || '').trim().slice(0, 30)}” ${Math.round(e.getBoundingClientRect().height)} px`)""")
    checker.expect(label + " (touch targets)", not small, f"controls less than 44 px tall: {small}")


def check_editor_pages(checker, editor, viewport, ids):
    lst, stop = ids["list"], ids["stop"]
    states = [
        ("visit lists", "/visit-lists"), ("my visits", "/my-visits"), ("new visit list", "/visit-lists/new"),
        ("visit list detail", f"/visit-lists/{lst}"), ("visit list edit", f"/visit-lists/{lst}/edit"),
        ("visit list delete (confirm)", f"/visit-lists/{ids['later']}/delete"), ("printable list", f"/visit-lists/{lst}/print"),
        ("walk (no start chosen)", f"/visit-lists/{lst}/walk"),
        ("walk (from a venue)", f"/visit-lists/{lst}/walk?sort=distance&from={ids['hall']}"),
        ("walk (by address)", f"/visit-lists/{lst}/walk?sort=address"),
        ("stop", f"/visit-lists/{lst}/stops/{stop}?sort=distance&from={ids['hall']}"),
    ]
    for label, path in states:
        checker.page(editor, f"editor {viewport}: {label}", path)
        layout_checks(checker, editor, f"editor {viewport}: {label}")
    checker.page(editor, f"editor {viewport}: new visit list (errors)", post=("/visit-lists/new", {"name": "", "visit_date": "2025-02-30"}),
                 fill=("/visit-lists/new", {"name": "", "visit_date": "2025-02-30"}), expect=422)
    preview = {"name": "Preview", "source": "participants"}
    checker.page(editor, f"editor {viewport}: new visit list (stops shown to pick)", post=("/visit-lists/new", dict(preview, preview="1")))
    # The same state in Chromium for axe: the form's own "Show matching stops" button.
    editor.driver.get(editor.base + "/visit-lists/new")
    button = editor.driver.find_element(By.CSS_SELECTOR, "button[name=preview]")
    await_next_page(editor.driver, button.click)
    checker.axe(editor, f"editor {viewport}: new visit list (stops shown to pick, in Chromium)")
    checker.expect(f"editor {viewport}: preview", "matching stops" in editor.driver.page_source, "the preview shows no stops")
    other = {"note": ""}
    checker.page(editor, f"editor {viewport}: stop (log refused)",
                 post=(f"/visit-lists/{lst}/stops/{stop}/logs", dict(other, result="OTHER"), f"/visit-lists/{lst}/stops/{stop}"),
                 fill=(f"/visit-lists/{lst}/stops/{stop}", other, "button[value=OTHER]"), expect=422)
    layout_checks(checker, editor, f"editor {viewport}: stop (log refused)")


def check_keyboard_logging(checker, editor, ids, viewport):
    """Tab to a stop's Log visit link, Enter; Tab to Not home, Enter: logged, and the next stop is shown."""
    driver = editor.driver
    label = f"keyboard {viewport}: log a visit in two key presses"
    driver.get(f"{editor.base}/visit-lists/{ids['list']}/walk?sort=distance&from={ids['hall']}")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)

    def tab_to(matches, limit=80):
        for _ in range(limit):
            element = driver.switch_to.active_element
            if matches(element):
                return element
            element.send_keys(Keys.TAB)
        return None

    link = tab_to(lambda e: (e.text or "").startswith("Log visit"))
    checker.expect(label, link is not None, "Tab never reached a Log visit link")
    if link is None:
        return
    await_next_page(driver, lambda: link.send_keys(Keys.ENTER))
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    button = tab_to(lambda e: e.get_attribute("value") == "NOT_HOME")
    checker.expect(label, button is not None, "Tab never reached the Not home button")
    if button is None:
        return
    await_next_page(driver, lambda: button.send_keys(Keys.ENTER))
    checker.expect(label, "Logged “Not home”" in driver.page_source, "no confirmation that the visit was logged")
    checker.expect(label, "/stops/" in driver.current_url or "/walk" in driver.current_url, f"ended at {driver.current_url}")
    checker.axe(editor, f"editor {viewport}: stop after logging (flash)")


def check_reader_pages(checker, reader, ids, viewport):
    lst, stop = ids["list"], ids["stop"]
    for label, path in (("visit lists", "/visit-lists"), ("visit list detail", f"/visit-lists/{lst}"),
                        ("walk", f"/visit-lists/{lst}/walk?sort=address"), ("stop (view only)", f"/visit-lists/{lst}/stops/{stop}")):
        checker.page(reader, f"read-only {viewport}: {label}", path)
        layout_checks(checker, reader, f"read-only {viewport}: {label}")
    checker.page(reader, f"read-only {viewport}: new visit list (forbidden)", "/visit-lists/new", expect=403)
    checker.expect(f"read-only {viewport}: no log buttons", "result-button" not in reader.http.get(reader.base + f"/visit-lists/{lst}/stops/{stop}").text,
                   "a read-only user is offered the log buttons")


def main():
    args, server, checker = start(__doc__.splitlines()[0], "fieldbook-visits-html-")
    browsers = []
    try:
        admin = set_up(server)
        browsers.append(admin)
        editor, reader = Browser(server.base), Browser(server.base)
        browsers += [editor, reader]
        editor.sign_in(USERS["editor"][1])
        reader.sign_in(USERS["read-only"][1])
        set_viewport(editor, *VIEWPORTS["phone 390x844"])
        checker.page(editor, "editor: visit lists (empty)", "/visit-lists")
        checker.page(editor, "editor: my visits (empty)", "/my-visits")
        create_places(admin)
        area = add_homes(editor)
        today = dt.date.today()
        ids = {"list": make_list(editor, "Olympic Road doors", today.isoformat(), area),
               "later": make_list(editor, "Olympic Road follow-ups", (today + dt.timedelta(days=7)).isoformat(), area)}
        detail = editor.http.get(f"{editor.base}/visit-lists/{ids['list']}").text
        ids["stop"] = re.search(r'/visit-lists/[0-9a-f-]{36}/stops/([0-9a-f-]{36})', detail).group(1)
        ids["hall"] = re.search(r'<option value="([0-9a-f-]{36})">Kibera Community Hall</option>',
                                editor.http.get(f"{editor.base}/visit-lists/{ids['list']}/walk").text).group(1)
        stops = set(re.findall(r'/visit-lists/[0-9a-f-]{36}/stops/([0-9a-f-]{36})', detail))
        checker.expect("list from a filter", len(stops) == 3, "the list does not hold the 3 people of the area")
        for viewport, size in VIEWPORTS.items():
            for browser in (editor, reader):
                checker.expect(f"viewport {viewport}", set_viewport(browser, *size) == size, "the page area is not the device's size")
            check_editor_pages(checker, editor, viewport, ids)
            check_reader_pages(checker, reader, ids, viewport)
            check_keyboard_logging(checker, editor, ids, viewport)
        checker.expect(f"viewport {NARROW[0]}", set_viewport(editor, *NARROW[1]) == NARROW[1], "the page area is not 320 px wide")
        for label, path in (("my visits", "/my-visits"), ("walk", f"/visit-lists/{ids['list']}/walk?sort=distance&from={ids['hall']}"),
                            ("stop", f"/visit-lists/{ids['list']}/stops/{ids['stop']}"), ("new visit list", "/visit-lists/new"),
                            ("visit list detail", f"/visit-lists/{ids['list']}"), ("printable list", f"/visit-lists/{ids['list']}/print")):
            editor.driver.get(editor.base + path)
            checker.axe(editor, f"editor {NARROW[0]}: {label}")
            layout_checks(checker, editor, f"editor {NARROW[0]}: {label}")
        follow = editor.post(f"/visit-lists/{ids['list']}/stops/{ids['stop']}/follow-up", {"later_list_id": ids["later"]},
                             f"/visit-lists/{ids['list']}/stops/{ids['stop']}")
        checker.expect("follow-up onto a later list", "for a follow-up" in follow.text, "the stop was not put on the later list")
        checker.page(editor, "editor: visit list delete (refused, logs kept)",
                     post=(f"/visit-lists/{ids['list']}/delete", {}, f"/visit-lists/{ids['list']}/delete"), expect=409)
        checker.page(editor, "editor: visit list with logs", f"/visit-lists/{ids['list']}")
        detail_path = f"/visit-lists/{ids['list']}"
        checker.page(editor, "editor: visit list, venues found to add as stops",
                     post=(f"{detail_path}/stops", {"venue_search": "Kibera", "find_venues": "1"}, detail_path))
        checker.page(editor, "editor: visit list, adding with nothing ticked (error)",
                     post=(f"{detail_path}/stops", {"venue_search": "Kibera"}, detail_path), expect=422)
        checker.page(editor, "editor: visit list, removing a stop with logs (refused, it stays)",
                     post=(f"{detail_path}/stops/{ids['stop']}/remove", {}, detail_path), expect=409)
        checker.page(editor, "editor: the visit list on the map", f"/map?visit_list_id={ids['list']}")
        checker.page(editor, "editor: visit lists with progress", "/visit-lists")
        csv = editor.http.get(f"{editor.base}/visit-lists/{ids['list']}/results.csv")
        checker.expect("results as CSV", csv.headers.get("Content-Type", "").startswith("text/csv") and "NOT_HOME" in csv.text,
                       f"CSV answered {csv.status_code} {csv.headers.get('Content-Type')}")
        checker.run_vnu()
    finally:
        for browser in browsers:
            browser.quit()
        server.stop()
    finish(checker, server, args.keep)


if __name__ == "__main__":
    main()
