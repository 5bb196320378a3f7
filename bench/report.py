#!/usr/bin/env python3
"""Targets table and latency chart of one bench/compare.sh run.

usage: report.py --corpus NAME --out DIR [--svg FILE]

Reads DIR/NAME.ENGINE.build.json, DIR/NAME.QSET.ENGINE.MODE.jsonl and
DIR/NAME.cold.json (as written by bench/compare.sh), prints per query set and
mode the p50 / p95 latency of every engine with fts / Lucene ratios, checks the
targets of issue 5 (BENCHMARKS.md) and writes an SVG bar chart of the p50
latency per query set and engine (log scale), count and top10 side by side.
Only the standard library: the chart is written as SVG by hand.
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


def load_run(path):
    """p50/p95/total over the per-query medians of the accepted queries."""
    lat = []
    per_query = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            rec = json.loads(line)
            if "query" in rec and rec.get("error") is None and rec.get("latency_us") is not None:
                lat.append(rec["latency_us"])
                per_query.append((rec["query"], rec["latency_us"]))
    if not lat:
        return None
    return {"p50": nearest_rank(lat, 50), "p95": nearest_rank(lat, 95), "total": sum(lat), "n": len(lat),
            "queries": per_query}


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
    engines = [e for e in ENGINES if any((s, e, m) in runs for s in sets for m in MODES)]
    vals = [runs[k]["p50"] for k in runs if runs[k]["p50"] > 0]
    lo = 10 ** math.floor(math.log10(min(vals))) if vals else 1
    hi = 10 ** math.ceil(math.log10(max(vals))) if vals else 10
    panel_w, panel_h, left, top, gap = 60 * len(sets) + 40, 300, 70, 50, 40
    width = left + len(MODES) * (panel_w + gap) + 20
    height = top + panel_h + 110
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
           % (width, height), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="14">p50 query latency per query set, %s (µs, log scale; lower is better)</text>'
           % (left, corpus)]

    def y_of(v):
        v = max(v, lo)
        return top + panel_h - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * panel_h

    for pi, mode in enumerate(MODES):
        x0 = left + pi * (panel_w + gap)
        out.append('<text x="%d" y="%d" font-size="13">%s mode</text>' % (x0 + panel_w // 2 - 30, top - 8, mode))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (x0, top, panel_w, panel_h))
        d = lo
        while d <= hi:
            y = y_of(d)
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (x0, y, x0 + panel_w, y))
            if pi == 0:
                out.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (x0 - 4, y + 4, d))
            d *= 10
        group = (panel_w - 40) / len(sets)
        bar = group * 0.8 / max(1, len(engines))
        for si, s in enumerate(sets):
            gx = x0 + 20 + si * group
            for ei, e in enumerate(engines):
                r = runs.get((s, e, mode))
                if not r or r["p50"] <= 0:
                    continue
                y = y_of(r["p50"])
                out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s %s p50 %.1f µs</title></rect>'
                           % (gx + ei * bar, y, bar, top + panel_h - y, COLORS[e], e, mode, s, r["p50"]))
            out.append('<text transform="translate(%.1f,%d) rotate(45)">%s</text>' % (gx + group * 0.3, top + panel_h + 12, s))
    for ei, e in enumerate(engines):
        lx = left + ei * 120
        ly = height - 18
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (lx, ly - 10, COLORS[e]))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 16, ly, e))
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


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
