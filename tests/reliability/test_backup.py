"""`fieldbook backup` while four writers load the server: a server started on the copy (restored the way README
says, one command) shows every record acknowledged before the backup began."""

import shutil
import subprocess
import time

from client import ApiSession, Http
from harness import Node, binary_path, process_environment
from suite import ACCOUNTS, make_node, report
from writers import Writers


def test_a_backup_taken_under_load_holds_every_record_acknowledged_before_it(tmp_path):
    node = make_node(tmp_path, "live").start()
    copy = tmp_path / "fieldbook-backup.sqlite"
    try:
        writers = Writers(node.port).start()
        time.sleep(1.5)
        began = time.monotonic()
        backup = subprocess.run([str(binary_path()), "backup", "--data", str(node.data_dir), str(copy)],
                                capture_output=True, text=True, env=process_environment(), timeout=120)
        took = time.monotonic() - began
        time.sleep(0.5)
        writers.stop()
        assert backup.returncode == 0, backup.stdout + backup.stderr
        before = writers.acknowledged_before(began)
        during = len(writers.acknowledged) - len(before)
    finally:
        node.kill9()

    restored = Node("restored", tmp_path)
    shutil.copyfile(copy, restored.db_path)  # README: cp BACKUP.sqlite DATA/fieldbook.sqlite, with Fieldbook stopped
    restored.start()
    try:
        api = ApiSession(Http(restored.port), ACCOUNTS["editor"])
        missing = [record_id for record_id in before if api.call("GET", f"/api/v1/areas/{record_id}").status != 200]
        report(f"backup under load: {len(before)} records acknowledged before `fieldbook backup` began, {len(missing)} missing "
               f"from a server started on the copy; {during} more written while it ran ({took:.2f} s)")
        assert before, "the writers acknowledged nothing before the backup"
        assert not missing, missing[:10]
    finally:
        restored.kill9()
