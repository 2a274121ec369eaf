"""Every page a signed-in user can reach, at 320 and 390 px wide (WCAG 1.4.10 reflow): the page never scrolls sideways,
and a table wider than the screen scrolls inside its own region, which is named, reachable by Tab and shows a cue that
more is off to the side. axe-core judges every page at 320 px for the administrator. The pages are found by following
links from Home on a demo community, one page of each kind (addresses that differ only in ids count as one).

    $VENV/bin/python tests/browser/check_reflow.py --binary .build/debug/fieldbook
"""
import pathlib
import re
import subprocess
import sys
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from check_pages import PASSWORD, USERS, Browser, Checker, Server, finish  # noqa: E402

import argparse  # noqa: E402
import os  # noqa: E402
import tempfile  # noqa: E402

WIDTHS = (320, 390)
SKIPPED = re.compile(r"^/(api/|static/|tiles/|logout|events)|\.(csv|json|geojson|png)$|/print$")
ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

LAYOUT = """
const width = window.innerWidth, problems = [];
if (document.documentElement.scrollWidth > width + 1) {
  const wide = Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > width + 1
      && !e.closest('[data-scrolls]') && getComputedStyle(e).position !== 'fixed')
    .slice(0, 3).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined ? '.' + String(e.className).split(' ')[0] : ''));
  problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px wide): ${wide.join(', ')}`);
}
for (const table of document.querySelectorAll('table')) {
  const region = table.closest('[data-scrolls]');
  if (table.getBoundingClientRect().width <= width + 1 && !region) continue;
  if (!region) { problems.push('a table wider than the screen is not in a scrolling region: ' + (table.querySelector('caption, th') || table).textContent.trim().slice(0, 40)); continue; }
  const named = region.getAttribute('aria-label') || region.getAttribute('aria-labelledby');
  if (region.getAttribute('role') !== 'region' || !named || region.tabIndex !== 0)
    problems.push('a scrolling table region is not a named region reachable by Tab');
  if (region.scrollWidth > region.clientWidth + 1 && !getComputedStyle(region).backgroundImage.includes('gradient'))
    problems.push('a table region that scrolls shows no cue (edge shadows)');
}
return problems;
"""


def prepare(data, env, binary):
    subprocess.run([binary, "demo-data", "--data", data, "--participants", "60", "--venues", "12", "--activities", "10", "--seed", "3"],
                   check=True, env=env, capture_output=True)
    for role, (name, email) in USERS.items():
        subprocess.run([binary, "create-user", "--data", data, "--email", email, "--name", name, "--role", role],
                       input=PASSWORD + "\n", text=True, check=True, env=env, capture_output=True)


def pages(browser):
    """One address of each kind reachable from Home by links, Home first."""
    seen, kinds, queue = [], set(), ["/"]
    while queue and len(seen) < 80:
        path = queue.pop(0)
        kind = ID.sub("{id}", urllib.parse.urlsplit(path).path)
        if kind in kinds or SKIPPED.search(kind):
            continue
        kinds.add(kind)
        response = browser.http.get(browser.base + path)
        if response.status_code != 200 or "text/html" not in response.headers.get("content-type", ""):
            continue
        seen.append(path)
        for href in re.findall(r'href="(/[^"#]*)"', response.text):
            queue.append(href.replace("&amp;", "&"))
    return seen


def set_width(driver, width):
    driver.set_window_size(width, 800)
    inner = driver.execute_script("return window.innerWidth")
    driver.set_window_size(width + (width - inner), 800)


PRINTED = """
const hidden = ['.site-header', '.site-nav', '.skip-link', '.pagination', 'form.filters']
  .filter(selector => Array.from(document.querySelectorAll(selector)).some(e => getComputedStyle(e).display !== 'none'));
const problems = hidden.map(selector => selector + ' is printed');
if (document.documentElement.scrollWidth > window.innerWidth + 1) problems.push(`wider than the paper (${document.documentElement.scrollWidth} px)`);
for (const region of document.querySelectorAll('.table-wrapper'))
  if (getComputedStyle(region).overflowX !== 'visible') problems.push('a table region would cut its table at the paper edge');
if (!document.querySelector('main h1')) problems.push('no heading printed');
return problems;
"""


def check_print(checker, browser, paths):
    """Lists and rosters as printed (print media, an A4 page's width): content only, nothing cut at the edge."""
    driver = browser.driver
    set_width(driver, 720)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        for path in paths:
            driver.get(browser.base + path)
            checker.results.append((f"print {ID.sub('{id}', path)}", "print", driver.execute_script(PRINTED)))
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def start_on_demo_data(description, html_prefix):
    """Reads the command line (--binary, --resources, --keep), starts a server on a small demo community with one
    account per role (USERS), and makes the checker."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--resources", default=str(pathlib.Path(__file__).resolve().parents[2]))
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    server = Server(binary, args.resources, prepare=lambda data, env: prepare(data, env, binary))
    return args, server, Checker(tempfile.mkdtemp(prefix=html_prefix))


def main():
    args, server, checker = start_on_demo_data(__doc__.splitlines()[0], "fieldbook-reflow-")
    try:
        for role, (_, email) in USERS.items():
            browser = Browser(server.base)
            try:
                browser.sign_in(email)
                found = pages(browser)
                checker.expect(f"{role}: pages found", len(found) >= 10, f"only {len(found)} pages reachable: {found}")
                for width in WIDTHS:
                    set_width(browser.driver, width)
                    for path in found:
                        browser.driver.get(browser.base + path)
                        label = f"{role} {width}px {ID.sub('{id}', path)}"
                        problems = browser.driver.execute_script(LAYOUT)
                        checker.results.append((label, "reflow", problems))
                        if role == "administrator" and width == 320:
                            checker.axe(browser, label)
                if role == "editor":
                    check_print(checker, browser, [path for path in found if re.match(r"^/(participants|activities|venues|visits)(/|$)", path)])
            finally:
                browser.quit()
    finally:
        server.stop()
    finish(checker, server, args.keep)


if __name__ == "__main__":
    main()
