"""Measures importing participants (issue 14) on the demo community: the demo's own participant export, given new
email addresses and no ids (so every row is someone new, and most names match a stored participant's), uploaded,
reviewed and imported through the pages as a person would; called by scripts/benchmark-import.sh."""
import csv
import io
import re
import time

import requests

from benchmark_lists import PeakSampler, resident_mb, server_arguments, sign_in


def people_file(session, base, path):
    """The demo's participants as CSV, each made someone new: no Fieldbook id, another email address."""
    started = time.perf_counter()
    exported = session.get(base + "/participants/export.csv").content.decode("utf-8-sig")
    seconds = time.perf_counter() - started
    rows = list(csv.reader(io.StringIO(exported)))
    header = rows[0]
    id_column, email_column = header.index("id"), header.index("email")
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow([name for index, name in enumerate(header) if index != id_column])
        for row in rows[1:]:
            row[email_column] = "import-" + row[email_column]
            writer.writerow([cell for index, cell in enumerate(row) if index != id_column])
    return len(rows) - 1, seconds


def main():
    parser = server_arguments()
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--file", required=True)
    args = parser.parse_args()
    _, cookie = sign_in(args.base, args.email, args.password)
    session = requests.Session()
    session.headers["Cookie"] = cookie
    rows, export_seconds = people_file(session, args.base, args.file)
    print(f"file: {rows} participants (the demo's export, {export_seconds:.2f} s to download, given new emails, no ids)")

    token = re.search(r'name="csrf_token" value="([^"]*)"', session.get(args.base + "/imports").text).group(1)
    before = resident_mb(args.pid)
    sampler = PeakSampler(args.pid).start()
    started = time.perf_counter()
    with open(args.file, "rb") as file:
        answer = session.post(args.base + "/imports", data={"csrf_token": token}, files={"file": ("people.csv", file, "text/csv")},
                              allow_redirects=False)
    read_seconds = time.perf_counter() - started
    read_peak = sampler.stop()
    sampler = PeakSampler(args.pid).start()
    review = answer.headers.get("Location", "")
    if answer.status_code != 303 or not review:
        raise SystemExit(f"upload answered {answer.status_code}: {answer.text[:300]}")
    started = time.perf_counter()
    page = session.get(args.base + review).text
    page_seconds = time.perf_counter() - started
    summary = re.findall(r"<li>([\d,]+ rows? (?:to add|to merge|to skip|with problems|that may be)[^<(,]*)", page)
    start = re.search(r'action="([^"]*/start)"', page).group(1)
    token = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    started = time.perf_counter()
    session.post(args.base + start, data={"csrf_token": token}, allow_redirects=False)
    state = {}
    while True:
        state = session.get(args.base + review + "/progress").json()
        if state["state"] not in ("queued", "running"):
            break
        time.sleep(0.1)
    write_seconds = time.perf_counter() - started
    peak, peak_anonymous = sampler.stop()
    report = session.get(args.base + review).text
    outcome = re.findall(r"<li>([\d,]+ (?:participants? added|rows? merged|rows? skipped)[^<]*)", report)
    print(f"upload, read and check every row: {read_seconds:.2f} s ({rows / read_seconds:,.0f} rows/s); review page {page_seconds * 1000:.0f} ms")
    print("review: " + "; ".join(summary))
    print(f"import written ({state['state']}): {write_seconds:.2f} s ({rows / write_seconds:,.0f} rows/s); "
          + "; ".join(outcome))
    print(f"server memory, largest growth over the start (sampled every 50 ms): while reading and checking the file RSS "
          f"{read_peak[0] - before[0]:.1f} MB, anonymous {read_peak[1] - before[1]:.1f} MB; while writing the import RSS "
          f"{peak - before[0]:.1f} MB, anonymous {peak_anonymous - before[1]:.1f} MB; after it {resident_mb(args.pid)[1] - before[1]:.1f} MB "
          f"anonymous")


if __name__ == "__main__":
    main()
