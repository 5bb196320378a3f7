-- wrk script for fts-serve: each connection cycles through a query file
-- (one query per line, FTS_QUERIES, default ../shared/queries/benchmark-game.txt)
-- as GET /search?q=...&limit=10, and the summary prints requests per second,
-- latency percentiles and every non-200 answer (the target is 0).
--   wrk -t2 -c64 -d60s -s bench/serve_queries.lua http://127.0.0.1:8080
local path = os.getenv("FTS_QUERIES") or "../shared/queries/benchmark-game.txt"
local mode = os.getenv("FTS_MODE") or "search"  -- search or count

local function encode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

local paths = {}
for line in io.lines(path) do
  if line:match("%S") then
    local target = "/" .. mode .. "?q=" .. encode(line)
    if mode == "search" then target = target .. "&limit=10" end
    paths[#paths + 1] = target
  end
end
assert(#paths > 0, path .. ": no queries")

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

-- Globals of each thread (wrk reads "bad" back from every thread in done).
at, bad = 0, 0

function init(args)
  -- Threads start at different places in the file.
  at = (id * 997) % #paths
end

function request()
  at = at % #paths + 1
  return wrk.format("GET", paths[at])
end

function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end

function done(summary, latency, requests)
  local non200 = 0
  for _, t in ipairs(threads) do non200 = non200 + t:get("bad") end
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "fts-serve %s: %d queries from %s, %d requests in %.1f s: %.0f req/s, " ..
    "latency p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms; " ..
    "errors: %d non-200, %d connect, %d read, %d write, %d timeout\n",
    mode, #paths, path, summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, non200, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.timeout))
end
