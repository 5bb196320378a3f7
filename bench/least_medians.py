#!/usr/bin/env python3
"""The least of each query's medians over several runs of one query file
(JSON lines of the peers' schema, from fts-bench or a peer's harness),
summed: one summary line, as fts-bench's last, with engine, total_latency_us,
p50_us, p95_us (nearest rank, as report.py's), queries (those that ran),
errors (the most of any run) and rounds.

    least_medians.py [--rows] RUN.jsonl...

--rows: first each query's line from the run that timed it fastest (a
query that failed in every run: its first failure), in the first run's
order, so that compare.py and report.py read the result as one run.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import nearest_rank, query_records  # noqa: E402


def query_lines(path):
    """The per-query records of a run, each keyed by (query, occurrence):
    a file may repeat a query."""
    seen = {}
    for rec in query_records(path):
        seen[rec["query"]] = seen.get(rec["query"], 0) + 1
        yield (rec["query"], seen[rec["query"]]), rec


def fastest_rows(paths):
    """Each query's fastest record over the runs, and the most failed
    queries of any run."""
    best = {}  # key -> record; dicts keep the first run's order
    errors = 0
    for path in paths:
        failed = 0
        for key, rec in query_lines(path):
            ok = succeeded(rec)
            failed += not ok
            old = best.get(key)
            if old is None or (ok and (not succeeded(old) or rec["latency_us"] < old["latency_us"])):
                best[key] = rec
        errors = max(errors, failed)
    return list(best.values()), errors


def succeeded(rec):
    return rec.get("error") is None and rec.get("latency_us") is not None


def main(argv):
    print_rows = argv[:1] == ["--rows"]
    paths = argv[1:] if print_rows else argv
    rows, errors = fastest_rows(paths)
    if print_rows:
        for rec in rows:
            print(json.dumps(rec))
    times = [rec["latency_us"] for rec in rows if succeeded(rec)]
    summary = {"engine": rows[0].get("engine", "fts") if rows else "fts"}
    if rows and "mode" in rows[0]:
        summary["mode"] = rows[0]["mode"]
    summary.update({"queries": len(times), "errors": errors, "rounds": len(paths),
                    "total_latency_us": round(sum(times), 3),
                    "p50_us": round(nearest_rank(times, 50) or 0, 3),
                    "p95_us": round(nearest_rank(times, 95) or 0, 3)})
    print(json.dumps(summary))


if __name__ == "__main__":
    main(sys.argv[1:])
