#!/usr/bin/env bash
# The living index's measurements (issue 10), on a seeded zipf dump:
#   1. appending 10,000 docs to the N-doc index, beside a full rebuild of N + 10,000;
#   2. count and top10 latency (sum of per-query medians per query set) on the
#      index as 20 segments with 10% of docs deleted, beside the same merged to one;
#   3. deleting 1 url, then 10,000 urls;
#   4. Index::reopen() after a small commit;
#   and the latency of 200 absent terms on the 20 segments, and what the
#   Bloom filters save on their lookups (bench/bloom_bench).
#
#   bench/living.sh [--docs N] [--out DIR] [--sets "and or ..."] [--reps N] [--rounds N]
# Defaults: 1,000,000 docs, OUT=/tmp/fts-living, every query set, 5 reps,
# 3 rounds (step 2: each query's time is its least median over the rounds).
# Run on a quiet machine; the figures are printed, nothing is recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
DOCS=1000000 OUT=/tmp/fts-living SETS="" REPS=5 ROUNDS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) echo "usage: $0 [--docs N] [--out DIR] [--sets LIST] [--reps N] [--rounds N]" >&2; exit 2 ;;
  esac
done
. bench/lib.sh
bench_setup living.sh fts-index fts-bench reopen_bench bloom_bench
[ -n "$SETS" ] || SETS=$(valid_query_sets)
mkdir -p "$OUT"
main=$OUT/zipf$DOCS.xml.gz extra=$OUT/zipf-extra10k.xml.gz
[ -f "$main" ] || python3 "$SHARED/corpus/make-zipf-dump.py" "$DOCS" "$main" --seed 42 >&2
[ -f "$extra" ] || python3 "$SHARED/corpus/make-zipf-dump.py" 10000 "$extra" --seed 43 >&2

idx=$OUT/index seg=$OUT/index-20seg

echo "== 1. append 10,000 docs vs full rebuild ($DOCS docs)"
rm -rf "$idx"
echo "build $DOCS docs:                 $(seconds "$BUILD/fts-index" build --index "$idx" "$main") s"
echo "add 10,000 docs:                  $(seconds "$BUILD/fts-index" add --index "$idx" "$extra") s"
echo "rebuild $DOCS + 10,000 docs:      $(seconds "$BUILD/fts-index" build --index "$OUT/rebuilt" "$main" "$extra") s"
rm -rf "$OUT/rebuilt"

echo "== 2. latency: 20 segments with 10% deleted vs merged to one"
rm -rf "$seg"
"$BUILD/fts-index" build --index "$seg" --no-merge --max-segment-docs $(( (DOCS + 19) / 20 )) "$main" 2>/dev/null
# Every tenth id, in one commit.
"$BUILD/fts-index" delete --index "$seg" --no-merge --id $(seq 0 10 $((DOCS - 1))) >&2
"$BUILD/fts-index" info "$seg" | sed -n '2,4p'
# Terms in no segment: each segment's Bloom filter answers them without its dictionary.
for i in $(seq 1 200); do echo "zqx${i}absent"; done >"$OUT/absent.txt"
echo "20seg absent-terms count $("$BUILD/fts-bench" --index "$seg" --queries "$OUT/absent.txt" --mode count --reps "$REPS" | tail -1)"
# The lookups alone, with the Bloom filters and with the dictionaries only.
FTS_INDEX=$seg "$BUILD/bench/bloom_bench" 2>/dev/null | grep BM_
merged=$OUT/index-merged
rm -rf "$merged"
cp -r "$seg" "$merged"
echo "merge to one segment:             $(seconds "$BUILD/fts-index" merge --index "$merged") s"
# Two probes bracket the timing with the load: this machine's slow
# stretches show in the second (memory-bound, over the merged index's
# bitsets) more than in the first; a run whose probes are off their usual
# speed is not one to take figures from.
echo "abstract:from" >"$OUT/probe-term.txt"
echo "of a the to in as an by with is obs which" >"$OUT/probe-and.txt"
probes() {
  local term and
  term=$("$BUILD/fts-bench" --index "$seg" --queries "$OUT/probe-term.txt" --mode top10 --reps 2000 --warmup-s 1 | tail -1)
  and=$("$BUILD/fts-bench" --index "$merged" --queries "$OUT/probe-and.txt" --mode count --reps 100 --warmup-s 1 | tail -1)
  echo "probes $1: abstract:from top10 on 20 segments $(echo "$term" | grep -o '"p50_us":[0-9.]*' | cut -d: -f2) us;" \
    "12-word AND count merged $(echo "$and" | grep -o '"p50_us":[0-9.]*' | cut -d: -f2) us; load $(cut -d' ' -f1-3 /proc/loadavg)"
}
fts_query() { "$BUILD/fts-bench" --index "$1" --queries "$2" --mode "$3" --reps "$REPS"; }
probes before
time_segments_against_merged "$seg" "$merged" "$OUT/rounds" fts_query
probes after

echo "== 3. delete 10,000 urls"
# awk reads to the end: head would close the pipe under pipefail.
urls=$(zcat "$main" | sed -n 's:.*<url>\(.*\)</url>.*:\1:p' | awk 'NR % 97 == 0 && ++n <= 10000')
# One url: the cost a commit of one update pays to find the docs it replaces.
echo "delete 1 url:                     $(seconds "$BUILD/fts-index" delete --index "$idx" --url "$(echo "$urls" | head -1)") s"
echo "delete 10,000 urls:               $(seconds "$BUILD/fts-index" delete --index "$idx" --url $urls) s"

echo "== 4. reopen after a small commit (1 doc added, 1 deleted)"
FTS_INDEX=$idx "$BUILD/bench/reopen_bench" 2>/dev/null | grep BM_
