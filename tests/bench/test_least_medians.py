"""bench/least_medians.py, which bench/living.sh sums its rounds with: each
query's least median over the runs, the summary and per-query error lines
of fts-bench skipped."""
import json
import os
import subprocess
import sys

SOURCE = os.environ.get("FTS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
LEAST = os.path.join(SOURCE, "bench", "least_medians.py")


def write_run(path, latencies, engine="fts", hits=1):
    """fts-bench's lines: one per query (None: the query failed), then its summary."""
    with open(path, "w") as f:
        for i, us in enumerate(latencies):
            row = {"engine": engine, "mode": "count", "query": "q%d" % i, "hits": hits, "latency_us": us,
                   "error": None if us is not None else "bad query"}
            f.write(json.dumps(row) + "\n")
        f.write(json.dumps({"engine": "fts", "mode": "count", "queries": len(latencies), "total_latency_us": 1e9}) + "\n")


def run_least(args):
    r = subprocess.run([sys.executable, LEAST, *map(str, args)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def least(paths):
    return run_least(paths)[-1]


def test_each_query_keeps_its_least_median(tmp_path):
    runs = [[10.0, 50.0, 7.0, None], [30.0, 20.0, 9.0, None], [15.0, 40.0, 8.0, None]]
    paths = []
    for i, latencies in enumerate(runs):
        paths.append(tmp_path / ("round%d.jsonl" % i))
        write_run(paths[-1], latencies)
    out = least(paths)
    assert out["total_latency_us"] == 10.0 + 20.0 + 7.0  # not any one run's sum, nor the summary lines'
    assert out["queries"] == 3
    assert out["errors"] == 1
    assert out["rounds"] == 3
    assert out["p50_us"] == 10.0


def test_one_run_is_its_own_sum(tmp_path):
    path = tmp_path / "one.jsonl"
    write_run(path, [4.0, 2.0, 6.0])
    out = least([path])
    assert out["total_latency_us"] == 12.0
    assert out["p95_us"] == 6.0


def test_percentiles_are_nearest_rank_as_fts_bench_gives_them(tmp_path):
    path = tmp_path / "twenty.jsonl"
    write_run(path, [float(us) for us in range(20, 0, -1)])
    out = least([path])
    assert out["p50_us"] == 10.0  # rank ceil(0.5 * 20) = 10
    assert out["p95_us"] == 19.0  # rank 19


def test_errors_are_the_most_of_any_run(tmp_path):
    paths = [tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"]
    write_run(paths[0], [1.0, None])
    write_run(paths[1], [2.0, 3.0])
    write_run(paths[2], [3.0, 1.0])
    out = least(paths)
    assert out["errors"] == 1
    assert out["total_latency_us"] == 2.0


def test_rows_are_each_querys_fastest_line_as_one_run(tmp_path):
    # As bench/compare.sh --rounds merges a peer's runs for compare.py: each
    # query's whole line from its fastest run, in the first run's order.
    paths = [tmp_path / "r1.jsonl", tmp_path / "r2.jsonl"]
    write_run(paths[0], [10.0, None, 5.0], engine="lucene", hits=1)
    write_run(paths[1], [20.0, None, 4.0], engine="lucene", hits=2)
    lines = run_least(["--rows", *paths])
    rows, summary = lines[:-1], lines[-1]
    assert [r["query"] for r in rows] == ["q0", "q1", "q2"]
    assert [r["latency_us"] for r in rows] == [10.0, None, 4.0]
    assert [r["hits"] for r in rows] == [1, 1, 2]  # the line of the run that was fastest
    assert rows[1]["error"] == "bad query"  # failed in every run: kept, as a failure
    assert summary["engine"] == "lucene" and summary["mode"] == "count"
    assert summary["total_latency_us"] == 14.0 and summary["errors"] == 1 and summary["rounds"] == 2


def test_rows_prefer_a_run_where_the_query_succeeded(tmp_path):
    paths = [tmp_path / "r1.jsonl", tmp_path / "r2.jsonl"]
    write_run(paths[0], [None, 3.0])
    write_run(paths[1], [8.0, 3.5])
    rows = run_least(["--rows", *paths])[:-1]
    assert rows[0]["latency_us"] == 8.0 and rows[0]["error"] is None
