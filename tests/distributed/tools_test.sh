#!/usr/bin/env bash
# The tools under mpirun: fts-index build --distributed, fts-search and
# fts-bench --distributed answer as the same tools over one index; a rank
# killed mid-build leaves no index visible and mpirun exits non-zero; too
# many ranks for the shards is a one-line error.
set -euo pipefail
bin="$FTS_BINARY_DIR"
src="$FTS_SOURCE_DIR"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mpi=(mpirun --oversubscribe)
fail() { echo "FAIL: $*" >&2; exit 1; }
strip() { sed -E 's/"elapsed_ms":[0-9.e+-]*//; s/"latency_us":[0-9.e+-]*//; s/"(total_latency_us|p50_us|p95_us|warmup_passes)":[0-9.e+-]*//g'; }

# Two dumps, one gzip: slices cross files and formats.
python3 - "$tmp" <<'PY'
import gzip, random, sys
words = "cat dog fish bird red blue green tree lake moon star sun river stone wind the of and".split()
rng = random.Random(7)
def doc(i):
    t = " ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
    a = " ".join(rng.choice(words) for _ in range(rng.randint(0, 40)))
    return f"<doc><title>Wikipedia: {t}</title><url>https://en.wikipedia.org/wiki/D{i}</url><abstract>{a}</abstract><links></links></doc>\n"
open(f"{sys.argv[1]}/a.xml", "w").write("<feed>\n" + "".join(doc(i) for i in range(800)) + "</feed>\n")
with gzip.open(f"{sys.argv[1]}/b.xml.gz", "wt") as f:
    f.write("<feed>\n" + "".join(doc(i) for i in range(800, 1500)) + "</feed>\n")
big = "<feed>\n" + "".join(doc(i) for i in range(150000)) + "</feed>\n"
open(f"{sys.argv[1]}/big.xml", "w").write(big)
PY
dumps=("$tmp/a.xml" "$tmp/b.xml.gz")
queries="$tmp/queries.txt"
printf '%s\n' 'cat' 'cat dog' 'cat OR dog OR fish OR moon' '"red fish"' 'title:moon -star' 'NOT river' \
  '(cat OR bird) AND lake' 'sun OR -wind' 'the' '"' 'title:' 'stone AND NOT (cat OR dog)' > "$queries"

"$bin/fts-index" build --index "$tmp/single" --threads 1 "${dumps[@]}" 2>/dev/null
for ranks in 2 3; do
  out="$tmp/sharded$ranks"
  "${mpi[@]}" -np $ranks "$bin/fts-index" build --index "$out" --distributed "${dumps[@]}" 2> "$tmp/build.err" ||
    fail "distributed build on $ranks ranks: $(cat "$tmp/build.err")"
  grep -q "1500 docs, 0 skipped, $ranks shard(s)" "$tmp/build.err" || fail "build summary: $(cat "$tmp/build.err")"
  [ -f "$out/SHARDS" ] || fail "no SHARDS after the build"
  "$bin/fts-index" check "$out" > /dev/null || fail "fts-index check of the sharded index"
  # Under a total-hits threshold (the default) each rank counts up to it:
  # the lower bounds may differ, so those runs compare hits only.
  for flags in "--json --total-hits exact" "--json --total-hits exact --limit 3 --offset 2 --sort doc" "--json --count" \
               "--json" "--json --sort doc --total-hits 5"; do
    # shellcheck disable=SC2086
    want="$("$bin/fts-search" --index "$tmp/single" $flags < "$queries" 2>/dev/null | strip || true)"
    # shellcheck disable=SC2086
    local_="$("$bin/fts-search" --index "$out" $flags < "$queries" 2>/dev/null | strip || true)"
    # shellcheck disable=SC2086
    got="$("${mpi[@]}" -np $ranks "$bin/fts-search" --index "$out" --distributed $flags < "$queries" 2>/dev/null | strip || true)"
    [ -n "$want" ] || fail "no answers from fts-search"
    if [[ $flags != *exact* && $flags != *count* ]]; then
      no_counts() { sed -E 's/"total_hits":[0-9]+,"total_hits_relation":"[a-z]+"//'; }
      want="$(no_counts <<< "$want")" local_="$(no_counts <<< "$local_")" got="$(no_counts <<< "$got")"
    fi
    [ "$want" = "$local_" ] || fail "the sharded index in one process answers otherwise ($flags)"
    [ "$want" = "$got" ] || fail "fts-search --distributed on $ranks ranks answers otherwise ($flags): $(diff <(echo "$want") <(echo "$got") | head -4)"
  done
  # One query on the command line, and its syntax error on rank 0 alone.
  [ "$("$bin/fts-search" --index "$tmp/single" --count 'cat OR dog')" = \
    "$("${mpi[@]}" -np $ranks "$bin/fts-search" --index "$out" --distributed --count 'cat OR dog')" ] ||
    fail "a command-line query"
  if "${mpi[@]}" -np $ranks "$bin/fts-search" --index "$out" --distributed '"' > /dev/null 2> "$tmp/err"; then
    fail "a syntax error exited 0"
  fi
  [ "$(grep -c 'syntax error' "$tmp/err")" = 1 ] || fail "the syntax error, once: $(cat "$tmp/err")"
  for mode in count top10 top10-fast; do
    want="$("$bin/fts-bench" --index "$tmp/single" --queries "$queries" --mode $mode --reps 1 --warmup-s 0 | strip)"
    got="$("${mpi[@]}" -np $ranks "$bin/fts-bench" --index "$out" --distributed --queries "$queries" --mode $mode \
      --reps 1 --warmup-s 0 | strip)"
    if [ $mode = top10-fast ]; then  # counts may stop early differently; the ids may not
      want="$(sed -E 's/"hits":[0-9]+,"hits_relation":"[a-z]+",//' <<< "$want")"
      got="$(sed -E 's/"hits":[0-9]+,"hits_relation":"[a-z]+",//' <<< "$got")"
    fi
    [ "$want" = "$got" ] || fail "fts-bench --distributed --mode $mode on $ranks ranks: $(diff <(echo "$want") <(echo "$got") | head -5)"
  done
done

# As many ranks as shards, or a one-line error.
if "${mpi[@]}" -np 2 "$bin/fts-search" --index "$tmp/sharded3" --distributed cat > /dev/null 2> "$tmp/err"; then
  fail "2 ranks searched 3 shards"
fi
grep -q "has 3 shards: run as many ranks, not 2" "$tmp/err" || fail "the rank-count error: $(cat "$tmp/err")"

# A rank killed in the middle of its build: mpirun fails, and the index
# that was there is no longer visible, nor is a half-built one. Rank 1 is
# killed once rank 0 has taken the old index down, not after a fixed time:
# on a loaded machine (sanitizers, tests beside) 0.5 s could pass before
# the build began, leaving the old index in place.
if "${mpi[@]}" -np 2 sh -c 'd=$1; shift
    if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
      "$@" & pid=$!
      while [ -e "$d/SHARDS" ] && kill -0 $pid 2>/dev/null; do sleep 0.01; done
      kill -KILL $pid 2>/dev/null; wait $pid; exit 1
    fi
    exec "$@"' sh "$tmp/sharded2" \
    "$bin/fts-index" build --index "$tmp/sharded2" --distributed --threads 1 "$tmp/big.xml" > /dev/null 2>&1; then
  fail "mpirun exited 0 with a rank killed"
fi
[ ! -f "$tmp/sharded2/SHARDS" ] || fail "SHARDS written although a rank died"
if "$bin/fts-search" --index "$tmp/sharded2" cat > /dev/null 2>&1; then fail "a half-built index answered"; fi

# A plain index is not overwritten by shards.
if "${mpi[@]}" -np 2 "$bin/fts-index" build --index "$tmp/single" --distributed "${dumps[@]}" 2> "$tmp/err"; then
  fail "shards built over an index of one directory"
fi
grep -q "holds an index of one directory" "$tmp/err" || fail "the plain-index error: $(cat "$tmp/err")"
# Only the MPI companions load Open MPI; a tool whose companion is missing
# says so in one line.
# (grep reads all of ldd's output: grep -q would stop early, and ldd's
# SIGPIPE fail the pipeline under pipefail.)
for tool in fts-index fts-search fts-bench; do
  ! ldd "$bin/$tool" | grep libmpi > /dev/null || fail "$tool links Open MPI"
  ldd "$bin/$tool-mpi" | grep libmpi > /dev/null || fail "$tool-mpi does not link Open MPI"
done
mkdir "$tmp/alone"
cp "$bin/fts-search" "$tmp/alone/"
status=0
"$tmp/alone/fts-search" --index "$tmp/sharded" --distributed cat > /dev/null 2> "$tmp/err" || status=$?
[ "$status" = 2 ] || fail "fts-search --distributed without its companion exited $status"
[ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "fts-search-mpi" "$tmp/err" || fail "the missing-companion error: $(cat "$tmp/err")"
echo "distributed tools: ok"
