"""The databases earlier releases wrote (fixtures/, made by make_upgrade_fixture.py) and the check that a later release,
having migrated one, kept every row and column of it. Used by test_upgrade.py and by the package upgrade in
tests/install."""

import json
import sqlite3
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def databases() -> list[Path]:
    return sorted(FIXTURES.glob("*.sqlite"))


def manifest(database: Path) -> dict:
    """What the release wrote into `database`: its migrations and every row of every table."""
    return json.loads(database.with_suffix(".json").read_text())


def applied_migrations(database: Path) -> list[str]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return [row[0] for row in db.execute("SELECT identifier FROM grdb_migrations")]


def row_differences(database: Path, expected: dict) -> list[str]:
    migrations = set(applied_migrations(database))
    problems = [f"migration {name} is no longer applied" for name in expected["migrations"] if name not in migrations]
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
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
