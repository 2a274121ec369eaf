#!/usr/bin/env bash
# Writes the commit the checkout is at into a built program's .fieldbook_commit section (Sources/CBuildStamp says why
# after linking), so that `fieldbook --version` names it; "-modified" follows it when files differ from that commit.
# Outside a git checkout (a source tarball) the program keeps "unknown".
#   stamp-commit.sh PROGRAM
set -euo pipefail
PROGRAM=$1
SIZE=64   # FIELDBOOK_COMMIT_SIZE in Sources/CBuildStamp/include/CBuildStamp.h
cd "$(dirname "$0")/.."
commit=$(git rev-parse HEAD 2>/dev/null) || { echo "[stamp-commit] not a git checkout: $PROGRAM keeps commit unknown"; exit 0; }
git diff --quiet HEAD -- Sources Package.swift templates Public 2>/dev/null || commit="$commit-modified"
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
# The section keeps its size: the commit, then zeros.
printf '%s' "$commit" > "$stamp"
truncate -s "$SIZE" "$stamp"
objcopy --update-section .fieldbook_commit="$stamp" "$PROGRAM"
