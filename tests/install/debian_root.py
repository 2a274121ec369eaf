"""A fresh Debian 12 root for one test: a throwaway overlay on the debootstrap root that scripts/debian-root.sh keeps
under the test tools' folder. Commands run in it with systemd-nspawn (as root, or as a user of the root through
setpriv), and `boot` starts its systemd, which starts the units the packages enabled. It shares the host's network,
so apt reaches Debian's mirror and the test reaches what it serves on 127.0.0.1."""

import os
import re
import shutil
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

SERVING = re.compile(r"Fieldbook is serving at (https?://\S+?)/?$")
NSPAWN = ["systemd-nspawn", "--quiet", "--register=no", "--keep-unit"]


class DebianRoot:
    def __init__(self, base: Path, scratch: Path):
        self.base = base
        self.scratch = scratch
        self.path = scratch / "root"

    def __enter__(self):
        upper, work = self.scratch / "upper", self.scratch / "work"
        for folder in (upper, work, self.path):
            folder.mkdir(parents=True)
        subprocess.run(["mount", "-t", "overlay", "overlay", "-o", f"lowerdir={self.base},upperdir={upper},workdir={work}",
                        str(self.path)], check=True)
        shutil.copyfile("/etc/resolv.conf", self.path / "etc/resolv.conf")
        return self

    def __exit__(self, *details):
        subprocess.run(["umount", "-l", str(self.path)], check=False)

    def _inside(self, command: list[str], user: tuple[int, int] | None, environment: dict[str, str]) -> list[str]:
        """nspawn's command line for `command`, as `user` (uid, gid) when given, with `environment` set."""
        as_user = ["setpriv", f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups"] if user else []
        return [*NSPAWN, "--kill-signal=SIGTERM", "-D", str(self.path), "--pipe",
                *[f"--setenv={name}={value}" for name, value in environment.items()], *as_user, *command]

    def run(self, *command: str, user: tuple[int, int] | None = None, environment: dict[str, str] | None = None,
            check: bool = True, stdin: str = "", timeout: float = 900) -> subprocess.CompletedProcess:
        """A command in the root; its output is returned (and shown on failure)."""
        done = subprocess.run(self._inside(list(command), user, environment or {}), input=stdin, capture_output=True,
                              text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        return done

    def apt_install(self, *packages: str):
        self.run("apt-get", "update", "-q", environment={"DEBIAN_FRONTEND": "noninteractive"})
        return self.run("apt-get", "install", "-y", "-q", "--no-install-recommends", *packages,
                        environment={"DEBIAN_FRONTEND": "noninteractive"})

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

    def run_beside(self, command: list[str], user: tuple[int, int], environment: dict[str, str]) -> subprocess.CompletedProcess:
        """A command in the root while a container runs there (nspawn allows one at a time): with chroot, which
        shares the host's network as the container does."""
        return subprocess.run(["chroot", f"--userspec={user[0]}:{user[1]}", str(self.path), "env", "-i",
                               *[f"{name}={value}" for name, value in environment.items()], *command],
                              capture_output=True, text=True, timeout=60)

    def serve(self, command: list[str], user: tuple[int, int], environment: dict[str, str]) -> "Served":
        """Starts `command` (a fieldbook serve) as `user` and waits for its address."""
        process = subprocess.Popen(self._inside(command, user, environment), stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        return Served(process)

    def boot(self) -> "Booted":
        """Starts the root's systemd; the console goes to a log file, shown when something fails."""
        return Booted(self.scratch / "console.log", [*NSPAWN, "-D", str(self.path), "--boot"])


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
        return get(self.address + path)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        return self.process.returncode


class Booted:
    def __init__(self, console: Path, command: list[str]):
        self.console = console
        self.log = open(console, "w")
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_for(self, url: str, timeout: float = 180) -> tuple[int, str]:
        """The first answer from `url`, waiting while the system starts."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                return get(url)
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None:
                    break
                time.sleep(0.5)
        raise AssertionError(f"nothing answered {url}; the console said:\n{self.console_text()[-6000:]}")

    def console_text(self) -> str:
        self.log.flush()
        return self.console.read_text(errors="replace")

    def power_off(self):
        """nspawn turns SIGTERM into an orderly shutdown of the root's systemd."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=90)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *details):
        return None


# The tests' HTTPS servers use certificates made on the spot, for loopback.
_UNVERIFIED = ssl.create_default_context()
_UNVERIFIED.check_hostname = False
_UNVERIFIED.verify_mode = ssl.CERT_NONE
_OPENER = urllib.request.build_opener(_NoRedirects, urllib.request.HTTPSHandler(context=_UNVERIFIED))


def get(url: str) -> tuple[int, str]:
    """The status and body of `url`'s own answer (a redirect is returned, not followed)."""
    try:
        with _OPENER.open(url, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def elapsed(since: float) -> str:
    return f"{time.monotonic() - since:.1f} s"


def can_use_roots() -> str | None:
    """Why this machine cannot make and use the roots, or None."""
    if os.geteuid() != 0:
        return "needs root (mount, systemd-nspawn): run as root"
    return None
