"""Browser checks of the analytics pages (issue 11): every view with and without filters, on an empty database, a
one-record database and a demo community, as an administrator and as a read-only user, through axe-core and the Nu
HTML Checker; each chart's data table is compared with the view's JSON twin, and each page is checked at 320 px.

    $VENV/bin/python tests/browser/check_analytics.py --binary .build/debug/fieldbook
"""
import argparse
import html
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_pages import PASSWORD, USERS, Browser, Checker, Server  # noqa: E402

VIEWS = [
    ("engagement", "/analytics"),
    ("engagement, all time", "/analytics?range=all-time"),
    ("engagement, custom dates", "/analytics?range=custom&from=2024-01-01&to=2026-12-31"),
    ("growth", "/analytics/growth"),
    ("growth, by week, last 30 days", "/analytics/growth?range=last-30-days&period=week"),
    ("growth, by quarter, all time", "/analytics/growth?range=all-time&period=quarter"),
]
BAD = ("wrong dates", "/analytics/growth?range=custom&from=2025-02-30&to=2024-01-01")


def prepare_with(binary, demo):
    """Users made with the command line before the server starts (and a demo community when asked)."""
    def prepare(data, env):
        if demo:
            subprocess.run([binary, "demo-data", "--data", data, "--participants", "600", "--activities", "120", "--venues", "40",
                            "--log-level", "warning"], env=env, check=True, capture_output=True)
        for role in ("administrator", "read-only"):
            name, email = USERS[role]
            subprocess.run([binary, "create-user", "--data", data, "--email", email, "--role", role, "--name", name],
                           input=PASSWORD + "\n", env=env, check=True, capture_output=True, text=True)
    return prepare


def with_area(path, area):
    return path + ("&" if "?" in path else "?") + "area_id=" + area


def tables(page):
    """Each data table on a page: its name and its rows (header and cells, as text without thousands separators)."""
    found = {}
    for name, body in re.findall(r'data-table="([^"]+)".*?<tbody>(.*?)</tbody>', page, re.S):
        rows = []
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
            cells = [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            rows.append([cell.replace(",", "") if re.fullmatch(r"[\d,]+", cell) else cell for cell in cells])
        found[name] = rows
    return found


def expected_tables(view, data):
    """The tables a page should show, built from its JSON twin."""
    if view == "engagement":
        groups = lambda key: [[g["label"], str(g["count"])] for g in data[key]]  # noqa: E731
        return {
            "activities-by-type": groups("activities_by_type"), "activities-by-status": groups("activities_by_status"),
            "participants-by-role": groups("participants_by_role"),
            "by-area": [[row["name"] if row["is_child_area"] else f"{row['name']} itself (not in an area inside)",
                         str(row["participants"]), str(row["active_activities"]), str(row["participation"])] for row in data["breakdown"]],
        }
    points = list(zip(*[series["points"] for series in data["series"]]))
    label = lambda point: point["label"] + (" (part)" if point["partial"] else "")  # noqa: E731
    return {
        "new-per-period": [[label(period[0])] + [text for point in period for text in (str(point["count"]), point["change"]["text"])]
                           for period in points],
        "cumulative": [[label(period[0])] + [str(point["cumulative"]) for point in period] for period in points],
    }


def check_twin(checker, browser, label, path):
    """The page's tables against its JSON twin, read with the same session and the same query string."""
    page = browser.http.get(browser.base + path).text
    view = "growth" if path.startswith("/analytics/growth") else "engagement"
    query = urllib.parse.urlsplit(path).query
    twin = browser.http.get(f"{browser.base}/api/v1/analytics/{view}" + (f"?{query}" if query else ""))
    checker.expect(label + " (JSON twin)", twin.status_code == 200, f"JSON twin answered {twin.status_code}")
    if twin.status_code != 200:
        return
    shown, expected = tables(page), expected_tables(view, twin.json())
    for name, rows in expected.items():
        checker.expect(f"{label} (table {name} = JSON)", shown.get(name, []) == rows,
                       f"{name}: page {shown.get(name)} but JSON {rows}")
    for figure, rows in expected.items():
        # Engagement charts are drawn when something is counted; growth charts whenever there are periods.
        drawn = any(cell.isdigit() and int(cell) > 0 for row in rows for cell in row[1:]) if view == "engagement" else bool(rows)
        labelled = f'aria-labelledby="{figure}-title {figure}-summary"' in page
        checker.expect(f"{label} (chart {figure})", labelled == drawn, f"{figure}: chart drawn {labelled}, expected {drawn}")


def check_narrow(checker, browser, label, path):
    """At 320 CSS px the page reflows: nothing but the tables' own scrolling wrappers is wider than the window."""
    driver = browser.driver
    driver.set_window_size(320, 900)
    try:
        driver.get(browser.base + path)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        checker.expect(label + " (320 px)", width <= 320, f"the page is {width} px wide at 320 px")
    finally:
        driver.set_window_size(1280, 900)


def check_views(checker, browser, name, area=None, twins=False):
    for label, path in VIEWS:
        path = with_area(path, area) if area else path
        full = f"{name}: {label}" + (" in an area" if area else "")
        checker.page(browser, full, path)
        if twins:
            check_twin(checker, browser, full, path)
    checker.page(browser, f"{name}: {BAD[0]}", BAD[1], expect=400)


def signed_in(server, role):
    browser = Browser(server.base)
    browser.sign_in(USERS[role][1])
    return browser


def first_area(browser, kind=None):
    page = browser.http.get(browser.base + "/analytics").text
    options = re.findall(r'<option value="([0-9a-f-]{36})">([^<]*)</option>', page)
    for value, text in options:
        if kind is None or f"({kind})" in text:
            return value
    return options[0][0] if options else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--resources", default=str(pathlib.Path(__file__).resolve().parents[2]))
    parser.add_argument("--keep", action="store_true", help="keep the saved HTML and the server logs")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    checker = Checker(tempfile.mkdtemp(prefix="fieldbook-analytics-html-"))
    servers = []
    try:
        empty = Server(binary, args.resources, prepare=prepare_with(binary, demo=False))
        servers.append(empty)
        reader = signed_in(empty, "read-only")
        try:
            check_views(checker, reader, "empty, read-only", twins=True)
            check_narrow(checker, reader, "empty, read-only: engagement", "/analytics")
        finally:
            reader.quit()

        admin = signed_in(empty, "administrator")
        try:
            activity_type = re.search(r'<option value="([0-9a-f-]{36})">', admin.http.get(admin.base + "/activities/new").text).group(1)
            admin.post("/activities/new", {"name": "Community Choir", "activity_type_id": activity_type, "start_date": "2026-01-05",
                                           "duration": "ongoing", "status": "ACTIVE"})
            check_views(checker, admin, "one record, administrator", twins=True)
        finally:
            admin.quit()

        demo = Server(binary, args.resources, prepare=prepare_with(binary, demo=True))
        servers.append(demo)
        for role in ("administrator", "read-only"):
            browser = signed_in(demo, role)
            try:
                check_views(checker, browser, f"demo, {role}", twins=True)
                city = first_area(browser, "City")
                check_views(checker, browser, f"demo, {role}", area=city, twins=True)
                if role == "read-only":
                    check_narrow(checker, browser, "demo, read-only: engagement", "/analytics?range=all-time")
                    check_narrow(checker, browser, "demo, read-only: growth by week", "/analytics/growth?range=all-time&period=week")
                    page = browser.http.get(browser.base + "/analytics?range=all-time&area_id=" + city).text
                    drill = re.search(r'<th scope="row"><a href="([^"]+)">', page)
                    checker.expect("demo: breakdown drill-down", drill is not None and "area_id=" in drill.group(1),
                                   "the breakdown's rows do not link to their own analytics")
                    csv = browser.http.get(browser.base + "/analytics/table.csv?range=all-time&table=by-area")
                    checker.expect("demo: by-area CSV", csv.status_code == 200 and csv.text.startswith("Area,Participants"),
                                   f"CSV answered {csv.status_code}: {csv.text[:80]}")
                    home = browser.http.get(browser.base + "/").text
                    checker.expect("demo: home links to analytics", 'href="/analytics"' in home, "no analytics link on the home page")
            finally:
                browser.quit()
        checker.run_vnu()
    finally:
        for server in servers:
            server.stop()
    failed = checker.report()
    if failed:
        print(f"saved pages: {checker.out}; server logs: {[server.log.name for server in servers]}")
    elif not args.keep:
        shutil.rmtree(checker.out, ignore_errors=True)
        for server in servers:
            shutil.rmtree(server.data, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
