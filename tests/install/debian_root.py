"""A fresh Debian 12 root for one test: a throwaway overlay on the debootstrap root that scripts/debian-root.sh keeps
under the test tools' folder, with /proc and /dev mounted and the host's name servers, so apt reaches Debian's
mirror. Programs run in it with chroot (as root, or as a user of the root), on the host's network."""

import os
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

SERVING = re.compile(r"Fieldbook is serving at (https?://\S+?)/?$")


class DebianRoot:
    def __init__(self, base: Path, scratch: Path):
        self.base = base
        self.scratch = scratch
        self.path = scratch / "root"
        self.mounts: list[Path] = []

    def __enter__(self):
        upper, work = self.scratch / "upper", self.scratch / "work"
        for folder in (upper, work, self.path):
            folder.mkdir(parents=True)
        self._mount(["-t", "overlay", "overlay", "-o", f"lowerdir={self.base},upperdir={upper},workdir={work}"], self.path)
        self._mount(["-t", "proc", "proc"], self.path / "proc")
        self._mount(["--rbind", "/dev"], self.path / "dev")
        self._mount(["--make-rslave"], self.path / "dev", record=False)
        shutil.copyfile("/etc/resolv.conf", self.path / "etc/resolv.conf")
        return self

    def __exit__(self, *details):
        for mount in reversed(self.mounts):
            subprocess.run(["umount", "-R", "-l", str(mount)], check=False)

    def _mount(self, arguments: list[str], target: Path, record: bool = True):
        subprocess.run(["mount", *arguments, str(target)], check=True)
        if record:
            self.mounts.append(target)

    def run(self, *command: str, check: bool = True, timeout: float = 900, **options) -> subprocess.CompletedProcess:
        """A command in the root, as root, with a plain environment; its output is returned (and shown on failure)."""
        done = subprocess.run(["chroot", str(self.path), *command], capture_output=True, text=True, timeout=timeout,
                              env=plain_environment(), **options)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        return done

    def apt_install(self, *packages: str):
        self.run("apt-get", "update", "-q")
        return self.run("apt-get", "install", "-y", "-q", "--no-install-recommends", *packages)

    def copy_in(self, source: Path, destination: str) -> str:
        target = self.path / destination.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
        return destination

    def ids(self, user: str) -> tuple[int, int]:
        for line in (self.path / "etc/passwd").read_text().splitlines():
            fields = line.split(":")
            if fields[0] == user:
                return int(fields[2]), int(fields[3])
        raise AssertionError(f"no user {user} in the root's /etc/passwd")

    def serve(self, command: list[str], user: tuple[int, int], environment: dict[str, str]) -> "Served":
        """Starts `command` (a fieldbook serve) as `user` and waits for its address."""
        process = subprocess.Popen(["chroot", f"--userspec={user[0]}:{user[1]}", str(self.path), *command],
                                   env=plain_environment() | environment, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        return Served(process)


class Served:
    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.output: list[str] = []
        self.address = None
        for line in process.stdout:
            self.output.append(line)
            match = SERVING.search(line.strip())
            if match:
                self.address = match.group(1)
                break
        if self.address is None:
            process.wait(timeout=30)
            raise AssertionError("fieldbook did not start:\n" + "".join(self.output))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.address + path, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        return self.process.returncode


def plain_environment() -> dict[str, str]:
    return {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
            "DEBIAN_FRONTEND": "noninteractive"}


def elapsed(since: float) -> str:
    return f"{time.monotonic() - since:.1f} s"


def can_mount() -> str | None:
    """Why this machine cannot make the roots, or None."""
    if os.geteuid() != 0:
        return "needs root (mount, chroot): run as root"
    if shutil.which("chroot") is None:
        return "chroot is not installed"
    return None
