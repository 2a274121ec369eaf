"""The installed program needs the toolchain only to build (issue 40, item 1): it names only the system's libraries,
runs with the toolchain's library folder hidden, and says its version and commit."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIGURES, ROOT
from debian_root import Served

SYSTEM_LIBRARY_FOLDERS = ("/lib/", "/lib64/", "/usr/lib/")


def toolchain_library_folder() -> Path | None:
    swift = shutil.which("swift")
    if swift is None:
        return None
    folder = Path(swift).resolve().parent.parent / "lib/swift/linux"
    return folder if folder.is_dir() else None


def test_the_program_names_only_system_libraries(program):
    listed = subprocess.run(["ldd", str(program)], capture_output=True, text=True, check=True).stdout
    paths = re.findall(r"=> (\S+)", listed) + re.findall(r"^\s+(/\S+) \(", listed, re.MULTILINE)
    assert "not found" not in listed, listed
    outside = [path for path in paths if not path.startswith(SYSTEM_LIBRARY_FOLDERS)]
    assert not outside, f"libraries outside the system's folders:\n{listed}"
    dynamic = subprocess.run(["readelf", "-d", str(program)], capture_output=True, text=True, check=True).stdout
    assert "RPATH" not in dynamic and "RUNPATH" not in dynamic, dynamic
    FIGURES.append(f"program: {program.stat().st_size / 1e6:.1f} MB, {len(paths)} libraries, all in {', '.join(SYSTEM_LIBRARY_FOLDERS)}")


def test_the_program_serves_with_the_toolchain_hidden(program, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("hiding the toolchain's folder needs a mount namespace: run as root")
    folder = toolchain_library_folder()
    if folder is None:
        pytest.skip("no Swift toolchain on PATH: there is nothing to hide")
    # A private mount namespace: an empty folder over the toolchain's libraries, for this program alone.
    script = f'mount -t tmpfs -o size=1m hidden "{folder}" && exec "$@"'
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh",
               str(program), "serve", "--data", str(tmp_path / "data"), "--port", "0", "--host", "127.0.0.1",
               "--resources", str(ROOT), "--log-level", "warning"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=dict(os.environ, FIELDBOOK_PASSWORD_COST="test"), cwd="/")
    served = Served(process)
    try:
        status, page = served.get("/setup")
        assert status == 200 and "<!DOCTYPE html>" in page
    finally:
        assert served.stop() == 0


def test_version_names_the_release_and_the_commit(program):
    said = subprocess.run([str(program), "--version"], capture_output=True, text=True)
    assert said.returncode == 0, said.stderr
    version = re.search(r'static let current = "([^"]+)"', (ROOT / "Sources/App/AppConfiguration.swift").read_text()).group(1)
    assert re.fullmatch(rf"{re.escape(version)} \(commit [0-9a-f]{{40}}(-modified)?\)\n", said.stdout), said.stdout
    FIGURES.append(f"fieldbook --version: {said.stdout.strip()}")
