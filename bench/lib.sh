# Sourced by the bench scripts, from the repository root.

# bench_setup NAME TARGET...: SHARED (../shared unless set; its queries must
# be there) and BUILD (FTS_BUILD, else build-bench), a Release build whose
# TARGETs are brought up to date, so a run never times stale binaries.
bench_setup() {
  local name=$1
  shift
  SHARED=${SHARED:-$(cd .. && pwd)/shared}
  [ -d "$SHARED/queries" ] || { echo "$name: $SHARED/queries not found (set SHARED)" >&2; exit 1; }
  BUILD=${FTS_BUILD:-build-bench}
  [ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DFTS_TESTS=OFF >/dev/null
  cmake --build "$BUILD" -j2 --target "$@" >/dev/null
}

# seconds CMD...: the wall time of CMD in seconds, its output discarded
# (stderr kept in $OUT/last.err); a failure stops the script.
seconds() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null 2>"$OUT/last.err" || { cat "$OUT/last.err" >&2; exit 1; }
  t1=$(date +%s%N)
  printf '%d.%03d' $(((t1 - t0) / 1000000000)) $((((t1 - t0) / 1000000) % 1000))
}

# valid_query_sets: the names of SHARED's query files but invalid.txt
# (whose queries are refused), space-separated.
valid_query_sets() {
  local f
  for f in "$SHARED"/queries/*.txt; do
    f=${f##*/}
    [ "$f" = invalid.txt ] || printf '%s ' "${f%.txt}"
  done
}

# time_segments_against_merged SEG MERGED DIR QUERY...: living.sh's step 2,
# which living-lucene.sh repeats for Lucene (SETS, ROUNDS and SHARED as the
# caller sets them; each run's JSON lines kept in DIR). QUERY INDEX
# QUERYFILE MODE times one query file on one index, printing JSON lines
# (fts-bench's schema); it runs for every set of SETS, count and top10, on SEG then
# MERGED, each read into the page cache first (bench/compare.sh says why):
# one after the other in one state, rather than the merged index after a
# merge that has just written it. ROUNDS times over, the order alternated
# per round, then one line per index, set and mode: LABEL SET MODE
# {least medians}. Each query keeps its least median because this machine
# slows down for minutes at a time, and a single pass let such a stretch
# fall on one side of a ratio (a merged index's counts 1.2-1.4x their usual
# sum in one run). A round passes over every file before the next begins:
# with a file's rounds back to back, one such stretch spanned them all (the
# merged index's edge.txt counts 39.3 ms in each of 5 rounds, 29.1 in an
# A/B right after; the memory-bound queries over the merged index's 1M-doc
# bitsets slow down most).
time_segments_against_merged() {
  local seg=$1 merged=$2 dir=$3 round qset mode target label summary
  shift 3
  rm -rf "$dir" && mkdir -p "$dir"
  for round in $(seq 1 "$ROUNDS"); do
    for qset in $SETS; do
      for mode in count top10; do
        local targets=("$seg" "$merged")
        [ $((round % 2)) -eq 0 ] && targets=("$merged" "$seg")
        for target in "${targets[@]}"; do
          label=merged
          [ "$target" = "$seg" ] && label=20seg-10%deleted
          find "$target" -type f -exec cat {} + >/dev/null
          "$@" "$target" "$SHARED/queries/$qset.txt" "$mode" >"$dir/$label.$qset.$mode.$round.jsonl"
        done
      done
    done
  done
  for qset in $SETS; do
    for mode in count top10; do
      for label in 20seg-10%deleted merged; do
        summary=$(python3 bench/least_medians.py "$dir/$label.$qset.$mode".*.jsonl)
        echo "$label $qset $mode $summary"
      done
    done
  done
}
