"""The systemd unit's sandbox (issue 40, item 3): rated at most 2.0 ("OK") by systemd-analyze security, and still
valid. That the sandboxed service can do its work (serve, write its data) needs a booted systemd, which this
machine's tests do not have; test_package.py runs the same program as the unit's user and environment."""

import re
import shutil
import subprocess

import pytest

from conftest import FIGURES, ROOT

pytestmark = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


def test_the_unit_is_rated_ok_by_systemd_analyze_security(tmp_path):
    unit = tmp_path / "fieldbook.service"
    # The program need not be installed for the rating: ExecStart points at a file that exists.
    unit.write_text((ROOT / "packaging/fieldbook.service.in").read_text().replace("@PREFIX@/bin/fieldbook", "/bin/true")
                    .replace("@PREFIX@", "/usr"))
    rated = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(unit)],
                           capture_output=True, text=True)
    score = re.search(r"Overall exposure level for fieldbook.service: ([0-9.]+) (\w+)", rated.stdout)
    assert score, rated.stdout + rated.stderr
    FIGURES.append(f"systemd-analyze security: {score.group(1)} {score.group(2)}")
    assert float(score.group(1)) <= 2.0, rated.stdout
