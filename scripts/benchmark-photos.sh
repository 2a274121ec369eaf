#!/usr/bin/env bash
# Benchmark of photos (issue 14) on a small demo community: uploads through the pages of a 50-megapixel JPEG and of a
# phone-sized photo, the gallery page, and the photo files served from their descriptors. Prints the time of each step
# and how much the server's memory grows. All traffic goes to 127.0.0.1; every process started here is stopped.
#   scripts/benchmark-photos.sh [participants activities venues]   (default 2000 200 100)
set -euo pipefail
cd "$(dirname "$0")/.."
set -- "${1:-2000}" "${2:-200}" "${3:-100}"
FIELDBOOK_BENCH_DATA="" source scripts/benchmark-server.sh
# Pillow makes the camera-like photos (noise, so they compress as photos do, and GPS tags); for this script only.
"$VENV/bin/python" -c 'import PIL' 2>/dev/null || "$VENV/bin/python" -m pip --disable-pip-version-check -q install pillow
start_bench_server
"$VENV/bin/python" scripts/benchmark_photos.py --base "$BASE" --email bench@example.org --password "benchmark password 1" \
  --pid "$SERVER_PID" --fixtures Tests/Fixtures/photos
