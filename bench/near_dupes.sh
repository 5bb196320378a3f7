#!/usr/bin/env bash
# Near-duplicates (issue 14), on a dump (default the 1M zipf dump):
#   1. build time and index size with fingerprints and clusters, and without
#      (--no-near-dupes), twice each, alternating;
#   2. top10 latency with --collapse beside without, per query set (sum of
#      per-query medians, fts-bench summary lines);
#   3. the clusters: docs in clusters, the largest three, and precision and
#      recall of the clusters as pairs against brute force on 10,000 docs.
#
#   bench/near_dupes.sh [--dump FILE] [--out DIR] [--sets "and or ..."] [--reps N] [--distance K]
# Defaults: /work/bench-data/zipf1m.xml.gz, OUT=/tmp/fts-near-dupes, the sets
# and or phrase field mixed, 5 reps, the default distance.
# Run on a quiet machine; the figures are printed, nothing is recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
DUMP=/work/bench-data/zipf1m.xml.gz OUT=/tmp/fts-near-dupes SETS="and or phrase field mixed" REPS=5 DISTANCE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dump) DUMP=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --distance) DISTANCE=$2; shift 2 ;;
    *) echo "usage: $0 [--dump FILE] [--out DIR] [--sets LIST] [--reps N] [--distance K]" >&2; exit 2 ;;
  esac
done
[ -f "$DUMP" ] || { echo "near_dupes.sh: $DUMP not found (--dump FILE)" >&2; exit 1; }
. bench/lib.sh
bench_setup near_dupes.sh fts-index fts-bench
mkdir -p "$OUT"
distance=()
[ -z "$DISTANCE" ] || distance=(--dupe-distance "$DISTANCE")

bytes() { du -sb "$1" | cut -f1; }

echo "== 1. build time and size, with and without near-duplicates ($DUMP)"
with=$OUT/with without=$OUT/without
for run in 1 2; do
  rm -rf "$without" "$with"
  echo "run $run without: $(seconds "$BUILD/fts-index" build --index "$without" --no-near-dupes "$DUMP") s, $(bytes "$without") bytes"
  echo "run $run with:    $(seconds "$BUILD/fts-index" build --index "$with" "${distance[@]}" "$DUMP") s, $(bytes "$with") bytes"
done
"$BUILD/fts-index" info "$with" | grep -E '^bytes (sim|dup|total)' || true
ls -l "$with"/*.sim "$with"/*.dup | awk '{s += $5} END {print "bytes .sim + .dup: " s}'

echo "== 2. top10 latency, --collapse beside without"
for set in $SETS; do
  for collapse in "" --collapse; do
    summary=$("$BUILD/fts-bench" --index "$with" --queries "$SHARED/queries/$set.txt" --mode top10 $collapse --reps "$REPS" | tail -1)
    echo "$set ${collapse:-plain} $summary"
  done
done
# How much collapsing changes per set: hits before and after, summed over the queries.
for set in $SETS; do
  "$BUILD/fts-bench" --index "$with" --queries "$SHARED/queries/$set.txt" --mode top10 --collapse --reps 1 --warmup 0 \
    --warmup-s 0 | python3 -c '
import json, sys
hits = collapsed = 0
for line in sys.stdin:
    r = json.loads(line)
    if "query" in r and r.get("hits") is not None:
        hits += r["hits"]; collapsed += r["collapsed_hits"]
print(f"'"$set"': {hits} hits, {collapsed} after collapsing")'
done

echo "== 3. clusters"
"$BUILD/fts-index" dupes --index "$with" --limit 3 --titles 4
"$BUILD/fts-index" dupes --index "$with" --measure 10000
