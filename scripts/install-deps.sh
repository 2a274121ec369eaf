#!/usr/bin/env bash
# Installs what building and running Fieldbook needs on Debian 12, only if missing. Idempotent; run as root (or via sudo).
set -euo pipefail
bash "$(dirname "$0")/apt-install-missing.sh" libmicrohttpd-dev libsqlite3-dev libvips-dev pkg-config libjs-leaflet libjs-leaflet.markercluster \
  curl libcurl4-openssl-dev ca-certificates openssl zlib1g-dev libpq-dev libgnutls28-dev \
  libqrencode4 libavahi-client3 libgettextpo0 gettext
# The world basemap the map shows offline (tiles/basemap.mbtiles).
bash "$(dirname "$0")/install-basemap.sh"

if ! command -v swift >/dev/null 2>&1; then
  for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    [ -x "$candidate/swift" ] && { echo "[install-deps] Swift is in $candidate: add it to PATH"; exit 1; }
  done
  echo "[install-deps] Swift 6 is not installed. Install the Swift toolchain (swift.org, Debian 12 build) and add it to PATH." >&2
  exit 1
fi
