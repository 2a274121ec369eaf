"""Browser checks of what organizers tripped on (issue 16), each in Chromium as they met it:

- Enter in a picker's search box searches (assign, participant and activity forms); Enter elsewhere still saves.
- Forms check each field as you leave it, with the server's words, and never disable Save (14.1, 14.4).
- The privacy page, and a participant and venue as a read-only user sees them with details hidden.
- Changing your own password (normal and error states) through axe-core and the Nu HTML Checker.
- Assigning several people at once, everyone from another activity, and removing several: by keyboard, and the pages
  (with search results, the confirmation) through axe-core and the Nu HTML Checker.
- An import's review (issue 36): rows changed to Skip and imported without saving first are not imported, a duplicate
  set to Skip keeps its notes, and the rows' table fits the page at 1,280 and 320 px.
- A participant form saved after the session ended (issue 36): the sign-in page says why and keeps what was typed,
  signing in brings the form back filled in, and Save then creates the participant.
- Forms whose own page cannot show them again (a photo's edit, a new user), saved after the session ended: signing in
  lands on /send-again with what was typed, passwords empty and the form's hidden fields still hidden, through axe-core
  (at 1,280 and 320 px) and the Nu HTML Checker; sending it again saves.

    $VENV/bin/python tests/browser/check_fixes.py --binary .build/debug/fieldbook
"""
import pathlib
import re
import sqlite3
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from check_pages import PASSWORD, USERS, Browser, await_next_page, csrf, finish, sqlite_value  # noqa: E402
from check_photos import PHOTO, photo_ids  # noqa: E402
from check_reflow import LAYOUT, set_width, start_on_demo_data  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def errors_shown(driver):
    return driver.execute_script("return !!document.querySelector('.error-summary')")


def check_enter_in_pickers(checker, browser):
    driver = browser.driver
    activity = re.search(rf'href="(/activities/{ID})"', browser.http.get(browser.base + "/activities").text).group(1)
    forms = [
        ("assign form", activity + "/assignments/new", "participant_search", "participant_id", {}),
        ("participant form", "/participants/new", "venue_search", "home_venue_id", {"name": "Enter Tester", "email": "enter.tester@example.org"}),
        ("activity form", "/activities/new", "venue_search", "venue_ids", {"name": "Enter Walk"}),
    ]
    for label, path, search_name, choice_name, typed in forms:
        driver.get(browser.base + path)
        for name, value in typed.items():
            driver.find_element(By.NAME, name).send_keys(value)
        search = driver.find_element(By.NAME, search_name)
        search.send_keys("a")
        await_next_page(driver, lambda: search.send_keys(Keys.ENTER))
        matches = driver.execute_script(f"return document.querySelectorAll('input[name=\"{choice_name}\"]:not([value=\"\"])').length")
        kept = all(value == driver.execute_script(f"var e = document.querySelector('[name=\"{name}\"]'); return e && e.value")
                   for name, value in typed.items())
        still_on_form = bool(driver.find_elements(By.NAME, search_name))
        checker.expect(f"{label}: Enter in the search box", not errors_shown(driver) and matches > 0 and kept and still_on_form,
                       f"Enter in the search box did not search: errors shown {errors_shown(driver)}, {matches} matches, typed values kept {kept}")
    # Enter in any other field still saves (the participant form with a name and email typed).
    driver.get(browser.base + "/participants/new")
    driver.find_element(By.NAME, "name").send_keys("Enter Saver")
    email = driver.find_element(By.NAME, "email")
    email.send_keys("enter.saver@example.org")
    await_next_page(driver, lambda: email.send_keys(Keys.ENTER))
    checker.expect("participant form: Enter in a field", re.search(rf"/participants/{ID}$", driver.current_url) is not None,
                   f"Enter in the email field did not save the participant: at {driver.current_url}")


def check_bulk_assignment(checker, browser):
    driver = browser.driver
    listing = browser.http.get(browser.base + "/activities").text
    activities = list(dict.fromkeys(re.findall(rf'href="(/activities/{ID})"', listing)))
    target, source = activities[0], activities[1]
    source_name = re.search(r"<h1 class=\"page-title\">([^<]+)</h1>", browser.http.get(browser.base + source).text).group(1)
    # Keyboard only: search, tick three with Space, choose a role, assign.
    driver.get(browser.base + target + "/assignments/new")
    search = driver.find_element(By.NAME, "participant_search")
    search.send_keys("a")
    await_next_page(driver, lambda: search.send_keys(Keys.ENTER))
    boxes = driver.find_elements(By.CSS_SELECTOR, 'input[name="participant_id"]')[:3]
    for box in boxes:
        driver.execute_script("arguments[0].focus()", box)
        box.send_keys(Keys.SPACE)
    role = driver.find_element(By.NAME, "role_id")
    role.send_keys(Keys.ARROW_DOWN)
    submit = driver.find_element(By.XPATH, "//button[normalize-space()='Assign the ticked participants']")
    await_next_page(driver, lambda: submit.send_keys(Keys.ENTER))
    flash = driver.execute_script("return document.body.textContent")
    checker.expect("bulk assignment: three ticked by keyboard are assigned", "Assigned 3 as" in flash or "Assigned 3 as" in driver.page_source,
                   f"no 'Assigned 3' message at {driver.current_url}")
    checker.page(browser, "assign form: activities to add everyone from", target + "/assignments/new?from_search=" + source_name[:4])
    checker.page(browser, "assign form: no activity found", target + "/assignments/new?from_search=zzzzqqq")
    html = browser.http.get(browser.base + target).text
    chosen = re.findall(r'name="assignment_id" value="([0-9a-f-]{36})"', html)[:2]
    checker.page(browser, "remove several: confirmation", post=(target + "/assignments/remove", {"assignment_id": chosen}, target))
    checker.page(browser, "activity with assignments (checkboxes)", target)


def check_as_you_go(checker, browser):
    driver = browser.driver
    label = "participant form: checked as you go"
    driver.get(browser.base + "/participants/new")
    email = driver.find_element(By.NAME, "email")
    email.send_keys("not an address")
    email.send_keys(Keys.TAB)
    shown = lambda: driver.execute_script("var m = document.getElementById('email-error'); return m ? m.textContent : ''")
    try:
        WebDriverWait(driver, 10).until(lambda d: shown() != "")
    except Exception:  # noqa: BLE001 - reported below
        pass
    first = shown()
    untouched = driver.execute_script("return !!document.getElementById('name-error')")
    described = driver.execute_script("return document.querySelector('[name=email]').getAttribute('aria-describedby') || ''")
    checker.expect(label, "Error:" in first and "email" in first.lower() and not untouched and "email-error" in described,
                   f"after leaving a wrong email: message {first!r}, untouched name marked {untouched}, describedby {described!r}")
    checker.axe(browser, "participant form: a field marked as you go")
    email.clear()
    email.send_keys("ann.fixed@example.org")
    email.send_keys(Keys.TAB)
    try:
        WebDriverWait(driver, 10).until(lambda d: shown() == "")
    except Exception:  # noqa: BLE001 - reported below
        pass
    enabled = driver.execute_script("return Array.from(document.querySelectorAll('form button[type=submit]')).every(b => !b.disabled)")
    checker.expect(label, shown() == "" and enabled, f"after fixing it the message is {shown()!r}; Save enabled {enabled}")


def check_privacy(checker, server):
    admin = Browser(server.base)
    try:
        admin.sign_in(USERS["administrator"][1])
        checker.page(admin, "privacy settings", "/settings/privacy")
    finally:
        admin.quit()
    reader = Browser(server.base)
    try:
        reader.sign_in(USERS["read-only"][1])
        person = re.search(rf'href="(/participants/{ID})"', reader.http.get(reader.base + "/participants").text).group(1)
        checker.page(reader, "read-only: a participant with details hidden", person)
        checker.page(reader, "read-only: participants without contact columns", "/participants")
        html = reader.http.get(reader.base + person).text
        checker.expect("read-only: details hidden", "Hidden from read-only users" in html and "mailto:" not in html,
                       "the read-only user sees contact details")
    finally:
        reader.quit()


IMPORT_CHOICES = ("name,email,notes\n"
                  "Ines Duplicate,ines.dup@example.org,Notes from the file\n"
                  "Oskar Skipped,oskar.skipped@example.org,\n"
                  "Petra Added,petra.added@example.org,A very long note that must wrap inside its cell rather than push the "
                  "last columns of the review off the side of the page: Check and What to do stay in view\n")

# Right edges of the review's table cells beyond the page's main column, and whether the page itself scrolls sideways.
REVIEW_FITS = """
const main = document.querySelector('main').getBoundingClientRect(), width = window.innerWidth;
const cells = Array.from(document.querySelectorAll('table.import-rows tr > *'));
const beyond = cells.filter(c => c.getBoundingClientRect().right > Math.min(main.right, width) + 1)
  .slice(0, 3).map(c => (c.getAttribute('data-label') || c.textContent.trim()).slice(0, 30));
const problems = beyond.length ? ['cells beyond the page: ' + beyond.join(', ')] : [];
if (document.documentElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
if (!cells.length) problems.push('no review table');
return problems;
"""


def upload_for_review(browser, content, name):
    """Uploads a participants CSV with requests; the review's address."""
    page = browser.http.get(browser.base + "/imports")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    response = browser.http.post(browser.base + "/imports", data={"csrf_token": token, "kind": "participants"},
                                 files={"file": (name, content.encode("utf-8"), "text/csv")})
    return response.url.replace(browser.base, "")


def check_import_choices(checker, browser):
    driver = browser.driver
    browser.post("/participants/new", {"name": "Ines Duplicate", "email": "ines.dup@example.org", "notes": "Met at the spring fair"})
    review = upload_for_review(browser, IMPORT_CHOICES, "choices.csv")
    checker.page(browser, "import review with a duplicate (issue 36)", review)
    for width, label in ((1280, "1,280"), (320, "320")):
        set_width(driver, width)
        driver.get(browser.base + review)
        checker.results.append((f"import review fits at {label} px", "layout", driver.execute_script(REVIEW_FITS)))
        if width == 320:
            checker.axe(browser, "import review at 320 px")
    set_width(driver, 1280)
    driver.get(browser.base + review)
    label = "import: rows set to Skip and imported without saving are not imported"
    try:
        Select(driver.find_element(By.ID, "row-2")).select_by_visible_text("Skip")
        Select(driver.find_element(By.ID, "row-3")).select_by_visible_text("Skip")
        button = driver.find_element(By.XPATH, "//button[starts-with(normalize-space(.), 'Import ')]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", button)
        await_next_page(driver, button.click)
        WebDriverWait(driver, 60).until(lambda d: "What was imported" in d.page_source)
        found = {name: name in browser.http.get(browser.base + "/participants?q=" + name.split()[0]).text
                 for name in ("Oskar Skipped", "Petra Added")}
        duplicate = re.search(rf'href="(/participants/{ID})">Ines Duplicate<', browser.http.get(browser.base + "/participants?q=Ines").text)
        notes = browser.http.get(browser.base + duplicate.group(1)).text if duplicate else ""
        checker.expect(label, not found["Oskar Skipped"] and found["Petra Added"],
                       f"after the import: {found}")
        checker.expect("import: a duplicate set to Skip keeps its notes",
                       "Met at the spring fair" in notes and "Notes from the file" not in notes, "the duplicate's notes were replaced")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        checker.expect(label, False, f"{type(error).__name__}: {error}".splitlines()[0])


SAVE = "main form.form button[type=submit]:not([name]):not([tabindex])"


def save_for_vnu(checker, browser, label):
    """The page Chromium shows, for the Nu HTML Checker: states reached by a form's answer, which a GET cannot fetch
    again. The DOM's serialization drops the doctype, so it is written back."""
    name = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") + ".html"
    (checker.out / name).write_text("<!DOCTYPE html>\n" + browser.driver.page_source)
    checker.files[name] = label


def end_sessions(server, email):
    """The session ends while the tablet idles: marked ended in the server's database, as an expiry or a reset leaves
    it. Returns the database's path."""
    database = pathlib.Path(server.data) / "db" / "fieldbook.sqlite"
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE sessions SET ended_at = strftime('%Y-%m-%d %H:%M:%f', 'now') "
                           "WHERE user_id = (SELECT id FROM users WHERE email = ?)", (email,))
    return database


def check_form_kept_after_session_ended(checker, server):
    label = "participant form sent after the session ended"
    typed = {"name": "Amara Session-Ended", "email": "amara.ended@example.org", "notes": "Met at the door, call after six"}
    browser = Browser(server.base)
    try:
        browser.sign_in(USERS["editor"][1])
        driver = browser.driver
        driver.get(browser.base + "/participants/new")
        for name, value in typed.items():
            driver.find_element(By.NAME, name).send_keys(value)
        database = end_sessions(server, USERS["editor"][1])
        await_next_page(driver, driver.find_element(By.CSS_SELECTOR, SAVE).click)
        page = driver.page_source
        checker.expect(label, "Your session ended, so you need to sign in again." in page
                       and bool(driver.find_elements(By.NAME, "resume")) and typed["name"] not in page, f"the sign-in page after Save: {driver.current_url}, {page[:300]!r}")
        checker.axe(browser, "sign-in page: your session ended")
        save_for_vnu(checker, browser, "sign-in page: your session ended")

        driver.find_element(By.NAME, "email").send_keys(USERS["editor"][1])
        driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        await_next_page(driver, driver.find_element(By.CSS_SELECTOR, SAVE).click)
        values = {name: driver.find_element(By.NAME, name).get_attribute("value") for name in typed}
        checker.expect(label, driver.current_url.endswith("/participants/new") and values == typed
                       and "What you typed before your session ended is back in the form" in driver.page_source,
                       f"after signing in: {driver.current_url} with {values}")
        checker.axe(browser, "participant form restored after signing in")
        save_for_vnu(checker, browser, "participant form restored after signing in")
        count = sqlite_value(database, f"SELECT count(*) FROM participants WHERE email = '{typed['email']}'")
        checker.expect(label, count == 0, f"{count} participants saved before Save was pressed again")

        await_next_page(driver, driver.find_element(By.CSS_SELECTOR, SAVE).click)
        created = re.search(rf"/participants/{ID}$", driver.current_url) and "created" in driver.page_source
        count = sqlite_value(database, f"SELECT count(*) FROM participants WHERE email = '{typed['email']}'")
        checker.expect(label, created and count == 1, f"after Save: {driver.current_url}, {count} saved")
    finally:
        browser.quit()


def type_into(driver, typed):
    for name, value in typed.items():
        element = driver.find_element(By.NAME, name)
        if element.get_attribute("type") in ("radio", "checkbox"):
            driver.find_element(By.CSS_SELECTOR, f'input[name="{name}"][value="{value}"]').click()
        else:
            element.clear()
            element.send_keys(value)


SENT_AGAIN_FIELDS = """
return Array.from(document.querySelectorAll('main form input, main form textarea')).map(e =>
  ({name: e.name, type: e.type, value: e.value, label: e.labels && e.labels.length ? e.labels[0].textContent : null}));
"""


def send_again_after_session_ended(checker, server, role, path, typed, hidden):
    """As `role`, types `typed` into the form at `path` (one its page cannot show again), and saves it after the
    session ended; signing in again lands on /send-again, which is checked (values, passwords empty, `hidden` names
    not shown as boxes, axe at 1,280 and 320 px, vnu). Returns the signed-in Browser on /send-again, or None."""
    label = f"{role}: /send-again for {path.split('/')[1]}"
    browser = Browser(server.base)
    try:
        browser.sign_in(USERS[role][1])
        driver = browser.driver
        driver.get(browser.base + path)
        type_into(driver, typed)
        end_sessions(server, USERS[role][1])
        await_next_page(driver, driver.find_element(By.CSS_SELECTOR, SAVE).click)
        checker.expect(label, bool(driver.find_elements(By.NAME, "resume")), f"no sign-in page keeping the form: {driver.current_url}")
        driver.find_element(By.NAME, "email").send_keys(USERS[role][1])
        driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        await_next_page(driver, driver.find_element(By.CSS_SELECTOR, SAVE).click)
        checker.expect(label, driver.current_url.endswith("/send-again"), f"signing in went to {driver.current_url}")

        fields = {field["name"]: field for field in driver.execute_script(SENT_AGAIN_FIELDS)}
        for name, value in typed.items():
            field = fields.get(name)
            secret = "password" in name
            checker.expect(label, field is not None and field["value"] == ("" if secret else value) and field["label"],
                           f"{name} should be {'empty' if secret else repr(value)} with a label: {field}")
        shown = [name for name in hidden + ["csrf_token"] if fields.get(name, {}).get("type") != "hidden"]
        checker.expect(label, not shown, f"shown as boxes (or missing) instead of hidden: {shown}")
        checker.axe(browser, label)
        set_width(driver, 320)
        checker.results.append((f"{label} fits at 320 px", "layout", driver.execute_script(LAYOUT)))
        checker.axe(browser, f"{label} at 320 px")
        set_width(driver, 1280)
        save_for_vnu(checker, browser, label)
        return browser
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        checker.expect(label, False, f"{type(error).__name__}: {error}".splitlines()[0])
        browser.quit()
        return None


def check_send_again(checker, server):
    """Two forms kept after the session ended that /send-again shows: a photo's edit (an editor; its version hidden),
    sent again and saved, and a new user (an administrator; its passwords asked for again)."""
    editor = Browser(server.base)
    try:
        editor.sign_in(USERS["editor"][1])
        person = re.search(rf'href="/participants/({ID})"', editor.http.get(editor.base + "/participants").text).group(1)
        form = editor.http.get(f"{editor.base}/photos/new?participant_id={person}")
        editor.http.post(editor.base + "/photos", data={"csrf_token": csrf(form.text), "participant_id": person, "caption": "Porch"},
                         files={"photo": ("porch.jpg", PHOTO.read_bytes(), "image/jpeg")})
        photo = photo_ids(editor.http.get(f"{editor.base}/participants/{person}").text)[0]
    finally:
        editor.quit()
    caption = "Front steps, sent again"
    browser = send_again_after_session_ended(checker, server, "editor", f"{photo}/edit", {"caption": caption}, ["version"])
    if browser:
        try:
            driver = browser.driver
            await_next_page(driver, driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click)
            checker.expect("editor: /send-again for photos, sent again", caption in driver.page_source and driver.current_url.endswith(photo),
                           f"after Send again: {driver.current_url}")
        finally:
            browser.quit()

    typed = {"name": "Nia Sent-Again", "email": "nia.sent.again@example.org", "role": "editor",
             "password": "a secret typed once", "password_confirmation": "a secret typed once"}
    browser = send_again_after_session_ended(checker, server, "administrator", "/users/new", typed, [])
    if browser:
        browser.quit()


def main():
    args, server, checker = start_on_demo_data(__doc__.splitlines()[0], "fieldbook-fixes-")
    try:
        browser = Browser(server.base)
        try:
            browser.sign_in(USERS["editor"][1])
            check_enter_in_pickers(checker, browser)
            check_bulk_assignment(checker, browser)
            check_as_you_go(checker, browser)
            check_import_choices(checker, browser)
            checker.page(browser, "change your password", "/account/password")
            wrong = {"current_password": "wrong", "password": "short", "password_confirmation": "other"}
            checker.page(browser, "change your password (errors)", post=("/account/password", wrong, "/account/password"),
                         fill=("/account/password", wrong), expect=422)
        finally:
            browser.quit()
        check_privacy(checker, server)
        check_form_kept_after_session_ended(checker, server)
        check_send_again(checker, server)
        checker.run_vnu()
    finally:
        server.stop()
    finish(checker, server, args.keep)


if __name__ == "__main__":
    main()
