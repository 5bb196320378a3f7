#!/usr/bin/env python3
"""Targets table and latency chart of one bench/compare.sh run.

usage: report.py --corpus NAME --out DIR [--svg FILE]

Reads DIR/NAME.ENGINE.build.json, DIR/NAME.QSET.ENGINE.MODE.jsonl and
DIR/NAME.cold.json (as written by bench/compare.sh), prints per query set and
mode the p50 / p95 latency of every engine with fts / Lucene ratios, checks the
targets of issue 5 (BENCHMARKS.md) and writes an SVG bar chart of the p50
latency per query set and engine (log scale), one panel per mode, drawn
with matplotlib (Debian python3-matplotlib).
"""
import argparse
import glob
import json
import math
import os
import sys

ENGINES = ["fts", "lucene", "xapian", "sqlite-fts5"]
COLORS = {"fts": "#d62728", "lucene": "#1f77b4", "xapian": "#2ca02c", "sqlite-fts5": "#9467bd"}
MODES = ["count", "top10", "top10-fast"]
# Targets fts / Lucene per mode and query set: the sum of the per-query
# medians at most TOTAL, the p95 at most P95, and no single query more than
# WORST_QUERY times Lucene's.
TOTAL = 0.5
P95 = 1.0
WORST_QUERY = 3.0


def nearest_rank(vals, p):
    if not vals:
        return None
    vals = sorted(vals)
    return vals[max(1, math.ceil(p / 100.0 * len(vals))) - 1]


def query_records(path):
    """The per-query records of a run (JSON lines; summary and other lines skipped)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            rec = json.loads(line)
            if "query" in rec:
                yield rec


def load_run(path):
    """p50/p95/total over the per-query medians of the accepted queries."""
    lat = []
    per_query = []
    errors = 0
    for rec in query_records(path):
        if rec.get("error") is None and rec.get("latency_us") is not None:
            lat.append(rec["latency_us"])
            per_query.append((rec["query"], rec["latency_us"]))
        else:
            errors += 1
    if not lat:
        return None
    return {"p50": nearest_rank(lat, 50), "p95": nearest_rank(lat, 95), "total": sum(lat), "n": len(lat),
            "queries": per_query, "errors": errors}


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_ratio(r):
    return "-" if r is None else "%.2f" % r


def verdict(r, limit):
    if r is None:
        return "n/a"
    return "met" if r <= limit else "MISSED by %.0f%%" % ((r / limit - 1) * 100)


def svg_chart(corpus, sets, runs, path):
    """Grouped bars of the p50 latency per query set and engine, one panel per mode, log scale."""
    # Imported here: the readers above (least_medians.py's too) need no
    # matplotlib, which belongs to Debian's /usr/bin/python3 alone.
    try:
        import matplotlib
    except ImportError:
        sys.exit("report.py: matplotlib is missing (apt-get install python3-matplotlib; it belongs to /usr/bin/python3)")
    matplotlib.use("svg")  # no display needed
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller files, searchable labels
    matplotlib.rcParams["svg.hashsalt"] = "fts"  # stable element ids from run to run
    import matplotlib.pyplot as plt  # after the backend is chosen
    from matplotlib import patches, ticker
    modes = [m for m in MODES if any(k[2] == m for k in runs)] or MODES
    engines = [e for e in ENGINES if any(k[1] == e for k in runs)]
    p50s = [r["p50"] for r in runs.values() if r["p50"] > 0]  # a log scale has no 0
    fig, axes = plt.subplots(len(modes), 1, sharex=True, sharey=True, squeeze=False,
                             figsize=(min(16, 2 + 0.25 * max(1, len(engines)) * max(1, len(sets))), 1 + 2.6 * len(modes)))
    width = 0.8 / max(1, len(engines))
    for ax, mode in zip(axes[:, 0], modes):
        for ei, e in enumerate(engines):
            have = [(si, runs[(s, e, mode)]["p50"]) for si, s in enumerate(sets)
                    if (s, e, mode) in runs and runs[(s, e, mode)]["p50"] > 0]
            xs = [si + (ei - (len(engines) - 1) / 2) * width for si, _ in have]
            bars = ax.bar(xs, [p50 for _, p50 in have], width, color=COLORS[e])
            ax.bar_label(bars, labels=["%.3g" % p50 if p50 < 100 else "%.0f" % p50 for _, p50 in have],
                         rotation=90, padding=2, fontsize=7)
        ax.set_title("%s mode" % mode, loc="left", fontsize=10)
        ax.set_ylabel("µs")
        ax.grid(axis="y", which="major", color="#ddd")
        ax.set_axisbelow(True)
    bottom = axes[-1, 0]  # the scale, the limits and the query sets are shared by every panel
    bottom.set_yscale("log")
    bottom.set_ylim(10 ** math.floor(math.log10(min(p50s, default=1))),  # the decade below the fastest
                    max(p50s, default=10) * 4)  # room for the labels above the bars
    bottom.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "%g" % v))
    bottom.set_xticks(range(len(sets)), sets, rotation=30, ha="right")
    if engines:
        axes[0, 0].legend(handles=[patches.Patch(color=COLORS[e], label=e) for e in engines], ncol=len(engines),
                          loc="lower right", bbox_to_anchor=(1, 1), frameon=False, fontsize=9)
    fig.suptitle("p50 query latency per query set, %s (log scale; lower is better)" % corpus)
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})  # no date: the same run gives the same file
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--svg")
    a = ap.parse_args()
    pre = os.path.join(a.out, a.corpus + ".")

    builds = {}
    for e in ENGINES:
        p = pre + e + ".build.json"
        if os.path.exists(p):
            with open(p) as f:
                builds[e] = json.loads(f.readline())
    runs = {}
    sets = []
    for p in sorted(glob.glob(pre + "*.jsonl")):
        rest = os.path.basename(p)[len(a.corpus) + 1:-len(".jsonl")]
        qs, e, mode = rest.rsplit(".", 2)
        r = load_run(p)
        if r is None:
            continue
        runs[(qs, e, mode)] = r
        if qs not in sets:
            sets.append(qs)
    order = ["and", "or", "not", "mixed", "field", "phrase", "benchmark-game", "ambiguous", "edge"]
    sets.sort(key=lambda s: (order.index(s) if s in order else len(order), s))

    print("== %s: builds (ratio = fts / lucene)" % a.corpus)
    print("%-12s %9s %14s %20s %12s" % ("engine", "build_s", "index_bytes", "postings+dict bytes", "peak_rss_MB"))
    for e, b in builds.items():
        print("%-12s %9.2f %14d %20s %12.1f" % (e, b["build_s"], b["index_bytes"],
                                                b.get("postings_dict_bytes", "-"), b["peak_rss_mb"]))
    checks = []
    f, l = builds.get("fts"), builds.get("lucene")
    if f and l:
        checks.append(("build wall time", ratio(f["build_s"], l["build_s"]), 0.5))
        checks.append(("index size (postings + dictionary)",
                       ratio(f.get("postings_dict_bytes"), l.get("postings_dict_bytes")), 0.8))
        checks.append(("peak build memory", ratio(f["peak_rss_mb"], l["peak_rss_mb"]), 1.0))

    print("\n== %s: latency per query set (µs, p50 / p95 of the per-query medians)" % a.corpus)
    engines = [e for e in ENGINES if any(k[1] == e for k in runs)]
    worst = []  # (ratio, mode, set, query, fts us, lucene us)
    for mode in MODES:
        print("\n%-15s" % mode + "".join("%22s" % e for e in engines) + "   fts/lucene total   p50   p95")
        for s in sets:
            row = "%-15s" % s
            for e in engines:
                r = runs.get((s, e, mode))
                row += "%22s" % ("-" if r is None else "%.1f / %.1f" % (r["p50"], r["p95"]))
            fr, lr = runs.get((s, "fts", mode)), runs.get((s, "lucene", mode))
            rt = ratio(fr and fr["total"], lr and lr["total"])
            r50 = ratio(fr and fr["p50"], lr and lr["p50"])
            r95 = ratio(fr and fr["p95"], lr and lr["p95"])
            print(row + "   %16s %5s %5s" % (fmt_ratio(rt), fmt_ratio(r50), fmt_ratio(r95)))
            if fr and lr:
                checks.append(("%s total %s" % (mode, s), rt, TOTAL))
                checks.append(("%s p95 %s" % (mode, s), r95, P95))
                theirs = dict(lr["queries"])
                for q, us in fr["queries"]:
                    # Sub-microsecond medians are timer noise, not a ratio.
                    if theirs.get(q) and us > 0 and max(us, theirs[q]) >= 1.0:
                        worst.append((us / theirs[q], mode, s, q, us, theirs[q]))

    cold = pre + "cold.json"
    if os.path.exists(cold):
        with open(cold) as fh:
            c = json.loads(fh.readline())
        cpu = c.get("cold_query_cpu_ms_median")
        if cpu is not None:
            checks.append(("cold process open + one query, CPU ms / 20", cpu / 20.0, 1.0))
        checks.append(("cold process open + one query, wall ms / 20", c["cold_query_ms_median"] / 20.0, 1.0))
        print("\ncold process open + query: wall median %.1f ms (max %.1f), CPU (user+sys) median %s ms;"
              " spawning /bin/true takes %s ms wall here; %d runs"
              % (c["cold_query_ms_median"], c["cold_query_ms_max"], cpu, c.get("spawn_true_ms_median"), c["runs"]))

    worst.sort(reverse=True)
    if worst:
        checks.append(("slowest single query", worst[0][0], WORST_QUERY))
        print("\n== %s: the ten queries slowest against Lucene (fts us / lucene us)" % a.corpus)
        for r, mode, s, q, us, theirs in worst[:10]:
            print("%6.2f  %-10s %-15s %9.1f %9.1f  %s" % (r, mode, s, us, theirs, q[:70]))

    print("\n== %s: targets (fts / lucene, same run)" % a.corpus)
    for name, r, limit in checks:
        print("%-48s %6s  <= %-4s %s" % (name, fmt_ratio(r), limit, verdict(r, limit)))
    svg = a.svg or pre + "latency.svg"
    svg_chart(a.corpus, sets, runs, svg)
    print("\nchart: %s" % svg)


if __name__ == "__main__":
    sys.exit(main())
