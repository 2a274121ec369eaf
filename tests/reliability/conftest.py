"""Fixtures for the reliability suite: a real `fieldbook serve` with one account per role, and the figures the tests
report, printed at the end."""

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suite import FIGURES, FULL, make_node  # noqa: E402
from client import Http  # noqa: E402


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section(f"reliability figures ({'full' if FULL else 'short'} form)")
        for line in FIGURES:
            terminalreporter.write_line(line)


def _sync_conftest():
    """tests/sync's conftest, loaded under a name of its own (both files are called conftest.py)."""
    spec = importlib.util.spec_from_file_location("sync_conftest", Path(__file__).resolve().parent.parent / "sync" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The same hooks as the sync tests: each test's report is kept on it (to show logs of failed tests), and the binary
# is checked once.
_SYNC = _sync_conftest()
pytest_runtest_makereport = _SYNC.pytest_runtest_makereport
fieldbook_binary = _SYNC.fieldbook_binary


@pytest.fixture
def node(tmp_path, request):
    """A served node with an administrator, an editor and a read-only account; its log is shown if the test fails."""
    served = make_node(tmp_path).start()
    yield served
    served.kill9()
    if any(getattr(getattr(request.node, f"report_{when}", None), "failed", False) for when in ("setup", "call")):
        print(f"\n=== log of {request.node.name}\n{served._log_tail(80)}")


@pytest.fixture
def http(node):
    return Http(node.port)
