"""Times the analytics views (pages and JSON twins) on a running Fieldbook; called by scripts/benchmark-analytics.sh.

Each address is requested once to warm up, then REPEAT times in a row from 127.0.0.1; the median and the slowest of those
are printed against the target. On the loopback the time of a request is the server's time to answer it (reading,
rendering, sending) plus well under a millisecond of transport."""
import argparse
import http.cookiejar
import re
import sqlite3
import statistics
import time
import urllib.parse
import urllib.request

TARGET_MS = 50
REPEAT = 15
VIEWS = ["/analytics", "/analytics?range=all-time", "/analytics?range=last-30-days",
         "/analytics/growth", "/analytics/growth?range=all-time&period=week", "/analytics/growth?range=all-time&period=year",
         "/api/v1/analytics/engagement", "/api/v1/analytics/engagement?range=all-time",
         "/api/v1/analytics/growth", "/api/v1/analytics/growth?range=all-time&period=week"]


def sign_in(base, email, password):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(base + "/login").read().decode()
    token = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    opener.open(base + "/login", data=urllib.parse.urlencode({"email": email, "password": password, "csrf_token": token}).encode())
    return opener


def areas(database):
    """The widest area (a top-level one, holding everything), a city and a neighbourhood."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    picked = []
    for label, sql in [("top level", "SELECT id, name FROM geographic_areas WHERE parent_id IS NULL LIMIT 1"),
                       ("city", "SELECT id, name FROM geographic_areas WHERE area_type = 'CITY' ORDER BY name LIMIT 1"),
                       ("neighbourhood", "SELECT id, name FROM geographic_areas WHERE area_type = 'NEIGHBOURHOOD' ORDER BY name LIMIT 1")]:
        row = db.execute(sql).fetchone()
        if row:
            picked.append((label, row[0], row[1]))
    return picked


def timed(opener, url):
    opener.open(url).read()
    times = []
    for _ in range(REPEAT):
        started = time.perf_counter()
        response = opener.open(url)
        response.read()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    args = parser.parse_args()
    opener = sign_in(args.base, args.email, args.password)
    filters = [("everywhere", None, "")] + areas(args.database)
    print(f"{'view':58} {'area':28} {'median ms':>10} {'slowest ms':>11}  target {TARGET_MS} ms")
    over = 0
    for view in VIEWS:
        for label, area_id, name in filters:
            url = view + (("&" if "?" in view else "?") + "area_id=" + area_id if area_id else "")
            median, slowest = timed(opener, args.base + url)
            verdict = "ok" if median <= TARGET_MS else "OVER"
            over += verdict == "OVER"
            print(f"{view:58} {(label + (': ' + name if name else ''))[:28]:28} {median:10.1f} {slowest:11.1f}  {verdict}")
    print(f"analytics: {over} of {len(VIEWS) * len(filters)} views over {TARGET_MS} ms (median of {REPEAT})")


if __name__ == "__main__":
    main()
