#!/usr/bin/env python3
"""The least of each query's medians over several fts-bench runs of one
query file (JSON lines), summed: one summary line, as fts-bench's last,
with total_latency_us, p50_us, p95_us (nearest rank), queries (those that
ran), errors (the most of any run) and rounds.

    least_medians.py RUN.jsonl...
"""
import json
import math
import sys


def main(paths):
    least = {}  # by line: a file may repeat a query
    errors = 0  # the most of any run
    for path in paths:
        failed = 0
        with open(path) as f:
            rows = [json.loads(line) for line in f]
        for i, row in enumerate(r for r in rows if "query" in r):
            if row.get("latency_us") is None:
                failed += 1
                continue
            least[i] = min(least.get(i, float("inf")), row["latency_us"])
        errors = max(errors, failed)
    times = sorted(least.values())

    def pct(p):  # nearest rank, as fts-bench's
        return times[max(math.ceil(p * len(times)), 1) - 1] if times else 0

    print(json.dumps({"engine": "fts", "queries": len(least), "errors": errors,
                      "rounds": len(paths), "total_latency_us": round(sum(times), 3),
                      "p50_us": round(pct(0.5), 3), "p95_us": round(pct(0.95), 3)}))


if __name__ == "__main__":
    main(sys.argv[1:])
