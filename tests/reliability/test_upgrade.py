"""Upgrades: each database kept in fixtures/ was written by a past release (make_upgrade_fixture.py). This release
opens it, migrates it, and serves it with every record intact: every row and column the old release wrote is still
there with the same value, and its accounts still sign in."""

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from client import ApiSession, Http
from harness import Node, binary_path, process_environment
from suite import ACCOUNTS, report

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def row_differences(database: Path, expected: dict) -> list[str]:
    problems = []
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        migrations = {row[0] for row in db.execute("SELECT identifier FROM grdb_migrations")}
        problems += [f"migration {name} is no longer applied" for name in expected["migrations"] if name not in migrations]
        for table, content in expected["tables"].items():
            key = content["key"]
            for old in content["rows"]:
                where = " AND ".join(f'"{column}" IS ?' if column != "rowid" else "rowid IS ?" for column in key)
                columns = ", ".join("rowid" if column == "rowid" else f'"{column}"' for column in old)
                try:
                    now = db.execute(f"SELECT {columns} FROM {table} WHERE {where}", [old[column] for column in key]).fetchone()
                except sqlite3.OperationalError as error:
                    problems.append(f"{table}: {error}")
                    break
                if now is None:
                    problems.append(f"{table} {[old[column] for column in key]} is gone")
                    continue
                changed = {column: (old[column], now[column]) for column in old if str(now[column]) != str(old[column])
                           and not (old[column] is None and now[column] is None)}
                if changed:
                    problems.append(f"{table} {[old[column] for column in key]} changed: {changed}")
    return problems


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.sqlite")), ids=lambda path: path.stem)
def test_a_database_from_an_earlier_release_migrates_with_every_record_intact(tmp_path, fixture):
    expected = json.loads(fixture.with_suffix(".json").read_text())
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
