#!/usr/bin/env bash
# Write throughput of fts-serve --writable, loopback only: copies INDEX to a
# temporary directory, starts the server on the copy, posts the docs of DUMP
# as JSON lines in batches of BATCH docs on one keep-alive connection,
# commits every COMMIT_EVERY batches and at the end, and prints docs/s of the
# adds alone and overall, the mean and largest commit time, and the final
# /stats docs and generation. The original INDEX is not touched.
#   bench/serve_writes.sh INDEX DUMP [BATCH] [COMMIT_EVERY]
#   bench/serve_writes.sh /path/to/1m-index ../shared/corpus/enwiki-abridged.xml.gz 1000 10
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: bench/serve_writes.sh INDEX DUMP [BATCH] [COMMIT_EVERY]"
index=${1:?$usage}
dump=${2:?$usage}
batch=${3:-1000}
commit_every=${4:-10}
build=${BUILD:-build-test}

out=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$out"' EXIT
cp -r "$index" "$out/index"
head -c 24 /dev/urandom | base64 >"$out/token"
"$build/fts-serve" --index "$out/index" --listen 127.0.0.1:0 --access-log none --writable --token-file "$out/token" \
  >"$out/stdout" 2>"$out/stderr" &
server=$!
for _ in $(seq 100); do grep -q listening "$out/stdout" && break; sleep 0.1; done
port=$(grep -o '127.0.0.1:[0-9]*' "$out/stdout" | cut -d: -f2) || { cat "$out/stderr" >&2; exit 1; }
echo "fts-serve --writable on 127.0.0.1:$port; $dump in batches of $batch, a commit every $commit_every"

python3 - "$port" "$(cat "$out/token")" "$dump" "$batch" "$commit_every" <<'PY'
import gzip, http.client, json, sys, time
import xml.etree.ElementTree as ET

port, token, dump, batch, commit_every = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
auth = {"Authorization": f"Bearer {token}"}

def call(method, path, body=None, headers=auth):
    conn.request(method, path, body=body, headers=headers)
    r = conn.getresponse()
    data = r.read()
    if r.status != 200:
        sys.exit(f"serve_writes.sh: {method} {path}: {r.status} {data[:200]!r}")
    return json.loads(data)

def batches():
    opener = gzip.open if open(dump, "rb").read(2) == b"\x1f\x8b" else open
    lines = []
    with opener(dump, "rb") as f:
        for _, el in ET.iterparse(f):
            if el.tag != "doc":
                continue
            title = el.findtext("title") or ""
            doc = {"title": title.removeprefix("Wikipedia: "), "url": el.findtext("url") or "",
                   "abstract": el.findtext("abstract") or ""}
            el.clear()
            lines.append(json.dumps(doc))
            if len(lines) == batch:
                yield ("\n".join(lines) + "\n").encode()
                lines = []
    if lines:
        yield ("\n".join(lines) + "\n").encode()

add_s, commits, docs, n = 0.0, [], 0, 0
start = time.monotonic()
for body in batches():
    t = time.monotonic()
    docs += call("POST", "/docs", body, {**auth, "Content-Type": "application/x-ndjson"})["added"]
    add_s += time.monotonic() - t
    n += 1
    if n % commit_every == 0:
        t = time.monotonic()
        call("POST", "/commit")
        commits.append(time.monotonic() - t)
t = time.monotonic()
call("POST", "/commit")
commits.append(time.monotonic() - t)
total = time.monotonic() - start
conn.request("GET", "/stats")
stats = json.loads(conn.getresponse().read())
print(f"serve_writes: {docs} docs in {n} batches, adds {docs / max(add_s, 1e-9):.0f} docs/s, "
      f"overall {docs / total:.0f} docs/s ({total:.2f} s incl. {len(commits)} commits: "
      f"mean {1000 * sum(commits) / len(commits):.1f} ms, max {1000 * max(commits):.1f} ms); "
      f"index now {stats['docs']} docs, generation {stats['generation']}")
PY
echo "server peak RSS: $(awk '/VmHWM/ {printf "%.1f MB", $2 / 1024}' /proc/$server/status)"
