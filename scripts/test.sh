#!/usr/bin/env bash
# Installs, builds with warnings as errors, runs every test, then builds and
# runs examples/ against the installed library, and (release build) makes,
# installs, uses and purges the Debian packages (scripts/package-test.sh).
#   scripts/test.sh              release build in build-test/ (prefix /usr, as the packages)
#   scripts/test.sh --sanitize   ASan + UBSan build in build-asan/
#   scripts/test.sh --tsan       ThreadSanitizer build of the concurrent code's
#                                tests in build-tsan/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
dir=build-test
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DFTS_WERROR=ON -DFTS_MPI=ON)
case "${1:-}" in
  --sanitize)
    dir=build-asan
    flags+=(-DFTS_SANITIZE=ON -DFTS_BENCHMARKS=OFF)
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    ;;
  --tsan)
    dir=build-tsan
    flags+=(-DFTS_TSAN=ON -DFTS_BENCHMARKS=OFF)
    # A race fails the run: the process stops at the first report.
    export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
    ;;
  "")
    flags+=(-DCMAKE_INSTALL_PREFIX=/usr)  # GNUInstallDirs' multiarch lib dir, for cpack -G DEB
    ;;
  *)
    echo "usage: scripts/test.sh [--sanitize | --tsan]" >&2
    exit 2
    ;;
esac
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
# The installed package works for another project (not under sanitizers,
# whose runtime the example would need too).
if [ "$dir" = build-test ]; then
  scripts/example.sh "$dir"
  scripts/package-test.sh "$dir"
fi
