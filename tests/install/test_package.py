"""The Debian package (issue 40, item 2): `make deb`'s package, put into a fresh Debian 12 root with apt, pulls its
dependencies, makes its user and data folder and enables its unit; the root's systemd, booted, starts the unit in
its sandbox and it answers /setup. The next version installed over it finds a database an earlier release wrote (a
fixture of tests/reliability, at an older migration level), and its service migrates it and serves it, over TLS, with
every record intact; purge keeps the data."""

import importlib.util
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from conftest import FIGURES, ROOT
from debian_root import elapsed


def _upgrade_fixtures():
    """tests/reliability's fixtures of earlier releases' databases and their check, loaded by path."""
    spec = importlib.util.spec_from_file_location("upgrade_fixtures", ROOT / "tests/reliability/upgrade_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


UPGRADE_FIXTURES = _upgrade_fixtures()


@pytest.fixture(scope="session")
def packages(program, tmp_path_factory) -> tuple[Path, Path]:
    """The package of the program under test, built twice with Debian's tools: as an earlier version and as this one."""
    version = re.search(r'static let current = "([^"]+)"', (ROOT / "Sources/App/AppConfiguration.swift").read_text()).group(1)
    output = tmp_path_factory.mktemp("debs")
    built = []
    for name in (f"{version}~earlier", version):
        started = time.monotonic()
        done = subprocess.run(["bash", str(ROOT / "scripts/build-deb.sh"), name, str(program), str(output)],
                              capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-4000:]
        built.append(Path(done.stdout.strip().splitlines()[-1]))
        FIGURES.append(f"package {built[-1].name}: {built[-1].stat().st_size / 1e6:.1f} MB, built in {elapsed(started)}")
    return built[0], built[1]


def unit_settings(root) -> tuple[str, list[str], dict[str, str]]:
    """The installed unit's User, ExecStart and Environment."""
    unit = (root.path / "lib/systemd/system/fieldbook.service").read_text()
    user = re.search(r"^User=(\S+)$", unit, re.MULTILINE).group(1)
    command = re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE).group(1).split()
    environment = dict(line.split("=", 1) for line in re.findall(r"^Environment=(\S+)$", unit, re.MULTILINE))
    return user, command, environment


def as_service_user(root, *arguments: str, stdin: str = ""):
    """A fieldbook command as the unit's user, with the unit's environment."""
    user, command, environment = unit_settings(root)
    return root.run(command[0], *arguments, user=root.ids(user), environment=environment, stdin=stdin)


def boot_and_get(root, port: int, path: str, scheme: str = "http") -> tuple[int, str]:
    """Boots the root (its systemd starts the enabled, sandboxed unit), asks `path`, and powers it off."""
    booted = root.boot()
    try:
        return booted.wait_for(f"{scheme}://127.0.0.1:{port}{path}")
    finally:
        booted.power_off()


def count(database: Path, table: str) -> int:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def with_tls(root):
    folder = root.path / "etc/fieldbook"
    folder.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")], check=True, capture_output=True)
    for name in ("key.pem", "cert.pem"):
        os.chown(folder / name, 0, root.ids("fieldbook")[1])
        os.chmod(folder / name, 0o640)
    with open(root.path / "etc/default/fieldbook", "a") as defaults:
        defaults.write("FIELDBOOK_TLS_CERT=/etc/fieldbook/cert.pem\nFIELDBOOK_TLS_KEY=/etc/fieldbook/key.pem\n")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_package_installs_starts_upgrades_and_keeps_the_data(fresh_root, packages):
    earlier, current = packages
    root = fresh_root
    started = time.monotonic()
    root.copy_in(earlier, f"/root/{earlier.name}")
    root.apt_install(f"/root/{earlier.name}")
    for dependency in ("libmicrohttpd12", "libsqlite3-0", "libvips42", "libcurl4", "libjs-leaflet"):
        root.run("dpkg", "-s", dependency)
    assert "fieldbook:" in (root.path / "etc/passwd").read_text()
    data_folder = root.path / "var/lib/fieldbook"
    assert data_folder.is_dir() and data_folder.stat().st_uid == root.ids("fieldbook")[0]
    assert (root.path / "etc/systemd/system/multi-user.target.wants/fieldbook.service").is_symlink(), "the unit is not enabled"
    # The unit serves every address on 8080; here loopback and a free port, set where an operator would.
    port = free_port()
    (root.path / "etc/default/fieldbook").write_text(f"FIELDBOOK_HOST=127.0.0.1\nFIELDBOOK_PORT={port}\n")
    status, page = boot_and_get(root, port, "/setup")
    assert status == 200 and "<!DOCTYPE html>" in page
    FIGURES.append(f"install and start on a fresh Debian 12 root (apt-get update, the package and its dependencies, "
                   f"boot, the unit serving /setup): {elapsed(started)}")
    database = data_folder / "data/fieldbook.sqlite"
    assert database.is_file() and database.stat().st_uid == root.ids("fieldbook")[0]
    current_migrations = set(UPGRADE_FIXTURES.applied_migrations(database))

    # What an earlier release left: its database, at its migration level, in place of the fresh one.
    earlier_database = UPGRADE_FIXTURES.databases()[0]
    expected = UPGRADE_FIXTURES.manifest(earlier_database)
    assert set(expected["migrations"]) < current_migrations, f"{earlier_database.name} leaves nothing to migrate"
    put_in_place(earlier_database, database)
    participants = len(expected["tables"]["participants"]["rows"])

    started = time.monotonic()
    root.copy_in(current, f"/root/{current.name}")
    root.run("apt-get", "install", "-y", "-q", f"/root/{current.name}", environment={"DEBIAN_FRONTEND": "noninteractive"})
    assert root.run("dpkg-query", "-W", "-f=${Version}", "fieldbook").stdout == current.name.split("_")[1]
    # TLS, from files where an operator keeps them: root's, readable by the service's group, outside /home.
    with_tls(root)
    status, _ = boot_and_get(root, port, "/setup", scheme="https")
    assert status == 303, "the upgraded Fieldbook offered setup again: it lost its accounts"
    FIGURES.append(f"upgrade {earlier.name} -> {current.name}, migrate {earlier_database.name} and start: {elapsed(started)}")
    assert set(UPGRADE_FIXTURES.applied_migrations(database)) == current_migrations, "the service did not migrate it"
    problems = UPGRADE_FIXTURES.row_differences(database, expected)
    assert not problems, "\n".join(problems[:30])
    assert "is intact" in as_service_user(root, "check").stdout

    root.run("apt-get", "purge", "-y", "-q", "fieldbook", environment={"DEBIAN_FRONTEND": "noninteractive"})
    assert not (root.path / "usr/bin/fieldbook").exists()
    assert database.is_file() and count(database, "participants") == participants, "purge deleted the records"
    assert "fieldbook:" in (root.path / "etc/passwd").read_text()


def put_in_place(source: Path, database: Path):
    """`source` as the service's database, with the owner and mode of the one it replaces (and no journal of that one)."""
    replaced = database.stat()
    for journal in (database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")):
        journal.unlink(missing_ok=True)
    shutil.copyfile(source, database)
    os.chown(database, replaced.st_uid, replaced.st_gid)
    os.chmod(database, replaced.st_mode)
