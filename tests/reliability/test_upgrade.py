"""Upgrades: each database kept in fixtures/ was written by a past release (make_upgrade_fixture.py). This release
opens it, migrates it, and serves it with every record intact: every row and column the old release wrote is still
there with the same value, and its accounts still sign in."""

import shutil
import subprocess

import pytest

from client import ApiSession, Http
from harness import Node, binary_path, process_environment
from suite import ACCOUNTS, report
from upgrade_fixtures import databases, manifest, row_differences


@pytest.mark.parametrize("fixture", databases(), ids=lambda path: path.stem)
def test_a_database_from_an_earlier_release_migrates_with_every_record_intact(tmp_path, fixture):
    expected = manifest(fixture)
    node = Node("upgraded", tmp_path)
    shutil.copyfile(fixture, node.db_path)
    check = subprocess.run([str(binary_path()), "check", "--data", str(node.data_dir)], capture_output=True, text=True,
                           env=process_environment())
    assert check.returncode == 0, check.stdout + check.stderr
    node.start()
    try:
        api = ApiSession(Http(node.port), ACCOUNTS["administrator"])
        listed = api.call("GET", "/api/v1/participants?per_page=500").json()
        assert len(listed["items"]) == len(expected["tables"]["participants"]["rows"])
    finally:
        node.stop()
    problems = row_differences(node.db_path, expected)
    rows = sum(len(content["rows"]) for content in expected["tables"].values())
    report(f"upgrade: {fixture.name} ({rows} rows in {len(expected['tables'])} tables) migrated and served; "
           f"{len(problems)} rows lost or changed")
    assert not problems, "\n".join(problems[:30])
