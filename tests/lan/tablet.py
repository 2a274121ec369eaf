"""A tablet on the LAN, for tests/lan: headless Chromium whose NSS database (in $HOME) trusts Fieldbook's certificate
authority, run inside the tablet's network namespace by test_lan_https.py. Prints one JSON object with what it saw.

    tablet.py walk BASE AUTHORITY    signs in, makes a visit list, walks it from an emulated location (BASE an address:
                                     the forms that set the list up go through requests, which has no resolver rules)
    tablet.py open BASE AUTHORITY [--resolve NAME=ADDRESS]   opens the sign-in page in Chromium and signs in
"""
import argparse
import json
import pathlib
import sys

BROWSER_CHECKS = pathlib.Path(__file__).resolve().parents[1] / "browser"
sys.path.insert(0, str(BROWSER_CHECKS))

from check_pages import PASSWORD, USERS, Browser, await_next_page, create_places  # noqa: E402
from check_visits import add_homes, make_list  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# Beside "House 2" (check_visits.add_homes), well away from "House 1" and the hall.
HERE = {"latitude": -1.3199, "longitude": 36.7999, "accuracy": 10}


class Tablet(Browser):
    """check_pages' person, whose Chromium resolves the machine's .local name as mDNS would answer it and uses no proxy,
    and whose requests (the forms that set the list up) trust the authority as the NSS database does."""

    def __init__(self, base, authority, resolve):
        rules = ", ".join(f"MAP {name} {address}" for name, address in resolve)
        self.CHROMIUM_ARGUMENTS = Browser.CHROMIUM_ARGUMENTS + ("--no-proxy-server",) + (
            (f"--host-resolver-rules={rules}",) if rules else ())
        super().__init__(base)
        self.http.verify = authority
        self.http.trust_env = False

    def seen(self):
        driver = self.driver
        return {"url": driver.current_url, "title": driver.title,
                "secure_context": driver.execute_script("return window.isSecureContext"),
                "https": driver.execute_script("return location.protocol") == "https:"}


def walk(tablet):
    """The editor's visit list, walked nearest first from the location the browser reports."""
    tablet.sign_in(USERS["editor"][1])
    create_places(tablet)
    area = add_homes(tablet)
    day = "2026-06-01"
    listing = make_list(tablet, "LAN walk", day, area)
    driver = tablet.driver
    tablet.devtools("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": tablet.base})
    tablet.devtools("Emulation.setGeolocationOverride", HERE)
    driver.get(f"{tablet.base}/visit-lists/{listing}/walk")
    before = tablet.seen()
    # The order of the stops (and "Use my location") sits in a disclosure below the next stop: open it as a person would.
    driver.find_element(By.CSS_SELECTOR, ".walk-order-details > summary").click()
    button = driver.find_element(By.CSS_SELECTOR, "[data-use-location]")
    offered = button.is_displayed()
    if offered:
        await_next_page(driver, button.click)
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".stop-cards .stop-card__title"))
    stops = [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".stop-cards .stop-card__title")]
    return dict(before, location_offered=offered, after_url=driver.current_url, stops=stops)


def open_signed_in(tablet):
    tablet.driver.get(tablet.base + "/login")
    at_login = tablet.seen()
    tablet.fill("/login", {"email": USERS["editor"][1], "password": PASSWORD})
    return dict(at_login, signed_in="/login" not in tablet.driver.current_url, after_url=tablet.driver.current_url)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("walk", "open"))
    parser.add_argument("base")
    parser.add_argument("authority")
    parser.add_argument("--resolve", action="append", default=[], help="NAME=ADDRESS for Chromium")
    args = parser.parse_args()
    resolve = [tuple(item.split("=", 1)) for item in args.resolve]
    tablet = Tablet(args.base, args.authority, resolve)
    try:
        print(json.dumps(walk(tablet) if args.what == "walk" else open_signed_in(tablet)))
    finally:
        tablet.quit()


if __name__ == "__main__":
    main()
