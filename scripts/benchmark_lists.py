"""Measures Fieldbook list pages (signed in) and Datasette's table page; called by scripts/benchmark-lists.sh."""
import argparse
import os
import http.cookiejar
import re
import shutil
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

PAGES = ["/participants", "/participants?q=an", "/participants?page=1000", "/participants?sort=email&order=desc&page=50",
         "/venues", "/venues?q=street", "/activities", "/activities?status=ACTIVE", "/activities?sort=name&page=100",
         "/areas", "/activity-types", "/search?q=son", "/", "/api/v1/health"]
SEQUENTIAL = 200


def server_arguments():
    """The arguments every benchmark of a running server takes: its address and the bench account."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    return parser


def signed_in(base, args):
    """A requests session signed in as the bench account (`args.email`, `args.password`)."""
    import requests
    _, cookie = sign_in(base, args.email, args.password)
    session = requests.Session()
    session.headers["Cookie"] = cookie
    return session


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


# Issue 15's targets: (path, least requests/s, most p99 ms or None).
TARGETS = [
    ("/participants", 3000, 20), ("/participants?page=1000", 2000, None), ("/participants?sort=email&order=desc&page=50", 2000, None),
    ("/participants?q=son", 1000, 30), ("/participants?q=an", None, None), ("/venues", 2000, None), ("/venues?q=street", 1000, 30),
    ("/activities", 2000, None), ("/activities?status=ACTIVE", 2000, None), ("/activities?sort=name&page=100", 2000, None),
    ("/areas", 2000, None), ("/activity-types", 2000, None), ("/", 2000, None), ("/api/v1/health", None, None),
    # Issue 41 item 5: the header's search of every kind.
    ("/search?q=son", 1000, None),
]
DATASETTE_PAGE = "/fieldbook/participants?_size=50&_sort=name"


def under_load(url, cookie, connections=32, seconds=8):
    """Requests/s, p50 and p99 in ms under wrk (2 threads), or None when wrk reports nothing."""
    headers = ["-H", f"Cookie: {cookie}"] if cookie else []
    # BENCH_LANGUAGE=fa measures the pages in that language (its catalog must be in translations/), to compare with English.
    if os.environ.get("BENCH_LANGUAGE"):
        headers += ["-H", f"Accept-Language: {os.environ['BENCH_LANGUAGE']}"]
    # A short run first, not counted, so that the first page measured is not the one that warms the server's caches;
    # one connection, so that a slow server is not left with a backlog the measured run would wait behind.
    subprocess.run(["wrk", "-t1", "-c1", "-d2s", "--timeout", "30s", *headers, url], capture_output=True, timeout=60)
    # A 30 s timeout: wrk's default of 2 s would count a slow server's answers as errors rather than as latency.
    run = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "--latency", *headers, url],
                         capture_output=True, text=True, timeout=seconds + 90)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", run.stdout)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", run.stdout)
    if not rate or errors:
        return None

    def percentile(name):
        value, unit = re.search(rf"\s{name}%\s+([\d.]+)(us|ms|s)", run.stdout).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return float(rate.group(1)), percentile("50"), percentile("99")


def verdict(rate, p99, least, most):
    if least is None and most is None:
        return ""
    met = (least is None or rate >= least) and (most is None or p99 <= most)
    wanted = " and ".join(([f">= {least} req/s"] if least else []) + ([f"p99 <= {most} ms"] if most else []))
    return f"{'met' if met else 'NOT met'} ({wanted})"


def main():
    parser = server_arguments()
    parser.add_argument("--datasette")
    parser.add_argument("--pid", type=int, help="the server's process id, for its memory")
    parser.add_argument("--startup-ms", type=int)
    parser.add_argument("--database-bytes", type=int)
    args = parser.parse_args()
    _, cookie = sign_in(args.base, args.email, args.password)
    idle_rss = resident_mb(args.pid) if args.pid else None
    sampler = PeakSampler(args.pid).start() if args.pid else None
    print("wrk -t2 -c32 -d8s on 127.0.0.1, signed in; Datasette on the same file, same sort and page size")
    rows = []
    participants_rate = None
    for path, least, most in TARGETS:
        measured = under_load(args.base + path, cookie)
        if measured is None:
            rows.append((path, "failed", "", "", ""))
            continue
        rate, p50, p99 = measured
        if path == "/participants":
            participants_rate = rate
        rows.append((path, f"{rate:.0f}", f"{p50:.1f}", f"{p99:.1f}", verdict(rate, p99, least, most)))
    if args.datasette and wait_for(args.datasette + "/-/versions.json"):
        measured = under_load(args.datasette + DATASETTE_PAGE, None)
        if measured:
            rate, p50, p99 = measured
            ratio = participants_rate / rate if participants_rate and rate else 0
            rows.append(("datasette " + DATASETTE_PAGE, f"{rate:.0f}", f"{p50:.1f}", f"{p99:.1f}",
                         f"/participants is {ratio:.0f}x: {'met' if ratio >= 40 else 'NOT met'} (>= 40x)"))
    width = max(len(row[0]) for row in rows)
    print(f"{'URL':<{width}}  {'req/s':>7}  {'p50 ms':>7}  {'p99 ms':>7}  target")
    for url, rate, p50, p99, target in rows:
        print(f"{url:<{width}}  {rate:>7}  {p50:>7}  {p99:>7}  {target}")
    if sampler:
        peak, peak_anonymous = sampler.stop()
        # RSS counts the pages of the binary and its libraries the server has mapped as well as its own memory (RssAnon).
        print(f"idle RSS after sign-in: {idle_rss[0]:.1f} MB ({idle_rss[1]:.1f} MB anonymous); target <= 40 MB: "
              f"{'met' if idle_rss[0] <= 40 else 'NOT met'}")
        print(f"peak RSS under the 32-connection runs: {peak:.1f} MB (peak anonymous {peak_anonymous:.1f} MB); "
              f"target <= 100 MB: {'met' if peak <= 100 else 'NOT met'}")
    if args.startup_ms is not None:
        size = (args.database_bytes or 0) / 1e9
        print(f"start-up to serving: {args.startup_ms} ms on a {size:.2f} GB database; target <= 300 ms on 1 GB: "
              f"{'met' if args.startup_ms <= 300 else 'NOT met'}{'' if size >= 1 else ' (this database is smaller than 1 GB)'}")


def resident_mb(pid):
    """The process's resident set now and its anonymous part (memory it allocated, not mapped file pages), in MB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "RssAnon"):
                values[name] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("RssAnon", 0.0)


class PeakSampler:
    """Samples a process's resident set every 50 ms on a thread and keeps the largest."""

    def __init__(self, pid):
        self.pid, self.peak, self.peak_anonymous, self.running = pid, 0.0, 0.0, True
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def _run(self):
        while self.running:
            try:
                total, anonymous = resident_mb(self.pid)
                self.peak, self.peak_anonymous = max(self.peak, total), max(self.peak_anonymous, anonymous)
            except OSError:
                return
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak, self.peak_anonymous


if __name__ == "__main__":
    main()
