#!/bin/sh
# Side-by-side benchmark of fts against Lucene 8, Xapian and SQLite FTS5 in one
# run on one machine (../shared/peers harnesses). Ratios within one run are what
# count: absolute times on a shared machine are noisy.
#
#   bench/compare.sh [--quick] [--corpus gcide|zipf1m|zipf6m|both] [--out DIR] [--reps N]
#                    [--sets "and or ..."] [--modes "count top10 top10-fast"] [--skip-build]
#                    [--engines "fts lucene ..."] [--rounds N]
#
#   --quick        fts and Lucene only
#   --corpus       gcide (126k docs), zipf1m (1,000,000 docs generated with
#                  ../shared/corpus/make-zipf-dump.py --seed 42 into OUT if absent), zipf6m
#                  (6,000,000 docs, the size of the English Wikipedia abstract dump, likewise)
#                  or both (gcide and zipf1m, the default)
#   --out DIR      results, indexes and the generated dump (default /tmp/fts-compare)
#   --reps N       timed repetitions per query (default 10; the median is reported)
#   --sets LIST    query sets (names in ../shared/queries without .txt; default: every *.txt)
#   --modes LIST   count, top10 (exact count), top10-fast (count may stop early); default all three
#   --skip-build   reuse the indexes and build lines already in OUT
#   --rounds N     time every query file N times per engine (default 1), the
#                  engines in turn per file, their order rotated each round;
#                  each query keeps its least median (bench/least_medians.py)
#
# Writes OUT/CORPUS.ENGINE.build.json, OUT/CORPUS.QSET.ENGINE.MODE.jsonl,
# OUT/CORPUS.compare.txt (../shared/peers/compare.py), OUT/CORPUS.targets.txt
# (fts / Lucene ratios against the targets of BENCHMARKS.md) and
# OUT/CORPUS.latency.svg (p50 latency per query set and engine), and
# OUT/CORPUS.load.txt (the load average before and after: figures count only
# when it starts under 1 with nothing else running).
# Environment: FTS_BUILD (fts build directory, default build-perf, Release),
# SHARED (default ../shared next to the repository), WARMUP_S (seconds of
# untimed passes per query file and engine, default 10: Lucene's JIT needs them).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SHARED=${SHARED:-$(cd "$REPO/../shared" && pwd)}
PEERS=$SHARED/peers
FTS_BUILD=${FTS_BUILD:-$REPO/build-perf}
OUT=/tmp/fts-compare
CORPORA="gcide zipf1m"
REPS=10
WARMUP_S=${WARMUP_S:-10}
MODES="count top10 top10-fast"
ENGINES="fts lucene xapian sqlite-fts5"
SETS=""
SKIP_BUILD=0
ROUNDS=1
# report.py draws with Debian's python3-matplotlib, which belongs to
# /usr/bin/python3, whatever python3 comes first on PATH.
REPORT_PYTHON=/usr/bin/python3
[ -x "$REPORT_PYTHON" ] || REPORT_PYTHON=python3

usage() { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) ENGINES="fts lucene" ;;
    --engines) ENGINES=$2; shift ;;
    --corpus)
      case "$2" in gcide | zipf1m | zipf6m) CORPORA=$2 ;; both) CORPORA="gcide zipf1m" ;; *) usage ;; esac
      shift ;;
    --out) OUT=$2; shift ;;
    --reps) REPS=$2; shift ;;
    --sets) SETS=$2; shift ;;
    --modes) MODES=$2; shift ;;
    --skip-build) SKIP_BUILD=1 ;;
    --rounds) ROUNDS=$2; shift ;;
    -h | --help) usage ;;
    *) echo "compare.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
[ -n "$SETS" ] || SETS=$(cd "$SHARED/queries" && ls *.txt | sed 's/\.txt$//' | tr '\n' ' ')
mkdir -p "$OUT/index"
log() { echo "== $*" >&2; }

# fts in Release, built only when the binaries are missing (rebuild by hand after changes).
if [ ! -x "$FTS_BUILD/fts-index" ] || [ ! -x "$FTS_BUILD/fts-bench" ] || [ ! -x "$FTS_BUILD/fts-search" ]; then
  log "building fts (Release) in $FTS_BUILD"
  cmake -S "$REPO" -B "$FTS_BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$FTS_BUILD" -j2 --target fts-index fts-bench fts-search >/dev/null
fi

dump_of() {
  case "$1" in
    gcide) echo "$SHARED/corpus/gcide.xml.gz" ;;
    zipf1m | zipf6m)
      docs=1000000
      [ "$1" = zipf6m ] && docs=6000000
      if [ ! -f "$OUT/$1.xml.gz" ]; then
        log "generating the $docs-doc dump (seed 42)"
        python3 "$SHARED/corpus/make-zipf-dump.py" "$docs" "$OUT/$1.xml.gz.tmp" --seed 42 >&2
        mv "$OUT/$1.xml.gz.tmp" "$OUT/$1.xml.gz"
      fi
      echo "$OUT/$1.xml.gz" ;;
  esac
}

# Sum of the sizes of the files in DIR whose names end in one of the given suffixes.
bytes_of() {
  dir=$1; shift
  total=0
  for suffix in "$@"; do
    for f in "$dir"/*"$suffix"; do
      [ -f "$f" ] && total=$((total + $(stat -c %s "$f")))
    done
  done
  echo $total
}

# fts build: the line of the peers' schema. index_bytes leaves the doc store
# (.docs, which Lucene's index does not have) out; postings_dict_bytes is the
# part the size target is about (postings + positions + dictionary).
build_fts() {
  dump=$1 dir=$2 json=$3
  t0=$(date +%s.%N)
  "$FTS_BUILD/fts-index" build --index "$dir" --ram-mb 256 "$dump" 2>"$json.err"
  t1=$(date +%s.%N)
  summary=$(tail -n 1 "$json.err")
  docs=$(echo "$summary" | sed -n 's/^fts-index: \([0-9]*\) docs.*/\1/p')
  peak=$(echo "$summary" | sed -n 's/.*peak memory \([0-9.]*\) MB.*/\1/p')
  pd=$(bytes_of "$dir" .post .pos .dict)
  norms=$(bytes_of "$dir" .norms)
  store=$(bytes_of "$dir" .docs)
  printf '{"engine":"fts","docs":%s,"build_s":%s,"index_bytes":%s,"peak_rss_mb":%s,"postings_dict_bytes":%s,"docstore_bytes":%s}\n' \
    "$docs" "$(echo "$t1 - $t0" | bc)" "$((pd + norms))" "$peak" "$pd" "$store" >"$json"
}

# The peers' harnesses need Java and Lucene 8, Xapian or SQLite from Debian.
need=""
for e in $ENGINES; do
  case "$e" in
    lucene) need="$need liblucene8-java default-jdk-headless" ;;
    xapian) need="$need libxapian-dev" ;;
    sqlite-fts5) need="$need libsqlite3-dev" ;;
  esac
done
missing=""
for p in $need; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"; done
if [ -n "$missing" ]; then
  log "installing$missing"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >&2
fi

# The engines, first rotated left by round - 1: rotated ROUND ENGINE...
rotated() {
  k=0; [ $# -gt 1 ] && k=$(( ($1 - 1) % ($# - 1) )); shift
  i=0; for e in "$@"; do [ $i -ge $k ] && printf '%s ' "$e"; i=$((i + 1)); done
  i=0; for e in "$@"; do [ $i -lt $k ] && printf '%s ' "$e"; i=$((i + 1)); done
  echo
}

case "$ROUNDS" in '' | *[!0-9]* | 0) echo "compare.sh: --rounds takes a positive number" >&2; usage ;; esac
[ "$ROUNDS" -gt 1 ] && mkdir -p "$OUT/rounds"

for corpus in $CORPORA; do
  dump=$(dump_of "$corpus")
  built=""
  echo "before: $(cat /proc/loadavg)" >"$OUT/$corpus.load.txt"
  for e in $ENGINES; do
    idx=$OUT/index/$corpus.$e
    json=$OUT/$corpus.$e.build.json
    if [ "$SKIP_BUILD" = 0 ] || [ ! -s "$json" ]; then
      log "$e build $corpus"
      if [ "$e" = fts ]; then
        build_fts "$dump" "$idx" "$json"
      else
        "$PEERS/run.sh" "$e" build "$dump" "$idx" >"$json" 2>"$json.err" || {
          echo "!! $e build failed (see $json.err)" >&2; rm -f "$json"; continue; }
      fi
      cat "$json" >&2
    fi
    # The size target compares postings + dictionary; Lucene's are .doc .pos .tim .tip.
    if [ "$e" = lucene ] && ! grep -q postings_dict_bytes "$json"; then
      pd=$(bytes_of "$idx" .doc .pos .tim .tip)
      sed -i "s/}\$/,\"postings_dict_bytes\":$pd}/" "$json"
    fi
    built="$built $e"
  done
  # Per query file and mode the engines in turn, so that a stretch of minutes
  # in which this machine runs slow falls on all of them; with rounds, in an
  # order rotated each round, and each query's least median kept.
  for qs in $SETS; do
    for mode in $MODES; do
      qf=$SHARED/queries/$qs.txt
      rm -f "$OUT/rounds/$corpus.$qs".*".$mode".*.jsonl  # an earlier run's rounds
      for round in $(seq 1 "$ROUNDS"); do
        # shellcheck disable=SC2086
        for e in $(rotated "$round" $built); do
          log "$e $mode $corpus/$qs, round $round of $ROUNDS"
          res=$OUT/$corpus.$qs.$e.$mode.jsonl
          [ "$ROUNDS" -gt 1 ] && res=$OUT/rounds/$corpus.$qs.$e.$mode.$round.jsonl
          idx=$OUT/index/$corpus.$e
          # This machine pages file pages out of the page cache with most
          # memory free: a DAMON scheme (/sys/kernel/mm/damon) pages out every
          # file page that no process maps once it has gone unread for about
          # 60 s, kdamond spending up to 0.8 s of CPU a second on it. An index
          # half out of the page cache made fts's 6M sums up to 2.6 times those
          # of an earlier run. Every engine reads its whole index before each
          # file, so each starts from the same state (all of it cached); the
          # pages a run maps stay for the run.
          find "$idx" -type f -exec cat {} + >/dev/null
          if [ "$e" = fts ]; then
            "$FTS_BUILD/fts-bench" --index "$idx" --queries "$qf" --mode "$mode" --reps "$REPS" --warmup-s "$WARMUP_S" >"$res" || echo "!! failed" >&2
          else
            "$PEERS/run.sh" "$e" query "$idx" "$qf" --mode "$mode" --reps "$REPS" --warmup-s "$WARMUP_S" >"$res" || echo "!! failed" >&2
          fi
        done
      done
      if [ "$ROUNDS" -gt 1 ]; then
        for e in $built; do
          "$REPORT_PYTHON" "$HERE/least_medians.py" --rows "$OUT/rounds/$corpus.$qs.$e.$mode".*.jsonl >"$OUT/$corpus.$qs.$e.$mode.jsonl"
        done
      fi
    done
  done
  # Opening an index and answering one query from a fresh process (index in the page cache).
  if [ -d "$OUT/index/$corpus.fts" ]; then
    find "$OUT/index/$corpus.fts" -type f -exec cat {} + >/dev/null
    python3 - "$FTS_BUILD/fts-search" "$OUT/index/$corpus.fts" >"$OUT/$corpus.cold.json" <<'EOF'
import json, resource, statistics, subprocess, sys, time
tool, index = sys.argv[1:3]
def runs(cmd, n=21):
    wall, cpu = [], []
    for _ in range(n):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        wall.append((time.perf_counter() - t0) * 1000)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
    return statistics.median(wall), statistics.median(cpu), max(wall)
wall, cpu, worst = runs([tool, "--index", index, "--limit", "10", "wild cat"])
spawn, spawn_cpu, _ = runs(["/bin/true"])
# Wall time on a loaded 2-core machine is mostly waiting for a core; the
# process's own CPU time (user + sys) is the figure that does not depend on load.
print(json.dumps({"engine": "fts", "cold_query_ms_median": round(wall, 2), "cold_query_ms_max": round(worst, 2),
                  "cold_query_cpu_ms_median": round(cpu, 2), "spawn_true_ms_median": round(spawn, 2), "runs": 21}))
EOF
  fi
  echo "after: $(cat /proc/loadavg)" >>"$OUT/$corpus.load.txt"
  log "comparison $corpus"
  files=$(ls "$OUT/$corpus".*.jsonl "$OUT/$corpus".*.build.json 2>/dev/null)
  # shellcheck disable=SC2086
  python3 "$PEERS/compare.py" $files >"$OUT/$corpus.compare.txt" || true
  "$REPORT_PYTHON" "$HERE/report.py" --corpus "$corpus" --out "$OUT" >"$OUT/$corpus.targets.txt"
  cat "$OUT/$corpus.load.txt" "$OUT/$corpus.compare.txt" "$OUT/$corpus.targets.txt"
done
