"""`make install-files` (what `make install` copies) into a staging folder, then the installed program run from another
folder without --resources: it finds its templates, static files and basemap under PREFIX/share/fieldbook. The systemd
unit is checked with systemd-analyze where it is present."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from client import Http  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_program_serves_from_anywhere(tmp_path, fieldbook_binary):
    stage, prefix = tmp_path / "stage", "/opt/fieldbook-test"
    subprocess.run(["make", "-s", "install-files", f"DESTDIR={stage}", f"PREFIX={prefix}", f"BINARY={fieldbook_binary}"],
                   cwd=ROOT, check=True)
    program = stage / prefix.lstrip("/") / "bin" / "fieldbook"
    share = stage / prefix.lstrip("/") / "share" / "fieldbook"
    assert (share / "templates" / "layout.mustache").is_file() and (share / "Public").is_dir()
    unit = (stage / "etc/systemd/system/fieldbook.service").read_text()
    assert f"ExecStart={prefix}/bin/fieldbook serve" in unit and "@PREFIX@" not in unit

    data = tmp_path / "data"
    server = subprocess.Popen([str(program), "serve", "--data", str(data), "--port", "0", "--log-level", "warning"],
                              cwd="/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=dict(os.environ, FIELDBOOK_PASSWORD_COST="test"))
    try:
        port = None
        for line in server.stdout:
            if "serving at" in line:
                port = int(line.rstrip().rstrip("/").rsplit(":", 1)[1])
                break
        assert port, "the installed program did not start"
        http = Http(port)
        setup = http.request("GET", "/setup")
        assert setup.status == 200 and "<!DOCTYPE html>" in setup.text
        css = next(part.split('"')[0] for part in setup.text.split('href="')[1:] if part.startswith("/static/") and ".css" in part.split('"')[0])
        assert http.request("GET", css).status == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_systemd_unit_is_valid(tmp_path):
    unit = tmp_path / "fieldbook.service"
    unit.write_text((ROOT / "packaging" / "fieldbook.service.in").read_text().replace("@PREFIX@", "/usr/local"))
    # The program need not be installed for the check: point ExecStart at a file that exists.
    unit.write_text(unit.read_text().replace("/usr/local/bin/fieldbook serve", "/bin/true serve"))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if "fieldbook.service" in line and "Unknown user" not in line and "failed to resolve user" not in line.lower()]
    assert not problems, "\n".join(problems)
