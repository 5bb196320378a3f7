#!/usr/bin/env bash
# Installs what fts needs to build and test, from Debian packages, and the
# browser tests' npm modules (tests/browser: puppeteer-core, and eslint for the
# extension, pinned by its package-lock.json).
set -euo pipefail
packages=(g++ cmake make pkg-config python3 zlib1g-dev libboost-program-options-dev libpugixml-dev
  libstemmer-dev libroaring-dev libfmt-dev libutf8proc-dev libzstd-dev libgtest-dev libbenchmark-dev
  libboost-dev nlohmann-json3-dev python3-pytest wrk chromium
  pybind11-dev python3-pybind11 python3-dev  # the Python module (python/) and its headers
  python3-matplotlib  # bench/report.py's charts
  libopenmpi-dev openmpi-bin  # the distributed build and search (distributed/, mpirun)
  dpkg-dev file)  # cpack -G DEB: dpkg-shlibdeps finds the packages' dependencies (scripts/package-test.sh)
# Node and npm for the browser test: Debian's, unless a node is there already.
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}"
fi

# puppeteer-core drives Debian's chromium; it downloads no browser of its own.
browser_test="$(dirname "$0")/../tests/browser"
if [ ! -f "$browser_test/node_modules/.package-lock.json" ] ||
   [ "$browser_test/package-lock.json" -nt "$browser_test/node_modules/.package-lock.json" ]; then
  (cd "$browser_test" && npm ci --no-audit --no-fund --loglevel=error)
fi
