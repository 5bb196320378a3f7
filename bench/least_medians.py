#!/usr/bin/env python3
"""The least of each query's medians over several fts-bench runs of one
query file (JSON lines), summed: one summary line, as fts-bench's last,
with total_latency_us, p50_us, p95_us, queries, errors and rounds.

    least_medians.py RUN.jsonl...
"""
import json
import sys


def main(paths):
    least = {}
    errors = 0
    for path in paths:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                if "query" not in row:
                    continue
                if row.get("latency_us") is None:
                    errors += 1
                    continue
                q = row["query"]
                least[q] = min(least.get(q, float("inf")), row["latency_us"])
    times = sorted(least.values())
    def pct(p):
        return times[min(len(times) - 1, int(p * len(times)))] if times else 0
    print(json.dumps({"engine": "fts", "queries": len(least), "errors": errors // max(1, len(paths)),
                      "rounds": len(paths), "total_latency_us": round(sum(times), 3),
                      "p50_us": round(pct(0.5), 3), "p95_us": round(pct(0.95), 3)}))


if __name__ == "__main__":
    main(sys.argv[1:])
