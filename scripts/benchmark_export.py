"""Measures Fieldbook's list exports (signed in): time, size and rows per second of each download, and how much the
server's resident memory grows while it writes one; called by scripts/benchmark-export.sh."""
import io
import json
import re
import time
import zipfile
import urllib.request

from benchmark_lists import PeakSampler, resident_mb, server_arguments, sign_in, signed_in

DOWNLOADS = ["/participants/export.csv", "/participants/export.json", "/participants/export.csv?q=an",
             "/venues/export.csv", "/activities/export.json", "/export/everything.zip"]
TARGET_GROWTH_MB = 20


def download(opener, url, slow_bytes_per_s=None):
    """Reads the whole body; `slow_bytes_per_s` reads it at that pace, as a slow tablet would. Counts lines, or for a
    ZIP archive the records its manifest lists."""
    started = time.perf_counter()
    size = rows = 0
    archive = io.BytesIO() if url.endswith(".zip") else None
    with opener.open(url) as response:
        while True:
            part = response.read(65536)
            if not part:
                break
            size += len(part)
            rows += part.count(b"\n")
            if archive:
                archive.write(part)
            if slow_bytes_per_s:
                time.sleep(len(part) / slow_bytes_per_s)
    seconds = time.perf_counter() - started
    if archive:
        manifest = json.loads(zipfile.ZipFile(archive).read("fieldbook-export.json"))
        rows = sum(entry["count"] for entry in manifest["files"])
    return seconds, size, rows


def main():
    parser = server_arguments()
    parser.add_argument("--pid", type=int, required=True)
    args = parser.parse_args()
    opener, _ = sign_in(args.base, args.email, args.password)
    opener.open(args.base + "/participants").read()  # warm the reader and the templates
    print(f"{'download':<30}  {'seconds':>7}  {'MB':>6}  {'lines':>7}  {'lines/s':>8}  {'RSS growth MB':>13}  {'anon growth MB':>14}")
    largest = 0.0
    for path in DOWNLOADS:
        before = resident_mb(args.pid)
        sampler = PeakSampler(args.pid).start()
        seconds, size, rows = download(opener, args.base + path)
        peak, peak_anonymous = sampler.stop()
        largest = max(largest, peak - before[0])
        print(f"{path:<30}  {seconds:>7.2f}  {size / 1e6:>6.1f}  {rows:>7}  {rows / seconds:>8.0f}  "
              f"{peak - before[0]:>13.1f}  {peak_anonymous - before[1]:>14.1f}")
    # A client reading at 2 MB/s: the export waits for it instead of piling the file up in memory.
    before = resident_mb(args.pid)
    sampler = PeakSampler(args.pid).start()
    seconds, size, rows = download(opener, args.base + "/participants/export.json", slow_bytes_per_s=2_000_000)
    peak, peak_anonymous = sampler.stop()
    growth = max(largest, peak - before[0])
    print(f"{'(read at 2 MB/s) participants.json':<30}  {seconds:>7.2f}  {size / 1e6:>6.1f}  {rows:>7}  {rows / seconds:>8.0f}  "
          f"{growth:>13.1f}  {peak_anonymous - before[1]:>14.1f}")
    print(f"largest RSS growth while writing a download (every participant, read fast and read slowly): {growth:.1f} MB; "
          f"target < {TARGET_GROWTH_MB} MB: {'met' if growth < TARGET_GROWTH_MB else 'NOT met'} (RSS: the whole resident set, "
          f"sampled every 50 ms; anonymous: memory the server allocated)")
    prepared(args)


def prepared(args):
    """Everything prepared in the background as the Export page's button asks, followed as its page follows it, then
    downloaded from the finished file."""
    session = signed_in(args.base, args)
    token = re.search(r'name="csrf_token" value="([^"]*)"', session.get(args.base + "/export").text).group(1)
    before = resident_mb(args.pid)
    sampler = PeakSampler(args.pid).start()
    started = time.perf_counter()
    page = session.post(args.base + "/export/jobs", data={"csrf_token": token, "scope": "everything", "format": "json"},
                        allow_redirects=False).headers["Location"]
    polls = 0
    while True:
        progress = session.get(args.base + page + "/progress").json()
        if progress["state"] not in ("queued", "running"):
            break
        polls += 1
        time.sleep(0.2)
    written = time.perf_counter() - started
    peak, peak_anonymous = sampler.stop()
    started = time.perf_counter()
    size = len(session.get(args.base + page + "/download").content)
    fetched = time.perf_counter() - started
    print(f"everything prepared in the background ({progress['state']}): {progress['total']} records written in {written:.2f} s "
          f"({progress['total'] / written:,.0f} records/s, {polls} progress polls); file {size / 1e6:.1f} MB downloaded in {fetched:.2f} s; "
          f"RSS grew {peak - before[0]:.1f} MB, anonymous {peak_anonymous - before[1]:.1f} MB")


if __name__ == "__main__":
    main()
