"""The map page in headless Chromium with every venue of the benchmark's community: how long until the markers are in,
how many elements the map puts in the page (clusters, not one per venue), and how long a zoom and a pan take to settle.
Run by benchmark-map.sh when the test tools (selenium) are installed."""
import argparse
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SETTLE = """
var done = arguments[arguments.length - 1], map = fieldbookMap.map, started = performance.now();
map.once('moveend', function () { setTimeout(function () { done(performance.now() - started); }, 0); });
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    args = parser.parse_args()
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(60)
    try:
        driver.get(args.base + "/login")
        driver.find_element(By.NAME, "email").send_keys(args.email)
        driver.find_element(By.NAME, "password").send_keys(args.password)
        driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        WebDriverWait(driver, 20).until(lambda d: "/login" not in d.current_url)
        for attempt in ("first load", "again (answer kept)"):
            started = time.perf_counter()
            driver.get(args.base + "/map")
            WebDriverWait(driver, 120).until(lambda d: d.execute_script(
                "var m = document.getElementById('map'); return m && m.getAttribute('data-loaded') !== null"))
            loaded = (time.perf_counter() - started) * 1000
            markers = driver.execute_script("return fieldbookMap.markers().length")
            elements = driver.execute_script("return document.querySelectorAll('.leaflet-marker-icon').length")
            print(f"/map {attempt}: {loaded:.0f} ms until {markers} venues were on the map; {elements} marker and cluster elements in the page")
        zoom = driver.execute_async_script(SETTLE + "map.setZoom(map.getZoom() + 2);")
        pan = driver.execute_async_script(SETTLE + "map.panBy([300, 200], {animate: false});")
        listed = driver.execute_script("return document.querySelectorAll('#map-list [data-venue-id]').length")
        print(f"zoom in two levels: {zoom:.0f} ms to settle; pan: {pan:.0f} ms; the list shows {listed} venues in view")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
