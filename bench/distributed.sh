#!/usr/bin/env bash
# Many machines (issue 13), on this one machine:
#   1. build time of a dump with --threads 1 and 2 (one index) and with
#      mpirun -np 2 (two shards, one thread each);
#   2. query latency per set (sum of per-query medians, fts-bench) over one
#      index and over 2 and 4 shards with fts-bench --distributed: on two
#      cores this shows the fan-out's cost (a broadcast, a sum of the
#      term statistics and a gather per query), not a gain.
#
#   bench/distributed.sh [--dump FILE] [--out DIR] [--sets "and or ..."] [--reps N] [--ranks "2 4"]
#                        [--no-build] [--no-query]
# Defaults: a 1,000,000-doc zipf dump, OUT=/tmp/fts-distributed, sets
# "and or phrase", 5 reps, 2 and 4 ranks. Run on a quiet machine; the
# figures are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
DUMP="" OUT=/tmp/fts-distributed SETS="and or phrase" REPS=5 RANKS="2 4" DO_BUILD=1 DO_QUERY=1
while [ $# -gt 0 ]; do
  case "$1" in
    --dump) DUMP=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --ranks) RANKS=$2; shift 2 ;;
    --no-build) DO_BUILD=0; shift ;;
    --no-query) DO_QUERY=0; shift ;;
    *) echo "usage: $0 [--dump FILE] [--out DIR] [--sets LIST] [--reps N] [--ranks LIST] [--no-build] [--no-query]" >&2
       exit 2 ;;
  esac
done
. bench/lib.sh
FTS_BUILD=${FTS_BUILD:-build-bench}
[ -f "$FTS_BUILD/CMakeCache.txt" ] || cmake -S . -B "$FTS_BUILD" -DCMAKE_BUILD_TYPE=Release -DFTS_TESTS=OFF -DFTS_MPI=ON >/dev/null
bench_setup distributed.sh fts-index fts-bench
grep -q 'FTS_WITH_MPI' "$BUILD/CMakeFiles/fts-bench.dir/flags.make" ||
  { echo "distributed.sh: $BUILD was configured without MPI (-DFTS_MPI=ON)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe --bind-to none)
mkdir -p "$OUT"
if [ -z "$DUMP" ]; then
  DUMP=$OUT/zipf1000000.xml.gz
  [ -f "$DUMP" ] || python3 "$SHARED/corpus/make-zipf-dump.py" 1000000 "$DUMP" --seed 42 >&2
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$DO_BUILD" = 1 ]; then
  echo "== 1. build $(basename "$DUMP")"
  for threads in 1 2; do
    rm -rf "$OUT/single"
    echo "one index, --threads $threads: $(seconds "$BUILD/fts-index" build --index "$OUT/single" --threads "$threads" "$DUMP") s"
  done
  for ranks in $RANKS; do
    rm -rf "$OUT/shards$ranks"
    echo "mpirun -np $ranks, --threads 1 each: $(seconds "${mpi[@]}" -np "$ranks" "$BUILD/fts-index" build \
      --index "$OUT/shards$ranks" --distributed --threads 1 "$DUMP") s"
    tail -n "$ranks" "$OUT/last.err"
  done
fi

[ "$DO_QUERY" = 1 ] && echo "== 2. query latency: one index, then $RANKS shards over MPI"
[ "$DO_QUERY" = 1 ] && for set in $SETS; do
  for mode in count top10 top10-fast; do
    q=$SHARED/queries/$set.txt
    echo "$set $mode one index: $("$BUILD/fts-bench" --index "$OUT/single" --queries "$q" --mode "$mode" --reps "$REPS" | tail -1)"
    for ranks in $RANKS; do
      echo "$set $mode $ranks shards: $("${mpi[@]}" -np "$ranks" "$BUILD/fts-bench" --index "$OUT/shards$ranks" \
        --distributed --queries "$q" --mode "$mode" --reps "$REPS" | tail -1)"
    done
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
