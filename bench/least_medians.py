#!/usr/bin/env python3
"""The least of each query's medians over several fts-bench runs of one
query file (JSON lines), summed: one summary line, as fts-bench's last,
with total_latency_us, p50_us, p95_us (nearest rank), queries (those that
ran), errors (the most of any run) and rounds. Reads the runs with
report.py's load_run.

    least_medians.py RUN.jsonl...
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import load_run, nearest_rank  # noqa: E402


def main(paths):
    least = {}  # by (query, occurrence): a file may repeat a query
    errors = 0
    for path in paths:
        run = load_run(path)
        if run is None:
            continue
        errors = max(errors, run["errors"])
        seen = {}
        for query, us in run["queries"]:
            seen[query] = seen.get(query, 0) + 1
            key = (query, seen[query])
            least[key] = min(least.get(key, float("inf")), us)
    times = list(least.values())
    print(json.dumps({"engine": "fts", "queries": len(times), "errors": errors, "rounds": len(paths),
                      "total_latency_us": round(sum(times), 3),
                      "p50_us": round(nearest_rank(times, 50) or 0, 3),
                      "p95_us": round(nearest_rank(times, 95) or 0, 3)}))


if __name__ == "__main__":
    main(sys.argv[1:])
