"""fts-serve end to end: every endpoint and error status, on an ephemeral
loopback port, against the sample dump plus two hostile documents; answers
are checked against fts-search on the same index."""
import http.client
import json
import os
import signal
import socket
import subprocess
import tempfile
import time

import pytest

from serve_support import EXTRA_DOCS, Server, build_index, recv_all, tool, write_dump


@pytest.fixture(scope="module")
def server(index, tmp):
    with Server(index, "--threads", "2", tmp=tmp) as s:
        yield s


def fts_search(index, *args):
    out = subprocess.run([tool("fts-search"), "--index", index, *args], check=True, capture_output=True,
                         text=True, timeout=60).stdout
    return out


def q(text):
    from urllib.parse import quote
    return quote(text, safe="")


# ------------------------------------------------------------------ search

@pytest.mark.parametrize("query", ["cat", "title:cat", '"wild cat"', "cat -wild", "cat OR dog", "-cat", "zebrafinch"])
def test_search_equals_fts_search(server, index, query):
    status, body = server.get_json(f"/search?q={q(query)}&limit=20")
    assert status == 200
    expected = json.loads(fts_search(index, "--json", "--limit", "20", query))
    assert body["query"] == query
    assert body["total_hits"] == expected["total_hits"]
    assert body["total_hits_relation"] == "eq"
    assert [h["doc"] for h in body["hits"]] == [h["doc"] for h in expected["hits"]]
    for mine, theirs in zip(body["hits"], expected["hits"]):
        assert mine["title"] == theirs["title"] and mine["url"] == theirs["url"]
        assert mine["snippet"] == theirs["snippet"]
        assert abs(mine["score"] - theirs["score"]) < 1e-3
    assert [h["rank"] for h in body["hits"]] == list(range(1, len(body["hits"]) + 1))
    assert isinstance(body["took_ms"], float) or isinstance(body["took_ms"], int)


@pytest.mark.parametrize("query", ["-zebrafinch", "cat OR dog OR the OR a", "cat"])
@pytest.mark.parametrize("total", ["1", "10", "exact"])
def test_total_hits_threshold_as_fts_search(server, index, query, total):
    status, body = server.get_json(f"/search?q={q(query)}&limit=3&total_hits={total}")
    assert status == 200
    expected = json.loads(fts_search(index, "--json", "--limit", "3", "--total-hits", total, query))
    assert (body["total_hits"], body["total_hits_relation"]) == (expected["total_hits"], expected["total_hits_relation"])
    assert [h["doc"] for h in body["hits"]] == [h["doc"] for h in expected["hits"]]
    exact = int(fts_search(index, "--count", query))
    if body["total_hits_relation"] == "eq":
        assert body["total_hits"] == exact
    else:
        assert body["total_hits_relation"] == "gte" and total != "exact"
        assert int(total) <= body["total_hits"] <= exact


def test_collapse_equals_fts_search_collapse(tmp):
    d = tempfile.mkdtemp(prefix="fts-serve-collapse-", dir=tmp)
    dump = os.path.join(d, "dupes.xml")
    text = "the heron nests in tall reeds beside the slow river and feeds on small fish at dawn"
    docs = [("Grey heron", f"https://example.org/h{i}", text) for i in range(4)]
    docs += [("Kingfisher", "https://example.org/k", "the kingfisher dives from a branch for fish in the river"),
             ("Otter", "https://example.org/o", "an otter swims in the river at night hunting fish and frogs")]
    write_dump(dump, docs)
    index = os.path.join(d, "index")
    build_index(index, [dump])
    expected = json.loads(fts_search(index, "--json", "--collapse", "--limit", "10", "fish"))
    assert (expected["total_hits"], expected["collapsed_hits"]) == (6, 3)
    with Server(index, tmp=tmp) as s:
        status, body = s.get_json("/search?q=fish&collapse=1")
        assert status == 200
        assert (body["total_hits"], body["collapsed_hits"]) == (6, 3)
        assert [(h["doc"], h["duplicates"]) for h in body["hits"]] == \
            [(h["doc"], h["duplicates"]) for h in expected["hits"]]
        assert sorted(h["duplicates"] for h in body["hits"]) == [0, 0, 3]
        status, body = s.get_json("/search?q=fish&collapse=0")
        assert status == 200 and len(body["hits"]) == 6
        assert "collapsed_hits" not in body and "duplicates" not in body["hits"][0]
        for target, needle in [("/search?q=fish&collapse=yes", "collapse is 0 or 1"),
                               ("/search?q=fish&collapse=1&collapse=1", "collapse given twice"),
                               ("/count?q=fish&collapse=1", "unknown parameter 'collapse'")]:
            status, body = s.get_json(target)
            assert status == 400 and needle in body["error"], (target, body)


def test_total_hits_is_a_lower_bound_past_the_threshold(tmp):
    # Enough docs of few words that top-k of an OR may skip counting.
    import random
    rng = random.Random(7)
    d = tempfile.mkdtemp(prefix="fts-serve-total-", dir=tmp)
    words = ["alpha", "beta", "gamma", "delta", "omega", "kappa"]
    docs = [(f"Doc {i}", f"https://example.org/{i}", " ".join(rng.choice(words) for _ in range(rng.randint(3, 30))))
            for i in range(2000)]
    write_dump(os.path.join(d, "words.xml"), docs)
    index = os.path.join(d, "index")
    build_index(index, [os.path.join(d, "words.xml")])
    query = "alpha OR beta"
    exact = int(fts_search(index, "--count", query))
    with Server(index, tmp=tmp) as s:
        _, lower = s.get_json(f"/search?q={q(query)}&limit=3&total_hits=10")
        cli = json.loads(fts_search(index, "--json", "--limit", "3", "--total-hits", "10", query))
        assert lower["total_hits_relation"] == cli["total_hits_relation"] == "gte"
        assert 10 <= lower["total_hits"] == cli["total_hits"] <= exact
        _, full = s.get_json(f"/search?q={q(query)}&limit=3&total_hits=exact")
        assert (full["total_hits"], full["total_hits_relation"]) == (exact, "eq")
        assert [h["doc"] for h in full["hits"]] == [h["doc"] for h in lower["hits"]]  # the top is exact either way


def test_total_hits_default_is_the_cli_default(server, index):
    _, body = server.get_json("/search?q=" + q("-zebrafinch") + "&limit=1")
    expected = json.loads(fts_search(index, "--json", "--limit", "1", "-zebrafinch"))
    assert (body["total_hits"], body["total_hits_relation"]) == (expected["total_hits"], "eq")


def test_highlights_mark_the_query_terms(server):
    status, body = server.get_json("/search?q=cat&limit=10")
    assert status == 200 and body["hits"]
    marked = 0
    for hit in body["hits"]:
        snippet = hit["snippet"].encode()
        for begin, end in hit["highlights"]:
            assert 0 <= begin < end <= len(snippet)
            word = snippet[begin:end].decode()
            # The token alone: "cat" or "cats", never "cat," or "(cat".
            assert word.lower() in ("cat", "cats") and word.isalnum(), (hit["snippet"], begin, end)
            assert begin == 0 or not snippet[begin - 1:begin].isalnum()
            assert end == len(snippet) or not snippet[end:end + 1].isalnum()
            marked += 1
    assert marked > 0


def test_paging_and_doc_order(server):
    _, all10 = server.get_json("/search?q=cat&limit=10")
    _, second = server.get_json("/search?q=cat&limit=5&offset=5")
    assert [h["doc"] for h in second["hits"]] == [h["doc"] for h in all10["hits"][5:10]]
    assert [h["rank"] for h in second["hits"]] == [6, 7, 8, 9, 10]
    _, by_doc = server.get_json("/search?q=cat&limit=50&sort=doc")
    docs = [h["doc"] for h in by_doc["hits"]]
    assert docs == sorted(docs) and len(docs) == min(50, by_doc["total_hits"])
    _, past = server.get_json("/search?q=cat&offset=10000")
    assert past["hits"] == [] and past["total_hits"] == all10["total_hits"]


def test_count_and_explain(server, index):
    for query in ["cat", "cat OR dog", "-cat"]:
        status, body = server.get_json(f"/count?q={q(query)}")
        assert status == 200
        assert body["total_hits"] == int(fts_search(index, "--count", query))
    status, body = server.get_json("/explain?q=" + q("title:cat OR dog"))
    assert status == 200 and "cat" in body["parsed"] and "term" in body["plan"]


def test_docs_by_id(server):
    _, found = server.get_json("/search?q=zebrafinch&limit=10")
    xss = next(h for h in found["hits"] if h["url"] == "https://example.org/xss")
    status, doc = server.get_json(f"/docs/{xss['doc']}")
    assert status == 200
    assert doc == {"doc": xss["doc"], "title": EXTRA_DOCS[0][0], "url": EXTRA_DOCS[0][1], "abstract": EXTRA_DOCS[0][2]}
    for bad in ["/docs/302", "/docs/4294967296", "/docs/abc", "/docs/-1", "/docs/"]:
        status, body = server.get_json(bad)
        assert status == 404, bad
        assert body["status"] == 404 and body["error"]


def test_stats_and_health(server):
    status, before = server.get_json("/stats")
    assert status == 200
    assert before["docs"] == 302 and before["segments"] >= 1
    assert set(before["latency_ms"]) == {"count", "p50", "p90", "p99", "max"}
    assert set(before["filter_cache"]) >= {"hits", "misses", "entries", "bytes", "capacity_bytes"}
    server.get_json("/search?q=cat")
    server.get_json("/search?q=cat+AND")
    _, after = server.get_json("/stats")
    assert after["requests"]["total"] >= before["requests"]["total"] + 3
    assert after["requests"]["4xx"] >= before["requests"]["4xx"] + 1
    assert after["latency_ms"]["p50"] <= after["latency_ms"]["p99"] <= after["latency_ms"]["max"]
    status, health = server.get_json("/health")
    assert status == 200 and health["status"] == "ok" and health["docs"] == 302


def test_page_and_assets_are_embedded(server):
    status, headers, body = server.request("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'<script src="/app.js"' in body and b"cdn" not in body.lower() and b"http" not in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    for path, ctype in [("/app.js", "text/javascript"), ("/style.css", "text/css"), ("/index.html", "text/html")]:
        status, headers, body = server.request("GET", path)
        assert status == 200 and headers["Content-Type"].startswith(ctype) and body
    # Nothing is served from disk by path.
    for path in ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd", "/serve/page/app.js",
                 "/app.js/", "/CMakeLists.txt"]:
        status, _, body = server.request("GET", path)
        assert status == 404, path
        assert b"root:" not in body


def test_keep_alive_and_pipelining(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for i in range(20):
        conn.request("GET", f"/search?q=cat&limit=1&offset={i}")
        r = conn.getresponse()
        assert r.status == 200 and r.getheader("Connection") != "close"
        assert json.loads(r.read())["offset"] == i
    conn.close()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /count?q=cat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    assert data.count(b"HTTP/1.1 200 OK") == 2 and b'"total_hits"' in data


def test_head(server):
    status, headers, body = server.request("HEAD", "/health")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0


# ------------------------------------------------------------------ errors

def test_syntax_error_has_position(server):
    for query, position in [("cat AND", 4), ("(cat", 0), ('"wild cat', 0), ("title:", 0), ("()", 0), ("OR b", 0)]:
        status, body = server.get_json(f"/search?q={q(query)}")
        assert status == 400, query
        assert body["status"] == 400 and body["query"] == query and "position" in body
        assert isinstance(body["position"], int) and 0 <= body["position"] <= len(query)
        assert f"position {body['position']}" in body["error"]
    _, body = server.get_json(f"/search?q={q('cat AND')}")
    assert body["position"] == 4
    status, body = server.get_json(f"/count?q={q('cat AND')}")
    assert status == 400 and body["position"] == 4


@pytest.mark.parametrize("target,needle", [
    ("/search", "missing parameter q"),
    ("/search?q=cat&bogus=1", "unknown parameter 'bogus'"),
    ("/search?q=cat&q=dog", "q given twice"),
    ("/search?q=cat&limit=abc", "limit must be a whole number"),
    ("/search?q=cat&limit=-1", "limit must be a whole number"),
    ("/search?q=cat&limit=101", "limit is at most 100"),
    ("/search?q=cat&offset=10001", "offset is at most 10000"),
    ("/search?q=cat&limit=99999999999999999999999", "limit must be a whole number"),
    ("/search?q=cat&sort=random", "sort is score or doc"),
    ("/search?q=cat&total_hits=many", "total_hits is a whole number or exact"),
    ("/search?q=cat&total_hits=-5", "total_hits is a whole number or exact"),
    ("/search?q=cat&total_hits=1&total_hits=2", "total_hits given twice"),
    ("/count?q=cat&total_hits=5", "unknown parameter 'total_hits'"),
    ("/search?q=" + "a" * 1025, "longer than 1024 bytes"),
    ("/search?q=" + "+".join(["w%d" % i for i in range(65)]), "more than 64 words"),
    ("/search?q=%", "bad percent-encoding in q"),
    ("/search?q=%G1", "bad percent-encoding in q"),
    ("/search?q=ab%2", "bad percent-encoding in q"),
    ("/search?q=%C3%28", "not valid UTF-8"),
    ("/search?q=%C0%AF", "not valid UTF-8"),
    ("/search?q=%ED%A0%80", "not valid UTF-8"),
    ("/search?q=%FF", "not valid UTF-8"),
    ("/count?q=cat&limit=1", "unknown parameter 'limit'"),
    ("/stats?x=1", "unknown parameter 'x'"),
])
def test_bad_parameters_are_400(server, target, needle):
    status, body = server.get_json(target)
    assert status == 400, target
    assert needle in body["error"], body
    assert body["status"] == 400


def test_unknown_path_404_and_method_405(server):
    status, body = server.get_json("/nope")
    assert status == 404 and "no such endpoint" in body["error"]
    for method, path in [("POST", "/search?q=cat"), ("PUT", "/"), ("PATCH", "/stats"), ("DELETE", "/docs/1")]:
        status, headers, body = server.request(method, path, body=b"")
        assert status == 405, (method, path)
        assert "GET" in headers["Allow"] and "DELETE" not in headers["Allow"]
        assert json.loads(body)["status"] == 405
    # The write endpoints of a server started without --writable.
    for method, path in [("POST", "/docs"), ("POST", "/commit"), ("DELETE", "/docs?url=x"), ("PUT", "/docs")]:
        status, headers, body = server.request(method, path, body=b'{"title": "x"}')
        assert status == 405, (method, path)
        assert headers["Allow"] == "" and "read-only" in json.loads(body)["error"]
    status, _, _ = server.request("POST", "/search?q=cat", body=b"")
    assert status == 405


def test_cors_off_by_default_and_on_when_asked(server, index, tmp):
    status, headers, _ = server.request("GET", "/health", headers={"Origin": "https://evil.example"})
    assert status == 200 and "Access-Control-Allow-Origin" not in headers
    status, _, _ = server.request("OPTIONS", "/search", headers={"Origin": "https://evil.example"})
    assert status == 405
    with Server(index, "--cors", "https://app.example", tmp=tmp) as s:
        status, headers, _ = s.request("GET", "/health", headers={"Origin": "https://app.example"})
        assert headers["Access-Control-Allow-Origin"] == "https://app.example"
        status, headers, _ = s.request("OPTIONS", "/search", headers={"Origin": "https://app.example",
                                                                       "Access-Control-Request-Method": "GET"})
        assert status == 204 and "GET" in headers["Access-Control-Allow-Methods"]


def test_cors_several_origins(index, tmp):
    # The browser extension's origins (Chromium's and Firefox's) beside a web
    # app: each gets its own origin back, any other none.
    chromium, firefox = "chrome-extension://mdmkjbfagdgdhkjagomjjddjfgleoijk", "moz-extension://4b1c3e-9f"
    with Server(index, "--cors", chromium, "--cors", firefox, "--cors", "https://app.example", tmp=tmp) as s:
        for origin in [chromium, firefox, "https://app.example", "HTTPS://APP.EXAMPLE"]:
            status, headers, body = s.request("GET", "/search?q=cat&limit=1", headers={"Origin": origin})
            assert status == 200 and headers["Access-Control-Allow-Origin"] == origin, origin
            assert headers["Vary"] == "Origin" and json.loads(body)["hits"]
        for origin in ["https://evil.example", "chrome-extension://other", chromium + "/", "null"]:
            status, headers, _ = s.request("GET", "/health", headers={"Origin": origin})
            assert status == 200 and "Access-Control-Allow-Origin" not in headers, origin
            assert headers["Vary"] == "Origin"
        status, headers, _ = s.request("GET", "/health")
        assert status == 200 and "Access-Control-Allow-Origin" not in headers
        status, headers, _ = s.request("OPTIONS", "/search", headers={"Origin": firefox, "Access-Control-Request-Method": "GET"})
        assert status == 204 and headers["Access-Control-Allow-Origin"] == firefox
        status, headers, _ = s.request("OPTIONS", "/search", headers={"Origin": "https://evil.example",
                                                                       "Access-Control-Request-Method": "GET"})
        assert "Access-Control-Allow-Origin" not in headers
        # An error answer carries it too, so the page can read the message.
        status, headers, body = s.request("GET", "/search?q=cat+AND", headers={"Origin": chromium})
        assert status == 400 and headers["Access-Control-Allow-Origin"] == chromium and json.loads(body)["position"] == 4
        # The origin of one request is not kept for the next on the connection.
        conn = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        conn.sendall(f"GET /health HTTP/1.1\r\nHost: x\r\nOrigin: {chromium}\r\n\r\n"
                     "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        both = recv_all(conn).decode()
        conn.close()
        assert both.count("HTTP/1.1 200") == 2 and both.count("Access-Control-Allow-Origin") == 1
    with Server(index, "--cors", "*", tmp=tmp) as s:
        status, headers, _ = s.request("GET", "/health", headers={"Origin": "https://any.example"})
        assert headers["Access-Control-Allow-Origin"] == "*"


def test_time_budget_504(index, tmp):
    with Server(index, "--time-budget-ms", "0.000001", tmp=tmp) as s:
        status, body = s.get_json("/search?q=cat")
        assert status == 504 and "budget" in body["error"]
        status, body = s.get_json("/count?q=cat+OR+dog")
        assert status == 504
        assert s.alive()


def test_saturation_503_on_connections(index, tmp):
    with Server(index, "--max-connections", "4", tmp=tmp) as s:
        held = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(4)]
        time.sleep(0.3)
        status, headers, body = s.request("GET", "/health")
        assert status == 503 and headers.get("Retry-After") == "1"
        assert "too many open connections" in json.loads(body)["error"]
        for c in held:
            c.close()
        deadline = time.time() + 5
        while time.time() < deadline:
            status, _, _ = s.request("GET", "/health")
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200
        _, stats = s.get_json("/stats")
        assert stats["connections"]["rejected"] >= 1


def test_saturation_503_on_pending_searches(index, tmp):
    # One search thread and room for one request: 32 clients at once must
    # see some 503s, every other answer a 200, and the server answers after.
    import concurrent.futures
    with Server(index, "--threads", "1", "--max-pending", "1", tmp=tmp) as s:
        def hammer(_):
            conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
            got = []
            for _ in range(25):
                conn.request("GET", "/search?q=" + q("-zebrafinch") + "&limit=100")
                r = conn.getresponse()
                r.read()
                got.append(r.status)
            conn.close()
            return got
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            statuses = [x for got in pool.map(hammer, range(32)) for x in got]
        assert set(statuses) <= {200, 503}
        assert statuses.count(503) > 0 and statuses.count(200) > 0
        assert s.alive()


def test_commit_is_seen_without_restart(tmp):
    d = tempfile.mkdtemp(prefix="fts-serve-reload-", dir=tmp)
    first = os.path.join(d, "one.xml")
    write_dump(first, [("Alpha", "https://example.org/a", "an aardvark story")])
    index = os.path.join(d, "index")
    build_index(index, [first])
    with Server(index, "--reload-interval-ms", "100", tmp=tmp) as s:
        _, body = s.get_json("/count?q=aardvark")
        assert body["total_hits"] == 1
        second = os.path.join(d, "two.xml")
        write_dump(second, [("Beta", "https://example.org/b", "an aardvark tale"),
                            ("Gamma", "https://example.org/c", "an aardvark poem")])
        build_index(index, [first, second])  # a new commit in the served directory
        deadline = time.time() + 10
        while time.time() < deadline:
            _, body = s.get_json("/count?q=aardvark")
            if body["total_hits"] == 3:
                break
            time.sleep(0.05)
        assert body["total_hits"] == 3
        _, stats = s.get_json("/stats")
        assert stats["reloads"] >= 1 and stats["docs"] == 3


def test_access_log_lines(index, tmp):
    with Server(index, tmp=tmp) as s:
        s.get_json("/search?q=secret+words")
        s.get_json("/nope")
        assert s.stop() == 0
    lines = [json.loads(l) for l in open(s.log)]
    requests = [l for l in lines if "status" in l]
    # One line per request; a line is written once its response is sent, so
    # requests on two connections may log in either order.
    assert sorted((l["method"], l["path"], l["status"]) for l in requests) == [("GET", "/nope", 404), ("GET", "/search", 200)]
    for l in requests:
        assert set(l) == {"time", "remote", "method", "path", "status", "bytes", "ms"}
        assert l["remote"] == "127.0.0.1" and l["bytes"] > 0 and l["ms"] >= 0
    assert not any("secret" in json.dumps(l) for l in lines)  # the query string is not logged


def test_sigterm_drains_and_exits_0(index, tmp):
    with Server(index, tmp=tmp) as s:
        idle = socket.create_connection(("127.0.0.1", s.port))
        conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        conn.request("GET", "/health")
        assert conn.getresponse().read()
        start = time.time()
        assert s.stop(signal.SIGTERM) == 0
        assert time.time() - start < 5
        assert idle.recv(10) == b""  # the idle connection was closed
        idle.close()


def test_bad_command_lines(index):
    for args in [[], ["--index", index, "--listen", "nope"], ["--index", index, "--listen", "127.0.0.1:99999"],
                 ["--index", index, "--threads", "0"], ["--bogus"],
                 ["--index", index, "--cors", "chrome-extension://abc/"], ["--index", index, "--cors", "app.example"],
                 ["--index", index, "--cors", "https://"], ["--index", index, "--cors", "1http://a"],
                 ["--index", index, "--cors", "https://a.example", "--cors", "https://b.example/path"]]:
        r = subprocess.run([tool("fts-serve"), *args], capture_output=True, text=True, timeout=10)
        assert r.returncode == 2, args
        assert r.stderr.startswith("fts-serve: ") and r.stderr.count("\n") == 1
    r = subprocess.run([tool("fts-serve"), "--index", "/nonexistent/index", "--listen", "127.0.0.1:0"],
                       capture_output=True, text=True, timeout=10)
    assert r.returncode == 1 and "/nonexistent/index" in r.stderr
