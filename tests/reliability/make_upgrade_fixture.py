"""Makes the upgrade fixture: a database written by this release with records of every kind (accounts of each role,
categories, areas, venues, participants with address periods, activities with venue periods, assignments), and a
manifest of every row, which test_upgrade compares after a later release migrated it. Run once per release:

    FIELDBOOK_BIN=.build/debug/fieldbook python tests/reliability/make_upgrade_fixture.py
"""

import json
import shutil
import sqlite3
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from suite import make_node  # noqa: E402

FIXTURES = HERE / "fixtures"
# Derived on each node and rebuilt by migrations that change how it is derived (SearchText): not a record's content.
DERIVED_COLUMNS = {"search_text"}


def release() -> str:
    """FieldbookVersion.current, the version /api/v1/health reports."""
    source = (HERE.parents[1] / "Sources/App/AppConfiguration.swift").read_text()
    return re.search(r'static let current = "([^"]+)"', source).group(1)


def manifest(database: Path) -> dict:
    """{table: {"key": [primary-key columns], "rows": [...]}} for every table but SQLite's and GRDB's own."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        tables = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' "
            "ORDER BY name")]
        result = {"migrations": [row[0] for row in db.execute("SELECT identifier FROM grdb_migrations")], "tables": {}}
        for table in tables:
            info = list(db.execute(f"PRAGMA table_info({table})"))
            key = [column["name"] for column in sorted(info, key=lambda c: c["pk"]) if column["pk"] > 0] or ["rowid"]
            columns = ", ".join(["rowid"] * (key == ["rowid"]) + [f'"{c["name"]}"' for c in info if c["name"] not in DERIVED_COLUMNS])
            rows = [dict(row) for row in db.execute(f"SELECT {columns} FROM {table}")]
            result["tables"][table] = {"key": key, "rows": rows}
        return result


def main():
    with tempfile.TemporaryDirectory() as work:
        node = make_node(Path(work), "fixture")
        node.demo_data(participants=12, activities=6, venues=4, seed=18)
        name = f"fieldbook-{release()}"
        shutil.copyfile(node.db_path, FIXTURES / f"{name}.sqlite")
        (FIXTURES / f"{name}.json").write_text(json.dumps(manifest(node.db_path), indent=1, sort_keys=True, default=str) + "\n")
        print(f"wrote {FIXTURES / name}.sqlite and .json")


if __name__ == "__main__":
    main()
