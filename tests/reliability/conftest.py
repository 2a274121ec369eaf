"""Fixtures for the reliability suite: a real `fieldbook serve` with one account per role, and the figures the tests
report, printed at the end."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suite import FIGURES, FULL, make_node  # noqa: E402
from harness import binary_path  # noqa: E402
from client import Http  # noqa: E402


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section(f"reliability figures ({'full' if FULL else 'short'} form)")
        for line in FIGURES:
            terminalreporter.write_line(line)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report_ = outcome.get_result()
    setattr(item, f"report_{report_.when}", report_)


@pytest.fixture(scope="session", autouse=True)
def fieldbook_binary():
    path = binary_path()
    assert path.is_file(), f"no fieldbook binary at {path}: run `swift build` or set FIELDBOOK_BIN"
    return path


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
