#!/usr/bin/env bash
# Every core (issue 13), on a seeded zipf dump:
#   1. build time and peak memory with --threads 1 on one core, --threads 1
#      and 2 on two cores (taskset), and the same with a second binary
#      (BEFORE=dir of an older build) for a before/after; then --threads 3
#      on two cores (the workers' shape, one thread more than cores) with
#      and without the final merge, whose cost is the difference;
#   2. query latency (sum of per-query medians per set, fts-bench) on the
#      index as 1, 2 and 4 segments, with its segments searched on 1 and on
#      2 threads (SearchOptions::threads).
#
#   bench/threads.sh [--docs N] [--dump FILE] [--out DIR] [--sets "and or ..."] [--reps N] [--no-build] [--no-query]
#                    [--no-near-dupes]
# --no-near-dupes builds the current binary's indexes without fingerprints
# (an older BEFORE binary has none anyway).
# Defaults: 1,000,000 docs, OUT=/tmp/fts-threads, sets "and or phrase", 5 reps.
# Run on a quiet machine; the figures are printed, nothing is recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
DOCS=1000000 DUMP="" OUT=/tmp/fts-threads SETS="and or phrase" REPS=5 DO_BUILD=1 DO_QUERY=1 NEW_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS=$2; shift 2 ;;
    --dump) DUMP=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --no-build) DO_BUILD=0; shift ;;
    --no-query) DO_QUERY=0; shift ;;
    --no-near-dupes) NEW_ARGS=(--no-near-dupes); shift ;;
    *) echo "usage: $0 [--docs N] [--dump FILE] [--out DIR] [--sets LIST] [--reps N] [--no-build] [--no-query] [--no-near-dupes]" >&2; exit 2 ;;
  esac
done
. bench/lib.sh
bench_setup threads.sh fts-index fts-bench
mkdir -p "$OUT"
if [ -z "$DUMP" ]; then
  DUMP=$OUT/zipf$DOCS.xml.gz
  [ -f "$DUMP" ] || python3 "$SHARED/corpus/make-zipf-dump.py" "$DOCS" "$DUMP" --seed 42 >&2
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# "wall s, peak MB" of a build (the tool's own last line has both).
build() {
  local cpus=$1 bin=$2 threads=$3 idx=$OUT/index
  shift 3
  rm -rf "$idx"
  taskset -c "$cpus" "$bin" build --index "$idx" --threads "$threads" "$@" "$DUMP" 2>"$OUT/last.err" >/dev/null ||
    { cat "$OUT/last.err" >&2; exit 1; }
  tail -1 "$OUT/last.err" | sed -n 's/.* \([0-9.]*\) s, peak memory \([0-9]*\) MB.*/\1 s, peak \2 MB/p'
}

if [ "$DO_BUILD" = 1 ]; then
  echo "== 1. build $(basename "$DUMP")"
  if [ -n "${BEFORE:-}" ]; then
    echo "$BEFORE/fts-index  1 core,  --threads 1: $(build 0 "$BEFORE/fts-index" 1)"
    echo "$BEFORE/fts-index  2 cores, --threads 1: $(build 0,1 "$BEFORE/fts-index" 1)"
    echo "$BEFORE/fts-index  2 cores, --threads 2: $(build 0,1 "$BEFORE/fts-index" 2)"
  fi
  new=$BUILD/fts-index
  echo "$new ${NEW_ARGS[*]} 1 core,  --threads 1: $(build 0 "$new" 1 "${NEW_ARGS[@]}")"
  echo "$new ${NEW_ARGS[*]} 2 cores, --threads 1: $(build 0,1 "$new" 1 "${NEW_ARGS[@]}")"
  echo "$new ${NEW_ARGS[*]} 2 cores, --threads 2: $(build 0,1 "$new" 2 "${NEW_ARGS[@]}")"
  echo "$new ${NEW_ARGS[*]} 2 cores, --threads 3: $(build 0,1 "$new" 3 "${NEW_ARGS[@]}")"
  # The workers' part alone: what the final merge adds is the difference.
  echo "$new ${NEW_ARGS[*]} 2 cores, --threads 3 --no-merge: $(build 0,1 "$new" 3 --no-merge "${NEW_ARGS[@]}")"
fi

if [ "$DO_QUERY" = 1 ]; then
  echo "== 2. segments searched on 1 and 2 threads"
  idx=$OUT/index-q
  rm -rf "$idx"
  "$BUILD/fts-index" build --index "$idx" --no-merge --max-segment-docs $(( (DOCS + 3) / 4 )) "$DUMP" 2>/dev/null
  for segments in 4 2 1; do
    [ "$segments" = 4 ] || "$BUILD/fts-index" merge --index "$idx" --max-segments "$segments" 2>/dev/null
    for set in $SETS; do
      for mode in count top10 top10-fast; do
        for threads in 1 2; do
          summary=$("$BUILD/fts-bench" --index "$idx" --queries "$SHARED/queries/$set.txt" --mode "$mode" \
                    --reps "$REPS" --threads "$threads" | tail -1)
          echo "$segments segments, $threads threads: $set $mode $summary"
        done
      done
    done
  done
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
