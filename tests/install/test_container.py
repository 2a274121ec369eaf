"""The container (issue 40, item 4). With no container engine here, what can be proven is proven from the Dockerfile
itself: hadolint passes it; its build stage uses the toolchain version the project is compiled with; its runtime
stage's packages, as written there (pinned), install into a fresh Debian 12 root, and the program, laid out as its
COPY lines say, run as its numeric USER with its ENV, answers a page, and its HEALTHCHECK command passes."""

import json
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text()


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined and comments dropped."""
    lines = [line for line in DOCKERFILE.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in joined.splitlines() if line.strip()]


def runtime_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(index for index, (name, _) in enumerate(steps) if name == "FROM")
    return steps[last_from:]


def test_hadolint_passes_the_dockerfile():
    hadolint = shutil.which("hadolint") or str(Path.home() / ".cache/fieldbook-test-tools/venv/bin/hadolint")
    if not Path(hadolint).is_file():
        pytest.skip("hadolint is not installed (scripts/install-test-tools.sh puts it in the test venv)")
    linted = subprocess.run([hadolint, "--no-color", str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_the_build_stage_uses_the_projects_toolchain():
    swift = shutil.which("swift")
    if swift is None:
        pytest.skip("no Swift toolchain on PATH to compare with")
    version = re.search(r"Swift version (\d+\.\d+\.\d+)", subprocess.run([swift, "--version"], capture_output=True, text=True).stdout)
    build_image = next(argument for name, argument in instructions() if name == "FROM")
    assert build_image.split()[0] == f"swift:{version.group(1)}-bookworm"


def test_the_runtime_stage_serves_from_a_fresh_debian_root(fresh_root, program):
    root = fresh_root
    stage = runtime_stage()
    assert stage[0][1].split()[0] == "debian:bookworm-slim"
    user = next(argument for name, argument in stage if name == "USER")
    assert re.fullmatch(r"\d+:\d+", user), f"USER {user} is not numeric"
    for name, argument in stage:
        if name == "RUN":
            root.run("sh", "-c", argument, environment={"DEBIAN_FRONTEND": "noninteractive"})
        elif name == "COPY":
            source, destination = argument.split()[-2:]
            origin = program if source.endswith("/fieldbook") else ROOT / ("tiles" if source.endswith("/tiles") else source)
            root.copy_in(origin, destination)
    environment = {}
    for name, argument in stage:
        if name == "ENV":
            environment |= dict(pair.split("=", 1) for pair in argument.split())
    port = free_port()
    environment |= {"FIELDBOOK_HOST": "127.0.0.1", "FIELDBOOK_PORT": str(port)}
    entry = json.loads(next(argument for name, argument in stage if name == "ENTRYPOINT"))
    command = json.loads(next(argument for name, argument in stage if name == "CMD"))
    uid, gid = (int(part) for part in user.split(":"))
    served = root.serve(["/usr/local/bin/" + entry[0], *command], (uid, gid), environment)
    try:
        status, page = served.get("/setup")
        assert status == 200 and "<!DOCTYPE html>" in page
        health = json.loads(re.search(r"HEALTHCHECK .*?CMD (\[.*\])", DOCKERFILE).group(1))
        checked = root.run_beside(health, (uid, gid), environment | {"PATH": "/usr/local/bin:/usr/bin:/bin"})
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        assert served.stop() == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
