#!/usr/bin/env bash
# Installs what fts needs to build and test, from Debian packages.
set -euo pipefail
packages=(g++ cmake make pkg-config python3 zlib1g-dev libboost-program-options-dev libpugixml-dev
  libstemmer-dev libroaring-dev libfmt-dev libutf8proc-dev libzstd-dev libgtest-dev libbenchmark-dev
  libboost-dev nlohmann-json3-dev python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
