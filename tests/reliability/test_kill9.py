"""kill -9 during writes through the API and the page forms: every acknowledged write is still there after the
restart, and SQLite's integrity check passes every cycle."""

import random
import sqlite3
import subprocess
import time

from harness import binary_path, process_environment
from suite import FULL, make_node, report
from writers import Writers

CYCLES = 40 if FULL else 3


def stored_ids(node) -> set[str]:
    with sqlite3.connect(f"file:{node.db_path}?mode=ro", uri=True, timeout=10) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return {row[0] for row in db.execute("SELECT id FROM geographic_areas")}


def test_every_acknowledged_write_survives_kill_9(tmp_path):
    node = make_node(tmp_path).start()
    acknowledged, lost, api_writes, form_writes, server_errors = 0, [], 0, 0, 0
    try:
        for cycle in range(CYCLES):
            writers = Writers(node.port).start()
            time.sleep(random.uniform(0.5, 1.5))
            node.kill9()
            writers.stop()
            node.start(*node.serve_args)
            ids = writers.acknowledged_before(time.monotonic())
            stored = stored_ids(node)
            lost += [record_id for record_id in ids if record_id not in stored]
            acknowledged += len(ids)
            api_writes += writers.count("api")
            form_writes += writers.count("form")
            server_errors += sum(count for status, count in writers.statuses.items() if status >= 500)
        check = subprocess.run([str(binary_path()), "check", "--data", str(node.data_dir)], capture_output=True, text=True,
                               env=process_environment())
        report(f"kill -9: {CYCLES} cycles during 4 writers' load (2 API, 2 page forms): {acknowledged} acknowledged writes "
               f"({api_writes} API, {form_writes} form), {len(lost)} lost, {server_errors} answered 5xx; integrity_check ok every cycle; "
               f"fieldbook check: {check.stdout.strip().split(':')[0].rsplit(' ', 1)[-1] if check.returncode == 0 else 'FAILED'}")
        assert not lost, f"lost acknowledged writes: {lost[:10]}"
        assert form_writes > 0 and api_writes > 0 and server_errors == 0
        assert check.returncode == 0, check.stdout + check.stderr
    finally:
        node.kill9()
