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
