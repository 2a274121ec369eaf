"""What the reliability tests share: the short or full form (FIELDBOOK_RELIABILITY=full, as `make reliability` sets
it), one account per role on a node, and the figures each test reports for the summary."""

import errno
import os
import resource
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "sync"))

from harness import Node  # noqa: E402
from client import PASSWORD  # noqa: E402

# Servers started from here inherit it: the slow-client test holds more than a thousand connections.
_soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(_soft, min(_hard, 8192)), _hard))

FULL = os.environ.get("FIELDBOOK_RELIABILITY") == "full"
ACCOUNTS = {"administrator": "admin@reliability.test", "editor": "editor@reliability.test",
            "read-only": "reader@reliability.test"}
FIGURES: list[str] = []


def report(line: str):
    """A figure for the summary `make reliability` prints (and the short form too)."""
    FIGURES.append(line)


def make_node(workdir: Path, name: str = "node") -> Node:
    """A node (not started) with an administrator, an editor and a read-only account."""
    node = Node(name, workdir)
    for role, email in ACCOUNTS.items():
        node.create_user(email, PASSWORD, role=role)
    return node


def fill_disk(path) -> int:
    """Writes until the disk refuses; returns the bytes written."""
    written = 0
    chunk = b"\0" * 65536
    with open(path, "wb", buffering=0) as filler:
        while True:
            try:
                written += filler.write(chunk)
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
                break
    for size in (4096, 512, 1):  # the last partial blocks too
        try:
            with open(path, "ab", buffering=0) as filler:
                while True:
                    written += filler.write(b"\0" * size)
        except OSError:
            pass
    return written
