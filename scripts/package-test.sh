#!/usr/bin/env bash
# The Debian packages, end to end on this machine: cpack -G DEB from
# BUILD_DIR (built already, configured with -DCMAKE_INSTALL_PREFIX=/usr),
# apt-get install of every .deb (dependencies resolved by apt), the tools from
# /usr/bin on data/sample.xml, examples/ built against the installed fts-dev
# with find_package(fts) and with pkg-config, import fts from python3-fts,
# then apt-get remove --purge and nothing of the packages left.
#   scripts/package-test.sh [BUILD_DIR]
# Needs root or passwordless sudo: skipped without (a failure under CI=true).
# Packages of fts already installed are left alone (skipped), unless CI=true.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build=${1:-build-test}
packages=(fts libfts0 fts-dev python3-fts)
fail() { echo "package-test: $*" >&2; exit 1; }
skip() {
  [ "${CI:-}" = true ] && fail "$* (CI=true: the package test must run)"
  echo "package-test: SKIPPED: $*"
  exit 0
}

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || skip "needs root or passwordless sudo to install packages"
  SUDO=(sudo -n)
fi
command -v dpkg-shlibdeps >/dev/null || fail "dpkg-shlibdeps missing (apt-get install dpkg-dev; scripts/install-deps.sh does)"
installed() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed; }
apt() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -y -qq "$@"; }

# Two runs at once on one machine would install and remove under each other.
exec 9>/tmp/fts-package-test.lock
flock -w 600 9 || fail "another package test holds /tmp/fts-package-test.lock"

# The packages dpkg knows (installed, or their configuration left).
known() { for p in "${packages[@]}"; do dpkg-query -W "$p" >/dev/null 2>&1 && echo "$p"; done; true; }
mapfile -t there < <(known)
if [ ${#there[@]} -gt 0 ]; then
  [ "${CI:-}" = true ] || skip "${there[*]} installed already; the test would replace and remove it (apt-get remove --purge ${there[*]})"
  apt remove --purge "${there[@]}" >/dev/null  # CI: apt would keep an installed copy of the same version
fi

start=$SECONDS
tmp=$(mktemp -d)
chmod 755 "$tmp"  # apt reads the .deb files as its own user
cleanup() {
  # On a failure, leave the machine as it was.
  mapfile -t there < <(known)
  if [ ${#there[@]} -gt 0 ]; then apt remove --purge "${there[@]}" >/dev/null 2>&1 || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

(cd "$build" && cpack -G DEB -B "$tmp/debs" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log" >&2; fail "cpack -G DEB failed"; }
debs=() built=()
for p in "${packages[@]}"; do
  deb=$(find "$tmp/debs" -maxdepth 1 -name "${p}_*.deb")
  if [ -z "$deb" ] && [ "$p" = python3-fts ]; then
    echo "package-test: no python3-fts (the build has no Python module)"
    continue
  fi
  [ "$(echo "$deb" | grep -c .)" = 1 ] || fail "want one ${p}_*.deb, cpack wrote: $(ls "$tmp/debs")"
  debs+=("$deb") built+=("$p")
done
packages=("${built[@]}")
echo "package-test: built ${debs[*]##*/} ($(du -ch "${debs[@]}" | tail -1 | cut -f1))"

# What dpkg-shlibdeps found, and the exact version fts-dev needs.
version=$(dpkg-deb -f "$tmp/debs/"fts_*.deb Version)
depends() { dpkg-deb -f "$tmp/debs/$1"_*.deb Depends; }
for lib in libc6 libstdc++6 libstemmer0d libzstd1 libpugixml1v5 libboost-program-options; do
  depends fts | grep -q "$lib" || fail "fts does not depend on $lib: $(depends fts)"
done
depends libfts0 | grep -q libstemmer0d || fail "libfts0 does not depend on libstemmer0d: $(depends libfts0)"
depends fts-dev | grep -qF "libfts0 (= $version)" || fail "fts-dev does not depend on libfts0 (= $version): $(depends fts-dev)"
dpkg-deb -I "$tmp/debs/"libfts0_*.deb shlibs | grep -qx "libfts 0 libfts0 (>= $version)" || fail "libfts0 has no shlibs entry"
for deb in "${debs[@]}"; do
  dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '^\./usr/' | grep -vx '\./' && fail "${deb##*/} installs outside /usr"
  dpkg-deb -c "$deb" | grep -q "\./usr/share/doc/$(dpkg-deb -f "$deb" Package)/copyright$" || fail "${deb##*/} has no copyright file"
done

apt install "${debs[@]}" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get install failed"; }
for p in "${packages[@]}"; do
  installed "$p" || fail "$p not installed after apt-get install"
  dpkg -L "$p" >"$tmp/$p.files"
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
grep -qx "/usr/lib/$multiarch/libfts.so.0" "$tmp/libfts0.files" || fail "libfts0 has no /usr/lib/$multiarch/libfts.so.0"
grep -qx "/usr/lib/$multiarch/libfts.so" "$tmp/fts-dev.files" || fail "fts-dev has no libfts.so link"
grep -qx /usr/include/fts/fts.h "$tmp/fts-dev.files" || fail "fts-dev has no /usr/include/fts/fts.h"

# The tools from /usr/bin, away from the source and build trees.
cd "$tmp"
for tool in fts-index fts-search fts-bench fts-serve $(cd /usr/bin && ls fts-*-mpi 2>/dev/null); do
  [ "$(command -v $tool)" = /usr/bin/$tool ] || fail "$tool is not /usr/bin/$tool but '$(command -v $tool)'"
  ldd /usr/bin/$tool | grep -q 'not found' && fail "/usr/bin/$tool: $(ldd /usr/bin/$tool | grep 'not found')"
done
/usr/bin/fts-index build --index "$tmp/index" "$src/data/sample.xml" 2>"$tmp/index.err" || { cat "$tmp/index.err" >&2; fail "/usr/bin/fts-index build failed"; }
/usr/bin/fts-index check "$tmp/index" >/dev/null || fail "fts-index check failed on the index /usr/bin/fts-index built"
printf 'wild cat\n"search engine"\n' >"$tmp/queries.txt"
/usr/bin/fts-search --index "$tmp/index" --json --limit 1 'wild cat' >"$tmp/search.json"
/usr/bin/fts-bench --index "$tmp/index" --queries "$tmp/queries.txt" --mode count --reps 1 --warmup-s 0 >"$tmp/bench.jsonl"
/usr/bin/fts-serve --index "$tmp/index" --listen 127.0.0.1:0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
serve=$!
/usr/bin/python3 - "$tmp" "$serve" <<'PY' || { kill "$serve" 2>/dev/null; fail "the tools from /usr/bin answered wrongly"; }
import json, os, re, signal, sys, time, urllib.request
tmp, serve = sys.argv[1], int(sys.argv[2])
search = json.load(open(tmp + "/search.json"))
assert search["total_hits"] == 17 and search["hits"][0]["title"] == "Wild cat", search
bench = [json.loads(l) for l in open(tmp + "/bench.jsonl") if l.startswith("{")]
counts = {r["query"]: r["hits"] for r in bench if "query" in r}
assert counts.get("wild cat") == 17, bench
for _ in range(100):  # fts-serve prints its port once it accepts
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", open(tmp + "/serve.out").read())
    if m:
        break
    time.sleep(0.1)
assert m, open(tmp + "/serve.err").read()
with urllib.request.urlopen("http://127.0.0.1:%s/search?q=wild+cat" % m.group(1), timeout=10) as r:
    served = json.load(r)
assert served["total_hits"] == 17 and served["hits"][0]["title"] == "Wild cat", served
os.kill(serve, signal.SIGTERM)
PY
wait "$serve" || fail "fts-serve did not exit 0 on SIGTERM"
echo "package-test: /usr/bin/fts-index, fts-search, fts-bench and fts-serve on data/sample.xml"

# examples/ against the installed fts-dev: no prefix given, the system's.
unset PKG_CONFIG_PATH CMAKE_PREFIX_PATH
cmake -S "$src/examples" -B "$tmp/example" >/dev/null
grep -qx "fts_DIR:PATH=/usr/lib/$multiarch/cmake/fts" "$tmp/example/CMakeCache.txt" ||
  fail "find_package(fts) found $(grep '^fts_DIR' "$tmp/example/CMakeCache.txt")"
cmake --build "$tmp/example" >/dev/null
[ "$(pkg-config --variable=libdir fts)" = "/usr/lib/$multiarch" ] || fail "pkg-config fts gives libdir $(pkg-config --variable=libdir fts)"
# shellcheck disable=SC2046  # pkg-config prints several flags
g++ -std=c++20 -o "$tmp/search_example_pc" "$src/examples/search_example.cpp" $(pkg-config --cflags --libs fts)
for example in "$tmp/example/search_example" "$tmp/search_example_pc"; do
  loaded=$(ldd "$example" | awk '/libfts\.so/ {print $3}')
  if [ -z "$loaded" ] || [ "$(realpath "$loaded")" != "$(realpath "/usr/lib/$multiarch/libfts.so.0")" ]; then
    fail "$example loads $(ldd "$example" | grep libfts)"
  fi
  "$example" "$tmp/index-$(basename "$example")" "$src/data/sample.xml" 'animal OR cat' >/dev/null
done
echo "package-test: examples/ built with find_package(fts) and with pkg-config against fts-dev and ran"

if [[ " ${packages[*]} " = *" python3-fts "* ]]; then
  env -u PYTHONPATH /usr/bin/python3 - "$tmp/py-index" "$src/data/sample.xml" <<'PY' || fail "import fts from python3-fts failed"
import sys
import fts
assert fts.__file__.startswith("/usr/lib/python3/dist-packages/"), fts.__file__
with fts.IndexWriter(sys.argv[1]) as writer:
    writer.add_dump(sys.argv[2])
hits = fts.Index(sys.argv[1]).search("wild cat", limit=1)
assert hits.total_hits == 17 and hits[0].title == "Wild cat", hits
PY
  echo "package-test: import fts from /usr/lib/python3/dist-packages indexes and searches"
fi

if command -v lintian >/dev/null; then
  # Debian's policy checks where lintian is installed (install-deps.sh does
  # not): errors fail, warnings are shown (no manual pages yet).
  tags=$(lintian --fail-on error "${debs[@]}" 2>&1) || { echo "$tags" >&2; fail "lintian errors"; }
  echo "$tags" | grep -v 'root privileges' || true
fi

apt remove --purge "${packages[@]}" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get remove --purge failed"; }
for p in "${packages[@]}"; do
  dpkg-query -W "$p" >/dev/null 2>&1 && fail "$p still known to dpkg after the purge: $(dpkg-query -W -f='${Status}' "$p")"
  while read -r path; do
    if [ -e "$path" ] && [ ! -d "$path" ]; then fail "$path of $p left after the purge"; fi
  done <"$tmp/$p.files"
done
for dir in /usr/include/fts "/usr/lib/$multiarch/cmake/fts" /usr/share/doc/fts /usr/share/doc/libfts0 /usr/share/doc/fts-dev; do
  [ ! -e "$dir" ] || fail "$dir left after the purge"
done
echo "package-test: ${packages[*]} installed, used and purged with nothing left ($((SECONDS - start)) s)"
