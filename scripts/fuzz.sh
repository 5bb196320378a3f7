#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (coverage + ASan + UBSan, in
# build-fuzz/), writes their seed corpora, replays the kept crash inputs of
# fuzz/regressions/, then fuzzes each target for SECONDS (default 60).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# Prints executions and crashes per target; exits 1 if any target crashed.
# Crash inputs land in build-fuzz/artifacts/<target>/; the growing corpus in
# build-fuzz/corpus/<target>/ is kept between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(dump_reader_fuzz query_fuzz analyzer_fuzz index_files_fuzz)

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-14-dev
fi
scripts/install-deps.sh

dir=build-fuzz
CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFTS_FUZZ=ON -DFTS_WERROR=ON \
  -DFTS_TESTS=OFF -DFTS_BENCHMARKS=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}"

rm -rf "$dir/seeds"
python3 fuzz/make_seeds.py "$dir/seeds"
# The targets build their scratch indexes under TMPDIR; libFuzzer's exit
# skips atexit cleanup, so keep them where this script removes them.
export TMPDIR="$PWD/$dir/tmp.$$"
mkdir -p "$TMPDIR"
trap 'rm -rf "$TMPDIR"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=0
summary=()
for t in "${targets[@]}"; do
  bin="$dir/fuzz/$t"
  corpus="$dir/corpus/$t"
  artifacts="$dir/artifacts/$t"
  mkdir -p "$corpus" "$artifacts" "$dir/seeds/$t"
  if [ "$t" = index_files_fuzz ]; then FTS_FUZZ_WRITE_SEEDS="$dir/seeds/$t" "$bin" -runs=0 >/dev/null 2>&1; fi
  # Longer seeds are cut to max_len. Queries stay short: a 5,000-term seed
  # of ../shared/queries takes seconds per run under the sanitizers (12 ms
  # without), and hostile_input_test covers the huge ones.
  opts=(-max_len=65536)
  case $t in
    query_fuzz) opts=(-dict=fuzz/query.dict -max_len=4096) ;;
    dump_reader_fuzz) opts+=(-dict=fuzz/dump.dict) ;;
    analyzer_fuzz) opts=(-max_len=16384) ;;
  esac
  # Every crash ever found stays fixed.
  if [ -d "fuzz/regressions/$t" ] && [ -n "$(ls -A "fuzz/regressions/$t")" ]; then
    if ! "$bin" fuzz/regressions/"$t"/* >"$dir/$t.regressions.log" 2>&1; then
      echo "$t: a kept regression input fails again (see $dir/$t.regressions.log)"
      failed=1
    fi
  fi
  log="$dir/$t.log"
  status=0
  # -timeout: one input taking over 30 s (sanitized, maybe on a busy
  # machine) is a hang; -rss_limit_mb bounds memory.
  # Under CI a fixed seed makes a failing run reproducible.
  [ "${CI:-}" = true ] && opts+=(-seed=1)
  "$bin" "${opts[@]}" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$dir/seeds/$t" >"$log" 2>&1 || status=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  crashes=$(ls -A "$artifacts" | grep -vc "^slow-unit-" || true)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
  summary+=("$(printf '%-18s %4ss  %10s execs  cov %6s  exit %d  artifacts %d' "$t" "$seconds" "$execs" "$cov" "$status" "$crashes")")
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "$t crashed; last lines of $log:"
    tail -40 "$log"
  fi
done
printf '%s\n' "${summary[@]}"
exit $failed
