"""Browser checks of the disk-full states (issue 18): Home and Sync warning that the disk is almost full, and the
page a form answers when the disk is full (507, the typed values shown again), through axe-core and the Nu HTML
Checker. The data folder is a 16 MB tmpfs, so this needs root; elsewhere it says so and passes.

    $VENV/bin/python tests/browser/check_reliability.py --binary .build/debug/fieldbook
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "reliability"))

from check_pages import PASSWORD, USERS, Browser, Checker, Server  # noqa: E402
from suite import fill_disk  # noqa: E402

EDITOR = USERS["editor"][1]


def mount_small_disk(binary):
    """Server's prepare step: the data folder on a 16 MB tmpfs, with an editor account."""
    def prepare(data, env):
        os.makedirs(data, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", data], check=True, capture_output=True)
        subprocess.run([binary, "create-user", "--data", data, "--email", EDITOR, "--role", "editor"], input=PASSWORD + "\n",
                       text=True, check=True, capture_output=True, env=env)
    return prepare


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--resources", default=str(pathlib.Path(__file__).resolve().parents[2]))
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    probe = tempfile.mkdtemp(prefix="fieldbook-tmpfs-probe-")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], capture_output=True).returncode != 0:
        print("browser (disk full): skipped, a tmpfs cannot be mounted here (needs root)")
        os.rmdir(probe)
        return
    subprocess.run(["umount", probe], check=True)
    os.rmdir(probe)
    server = Server(binary, args.resources, prepare=mount_small_disk(binary))
    data = os.path.join(server.data, "db")
    checker = Checker(tempfile.mkdtemp(prefix="fieldbook-html-"))
    browser = Browser(server.base)
    try:
        browser.sign_in(EDITOR)
        checker.page(browser, "editor: home (disk almost full)", "/")
        checker.expect("editor: home (disk almost full)", "Disk space is low" in browser.driver.page_source, "no warning")
        checker.page(browser, "editor: sync (disk almost full)", "/sync")
        fill_disk(os.path.join(data, "filler"))
        typed = {"name": "Amara Typed-Here", "email": "amara@example.org", "notes": "Met at the\nSaturday class"}
        checker.page(browser, "editor: new participant (disk full, 507)", post=("/participants/new", typed),
                     fill=("/participants/new", typed), expect=507)
        checker.expect("editor: new participant (disk full, 507)", "Amara Typed-Here" in browser.driver.page_source,
                       "the typed values were not shown again")
        os.remove(os.path.join(data, "filler"))
        checker.run_vnu()
    finally:
        browser.quit()
        server.stop()
        subprocess.run(["umount", "-l", data], check=False)
    failed = checker.report()
    if not failed:
        shutil.rmtree(checker.out, ignore_errors=True)
        shutil.rmtree(server.data, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
