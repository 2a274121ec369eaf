"""Fixtures for the install tests: the release program under test, the cached Debian 12 root, and a fresh overlay of
it for each test. Figures (sizes, times, scores) are printed at the end, for the note."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from debian_root import DebianRoot, can_use_roots  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIGURES: list[str] = []


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("install figures")
        for line in FIGURES:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def program() -> Path:
    """The program as `make release` builds it (the Swift runtime linked in), or $FIELDBOOK_BIN."""
    path = Path(os.environ.get("FIELDBOOK_BIN", ROOT / ".build/release/fieldbook"))
    if not path.is_file():
        pytest.skip(f"{path} is not built: run make release (or set FIELDBOOK_BIN)")
    return path.resolve()


@pytest.fixture(scope="session")
def debian_base() -> Path:
    """The debootstrap root, made once by scripts/debian-root.sh (Debian's mirror, a few minutes) and then reused."""
    reason = can_use_roots()
    if reason:
        pytest.skip(reason)
    made = subprocess.run(["bash", str(ROOT / "scripts/debian-root.sh")], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"no Debian 12 root: scripts/debian-root.sh failed (no debootstrap, or no mirror?):\n{made.stderr[-2000:]}")
    return Path(made.stdout.strip().splitlines()[-1])


@pytest.fixture
def fresh_root(debian_base, tmp_path):
    with DebianRoot(debian_base, tmp_path / "debian") as root:
        yield root
