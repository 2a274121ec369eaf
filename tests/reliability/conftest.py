"""Fixtures for the reliability suite: a real `fieldbook serve` with one account per role, the short or full form
(FIELDBOOK_RELIABILITY=full, as `make reliability` sets it), and the figures each test reports, printed at the end."""

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "sync"))

from harness import Node, binary_path  # noqa: E402
from client import PASSWORD, Http  # noqa: E402

FULL = os.environ.get("FIELDBOOK_RELIABILITY") == "full"
ACCOUNTS = {"administrator": "admin@reliability.test", "editor": "editor@reliability.test",
            "read-only": "reader@reliability.test"}
FIGURES: list[str] = []


def report(line: str):
    """A figure for the summary `make reliability` prints (and the short form too)."""
    FIGURES.append(line)


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


def make_node(workdir: Path, name: str = "node") -> Node:
    node = Node(name, workdir)
    for role, email in ACCOUNTS.items():
        node.create_user(email, PASSWORD, role=role)
    return node


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
