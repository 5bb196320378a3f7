#!/usr/bin/env bash
# Installs fts from BUILD_DIR into a temporary prefix, builds examples/
# against the installed package (find_package(fts)) and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S examples -B "$tmp/example" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/example" -j"$(nproc)" >/dev/null
"$tmp/example/search_example" "$tmp/index" data/sample.xml 'animal OR cat'
echo "example: built against the installed package and ran"
