"""Measures importing (issue 14) on the demo community, through the pages as a person would: the demo's own
participant export, given new email addresses and no ids (so every row is someone new, and most names match a stored
participant's), uploaded, reviewed and imported; then, with --restore-base, the demo's export of everything restored
into an empty Fieldbook. Called by scripts/benchmark-import.sh."""
import csv
import io
import re
import time

from benchmark_lists import PeakSampler, resident_mb, server_arguments, signed_in


def misspelt(name):
    """The name with two letters of its last word swapped ("Dubois" as "Duboi s" → "Dubosi"): matched by no stored
    name, but close to one, so every row goes through the close-name search."""
    words = name.split(" ")
    last = words[-1]
    if len(last) >= 4:
        words[-1] = last[:-2] + last[-1] + last[-2]
    return " ".join(words)


def people_files(session, base, path):
    """The demo's participants as CSV, each made someone new: no Fieldbook id, another email address; and the same
    with every name misspelt and other addresses again (`path` + ".typos.csv"). Both from one download."""
    started = time.perf_counter()
    exported = session.get(base + "/participants/export.csv").content.decode("utf-8-sig")
    seconds = time.perf_counter() - started
    rows = list(csv.reader(io.StringIO(exported)))
    write_people(rows, path, "import-", typos=False)
    write_people(rows, path + ".typos.csv", "typo-", typos=True)
    return len(rows) - 1, seconds


def write_people(rows, path, prefix, typos):
    header = rows[0]
    id_column, email_column, name_column = header.index("id"), header.index("email"), header.index("name")
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow([name for index, name in enumerate(header) if index != id_column])
        for original in rows[1:]:
            row = list(original)
            row[email_column] = prefix + row[email_column]
            if typos:
                row[name_column] = misspelt(row[name_column])
            writer.writerow([cell for index, cell in enumerate(row) if index != id_column])


def upload(session, base, path, name, kind):
    """Uploads a file on /imports; answers the review's address and the seconds the upload and its checks took."""
    token = re.search(r'name="csrf_token" value="([^"]*)"', session.get(base + "/imports").text).group(1)
    started = time.perf_counter()
    with open(path, "rb") as file:
        answer = session.post(base + "/imports", data={"csrf_token": token, "kind": kind}, files={"file": (name, file)},
                              allow_redirects=False)
    seconds = time.perf_counter() - started
    review = answer.headers.get("Location", "")
    if answer.status_code != 303 or not review:
        raise SystemExit(f"upload answered {answer.status_code}: {answer.text[:300]}")
    return review, seconds


def run(session, base, review, page):
    """Presses the review's start button and waits for the import's end; answers its state and seconds."""
    start = re.search(r'action="([^"]*/start)"', page).group(1)
    token = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    started = time.perf_counter()
    session.post(base + start, data={"csrf_token": token}, allow_redirects=False)
    while True:
        state = session.get(base + review + "/progress").json()["state"]
        if state not in ("queued", "running"):
            return state, time.perf_counter() - started
        time.sleep(0.1)


def import_people(args, typos=False):
    session = signed_in(args.base, args)
    if typos:
        print("again, with the same people's names misspelt (two letters of the last word swapped) and other emails, so each "
              "row is looked for among the stored names by closeness:")
    else:
        rows, export_seconds = people_files(session, args.base, args.file)
        print(f"file: {rows} participants (the demo's export, {export_seconds:.2f} s to download, given new emails, no ids)")
    rows = sum(1 for _ in open(args.file)) - 1
    before = resident_mb(args.pid)
    sampler = PeakSampler(args.pid).start()
    review, read_seconds = upload(session, args.base, args.file + (".typos.csv" if typos else ""), "people.csv", "participants")
    read_peak = sampler.stop()
    sampler = PeakSampler(args.pid).start()
    started = time.perf_counter()
    page = session.get(args.base + review).text
    page_seconds = time.perf_counter() - started
    summary = re.findall(r"<li>([\d,]+ rows? (?:to add|to merge|to skip|with problems|that may be)[^<(,]*)", page)
    state, write_seconds = run(session, args.base, review, page)
    peak, peak_anonymous = sampler.stop()
    outcome = re.findall(r"<li>([\d,]+ (?:participants? added|rows? merged|rows? skipped)[^<]*)", session.get(args.base + review).text)
    print(f"upload, read and check every row: {read_seconds:.2f} s ({rows / read_seconds:,.0f} rows/s); review page {page_seconds * 1000:.0f} ms")
    print("review: " + "; ".join(summary))
    print(f"import written ({state}): {write_seconds:.2f} s ({rows / write_seconds:,.0f} rows/s); " + "; ".join(outcome))
    print(f"server memory, largest growth over the start (sampled every 50 ms): while reading and checking the file RSS "
          f"{read_peak[0] - before[0]:.1f} MB, anonymous {read_peak[1] - before[1]:.1f} MB; while writing the import RSS "
          f"{peak - before[0]:.1f} MB, anonymous {peak_anonymous - before[1]:.1f} MB; after it {resident_mb(args.pid)[1] - before[1]:.1f} MB "
          f"anonymous")


def restore_everything(args):
    """The demo's export of everything, restored into the empty Fieldbook at --restore-base."""
    archive = args.file + ".zip"
    started = time.perf_counter()
    with open(archive, "wb") as out:
        out.write(signed_in(args.base, args).get(args.base + "/export/everything.zip").content)
    print(f"everything.zip downloaded in {time.perf_counter() - started:.2f} s")
    session = signed_in(args.restore_base, args)
    before = resident_mb(args.restore_pid)
    sampler = PeakSampler(args.restore_pid).start()
    review, read_seconds = upload(session, args.restore_base, archive, "everything.zip", "archive")
    page = session.get(args.restore_base + review).text
    records = sum(int(count.replace(",", "")) for count in re.findall(r'<td class="table__number">([\d,]+)</td>', page))
    state, write_seconds = run(session, args.restore_base, review, page)
    peak, peak_anonymous = sampler.stop()
    report = session.get(args.restore_base + review).text
    outcome = re.findall(r"<li>([\d,]+ records? (?:restored|already here)[^<]*)", report)
    print(f"restore: upload and manifest {read_seconds:.2f} s; {records} records written ({state}) in {write_seconds:.2f} s "
          f"({records / write_seconds:,.0f} records/s); " + "; ".join(outcome))
    print(f"server memory while restoring: RSS grew {peak - before[0]:.1f} MB, anonymous {peak_anonymous - before[1]:.1f} MB; "
          f"after it {resident_mb(args.restore_pid)[1] - before[1]:.1f} MB anonymous")


def main():
    parser = server_arguments()
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--restore-base")
    parser.add_argument("--restore-pid", type=int)
    args = parser.parse_args()
    if args.restore_base:
        restore_everything(args)
    import_people(args)
    # Again with every name misspelt, so each row is looked for among the stored names by closeness.
    import_people(args, typos=True)


if __name__ == "__main__":
    main()
