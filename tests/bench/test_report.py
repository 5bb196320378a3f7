"""bench/report.py on the files bench/compare.sh writes: the targets table
from inputs whose ratios are known, and the matplotlib chart (an SVG with a
panel per mode, the query sets, the engines and the p50 of every bar).
The fts inputs of the last test are written by the built fts-bench."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

SOURCE = os.environ.get("FTS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
REPORT = os.path.join(SOURCE, "bench", "report.py")


def write_run(path, latencies, extra=()):
    """One JSON line per query (fts-bench's schema), after a non-JSON line the report skips."""
    with open(path, "w") as f:
        f.write("warming up\n")
        for i, us in enumerate(latencies):
            f.write(json.dumps({"engine": "e", "mode": "m", "query": "q%d" % i, "hits": 3, "latency_us": us, "error": None}) + "\n")
        for rec in extra:
            f.write(json.dumps(rec) + "\n")


def write_json(path, obj):
    with open(path, "w") as f:
        f.write(json.dumps(obj) + "\n")


def report(out, corpus="tiny", *args):
    r = subprocess.run([sys.executable, REPORT, "--corpus", corpus, "--out", str(out), *args],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def rows_of(text, name):
    return [" ".join(line.split()) for line in text.splitlines() if line.startswith(name + " ")]


def line_of(text, name):
    found = rows_of(text, name)
    assert len(found) == 1, (name, text)
    return found[0]


def chart_texts(path):
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return ["".join(t.itertext()).strip() for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """One crafted run, reported once (matplotlib takes a second to load)."""
    tmp_path = tmp_path_factory.mktemp("run")
    write_json(tmp_path / "tiny.fts.build.json",
               {"engine": "fts", "build_s": 10.0, "index_bytes": 1000, "postings_dict_bytes": 400, "peak_rss_mb": 100.0})
    write_json(tmp_path / "tiny.lucene.build.json",
               {"engine": "lucene", "build_s": 40.0, "index_bytes": 2000, "postings_dict_bytes": 1000,
                "peak_rss_mb": 200.0})
    # and/count: fts total 100 against 160, p50 20 against 40, p95 40 against 40;
    # the rejected query and the one without a latency count for nothing.
    write_run(tmp_path / "tiny.and.fts.count.jsonl", [10, 20, 30, 40],
              [{"query": "bad (", "latency_us": 1.0, "error": "syntax"}, {"query": "late", "latency_us": None}])
    write_run(tmp_path / "tiny.and.lucene.count.jsonl", [40, 40, 40, 40])
    # phrase/top10: q1 is 6 times Lucene's, the slowest single query.
    write_run(tmp_path / "tiny.phrase.fts.top10.jsonl", [50, 300])
    write_run(tmp_path / "tiny.phrase.lucene.top10.jsonl", [100, 50])
    write_run(tmp_path / "tiny.phrase.xapian.top10.jsonl", [70, 80])
    write_json(tmp_path / "tiny.cold.json", {"engine": "fts", "cold_query_ms_median": 10.0, "cold_query_ms_max": 12.5,
                                             "cold_query_cpu_ms_median": 4.0, "spawn_true_ms_median": 1.0, "runs": 21})
    return tmp_path, report(tmp_path)


def test_targets_table(run_dir):
    _, text = run_dir
    assert line_of(text, "build wall time") == "build wall time 0.25 <= 0.5 met"
    assert line_of(text, "index size (postings + dictionary)").endswith("0.40 <= 0.8 met")
    assert line_of(text, "peak build memory").endswith("0.50 <= 1.0 met")
    assert line_of(text, "count total and").endswith("0.62 <= 0.5 MISSED by 25%")
    assert line_of(text, "count p95 and").endswith("1.00 <= 1.0 met")
    assert line_of(text, "top10 total phrase").endswith("2.33 <= 0.5 MISSED by 367%")
    assert line_of(text, "slowest single query").endswith("6.00 <= 3.0 MISSED by 100%")
    assert line_of(text, "cold process open + one query, CPU ms / 20").endswith("0.20 <= 1.0 met")
    # The latency tables, count then top10 then top10-fast: p50 / p95 per
    # engine, "-" where an engine has no run.
    assert rows_of(text, "and") == ["and 20.0 / 40.0 40.0 / 40.0 - 0.62 0.50 1.00", "and - - - - - -", "and - - - - - -"]
    assert rows_of(text, "phrase")[1] == "phrase 50.0 / 300.0 50.0 / 100.0 70.0 / 80.0 2.33 1.00 3.00"
    assert "6.00  top10      phrase" in text and "300.0      50.0  q1" in text


def test_chart(run_dir):
    out, text = run_dir
    svg = out / "tiny.latency.svg"
    assert "chart: %s" % svg in text
    texts = chart_texts(svg)
    for label in ["count mode", "top10 mode", "and", "phrase", "fts", "lucene", "xapian"]:
        assert label in texts, (label, texts)
    assert "top10-fast mode" not in texts  # no run in that mode: no empty panel
    assert "p50 query latency per query set, tiny (log scale; lower is better)" in texts
    # Each bar's p50 is written on it: and/count fts 20, lucene 40; phrase/top10
    # fts 50, lucene 50, xapian 70 (the nearest rank of two values is the first).
    for value in ["20", "40", "50", "70"]:
        assert value in texts, (value, texts)


def test_chart_is_reproducible_and_svg_option(run_dir, tmp_path):
    out, _ = run_dir
    other = tmp_path / "chart.svg"
    report(out, "tiny", "--svg", str(other))
    assert other.read_bytes() == (out / "tiny.latency.svg").read_bytes()


def test_no_runs(tmp_path):
    text = report(tmp_path, "empty")
    assert "== empty: targets" in text
    chart_texts(tmp_path / "empty.latency.svg")


def test_on_fts_bench_output(tmp_path):
    """The schema fts-bench writes today is the one the report reads."""
    binary = os.environ.get("FTS_BINARY_DIR")
    if not binary:
        pytest.skip("FTS_BINARY_DIR not set (ctest sets it)")
    index = tmp_path / "index"
    subprocess.run([os.path.join(binary, "fts-index"), "build", "--index", str(index),
                    os.path.join(SOURCE, "data", "sample.xml")], check=True, capture_output=True)
    queries = tmp_path / "and.txt"
    queries.write_text("wild cat\nsearch engine\ncat -dog\n")
    out = tmp_path / "out"
    out.mkdir()
    with open(out / "sample.and.fts.count.jsonl", "w") as f:
        subprocess.run([os.path.join(binary, "fts-bench"), "--index", str(index), "--queries", str(queries),
                        "--mode", "count", "--reps", "1", "--warmup-s", "0"], check=True, stdout=f)
    measured = [json.loads(line) for line in open(out / "sample.and.fts.count.jsonl") if line.startswith("{")]
    latencies = sorted(r["latency_us"] for r in measured if "query" in r)
    assert len(latencies) == 3
    text = report(out, "sample")
    assert rows_of(text, "and")[0] == "and %.1f / %.1f - - -" % (latencies[1], latencies[2])
    assert "and" in chart_texts(out / "sample.latency.svg")
