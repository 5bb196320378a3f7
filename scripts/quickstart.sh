#!/usr/bin/env bash
# Installs, builds, indexes the bundled sample (data/sample.xml) and runs a query.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFTS_TESTS=OFF -DFTS_BENCHMARKS=OFF >/dev/null
cmake --build build -j"$(nproc)"
build/fts-index build --index build/sample-index data/sample.xml
build/fts-index info build/sample-index
build/fts-search --index build/sample-index --limit 3 'cat OR "search engine"'
