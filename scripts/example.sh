#!/usr/bin/env bash
# Installs fts from BUILD_DIR into a temporary prefix, then builds examples/
# against the installed package twice, with find_package(fts) and with
# pkg-config, and runs both builds.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null

cmake -S examples -B "$tmp/example" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/example" -j"$(nproc)" >/dev/null
"$tmp/example/search_example" "$tmp/index-cmake" data/sample.xml 'animal OR cat'
echo "example: built with find_package(fts) against the installed package and ran"

pcdir=$(dirname "$(find "$tmp/prefix" -name fts.pc)")
libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir fts)
# shellcheck disable=SC2046  # pkg-config prints several flags
g++ -std=c++20 -o "$tmp/search_example_pc" examples/search_example.cpp \
  $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs fts) -Wl,-rpath,"$libdir"
"$tmp/search_example_pc" "$tmp/index-pc" data/sample.xml 'animal OR cat'
echo "example: built with pkg-config against the installed package and ran"
