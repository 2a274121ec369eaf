#!/usr/bin/env bash
# Makes, once, the fresh Debian 12 root the install tests (tests/install) put the package into, and prints its path.
# Made with debootstrap (minbase, apt, and systemd as init, as on any Debian 12 machine; nothing of Fieldbook's) and
# kept under the test tools' folder, so that later runs fetch nothing; each test works on a throwaway overlay of it,
# with systemd-nspawn (it boots the root's systemd to start the package's unit). Needs root and Debian's mirror.
#   debian-root.sh        (FIELDBOOK_TOOLS_DIR chooses the folder, as for install-test-tools.sh)
set -euo pipefail
TOOLS_DIR=${FIELDBOOK_TOOLS_DIR:-$HOME/.cache/fieldbook-test-tools}
ROOT="$TOOLS_DIR/debian12-root"
MIRROR=${FIELDBOOK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# `make test` starts one in the background while it builds; the install tests' own call waits here for it to finish.
mkdir -p "$TOOLS_DIR"
exec 9>"$TOOLS_DIR/debian12-root.lock"
flock 9
if [ ! -f "$ROOT/.complete" ]; then
  bash "$(dirname "$0")/apt-install-missing.sh" debootstrap systemd-container >&2
  rm -rf "$ROOT" "$ROOT.partial"
  echo "[debian-root] debootstrap bookworm into $ROOT (once; a few minutes)" >&2
  debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus bookworm "$ROOT.partial" "$MIRROR" >&2
  # The package's own apt lists are fetched by each test's apt-get update, on its overlay.
  rm -rf "$ROOT.partial/var/lib/apt/lists/"* "$ROOT.partial/var/cache/apt/archives/"*.deb
  touch "$ROOT.partial/.complete"
  mv "$ROOT.partial" "$ROOT"
fi
echo "$ROOT"
