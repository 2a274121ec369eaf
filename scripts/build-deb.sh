#!/usr/bin/env bash
# Builds fieldbook_VERSION_amd64.deb with Debian's tools from a program built beforehand (`make deb` builds it with
# `make release` first): the checkout's files and packaging/debian are staged in .build/deb/fieldbook-VERSION/, where
# dpkg-buildpackage runs debhelper (packaging/debian/rules). Prints the package's path.
#   build-deb.sh VERSION PROGRAM OUTPUT_FOLDER
set -euo pipefail
VERSION=$1 PROGRAM=$2 OUTPUT=$3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
bash scripts/apt-install-missing.sh debhelper dpkg-dev >&2
STAGE_PARENT="$ROOT/.build/deb"
STAGE="$STAGE_PARENT/fieldbook-$VERSION"
rm -rf "$STAGE_PARENT"
mkdir -p "$STAGE/packaging" "$STAGE/tiles"
cp -R Makefile README.md templates Public translations "$STAGE/"
cp packaging/fieldbook.service.in "$STAGE/packaging/"
cp -R packaging/debian "$STAGE/debian"
[ ! -f tiles/basemap.mbtiles ] || cp tiles/basemap.mbtiles "$STAGE/tiles/"
cp "$PROGRAM" "$STAGE/fieldbook"
COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
MAINTAINER=$(sed -n 's/^Maintainer: //p' packaging/debian/control)
cat > "$STAGE/debian/changelog" <<CHANGELOG
fieldbook ($VERSION) bookworm; urgency=medium

  * Fieldbook $VERSION, built from commit $COMMIT.

 -- $MAINTAINER  $(date -R)
CHANGELOG
(cd "$STAGE" && dpkg-buildpackage --build=binary --no-sign >&2)
mkdir -p "$OUTPUT"
cp "$STAGE_PARENT/fieldbook_${VERSION}_amd64.deb" "$OUTPUT/"
echo "$OUTPUT/fieldbook_${VERSION}_amd64.deb"
