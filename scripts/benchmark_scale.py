"""Measures one served community for scripts/benchmark-scale.sh (one request at a time), writing its figures as JSON;
with --table, prints the figures of several communities side by side. Beside each time, in brackets, the server's CPU
time per request (from /proc/PID/stat), which other load on a shared machine does not inflate as it does wall time."""
import argparse
import json
import os
import statistics
import time
import urllib.request

from benchmark_export import download
from benchmark_lists import PeakSampler, resident_mb, sign_in

LIST_PAGES = ["/participants", "/participants?page=1000", "/venues", "/activities", "/areas"]
ROWS = [
    ("start-up to serving", "startup"),
    ("idle memory after sign-in", "idle_memory"),
    ("list pages (participants, a deep page, venues, activities, areas)", "lists"),
    ("participants CSV export", "export"),
    ("/analytics, first request after start", "analytics_first"),
    ("/analytics after", "analytics_after"),
    ("memory after /analytics", "analytics_memory"),
    ("/api/v1/map/venues first, after (memory after)", "map"),
    ("/participants?q=an", "short_search"),
    ("/visit-lists/new", "visit_list_form"),
    ("idle memory after those pages", "idle_after"),
]


def timed(opener, url):
    """Milliseconds to read the whole answer, and its body."""
    started = time.perf_counter()
    with opener.open(url) as response:
        body = response.read()
    return (time.perf_counter() - started) * 1000, body


def cpu_ms(pid):
    """User plus system CPU time of the process so far (every thread), in milliseconds."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def median_ms(opener, url, runs=7):
    return statistics.median(timed(opener, url)[0] for _ in range(runs))


def median_with_cpu(pid, opener, url, runs=7):
    """Median wall milliseconds of `runs` requests, and the server's mean CPU milliseconds per request."""
    before = cpu_ms(pid)
    wall = median_ms(opener, url, runs)
    return wall, (cpu_ms(pid) - before) / runs


def text(wall, cpu):
    return f"{wall:.0f} ms (cpu {cpu:.0f})"


def mb(pid):
    return resident_mb(pid)[0]


def api_token(base, email, password):
    request = urllib.request.Request(base + "/api/v1/auth/login", json.dumps({"email": email, "password": password}).encode(),
                                     {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())["access_token"]


def measure(args):
    pid, base = args.pid, args.base
    figures = {"startup": f"{args.startup_ms} ms"}
    opener, _ = sign_in(base, args.email, args.password)
    opener.open(base + "/").read()
    figures["idle_memory"] = f"{mb(pid):.0f} MB"
    lists = [median_with_cpu(pid, opener, base + page) for page in LIST_PAGES]
    figures["lists"] = f"{min(w for w, _ in lists):.0f}–{max(w for w, _ in lists):.0f} ms (cpu {min(c for _, c in lists):.0f}–{max(c for _, c in lists):.0f})"

    before = mb(pid)
    sampler = PeakSampler(pid).start()
    seconds, size, _ = download(opener, base + "/participants/export.csv")
    peak, _ = sampler.stop()
    figures["export"] = f"{seconds:.1f} s, {size / 1e6:.0f} MB, +{max(0, peak - before):.0f} MB"

    before = cpu_ms(pid)
    first, body = timed(opener, base + "/analytics")
    preparing = b"being prepared" in body
    figures["analytics_first"] = text(first, cpu_ms(pid) - before) + (", said being prepared" if preparing else "")
    ready_after = time.perf_counter()
    while preparing and time.perf_counter() - ready_after < 300:
        time.sleep(0.2)
        preparing = b"being prepared" in timed(opener, base + "/analytics")[1]
    if time.perf_counter() - ready_after > 0.01:
        figures["analytics_first"] += f", ready {time.perf_counter() - ready_after:.1f} s later"
    figures["analytics_after"] = text(*median_with_cpu(pid, opener, base + "/analytics"))
    figures["analytics_memory"] = f"{mb(pid):.0f} MB"

    token = api_token(base, args.email, args.password)
    api = urllib.request.build_opener()
    api.addheaders = [("Authorization", f"Bearer {token}")]
    before = cpu_ms(pid)
    map_first, _ = timed(api, base + "/api/v1/map/venues")
    map_first_cpu = cpu_ms(pid) - before
    map_after = median_with_cpu(pid, api, base + "/api/v1/map/venues", runs=5)
    figures["map"] = f"{text(map_first, map_first_cpu)}, {text(*map_after)} ({mb(pid):.0f} MB)"

    figures["short_search"] = text(*median_with_cpu(pid, opener, base + "/participants?q=an"))
    before = cpu_ms(pid)
    form_ms, form = timed(opener, base + "/visit-lists/new")
    figures["visit_list_form"] = f"{len(form) / 1000:.0f} KB, {text(form_ms, cpu_ms(pid) - before)}"
    time.sleep(3)
    figures["idle_after"] = f"{mb(pid):.0f} MB"
    return figures


def print_table(paths):
    columns = [json.load(open(path)) for path in paths]
    header = ["what"] + [f"{column['participants']:,} participants" for column in columns]
    rows = [[label] + [column["figures"].get(key, "") for column in columns] for label, key in ROWS]
    widths = [max(len(row[index]) for row in rows + [header]) for index in range(len(header))]
    for row in [header, ["-" * width for width in widths]] + rows:
        print("| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--table", nargs="+")
    parser.add_argument("--base")
    parser.add_argument("--email")
    parser.add_argument("--password")
    parser.add_argument("--pid", type=int)
    parser.add_argument("--startup-ms", type=int)
    parser.add_argument("--participants", type=int)
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.table:
        print_table(args.table)
        return
    figures = measure(args)
    json.dump({"participants": args.participants, "figures": figures}, open(args.out, "w"))


if __name__ == "__main__":
    main()
