"""Measures Fieldbook list pages (signed in) and Datasette's table page; called by scripts/benchmark-lists.sh."""
import argparse
import http.cookiejar
import re
import shutil
import statistics
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

PAGES = ["/participants", "/participants?q=an", "/participants?page=1000", "/participants?sort=email&order=desc&page=50",
         "/venues", "/venues?q=street", "/activities", "/activities?status=ACTIVE", "/activities?sort=name&page=100",
         "/areas", "/activity-types", "/", "/api/v1/health"]
SEQUENTIAL = 200


def sign_in(base, email, password):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(base + "/login").read().decode()
    token = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    body = urllib.parse.urlencode({"email": email, "password": password, "csrf_token": token}).encode()
    opener.open(base + "/login", data=body)
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return opener, cookie


def latencies(opener, url):
    times = []
    deadline = time.time() + 60
    for _ in range(SEQUENTIAL):
        started = time.perf_counter()
        try:
            response = opener.open(url)
            response.read()
        except urllib.error.HTTPError as error:
            return None, error.code
        times.append((time.perf_counter() - started) * 1000)
        if time.time() > deadline:
            break
    times.sort()
    return (statistics.median(times), times[int(len(times) * 0.95) - 1]), 200


def throughput(url, cookie):
    if not shutil.which("wrk"):
        return "n/a"
    run = subprocess.run(["wrk", "-t2", "-c8", "-d5s", "-H", f"Cookie: {cookie}", url], capture_output=True, text=True, timeout=30)
    match = re.search(r"Requests/sec:\s+([\d.]+)", run.stdout)
    return f"{float(match.group(1)):.0f}" if match else "n/a"


def wait_for(url, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url).read()
            return True
        except Exception:
            time.sleep(0.5)
    return False


def measure(opener, cookie, base, pages):
    """One row per page: requests/s under wrk, p50 and p95 of sequential requests (or why it could not be measured)."""
    rows = []
    for page in pages:
        measured, status = latencies(opener, base + page)
        if measured is None:
            rows.append((page, "not present" if status == 404 else f"HTTP {status}", "", ""))
            continue
        rows.append((page, throughput(base + page, cookie), f"{measured[0]:.2f}", f"{measured[1]:.2f}"))
    return rows


def print_table(rows):
    width = max(len(r[0]) for r in rows)
    print(f"{'URL':<{width}}  {'req/s':>8}  {'p50 ms':>8}  {'p95 ms':>8}")
    for url, rps, p50, p95 in rows:
        print(f"{url:<{width}}  {rps:>8}  {p50:>8}  {p95:>8}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--datasette")
    args = parser.parse_args()
    opener, cookie = sign_in(args.base, args.email, args.password)
    rows = measure(opener, cookie, args.base, PAGES)
    if args.datasette and wait_for(args.datasette + "/-/versions.json"):
        plain = urllib.request.build_opener()
        for page in ["/fieldbook/participants?_size=50&_sort=name", "/fieldbook/participants?_size=50&name__contains=an&_sort=name"]:
            measured, status = latencies(plain, args.datasette + page)
            label = "datasette " + page
            rows.append((label, throughput(args.datasette + page, ""), f"{measured[0]:.2f}", f"{measured[1]:.2f}") if measured
                        else (label, f"HTTP {status}", "", ""))
    print_table(rows)


if __name__ == "__main__":
    main()
