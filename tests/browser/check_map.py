"""Browser checks of the map (issue 10): /map in every state through axe-core and the Nu HTML Checker, and what a
keyboard-only user does there, in headless Chromium that can reach no host but Fieldbook (tiles must come from the
bundled basemap).

    $VENV/bin/python tests/browser/check_map.py --binary .build/debug/fieldbook

Needs tiles/basemap.mbtiles (scripts/install-basemap.sh, run by `make test`'s install step).
"""
import argparse
import contextlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_pages import PASSWORD, USERS, Browser, Checker, Server, await_next_page, csrf  # noqa: E402


class OfflineBrowser(Browser):
    """A Browser whose Chromium resolves no host name at all: only Fieldbook's 127.0.0.1 answers, as on a LAN with no
    internet. A tile or script fetched from anywhere else fails."""

    CHROMIUM_ARGUMENTS = Browser.CHROMIUM_ARGUMENTS + ("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",)


def add_users(binary):
    """A `prepare` step for Server: the three users, made on the command line before the server starts."""
    def prepare(data, env):
        for role, (name, email) in USERS.items():
            subprocess.run([binary, "create-user", "--data", data, "--email", email, "--role", role, "--name", name],
                           input=PASSWORD + "\n", text=True, env=env, check=True, capture_output=True)
    return prepare


def with_demo_data(binary):
    users = add_users(binary)

    def prepare(data, env):
        subprocess.run([binary, "demo-data", "--data", data], env=env, check=True, capture_output=True)
        users(data, env)
    return prepare


def wait_for_markers(driver):
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(
        "var m = document.getElementById('map'); return m && m.getAttribute('data-loaded') !== null"))
    return driver.execute_script("return document.getElementById('map').getAttribute('data-loaded')")


def map_state(checker, browser, label, path, expect=200):
    """One state of /map: the HTML for vnu, axe as the page loads, and axe again once the markers are on the map."""
    checker.page(browser, label, path, expect=expect)
    if expect == 200:
        wait_for_markers(browser.driver)
        # A popup fades in; axe judges its contrast once it is fully shown.
        WebDriverWait(browser.driver, 10).until(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('.leaflet-popup')).every(p => getComputedStyle(p).opacity === '1')"))
        checker.axe(browser, label + " (markers loaded)")


def sign_in(browser, role):
    browser.sign_in(USERS[role][1])


@contextlib.contextmanager
def signed_in(base, role):
    """An offline Chromium (and requests session) signed in as `role`, closed afterwards."""
    browser = OfflineBrowser(base)
    try:
        sign_in(browser, role)
        yield browser
    finally:
        browser.quit()


def check_states(checker, server, empty_server):
    with signed_in(server.base, "administrator") as admin:
        map_state(checker, admin, "map: administrator, all venues", "/map")
        types = admin.driver.execute_script(
            "return Array.from(document.querySelectorAll('#activity_type_id option')).map(o => o.value).filter(Boolean)")
        map_state(checker, admin, "map: filters", f"/map?activity_type_id={types[0]}&status=ACTIVE&from=2024-01-01&to=2026-12-31")
        map_state(checker, admin, "map: empty result", "/map?to=1990-01-01")
        checker.expect("map: empty result", "No venue with coordinates matches these filters" in admin.driver.page_source,
                       "the empty result does not say that no venue matches")
        map_state(checker, admin, "map: symbols by status", "/map?symbols=status")
        admin.driver.set_window_size(320, 900)
        map_state(checker, admin, "map: 320 px wide", "/map")
        admin.driver.set_window_size(1280, 900)
        checker.page(admin, "map settings", "/settings/map")
        bad = {"homes_layer": "off", "online_layer": "on", "online_tile_url": "ftp://example.org/tiles", "online_attribution": ""}
        checker.page(admin, "map settings (errors)", post=("/settings/map", bad),
                     fill=("/settings/map", {"online_tile_url": bad["online_tile_url"]}), expect=422)
        admin.post("/settings/map", {"homes_layer": "names", "online_layer": "on",
                                     "online_tile_url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "online_attribution": ""})
        map_state(checker, admin, "map: homes layer on", "/map?homes=on")
        checker.expect("map: homes layer on", "Where participants live" in admin.driver.page_source, "the homes list is missing")
        check_gzip(checker, admin)
        check_upload_refusal(checker, admin)
        check_csp(checker, admin)
    with signed_in(server.base, "read-only") as reader:
        map_state(checker, reader, "map: read-only user", "/map?homes=on")
        checker.expect("map: read-only user", "Where participants live" not in reader.driver.page_source,
                       "a read-only user sees the homes layer although the setting does not allow it")
        homes = reader.http.get(server.base + "/api/v1/map/homes")
        checker.expect("map: read-only user", homes.status_code == 403, f"/api/v1/map/homes answered {homes.status_code}, not 403")
    with signed_in(server.base, "editor") as editor:
        editor.driver.get(server.base + "/map")
        wait_for_markers(editor.driver)
        venue = editor.driver.execute_script("return document.querySelector('#map-list [data-venue-id]').getAttribute('data-venue-id')")
        map_state(checker, editor, "map: centred on a venue", f"/map?focus_venue={venue}")
        checker.expect("map: centred on a venue", editor.driver.execute_script(
            "return !!document.querySelector('.leaflet-popup-content')"), "the venue's popup is not open")
        detail = editor.http.get(f"{server.base}/venues/{venue}").text
        checker.expect("venue page: Show on map", f'href="/map?focus_venue={venue}"' in detail, "the venue page has no Show on map link")
        checker.page(editor, "venue form with pin map", f"/venues/{venue}/edit")
        check_pin_map(checker, editor)
    with signed_in(empty_server.base, "administrator") as nobody:
        map_state(checker, nobody, "map: no coordinates anywhere", "/map")
        checker.expect("map: no coordinates anywhere", "No venue has coordinates yet" in nobody.driver.page_source,
                       "the page does not explain that no venue has coordinates")


def check_gzip(checker, admin):
    plain = admin.http.get(admin.base + "/api/v1/map/venues", headers={"Accept-Encoding": "identity"})
    packed = admin.http.get(admin.base + "/api/v1/map/venues", headers={"Accept-Encoding": "gzip"})
    checker.expect("map: GeoJSON is gzipped", packed.headers.get("Content-Encoding") == "gzip" and packed.json() == plain.json()
                   and "Content-Encoding" not in plain.headers, f"gzip: {packed.headers.get('Content-Encoding')!r}")


def check_upload_refusal(checker, admin):
    page = admin.http.get(admin.base + "/settings/map")
    answer = admin.http.post(admin.base + "/settings/map/tiles", data={"csrf_token": csrf(page.text)},
                             files={"tiles_file": ("notes.mbtiles", b"these are notes, not tiles", "application/octet-stream")})
    checker.expect("map settings: upload refusal", answer.status_code == 422 and "not an SQLite database" in answer.text,
                   f"a text file uploaded as tiles was answered {answer.status_code} without the reason")


def check_csp(checker, admin):
    on = admin.http.get(admin.base + "/map").headers.get("Content-Security-Policy", "")
    admin.post("/settings/map", {"homes_layer": "names", "online_tile_url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png"})
    off = admin.http.get(admin.base + "/map").headers.get("Content-Security-Policy", "")
    checker.expect("map: CSP follows the online layer", "tile.openstreetmap.org" in on and "tile.openstreetmap.org" not in off,
                   f"CSP with the layer on: {on!r}; off: {off!r}")


def check_pin_map(checker, editor):
    driver = editor.driver
    checker.expect("venue form: pin map", driver.execute_script(
        "return !document.querySelector('[data-pin-map]').hidden && !!document.querySelector('.pin-map__map .leaflet-tile')"),
        "the pin map is not shown")
    latitude = driver.find_element(By.ID, "latitude")
    latitude.clear()
    latitude.send_keys("10.5")
    longitude = driver.find_element(By.ID, "longitude")
    longitude.clear()
    longitude.send_keys("20.25")
    longitude.send_keys(Keys.TAB)
    pin = driver.execute_script("var m = document.querySelector('.pin-map__map .leaflet-marker-icon'); return !!m")
    checker.expect("venue form: typed coordinates move the pin", pin, "typing coordinates placed no pin")
    centre = driver.find_element(By.CSS_SELECTOR, ".pin-map__centre")
    centre.send_keys(Keys.ENTER)
    typed = (driver.find_element(By.ID, "latitude").get_attribute("value"), driver.find_element(By.ID, "longitude").get_attribute("value"))
    checker.expect("venue form: the pin button fills the coordinates", all(typed) and abs(float(typed[0]) - 10.5) < 1,
                   f"after the button the fields hold {typed}")


def tab_to(driver, predicate, limit=150):
    """Presses Tab (on whatever has focus) until the focused element satisfies `predicate`, a JS expression over `e`."""
    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script(f"var e = document.activeElement; return !!({predicate})"):
            return True
    return False


def check_keyboard(checker, server):
    label = "map: keyboard"
    with signed_in(server.base, "editor") as browser:
        driver = browser.driver
        driver.get(server.base + "/map")
        loaded = wait_for_markers(driver)
        checker.expect("map: markers and clusters", loaded not in ("error", "0") and driver.execute_script(
            "return document.querySelectorAll('.marker-cluster').length > 0"), f"markers loaded: {loaded}, no clusters shown")
        tiles = driver.execute_script("""
            var tiles = Array.from(document.querySelectorAll('#map .leaflet-tile'));
            return {count: tiles.length, loaded: tiles.filter(t => t.complete && t.naturalWidth === 256).length,
                    foreign: tiles.filter(t => !t.src.startsWith(location.origin + '/tiles/')).length}""")
        checker.expect("map: tiles from the bundled basemap with no network", tiles["count"] > 0 and tiles["loaded"] == tiles["count"]
                       and tiles["foreign"] == 0, f"tiles: {tiles}")
        reached = tab_to(driver, "e.id === 'map'")
        checker.expect(label, reached, "Tab never reaches the map")
        before = driver.execute_script("var c = fieldbookMap.map.getCenter(); return [c.lat, c.lng, fieldbookMap.map.getZoom()]")
        active = driver.switch_to.active_element
        active.send_keys(Keys.ARROW_RIGHT)
        active.send_keys("+")
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return fieldbookMap.map.getZoom()") > before[2])
        after = driver.execute_script("var c = fieldbookMap.map.getCenter(); return [c.lat, c.lng, fieldbookMap.map.getZoom()]")
        checker.expect(label, after[1] != before[1] and after[2] > before[2], f"arrow and + did not pan and zoom: {before} -> {after}")
        check_list_agrees(checker, driver)
        clusters = driver.execute_script("return Array.from(document.querySelectorAll('.marker-cluster')).map(c => c.getAttribute('aria-label'))")
        checker.expect(label, clusters and all(clusters), f"clusters without a name: {clusters}")
        driver.get(server.base + "/map")
        wait_for_markers(driver)
        reached = tab_to(driver, "e.matches('#map-list button')")
        checker.expect(label, reached, "Tab never reaches a Show on map button in the list")
        name = driver.execute_script("var item = document.activeElement.closest('[data-venue-id]'); "
                                     "return item ? item.querySelector('h3 a').textContent : document.activeElement.outerHTML")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        WebDriverWait(driver, 15).until(lambda d: d.execute_script("return !!document.querySelector('.leaflet-popup-content')"))
        popup = driver.execute_script("return document.querySelector('.leaflet-popup-content').textContent")
        focused_in_popup = driver.execute_script("return !!document.activeElement.closest('.leaflet-popup-content')")
        checker.expect(label, name in popup and focused_in_popup, f"the list's button did not open {name!r}'s popup with focus in it")
        # The popup's links lead to the venue's and its activities' pages (built from the data's link templates).
        venue_id = driver.execute_script("return document.activeElement.closest('.leaflet-popup-content') && "
                                         "fieldbookMap.map._popup._source.feature.id")
        hrefs = driver.execute_script("return Array.from(document.querySelectorAll('.leaflet-popup-content a')).map(a => a.getAttribute('href'))")
        checker.expect(label, bool(hrefs) and hrefs[0] == f"/venues/{venue_id}"
                       and all(re.fullmatch(r"/activities/[0-9a-f-]{36}", href) for href in hrefs[1:]),
                       f"the popup's links are not the venue's and activities' pages: {hrefs} (venue {venue_id})")
        driver.execute_script("fieldbookMap.map.closePopup()")
        marker = driver.find_element(By.CSS_SELECTOR, ".map-marker[role=button]")
        marker.send_keys(Keys.ENTER)
        opened_by_enter = WebDriverWait(driver, 10).until(lambda d: d.execute_script("return !!document.querySelector('.leaflet-popup-content')"))
        driver.execute_script("fieldbookMap.map.closePopup()")
        marker = driver.find_element(By.CSS_SELECTOR, ".map-marker[role=button]")
        marker.send_keys(Keys.SPACE)
        opened_by_space = WebDriverWait(driver, 10).until(lambda d: d.execute_script("return !!document.querySelector('.leaflet-popup-content')"))
        checker.expect(label, opened_by_enter and opened_by_space, "Enter or Space on a marker did not open its popup")
        check_filters_by_keyboard(checker, browser)
        check_centre_on_area(checker, browser)


def check_no_detail(checker, server):
    """Past the installed tiles' detail the map overzooms at most two levels, then is blank and says so, once."""
    label = "map: no detail installed"
    with signed_in(server.base, "administrator") as browser:
        driver = browser.driver
        driver.get(server.base + "/map")
        wait_for_markers(driver)
        native = driver.execute_script(
            "return Math.max.apply(null, JSON.parse(document.getElementById('map').getAttribute('data-tile-coverage')).map(f => f.maxZoom))")

        def show(zoom, lng=36.8):
            # The page's own fitting of the markers may still be animating: set the view until it holds.
            WebDriverWait(driver, 15).until(lambda d: d.execute_script("""
                var map = fieldbookMap.map, zoom = arguments[0], lng = arguments[1];
                if (map.getZoom() === zoom && Math.abs(map.getCenter().lng - lng) < 0.01) { return true; }
                map.closePopup();
                map.setView([-1.29, lng], zoom, {animate: false});
                return false""", zoom, lng))
            WebDriverWait(driver, 15).until(lambda d: d.execute_script(
                "return Array.from(document.querySelectorAll('#map .leaflet-tile')).every(t => t.complete)"))
            return driver.execute_script("""
                var notice = document.querySelector('#map .map-notice');
                var link = notice && notice.querySelector('a');
                return {text: notice ? notice.textContent : null, role: notice && notice.getAttribute('role'),
                        visible: !!notice && notice.offsetHeight > 0, link: link && link.getAttribute('href'),
                        tiles: document.querySelectorAll('#map .leaflet-tile-loaded').length}""")

        overzoomed = show(native + 2)
        checker.expect(label, overzoomed["tiles"] > 0 and overzoomed["text"] == "" and overzoomed["role"] == "status",
                       f"two levels past zoom {native} the tiles should still show, without the notice: {overzoomed}")
        driver.execute_script("""
            window.noticeChanges = 0;
            new MutationObserver(() => window.noticeChanges++).observe(document.querySelector('#map .map-notice'),
                                                                       {childList: true, subtree: true, characterData: true})""")
        blank = show(native + 3)
        checker.expect(label, blank["tiles"] == 0 and blank["visible"]
                       and blank["text"].startswith("No map detail is installed for this area at this zoom.")
                       and blank["link"] == "/settings/map#offline-tiles",
                       f"three levels past zoom {native}: {blank}")
        changes = driver.execute_script("return window.noticeChanges")
        show(native + 6, lng=36.9)
        show(native + 6, lng=37.0)
        checker.expect(label, driver.execute_script("return window.noticeChanges") == changes,
                       "the notice changed as the map moved, so a screen reader would announce it again and again")
        back = show(native)
        checker.expect(label, back["text"] == "" and back["tiles"] > 0, f"back at zoom {native}: {back}")
        deepest = driver.execute_script("""
            return Math.max.apply(null, performance.getEntriesByType('resource').map(e => e.name)
                .map(u => /\/tiles\/(\d+)\//.exec(u)).filter(Boolean).map(m => Number(m[1])))""")
        checker.expect(label, deepest <= native + 2, f"a tile was asked for at zoom {deepest}, deeper than {native} + 2")


def check_list_agrees(checker, driver):
    agreement = driver.execute_script("""
        var bounds = fieldbookMap.map.getBounds();
        var inView = fieldbookMap.markers().filter(m => bounds.contains(m.getLatLng())).map(m => m.feature.id).sort();
        var listed = Array.from(document.querySelectorAll('#map-list [data-venue-id]')).map(e => e.getAttribute('data-venue-id')).sort();
        return {inView: inView.slice(0, 100), listed: listed, total: inView.length}""")
    checker.expect("map: the list and the map agree", sorted(agreement["inView"]) == agreement["listed"] or
                   (agreement["total"] > 100 and len(agreement["listed"]) == 100),
                   f"{len(agreement['listed'])} listed, {agreement['total']} in view")


def check_filters_by_keyboard(checker, browser):
    driver = browser.driver
    label = "map: keyboard filters"
    driver.get(browser.base + "/map")
    wait_for_markers(driver)
    status = driver.find_element(By.ID, "status")
    status.send_keys("Act")  # typing selects "Active" in a focused select
    await_next_page(driver, lambda: driver.find_element(By.ID, "from").send_keys(Keys.ENTER))
    count = wait_for_markers(driver)
    geojson = browser.http.get(browser.base + "/api/v1/map/venues?status=ACTIVE").json()["features"]
    checker.expect(label, "status=ACTIVE" in driver.current_url and count == str(len(geojson)),
                   f"after filtering by keyboard: {driver.current_url}, {count} markers, {len(geojson)} active venues")
    driver.get(browser.base + "/map?status=COMPLETED")
    wait_for_markers(driver)
    await_next_page(driver, driver.back)
    kept = Select(driver.find_element(By.ID, "status")).first_selected_option.get_attribute("value")
    checker.expect(label, kept == "ACTIVE", f"after Back the status filter shows {kept!r}")
    driver.refresh()
    kept = Select(driver.find_element(By.ID, "status")).first_selected_option.get_attribute("value")
    checker.expect(label, kept == "ACTIVE", f"after reload the status filter shows {kept!r}")


def check_centre_on_area(checker, browser):
    driver = browser.driver
    driver.get(browser.base + "/map")
    wait_for_markers(driver)
    # An area whose venues fit on the screen (a city's, not the world's).
    for area in Select(driver.find_element(By.ID, "focus_area")).options[1:]:
        area_id, area_name = area.get_attribute("value"), area.text.strip()
        if 0 < len(browser.http.get(f"{browser.base}/api/v1/map/venues?area_id={area_id}").json()["features"]) < 60:
            break
    driver.find_element(By.ID, "focus_area").send_keys(area_name)
    await_next_page(driver, lambda: driver.find_element(By.ID, "from").send_keys(Keys.ENTER))
    wait_for_markers(driver)
    area_venues = browser.http.get(f"{browser.base}/api/v1/map/venues?area_id={area_id}").json()["features"]
    inside = driver.execute_script("""
        var bounds = fieldbookMap.map.getBounds();
        return arguments[0].filter(f => bounds.contains([f.geometry.coordinates[1], f.geometry.coordinates[0]])).length""", area_venues)
    checker.expect("map: keyboard centres on an area", f"focus_area={area_id}" in driver.current_url and area_venues and inside == len(area_venues),
                   f"{inside} of the area's {len(area_venues)} venues are in view after centring on {area_name}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--resources", default=str(pathlib.Path(__file__).resolve().parents[2]))
    parser.add_argument("--keep", action="store_true", help="keep the saved HTML and the server log")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not (pathlib.Path(args.resources) / "tiles" / "basemap.mbtiles").exists():
        sys.exit("check_map: tiles/basemap.mbtiles is missing; run scripts/install-basemap.sh")
    server = Server(binary, args.resources, prepare=with_demo_data(binary))
    empty_server = Server(binary, args.resources, prepare=add_users(binary))
    checker = Checker(tempfile.mkdtemp(prefix="fieldbook-map-html-"))
    try:
        check_keyboard(checker, server)
        check_no_detail(checker, server)
        check_states(checker, server, empty_server)
        checker.run_vnu()
    finally:
        server.stop()
        empty_server.stop()
    failed = checker.report()
    if failed:
        print(f"saved pages: {checker.out}; server log: {server.log.name}")
    elif not args.keep:
        shutil.rmtree(checker.out, ignore_errors=True)
        shutil.rmtree(server.data, ignore_errors=True)
        shutil.rmtree(empty_server.data, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
