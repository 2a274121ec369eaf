#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed yet; does nothing (and no network) otherwise.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
((${#missing[@]})) || exit 0
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "[fieldbook] installing ${missing[*]}"
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
