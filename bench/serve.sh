#!/usr/bin/env bash
# Load test of fts-serve with wrk, loopback only: starts the server on INDEX,
# runs wrk with bench/serve_queries.lua (64 connections, 60 s by default),
# prints wrk's summary line (req/s, p50/p90/p99, non-200 count), the
# server's peak RSS and its /stats, and beside them fts-bench's single-thread
# rate on the same queries so the cost of HTTP shows.
#   bench/serve.sh INDEX [QUERIES] [SECONDS] [CONNECTIONS]
#   bench/serve.sh /path/to/1m-index ../shared/queries/benchmark-game.txt 60 64
set -euo pipefail
cd "$(dirname "$0")/.."
index=${1:?usage: bench/serve.sh INDEX [QUERIES] [SECONDS] [CONNECTIONS]}
queries=${2:-../shared/queries/benchmark-game.txt}
seconds=${3:-60}
connections=${4:-64}
build=${BUILD:-build-test}
threads=${THREADS:-$(nproc)}
command -v wrk >/dev/null || { echo "serve.sh: wrk is not installed (scripts/install-deps.sh)" >&2; exit 1; }

out=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$out"' EXIT
# The connection cap and admission bound above wrk's load: a 503 would count as an error.
"$build/fts-serve" --index "$index" --listen 127.0.0.1:0 --threads "$threads" --access-log none \
  --max-connections $((connections * 2 + 16)) --max-pending $((connections * 4)) >"$out/stdout" 2>"$out/stderr" &
server=$!
for _ in $(seq 100); do grep -q listening "$out/stdout" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$out/stdout") || { cat "$out/stderr" >&2; exit 1; }
echo "fts-serve on $url, $threads threads; wrk: $connections connections, $seconds s"

FTS_QUERIES=$queries wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s bench/serve_queries.lua "$url" \
  | tee "$out/wrk" | grep '^fts-serve'
echo "server peak RSS: $(awk '/VmHWM/ {printf "%.1f MB", $2 / 1024}' /proc/$server/status)"
echo "server /stats: $(curl -s "$url/stats")"
echo "fts-bench single thread, same queries (top10):"
"$build/fts-bench" --index "$index" --queries "$queries" --mode top10 --reps 1 | tail -1
