"""Browser checks of a phone away from the Wi-Fi (issue 38): on a 390×844 phone, "Take this list with me" keeps a visit
list; with the server stopped, five visits are logged from the kept pages; Chromium is closed and started again on the
same profile; when the server is back the five are sent in the order they were logged, each at the time it was logged,
and exactly five contact logs are on the server and, pushed by its sync, on its hub. The visit sent again is still one
log. On the shared phone, the sign-in page and another person's pages say whose visits wait, none is sent under another
person's session, and the server's sign-in page forgets the taken list but keeps the visits. A visit the server refuses
(the list went to someone else) is kept with why, does not hold up the others, and is retried or discarded
from "Visits on this phone"; Discard waits for the answer to a visit being sent. A kept form's id already used by
another visit gets a fresh one; a 503 for a taken list forgets nothing. Once taken, the list's stops cannot be removed in
the office.
The walk page's first screen holds the next stop and its result buttons. Every state through axe-core and vnu.

    $VENV/bin/python tests/browser/check_offline.py --binary .build/debug/fieldbook [--shots /work/notes/shots]

Service workers need a secure context: http://127.0.0.1 is one.
"""
import argparse
import datetime as dt
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from check_pages import (HUB_EMAIL, PASSWORD, USERS, Browser, Checker, Server, await_next_page, create_places, csrf,  # noqa: E402
                         sqlite_value, wait_for)
from check_visits import add_homes, make_list, set_viewport  # noqa: E402
import requests  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PHONE = (390, 844)
NODE_ADMIN = USERS["administrator"][1]


class Phone(Browser):
    """A Chromium whose profile (IndexedDB, Cache Storage, the service worker) outlives it: closing it and starting
    another on the same folder is the phone's browser closed and opened again."""

    def __init__(self, base, profile):
        self.profile = profile
        super().__init__(base)

    def start_chromium(self):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in self.CHROMIUM_ARGUMENTS + (f"--user-data-dir={self.profile}",):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_script_timeout(60)
        return driver

    def close_and_reopen(self):
        self.driver.quit()
        self.driver = self.start_chromium()
        set_viewport(self, *PHONE)


class Node:
    """The Fieldbook the phone talks to, linked to a hub, on a port of its own so it can be stopped and started again
    at the same address (the phone's pages and service worker keep it)."""

    def __init__(self, binary, root, hub):
        self.binary, self.root = binary, root
        self.folder = tempfile.mkdtemp(prefix="fieldbook-offline-")
        self.data = os.path.join(self.folder, "db")
        self.env = dict(os.environ, FIELDBOOK_PASSWORD_COST="test")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        for command in (["create-user", "--data", self.data, "--email", NODE_ADMIN, "--role", "administrator"],
                        ["link", "--data", self.data, "--upstream", hub.base, "--email", HUB_EMAIL]):
            subprocess.run([binary, *command], input=PASSWORD + "\n", text=True, env=self.env, check=True, capture_output=True)
        self.log = open(os.path.join(self.folder, "server.log"), "a")
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--data", self.data, "--resources", self.root, "--log-level", "warning",
             "--sync-interval", "2"], stdout=subprocess.PIPE, stderr=self.log, text=True, env=self.env)
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line or line.startswith("Fieldbook is serving at"):
                break
        if self.process.poll() is not None:
            sys.exit("offline: the node did not start; log:\n" + open(self.log.name).read())

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)

    def hang(self):
        """The edge of the Wi-Fi: connections are taken, but nothing answers."""
        self.process.send_signal(signal.SIGSTOP)

    def kill(self):
        """Stops a hung node without answering what it holds."""
        self.process.kill()
        self.process.wait(30)

    def contact_logs(self):
        return sqlite_value(os.path.join(self.data, "fieldbook.sqlite"), "SELECT COUNT(*) FROM contact_logs")


def set_up(node):
    """The node's administrator makes an editor, places, three people at home in one area, and today's list for the
    editor."""
    admin = Browser(node.base)
    admin.sign_in(NODE_ADMIN)
    name, email = USERS["editor"]
    admin.post("/users/new", {"name": name, "email": email, "role": "editor", "password": PASSWORD, "password_confirmation": PASSWORD})
    create_places(admin)
    area = add_homes(admin)
    listed = make_list(admin, "Olympic Road doors", dt.date.today().isoformat(), area)
    admin.quit()
    return listed


def stops_stay_once_taken(checker, node, listed):
    """The list was planned when the organizer took it onto the phone; the phone may now keep visits at any of its stops
    that the server cannot see. An editor in the office tidying the list finds no stop to remove, and a removal sent all
    the same is refused (409), so those visits will have their stop to land at."""
    office = requests.Session()
    login = office.get(node.base + "/login")
    office.post(node.base + "/login", data={"email": NODE_ADMIN, "password": PASSWORD, "csrf_token": csrf(login.text)})
    detail = office.get(f"{node.base}/visit-lists/{listed}")
    stop = sqlite_rows(os.path.join(node.data, "fieldbook.sqlite"), f"SELECT id FROM visit_stops WHERE visit_list_id = '{listed}' LIMIT 1")[0][0]
    checker.expect("taken: the list's page offers no stop for removal and says why",
                   "/remove\"" not in detail.text and "Stays: the walk has started" in detail.text, "a stop is offered for removal")
    removal = office.post(f"{node.base}/visit-lists/{listed}/stops/{stop}/remove", data={"csrf_token": csrf(detail.text)})
    left = sqlite_value(os.path.join(node.data, "fieldbook.sqlite"), f"SELECT COUNT(*) FROM visit_stops WHERE visit_list_id = '{listed}'")
    checker.expect("taken: a stop's removal is refused with why, and the stop stays",
                   removal.status_code == 409 and "walk has started" in removal.text and left == 3, f"{removal.status_code}; {left} stops")


def status_text(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-offline-status]").text


def wait_for_status(driver, pattern, timeout=30):
    try:
        WebDriverWait(driver, timeout).until(lambda d: re.search(pattern, status_text(d)))
    except TimeoutException:
        raise AssertionError(f"the status line never matched {pattern!r}: it says {status_text(driver)!r} on {driver.current_url}")
    return status_text(driver)


def first_screen(checker, phone, label):
    """The next stop and its result buttons within the first 844 px; the header and sections at most a quarter."""
    driver = phone.driver
    sizes = driver.execute_script("""
        const bottom = s => { const e = document.querySelector(s); return e ? e.getBoundingClientRect().bottom : null; };
        const buttons = Array.from(document.querySelectorAll('.next-stop .result-button')).map(b => b.getBoundingClientRect().bottom);
        return {chrome: bottom('.site-nav'), title: bottom('#next-stop-title'), buttons: buttons.length ? Math.max(...buttons) : null,
                height: window.innerHeight, errors: document.querySelectorAll('.error-summary').length};""")
    checker.expect(label + " (header and sections ≤ a quarter)", sizes["chrome"] is not None and sizes["chrome"] <= sizes["height"] / 4,
                   f"header and navigation end at {sizes['chrome']} px of {sizes['height']}")
    checker.expect(label + " (next stop and its result buttons on the first screen)",
                   sizes["title"] is not None and sizes["buttons"] is not None and sizes["buttons"] <= sizes["height"],
                   f"next stop ends at {sizes['title']} px, its buttons at {sizes['buttons']} px, screen {sizes['height']} px")
    checker.expect(label + " (no error box before anything was done)", sizes["errors"] == 0, "the page opens on an error summary")


def judge(checker, phone, label):
    """A state only Chromium reaches (a kept page, what the script wrote into it): axe, and its DOM saved for vnu."""
    checker.axe(phone, label)
    name = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") + ".html"
    (checker.out / name).write_text("<!DOCTYPE html>\n" + phone.driver.execute_script("return document.documentElement.outerHTML"))
    checker.files[name] = label


def log_offline(phone, button_value, note=None):
    """Taps a result on the page shown (from the cache: the server is stopped) and waits for the next kept page."""
    driver = phone.driver
    if note is not None:
        driver.find_element(By.CSS_SELECTOR, "form.log-form [name=note]").send_keys(note)
    button = driver.find_element(By.CSS_SELECTOR, f"form.log-form button[value={button_value}]")
    await_next_page(driver, button.click)


# Holds the page's first kept visit's POST until the test lets it go, however long that takes (the send's own timeout
# is left out), so that the test can act while the visit is on its way: end the session (as when it times out or an
# administrator ends it between the token fetch and the POST, the cookie still sent), or press Discard.
HOLD_FIRST_SEND = """
(() => {
  const real = window.fetch;
  window.fetch = function (input, init) {
    const url = String(input && input.url || input);
    if (init && init.method === "POST" && /\\/logs$/.test(url) && !localStorage.getItem("held-send")) {
      localStorage.setItem("held-send", "waiting");
      const unbounded = Object.assign({}, init, {signal: undefined});
      return new Promise(function wait(resume) {
        if (localStorage.getItem("held-send") === "go") { resume(); } else { setTimeout(() => wait(resume), 100); }
      }).then(() => real(input, unbounded));
    }
    return real.apply(this, arguments);
  };
})();"""


def kept_on_phone(driver):
    """The taken lists' pages in Cache Storage, and the lists and visits in IndexedDB."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          let pages = 0;
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) {
              const path = new URL(request.url).pathname;
              if (path.startsWith('/visit-lists/') || path === '/my-visits') { pages += 1; }
            }
          }
          return {pages, lists: (await FieldbookStore.all('lists')).length, visits: (await FieldbookStore.all('visits')).length};
        })().then(done, error => done({error: String(error)}));""")


def kept_visits(driver):
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        FieldbookStore.all('visits').then(visits => done(visits.length), error => done(String(error)));""")


def session_ends_while_sending(checker, phone, node):
    """The editor signs in; the phone fetches the session's token, then the session ends before the first visit's POST
    arrives. The server's answer is no log, so every visit stays kept and none is logged until the next sign-in."""
    driver = phone.driver
    hold = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_FIRST_SEND})
    phone.fill("/login", {"email": USERS["editor"][1], "password": PASSWORD})
    driver = phone.driver
    try:
        WebDriverWait(driver, 60).until(lambda d: d.execute_script("return localStorage.getItem('held-send')") == "waiting")
        import sqlite3
        with sqlite3.connect(os.path.join(node.data, "fieldbook.sqlite"), timeout=30) as database:
            database.execute("UPDATE sessions SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE ended_at IS NULL")
        driver.execute_script("localStorage.setItem('held-send', 'go')")
        wait_for_status(driver, r"Sign in to send 5 visits", timeout=30)
        checker.expect("session ended while sending: no visit logged", node.contact_logs() == 0, f"{node.contact_logs()} logs")
        left = kept_visits(driver)
        checker.expect("session ended while sending: all five still kept on the phone", left == 5, f"{left} kept")
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hold["identifier"]})
        driver.execute_script("localStorage.removeItem('held-send')")


def sqlite_rows(path, sql):
    import sqlite3
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(sql).fetchall()


# A visit as the service worker keeps it, put straight into the phone's store.
KEEP_VISIT = """
const done = arguments[arguments.length - 1];
const [path, stopName, result, label, keptAt] = arguments;
const id = crypto.randomUUID();
const by = document.querySelector('[data-offline-status]').dataset.userId;
FieldbookStore.put('visits', {id, list: '', stop: '', path, result, resultLabel: label, stopName, keptAt, by, byName: '',
                              fields: [['log_id', id], ['result', result], ['note', 'kept for the check'], ['logged_at', keptAt]]})
  .then(() => done(id), error => done(String(error)));"""


def refusals(checker, phone, node, listed):
    """A visit kept with a time the server's clock cannot believe is logged at receipt, and the phone says so; a visit
    the server refuses is kept with why and does not hold up the next; a 403 because the list went to someone else is
    a problem for that visit, not "sign in"; "Visits on this phone" lists them with Retry and Discard, which work from
    the keyboard."""
    driver = phone.driver
    database = os.path.join(node.data, "fieldbook.sqlite")
    stops = [row[0] for row in sqlite_rows(database, f"SELECT id FROM visit_stops WHERE visit_list_id = '{listed}' ORDER BY id")]
    path = lambda stop: f"/visit-lists/{listed}/stops/{stop}/logs"  # noqa: E731
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    before = node.contact_logs()
    driver.get(node.base + "/my-visits")
    driver.execute_async_script(KEEP_VISIT, path(stops[0]), "The old stop", "MET", "Met", "2020-01-01T00:00:00.000Z")
    driver.execute_async_script(KEEP_VISIT, path(stops[1]), "The fine stop", "NOT_HOME", "Not home", now)
    driver.get(node.base + "/my-visits")
    text = wait_for_status(driver, r"2 visits kept on this phone sent", timeout=60)
    checker.expect("a visit kept with an unbelievable time is logged at receipt, and the phone says so",
                   node.contact_logs() == before + 2 and kept_visits(driver) == 0
                   and "One was logged at the time the server received it" in text, f"{text}; {kept_visits(driver)} kept")
    admin = sqlite_rows(database, f"SELECT id FROM users WHERE email = '{NODE_ADMIN}'")[0][0]
    editor = sqlite_rows(database, f"SELECT assigned_user_id FROM visit_lists WHERE id = '{listed}'")[0][0]
    import sqlite3
    with sqlite3.connect(database, timeout=30) as writer:
        writer.execute("UPDATE visit_lists SET assigned_user_id = ? WHERE id = ?", (admin, listed))
    a_minute_ago = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    driver.execute_async_script(KEEP_VISIT, path(stops[0]), "The first stop", "MET", "Met", a_minute_ago)
    driver.execute_async_script(KEEP_VISIT, path(stops[2]), "The reassigned stop", "MET", "Met", now)
    driver.get(node.base + "/my-visits")
    text = wait_for_status(driver, r"2 visits were not accepted by the server", timeout=60)
    checker.expect("403 not allowed: a problem for that visit, not sign in", "Sign in" not in text, text)
    cards = driver.find_elements(By.CSS_SELECTOR, "[data-kept-visits] .kept-visit")
    states = [card.find_element(By.CSS_SELECTOR, ".kept-visit__state").text for card in cards]
    checker.expect("visits on this phone: each refused visit with its stop, result, time and why",
                   len(cards) == 2 and all("Only the organizer" in state for state in states)
                   and "The first stop" in cards[0].text and "Met, logged" in cards[0].text and cards[0].find_elements(By.CSS_SELECTOR, "time"),
                   f"{[card.text for card in cards]}")
    driver.save_screenshot(str(checker.out / "visits-on-this-phone-390.png"))
    judge(checker, phone, "phone: visits on this phone (two refused)")

    # Discard the first one from the keyboard: the focus stays in the section.
    discard = cards[0].find_element(By.XPATH, ".//button[starts-with(normalize-space(.), 'Discard')]")
    discard.send_keys(Keys.ENTER)
    WebDriverWait(driver, 10).until(expected_conditions.alert_is_present()).accept()
    WebDriverWait(driver, 30).until(lambda d: kept_visits(d) == 1)
    focused = driver.execute_script("return document.activeElement.closest('[data-kept-visits]') !== null")
    checker.expect("discard: the visit is gone, the focus stays in the section", focused, "the focus left the section")
    # The list is the editor's again: Retry sends the other.
    with sqlite3.connect(database, timeout=30) as writer:
        writer.execute("UPDATE visit_lists SET assigned_user_id = ? WHERE id = ?", (editor, listed))
    retry = driver.find_element(By.XPATH, "//*[@data-kept-visits]//button[starts-with(normalize-space(.), 'Retry')]")
    retry.send_keys(Keys.ENTER)
    wait_for_status(driver, r"1 visit kept on this phone sent", timeout=60)
    checker.expect("retry: the refused visit is sent once allowed", node.contact_logs() == before + 3 and kept_visits(driver) == 0,
                   f"{node.contact_logs() - before} sent; {kept_visits(driver)} kept")


def discard_while_sending(checker, phone, node, listed):
    """Discard pressed while its visit is on its way to the server: the phone says it is being sent and keeps it,
    rather than saying it will not be sent; the server's answer then decides, and the visit is logged once and gone
    from the phone."""
    driver = phone.driver
    database = os.path.join(node.data, "fieldbook.sqlite")
    stop = sqlite_rows(database, f"SELECT id FROM visit_stops WHERE visit_list_id = '{listed}' ORDER BY id LIMIT 1")[0][0]
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    before = node.contact_logs()
    driver.get(node.base + "/my-visits")
    hold = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_FIRST_SEND})
    try:
        driver.execute_script("localStorage.removeItem('held-send')")
        driver.execute_async_script(KEEP_VISIT, f"/visit-lists/{listed}/stops/{stop}/logs", "The busy stop", "MET", "Met", now)
        driver.get(node.base + "/my-visits")
        WebDriverWait(driver, 60).until(lambda d: d.execute_script("return localStorage.getItem('held-send')") == "waiting")
        discard = driver.find_element(By.XPATH, "//*[@data-kept-visits]//button[starts-with(normalize-space(.), 'Discard')]")
        discard.send_keys(Keys.ENTER)
        WebDriverWait(driver, 10).until(expected_conditions.alert_is_present()).accept()
        text = wait_for_status(driver, r"being sent now", timeout=30)
        checker.expect("discard while sending: the phone says the visit is being sent, never that it will not be",
                       "will not be sent" not in text and kept_visits(driver) == 1, f"{text}; {kept_visits(driver)} kept")
        driver.execute_script("localStorage.setItem('held-send', 'go')")
        text = wait_for_status(driver, r"1 visit kept on this phone sent", timeout=60)
        checker.expect("discard while sending: the server's answer decides, the visit is logged once and gone from the phone",
                       node.contact_logs() == before + 1 and kept_visits(driver) == 0, f"{node.contact_logs() - before} logged; "
                       f"{kept_visits(driver)} kept")
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hold["identifier"]})
        driver.execute_script("localStorage.removeItem('held-send')")


# Sends a log form the way a kept stop page does (a navigation the service worker answers), with the log id given.
SUBMIT_LOG = """
const [path, logId, result] = arguments;
const form = document.createElement('form');
form.method = 'post';
form.action = path;
for (const [name, value] of [['log_id', logId], ['result', result], ['kept_by', 'nobody-signed-in'], ['csrf_token', 'stale']]) {
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = name;
  field.value = value;
  form.appendChild(field);
}
document.body.appendChild(form);
form.submit();"""

KEPT_AT_STOP = """
const done = arguments[arguments.length - 1];
const [stop, drop] = arguments;
const opened = indexedDB.open('fieldbook-offline', 1);
opened.onerror = () => done({error: String(opened.error)});
opened.onsuccess = () => {
  const db = opened.result;
  const transaction = db.transaction('visits', 'readwrite');
  const store = transaction.objectStore('visits');
  const all = store.getAll();
  all.onsuccess = () => {
    const here = all.result.filter(visit => visit.stop === stop).sort((one, other) => one.keptAt < other.keptAt ? -1 : 1);
    if (drop) { here.forEach(visit => store.delete(visit.id)); }
    transaction.oncomplete = () => { db.close(); done(here.map(visit => ({id: visit.id, result: visit.result,
      logId: (visit.fields.find(field => field[0] === 'log_id') || [])[1]}))); };
  };
};"""


def one_id_kept_twice(checker, phone, node, listed):
    """Away from the network, two visits at one stop from a kept page whose form kept the id it was taken with (its
    scripts did not run): the second is kept under an id of its own, and the first stays as it was; the same visit
    sent twice is kept once."""
    driver = phone.driver
    stop = sqlite_rows(os.path.join(node.data, "fieldbook.sqlite"),
                       f"SELECT id FROM visit_stops WHERE visit_list_id = '{listed}' ORDER BY id LIMIT 1")[0][0]
    path = f"/visit-lists/{listed}/stops/{stop}/logs"
    taken_id, fresh_id = "0a0a0a0a-0000-4000-8000-00000000000a", "0b0b0b0b-0000-4000-8000-00000000000b"
    driver.get(node.base + "/my-visits")
    node.stop()
    try:
        for log_id, result in ((taken_id, "NOT_HOME"), (taken_id, "MET"), (fresh_id, "REFUSED"), (fresh_id, "REFUSED")):
            await_next_page(driver, lambda: driver.execute_script(SUBMIT_LOG, path, log_id, result))
        kept = driver.execute_async_script(KEPT_AT_STOP, stop, True)
    finally:
        node.start()
    checker.expect("one id kept twice: the second visit gets an id of its own, the first stays, the same visit twice is one",
                   isinstance(kept, list) and [visit["result"] for visit in kept] == ["NOT_HOME", "MET", "REFUSED"]
                   and kept[0]["id"] == taken_id and kept[1]["id"] not in (taken_id, fresh_id) and kept[1]["logId"] == kept[1]["id"]
                   and kept[2]["id"] == fresh_id, str(kept))


def new_build(root, within):
    """The same resources with a changed worker script: to the phone, the server was updated."""
    folder = tempfile.mkdtemp(prefix="new-build-", dir=within)
    copied = ("Public", "templates")  # read as folders of files, which a link to a folder is not to the server
    for entry in os.listdir(root):
        if entry in copied:
            shutil.copytree(os.path.join(root, entry), os.path.join(folder, entry))
        elif entry not in (".build", ".git"):
            os.symlink(os.path.join(root, entry), os.path.join(folder, entry))
    with open(os.path.join(folder, "Public", "js", "offline-worker.js"), "a") as script:
        script.write("\n// The next build.\n")
    return folder


LISTS_AND_CACHES = """
const done = arguments[arguments.length - 1];
const old = arguments[0];
(async () => ({
  lists: Object.fromEntries((await FieldbookStore.all('lists')).map(list => [list.id, list.cache === old ? 'old' : 'new'])),
  oldPages: (await caches.has(old)) ? (await (await caches.open(old)).keys()).length : 0,
}))().then(done, error => done({error: String(error)}));"""


def worker_update(checker, phone, node):
    """A new build's worker takes over at once and takes each list again in the background: a list taken again moves to
    the new cache; one that cannot be reached now still opens from the old cache, kept while a list needs it; one the
    server no longer gives (404) is forgotten alone, leaving the pages the others share, and the next page says so."""
    driver = phone.driver
    driver.get(node.base + "/my-visits")
    driver.find_element(By.CSS_SELECTOR, "[data-take-list] button").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-take-status]").text.startswith("On this phone"))
    taken = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        FieldbookStore.all('lists').then(async ([list]) => {
          await FieldbookStore.put('lists', Object.assign({}, list, {id: 'unreachable', address: 'http://127.0.0.1:9/offline.json'}));
          // Withdrawn (404): it names the same pages as the others in the old cache, which must stay for them.
          await FieldbookStore.put('lists', Object.assign({}, list, {id: 'withdrawn', name: 'Withdrawn doors',
                                                                    address: '/visit-lists/' + crypto.randomUUID() + '/offline.json'}));
          return {id: list.id, cache: list.cache, pages: list.pages};
        }).then(done, error => done({error: String(error)}));""")
    node.stop()
    node.root = new_build(node.root, node.folder)
    node.start()
    changed = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.addEventListener('controllerchange', () => done(true));
        navigator.serviceWorker.getRegistration().then(registration => registration.update()).catch(error => done(String(error)));
        setTimeout(() => done(false), 50000);""")
    checker.expect("update: the new build's worker takes over at once", changed is True, str(changed))
    expected = {"lists": {taken["id"]: "new", "unreachable": "old"}}
    try:
        wait_for(lambda: {"lists": driver.execute_async_script(LISTS_AND_CACHES, taken["cache"])["lists"]} == expected, 60, "")
    except TimeoutError:
        pass
    state = driver.execute_async_script(LISTS_AND_CACHES, taken["cache"])
    checker.expect("update: a list taken again is in the new cache; one not reachable now still in the old with its shared pages; "
                   "one withdrawn forgotten", state["lists"] == expected["lists"] and state["oldPages"] >= len(taken["pages"]), str(state))
    driver.get(node.base + "/my-visits")
    text = wait_for_status(driver, r"no longer on this phone", timeout=30)
    checker.expect("update: the page says which list is no longer on the phone", "“Withdrawn doors” is no longer on this phone" in text, text)


# Every list taken again while the server answers each offline.json with 503 (restarting, overloaded): what the phone
# then holds. The page's fetch answers, since the worker's own requests cannot be faked from the test; the take and
# what follows a failed take are the same code in both (FieldbookStore.take and afterFailedTake).
RETAKE_WHILE_BUSY = """
const done = arguments[arguments.length - 1];
(async () => {
  const real = window.fetch;
  window.fetch = (input, init) => /offline\\.json$/.test(String(input && input.url || input))
    ? Promise.resolve(new Response('<!DOCTYPE html><title>Busy</title><p>Try again later.</p>',
                                   {status: 503, headers: {'Content-Type': 'text/html; charset=utf-8', 'Retry-After': '30'}}))
    : real(input, init);
  const before = (await FieldbookStore.all('lists')).map(list => list.id).sort();
  const outcomes = [];
  for (const list of await FieldbookStore.all('lists')) {
    outcomes.push(await FieldbookStore.take(list.address).then(() => 'taken', error =>
      FieldbookStore.afterFailedTake(list, error).then(() => error.message)));
  }
  window.fetch = real;
  const after = (await FieldbookStore.all('lists')).map(list => list.id).sort();
  return {outcomes, kept: JSON.stringify(before) === JSON.stringify(after), count: after.length, gone: await FieldbookStore.get('notes', 'gone')};
})().then(done, error => done({error: String(error)}));"""


def on_my_visits(phone, node, script):
    """What `script` answers, run on My visits."""
    phone.driver.get(node.base + "/my-visits")
    return phone.driver.execute_async_script(script)


def busy_server_forgets_nothing(checker, phone, node):
    """A 503 for a list's offline.json is "try later": no list, page or tile is forgotten and nothing is said gone."""
    state = on_my_visits(phone, node, RETAKE_WHILE_BUSY)
    checker.expect("503 for offline.json: every list stays, none is said gone",
                   state.get("kept") is True and state.get("count", 0) >= 1 and set(state.get("outcomes", [])) == {"unavailable"}
                   and state.get("gone") is None, str(state))


# Takes the first list again, holding its pages until the lists have been forgotten (as when the person signs out while
# a take runs): what the take then finds.
FORGET_DURING_TAKE = """
const done = arguments[arguments.length - 1];
(async () => {
  const [list] = await FieldbookStore.all('lists');
  const realOpen = caches.open.bind(caches);
  let release;
  const held = new Promise(resolve => { release = resolve; });
  caches.open = name => realOpen(name).then(cache => {
    const addAll = cache.addAll.bind(cache);
    cache.addAll = pages => held.then(() => addAll(pages));
    return cache;
  });
  const taking = FieldbookStore.take(list.address).then(() => 'taken', error => error.message);
  // Until the take has its list (it notes the cache it fills), or a while.
  for (let tries = 0; tries < 200 && !(await FieldbookStore.all('notes')).some(note => note.cache); tries += 1) {
    await new Promise(r => setTimeout(r, 50));
  }
  await FieldbookStore.forgetLists();
  release();
  const outcome = await taking;
  caches.open = realOpen;
  let pages = 0;
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) {
      if (new URL(request.url).pathname.startsWith('/visit-lists/')) { pages += 1; }
    }
  }
  return {outcome, lists: (await FieldbookStore.all('lists')).length, pages};
})().then(done, error => done({error: String(error)}));"""


def forgotten_while_taking(checker, phone, node):
    """A take that finishes after the lists were forgotten (signing out while it ran) does not bring its list back."""
    state = on_my_visits(phone, node, FORGET_DURING_TAKE)
    checker.expect("forgotten while taking: the take does not write its list or pages back",
                   state.get("outcome") == "forgotten" and state.get("lists") == 0 and state.get("pages") == 0, str(state))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--resources", default=str(pathlib.Path(__file__).resolve().parents[2]))
    parser.add_argument("--shots", default=None, help="a folder to save the screenshots in")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    checker = Checker(tempfile.mkdtemp(prefix="fieldbook-offline-html-"))
    shots = pathlib.Path(args.shots or checker.out)
    shots.mkdir(parents=True, exist_ok=True)
    hub = Server(binary, args.resources)
    subprocess.run([binary, "create-user", "--data", os.path.join(hub.data, "db"), "--email", HUB_EMAIL, "--role", "administrator"],
                   input=PASSWORD + "\n", text=True, env=dict(os.environ, FIELDBOOK_PASSWORD_COST="test"), check=True, capture_output=True)
    node = Node(binary, args.resources, hub)
    profile = tempfile.mkdtemp(prefix="fieldbook-phone-")
    phone = None
    try:
        listed = set_up(node)
        walk = f"/visit-lists/{listed}/walk"
        phone = Phone(node.base, profile)
        phone.sign_in(USERS["editor"][1])
        checker.expect("phone viewport", set_viewport(phone, *PHONE) == PHONE, "the page area is not 390×844")
        driver = phone.driver
        checker.expect("a secure context on 127.0.0.1", driver.execute_script("return window.isSecureContext"), "not a secure context")

        # Online, as today: the walk page's first screen, then taking the list from My visits.
        checker.page(phone, "phone: walk page (nothing chosen yet)", walk)
        first_screen(checker, phone, "phone: walk page")
        driver.save_screenshot(str(shots / "walk-390.png"))
        checker.page(phone, "phone: my visits (take this list offered)", "/my-visits")
        take = driver.find_element(By.CSS_SELECTOR, "[data-take-list] button")
        checker.expect("take this list: offered with JavaScript", take.is_displayed(), "the button is hidden")
        take.click()
        said = WebDriverWait(driver, 60).until(
            lambda d: (lambda t: t if t.startswith("On this phone") or "could not" in t else False)(
                d.find_element(By.CSS_SELECTOR, "[data-take-status]").text))
        checker.expect("take this list: kept, and whether the storage is persistent",
                       said.startswith("On this phone: 3 stops") and ("keeps them" in said or "did not promise" in said), said)
        judge(checker, phone, "phone: my visits (list taken)")
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        stops_stay_once_taken(checker, node, listed)

        # At the edge of the Wi-Fi the server takes connections but never answers: within seconds the walk page opens from
        # the phone and a visit is kept, rather than when TCP gives up. Then away from the network (the server stopped),
        # the other four visits are logged from the kept pages.
        node.hang()
        driver.set_page_load_timeout(30)
        try:
            started = time.time()
            driver.get(node.base + walk)
            checker.expect("weak signal: the walk page opens from the phone within seconds",
                           "Olympic Road doors" in driver.title and time.time() - started < 20,
                           f"{driver.title!r} after {time.time() - started:.0f} s")
            started = time.time()
            log_offline(phone, "NOT_HOME")
            checker.expect("weak signal: the visit is kept within seconds", time.time() - started < 20, f"{time.time() - started:.0f} s")
        except TimeoutException:
            checker.expect("weak signal: the phone answers within seconds", False, f"nothing after 30 s at {driver.current_url}")
        finally:
            driver.set_page_load_timeout(300)
            node.kill()
        checker.expect("offline: the next stop opens", "/stops/" in driver.current_url, driver.current_url)
        wait_for_status(driver, r"Kept on this phone: “Not home”.*1 visit not yet sent")
        judge(checker, phone, "phone offline: next stop with one visit kept")
        log_offline(phone, "MET", note="Will come to the festival")
        log_offline(phone, "OTHER", note="Dog at the gate")
        checker.expect("offline: every stop logged leads back to the walk page", driver.current_url.endswith(walk),
                       driver.current_url)
        wait_for_status(driver, r"3 visits not yet sent")
        log_offline(phone, "FOLLOW_UP")
        log_offline(phone, "REFUSED")
        text = wait_for_status(driver, r"5 visits not yet sent")
        checker.expect("offline: the count on every page", "5 visits not yet sent" in text, text)
        driver.get(node.base + walk)
        wait_for_status(driver, r"5 visits not yet sent")
        checker.expect("offline: the walk page marks the stops logged on the phone",
                       len(driver.find_elements(By.CSS_SELECTOR, ".stop-cards [data-kept]")) == 3
                       and len(driver.find_elements(By.CSS_SELECTOR, ".next-stop [data-kept]")) == 1, "kept stops not marked")
        checker.expect("offline: the page says it is the kept copy", "The server cannot be reached" in status_text(driver),
                       status_text(driver))
        driver.save_screenshot(str(shots / "offline-walk-390.png"))
        judge(checker, phone, "phone offline: walk page with five visits kept")
        checker.expect("offline: nothing reached the server", node.contact_logs() == 0, f"{node.contact_logs()} logs")

        # The browser is closed and opened again, still away: the five are still there.
        phone.close_and_reopen()
        driver = phone.driver
        driver.get(node.base + walk)
        wait_for_status(driver, r"5 visits not yet sent")
        left = kept_visits(driver)
        checker.expect("after a restart: five visits still kept", left == 5, f"{left} kept")
        driver.get(node.base + "/participants")
        checker.expect("offline: a page not taken along says so, in the site's look",
                       driver.title.startswith("Not on this phone") and driver.find_elements(By.CSS_SELECTOR, "link[rel=stylesheet]")
                       and driver.find_elements(By.CSS_SELECTOR, "main [role=status]"), driver.title)
        judge(checker, phone, "phone offline: a page not taken along")
        # The session ends while away (a closed browser may keep its cookie or not): the next page is the sign-in page.
        driver.delete_all_cookies()

        # Back in range, on a phone people share. The sign-in page says whose visits wait; someone else signing in sees
        # them wait and sends none; signing out forgets the taken list (households' names and addresses) but never the
        # visits. Once the editor signs in they are sent, each once, and the node's sync pushes them to the hub.
        node.start()
        waiting = rf"5 visits logged by {re.escape(USERS['editor'][0])} wait for them to sign in"
        back_in_range = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        driver.get(node.base + "/my-visits")
        text = wait_for_status(driver, waiting, timeout=60)
        kept = kept_on_phone(driver)
        checker.expect("session ended: the sign-in page forgets the taken list's pages and data, not the visits",
                       kept == {"pages": 0, "lists": 0, "visits": 5}, str(kept))
        checker.expect("session ended: the page says the list is no longer on the phone",
                       "“Olympic Road doors” is no longer on this phone" in text, text)
        judge(checker, phone, "phone: five visits wait for the editor (sign-in page)")
        phone.fill("/login", {"email": NODE_ADMIN, "password": PASSWORD})
        driver = phone.driver
        text = wait_for_status(driver, waiting, timeout=60)
        checker.expect("shared phone: another person sees whose visits wait", "not yet sent" not in text, text)
        time.sleep(3)
        checker.expect("shared phone: none sent under another person's session", node.contact_logs() == 0, f"{node.contact_logs()} logs")
        judge(checker, phone, "phone: five visits wait for the editor (another person signed in)")
        await_next_page(driver, driver.find_element(By.CSS_SELECTOR, "form[data-sign-out] button").click)
        text = wait_for_status(driver, waiting, timeout=30)
        checker.expect("signed out: the page says visits still wait", "You have signed out" in driver.page_source, text)
        kept = kept_on_phone(driver)
        checker.expect("signed out: the taken list's pages and data are gone, the visits kept",
                       kept == {"pages": 0, "lists": 0, "visits": 5}, str(kept))
        judge(checker, phone, "phone: signed out with five visits waiting")
        session_ends_while_sending(checker, phone, node)
        phone.fill("/login", {"email": USERS["editor"][1], "password": PASSWORD})
        driver = phone.driver
        text = wait_for_status(driver, r"5 visits kept on this phone sent", timeout=60)
        checker.expect("back in range: sent and said so", "not yet sent" not in text, text)
        judge(checker, phone, "phone online: visits sent")
        checker.expect("back in range: exactly five contact logs on the server", node.contact_logs() == 5, f"{node.contact_logs()} logs")
        node_database = os.path.join(node.data, "fieldbook.sqlite")
        logged = sqlite_rows(node_database, "SELECT result, logged_at FROM contact_logs ORDER BY logged_at")
        checker.expect("back in range: each visit at the time it was logged on the phone, in that order",
                       [row[0] for row in logged] == ["NOT_HOME", "MET", "OTHER", "FOLLOW_UP", "REFUSED"]
                       and all(row[1] < back_in_range for row in logged), f"{logged}; back in range at {back_in_range}")
        hub_database = os.path.join(hub.data, "db", "fieldbook.sqlite")
        try:
            wait_for(lambda: sqlite_value(hub_database, "SELECT COUNT(*) FROM contact_logs") == 5, 60, "the hub never had five logs")
        except TimeoutError:
            pass
        checker.expect("pushed to the hub: exactly five contact logs there",
                       sqlite_value(hub_database, "SELECT COUNT(*) FROM contact_logs") == 5,
                       f"{sqlite_value(hub_database, 'SELECT COUNT(*) FROM contact_logs')} logs on the hub")

        # A visit whose answer was lost is sent again with its id: still one log.
        log_id = sqlite_value(node_database, "SELECT id FROM contact_logs ORDER BY logged_at LIMIT 1")
        stop_id = sqlite_value(node_database, f"SELECT visit_stop_id FROM contact_logs WHERE id = '{log_id}'")
        stop = f"/visit-lists/{listed}/stops/{stop_id}"
        again = phone.post(stop + "/logs", {"result": "NOT_HOME", "log_id": log_id}, stop)
        checker.expect("a visit sent again with its id is one log", again.status_code == 200 and node.contact_logs() == 5,
                       f"answered {again.status_code}; {node.contact_logs()} logs")
        refusals(checker, phone, node, listed)
        discard_while_sending(checker, phone, node, listed)
        one_id_kept_twice(checker, phone, node, listed)
        worker_update(checker, phone, node)
        busy_server_forgets_nothing(checker, phone, node)
        forgotten_while_taking(checker, phone, node)
        checker.run_vnu()
    finally:
        if phone:
            phone.quit()
        node.stop()
        hub.stop()
    failed = checker.report()
    if failed or args.keep:
        print(f"saved pages: {checker.out}; node log: {node.log.name}; hub log: {hub.log.name}; screenshots: {shots}")
    else:
        shutil.rmtree(checker.out, ignore_errors=True) if not args.shots else None
        shutil.rmtree(node.folder, ignore_errors=True)
        shutil.rmtree(hub.data, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
