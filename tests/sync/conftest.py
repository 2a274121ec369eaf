"""Fixtures for the sync tests: a Cluster of real processes per test, stopped at the end, logs shown on failure."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import HUB_KINDS, Cluster, binary_path  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "latency: measures how fast real processes answer; run alone, not beside others")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="session", autouse=True)
def fieldbook_binary():
    path = binary_path()
    assert path.is_file(), f"no fieldbook binary at {path}: run `swift build` or set FIELDBOOK_BIN"
    return path


@pytest.fixture
def cluster(tmp_path, request):
    cluster = Cluster(tmp_path)
    yield cluster
    cluster.close()
    failed = any(getattr(getattr(request.node, f"report_{when}", None), "failed", False) for when in ("setup", "call"))
    if failed:
        print(f"\n=== process logs of {request.node.name}\n{cluster.logs()}")


@pytest.fixture(params=HUB_KINDS, ids=[f"{kind}-hub" for kind in HUB_KINDS])
def hub_kind(request):
    """A scenario that takes this runs once against each kind of hub (issue 17): nodes cannot tell them apart."""
    return request.param
