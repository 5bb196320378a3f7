"""fts-serve --writable: POST /docs (JSON lines and dumps), DELETE /docs/{id},
DELETE /docs?url= and ?q=, POST /commit behind a bearer token; searches see a
commit as soon as it is acknowledged; the startup checks (token file, index
lock). Each test module gets its own copy of the test index."""
import concurrent.futures
import gzip
import json
import os
import shutil
import subprocess
import threading
from urllib.parse import quote

import pytest

from serve_support import SAMPLE, Server, build_index, tool

TOKEN = "t0ken-for-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
NDJSON = {**AUTH, "Content-Type": "application/x-ndjson"}


def lines(*docs):
    return "".join(json.dumps(d) + "\n" for d in docs).encode()


def token_file(tmp, content=TOKEN + "\n", name="token"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(content)
    return path


@pytest.fixture(scope="module")
def windex(tmp):
    d = os.path.join(tmp, "writable-index")
    build_index(d, [SAMPLE])
    return d


@pytest.fixture(scope="module")
def ws(windex, tmp):
    with Server(windex, "--writable", "--token-file", token_file(tmp), "--threads", "2", tmp=tmp) as s:
        yield s


def call(server, method, target, body=None, headers=AUTH):
    status, _, data = server.request(method, target, body=body, headers=headers)
    return status, json.loads(data)


def count(server, query):
    status, body = server.get_json("/count?q=" + quote(query, safe=""))
    assert status == 200
    return body["total_hits"]


def stats(server):
    return server.get_json("/stats")[1]


# ------------------------------------------------------------------ auth

@pytest.mark.parametrize("method,target", [("POST", "/docs"), ("PUT", "/docs"), ("POST", "/commit"),
                                           ("DELETE", "/docs/1"), ("DELETE", "/docs?url=x")])
@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x",
                                           f"Bearer {TOKEN[:-1]}", "Bearer", ""])
def test_writes_need_the_token(ws, method, target, authorization):
    before = stats(ws)
    headers = {"Content-Type": "application/x-ndjson"}
    if authorization is not None:
        headers["Authorization"] = authorization
    status, hdrs, data = ws.request(method, target, body=lines({"title": "intruder"}), headers=headers)
    assert status == 401, (method, target, authorization)
    assert hdrs["WWW-Authenticate"].startswith("Bearer")
    assert json.loads(data)["status"] == 401
    after = stats(ws)
    assert after["writer"] == before["writer"] and after["generation"] == before["generation"]


def test_the_scheme_is_case_insensitive(ws):
    status, body = call(ws, "POST", "/docs", lines({"title": "Casing", "abstract": "bearer casing"}),
                        {"Authorization": f"bearer {TOKEN}", "Content-Type": "application/x-ndjson"})
    assert status == 200 and body["added"] == 1


def test_wrong_method_on_a_write_endpoint_405(ws):
    for method, path, allow in [("GET", "/commit", "POST"), ("PATCH", "/docs", "POST, PUT, DELETE"),
                                ("POST", "/docs/3", "GET, HEAD, DELETE")]:
        status, headers, _ = ws.request(method, path, headers=AUTH)
        assert status == 405 and headers["Allow"] == allow, (method, path)


# ------------------------------------------------------------------ adds and commits

def test_added_docs_are_searchable_after_commit(ws):
    before = stats(ws)
    docs = [{"title": "Quokka one", "url": "https://example.org/quokka/1", "abstract": "a quokka smiles"},
            {"title": "Quokka two", "url": "https://example.org/quokka/2", "abstract": "two quokka friends"},
            {"title": "Wombat", "url": "https://example.org/wombat", "abstract": "no marsupial smiles here"}]
    status, body = call(ws, "POST", "/docs", lines(*docs), NDJSON)
    assert status == 200 and body["added"] == 3
    first = before["writer"]["next_doc_id"]
    assert body["ids"] == [first, first + 1, first + 2]
    assert count(ws, "quokka") == 0  # not before the commit
    assert stats(ws)["writer"]["uncommitted_adds"] == before["writer"]["uncommitted_adds"] + 3
    status, c = call(ws, "POST", "/commit")
    assert status == 200 and c["generation"] > before["generation"]
    assert c["added"] >= 3 and c["docs"] == before["docs"] + before["writer"]["uncommitted_adds"] + 3
    # Seen at once: the commit swapped the snapshot in before it answered.
    assert count(ws, "quokka") == 2
    _, found = ws.get_json("/search?q=quokka&limit=10")
    assert sorted(h["doc"] for h in found["hits"]) == body["ids"][:2]
    for doc_id, doc in zip(body["ids"], docs):
        status, got = ws.get_json(f"/docs/{doc_id}")
        assert status == 200 and got == {"doc": doc_id, **doc}
    after = stats(ws)
    assert after["generation"] == c["generation"] and after["docs"] == c["docs"]
    assert after["writer"]["uncommitted_adds"] == 0


def test_a_dump_body(ws):
    dump = ("<feed><doc><title>Wikipedia: Axolotl</title><url>https://example.org/axolotl</url>"
            "<abstract>The axolotl &amp; its gills.</abstract><links></links></doc>\n"
            "<doc><title>Wikipedia: Axolotl II</title><url>https://example.org/axolotl2</url>"
            "<abstract>Another axolotl.</abstract></doc></feed>\n").encode()
    status, body = call(ws, "POST", "/docs", dump, {**AUTH, "Content-Type": "application/xml"})
    assert status == 200 and body["added"] == 2
    status, body2 = call(ws, "POST", "/docs", gzip.compress(dump.replace(b"Axolotl", b"Olm").replace(b"axolotl", b"olm")),
                         {**AUTH, "Content-Type": "application/gzip"})
    assert status == 200 and body2["added"] == 2
    assert call(ws, "POST", "/commit")[0] == 200
    assert count(ws, "axolotl") == 2 and count(ws, "olm") == 2
    _, doc = ws.get_json(f"/docs/{body['ids'][0]}")
    assert doc["title"] == "Axolotl" and doc["abstract"] == "The axolotl & its gills."


@pytest.mark.parametrize("body,needle", [
    (b'{"title": "fine"}\n{"title": 3}\n', "line 2: title must be a string"),
    (b'{"title": "fine"}\n\n{"title": "x",}\n', "line 3: column"),
    (b'{"titel": "typo"}\n', "line 1: unknown field 'titel'"),
    (b'[1, 2]\n', "line 1: a document is a JSON object"),
    (b'{"title": "", "url": ""}\n', "line 1: the document has no title, url or abstract"),
    (b'{"title": "ok"}\r\n{"title": "\xff"}\n', "line 2:"),
    (b'{"title": "unterminated\n', "line 1:"),
    (b"\n  \n", "the body holds no document"),
    (b"", "the body holds no document"),
])
def test_bad_json_lines_400_and_nothing_added(ws, body, needle):
    before = stats(ws)["writer"]
    status, err = call(ws, "POST", "/docs", body, NDJSON)
    assert status == 400 and needle in err["error"], err
    assert stats(ws)["writer"] == before


@pytest.mark.parametrize("dump", [
    b"<feed><doc><title>Wikipedia: A</title><url>u</url><abstract>x</doc></feed>",
    b"not a dump at all",
    b"\x1f\x8b\x08\x00garbage",
])
def test_bad_dump_400_and_nothing_added(ws, dump):
    before = stats(ws)["writer"]
    status, err = call(ws, "POST", "/docs", dump, {**AUTH, "Content-Type": "application/xml"})
    assert status == 400, err
    assert err["error"].startswith("the dump: ") or err["error"] == "the body holds no document", err
    assert "/proc/" not in err["error"]  # the server's buffer is not the client's business
    assert stats(ws)["writer"] == before


def test_unsupported_content_type_415(ws):
    status, err = call(ws, "POST", "/docs", b"title=x", {**AUTH, "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415 and "application/x-ndjson" in err["error"]


def test_body_limit_413(tmp):
    # Its own index: the module's has a writer already.
    d = os.path.join(tmp, "limit-index")
    build_index(d, [SAMPLE])
    with Server(d, "--writable", "--token-file", token_file(tmp), "--max-body-bytes", "1000", tmp=tmp) as s:
        status, _ = call(s, "POST", "/docs", lines({"title": "x" * 2000}), NDJSON)
        assert status == 413
        assert s.alive() and call(s, "POST", "/docs", lines({"title": "small"}), NDJSON)[0] == 200


def test_put_replaces_the_docs_with_each_url(ws):
    add_and_commit(ws, {"title": "Ibis", "url": "https://example.org/ibis", "abstract": "an ibis wades"},
                   {"title": "Ibis copy", "url": "https://example.org/ibis", "abstract": "an ibis again"},
                   {"title": "Shoebill", "url": "https://example.org/shoebill", "abstract": "a shoebill waits"})
    assert count(ws, "ibis") == 2
    status, body = call(ws, "PUT", "/docs", lines({"title": "Ibis", "url": "https://example.org/ibis",
                                                   "abstract": "the sacred ibis, revised"}), NDJSON)
    assert status == 200 and body["updated"] == 1 and len(body["ids"]) == 1
    assert count(ws, "ibis") == 2  # until the commit
    assert call(ws, "POST", "/commit")[0] == 200
    assert count(ws, "ibis") == 1 and count(ws, "revised") == 1 and count(ws, "shoebill") == 1
    assert ws.get_json(f"/docs/{body['ids'][0]}")[1]["abstract"] == "the sacred ibis, revised"
    before = stats(ws)["writer"]
    status, err = call(ws, "PUT", "/docs", lines({"title": "has url", "url": "u"}, {"title": "no url"}), NDJSON)
    assert status == 400 and "document 2 has no url" in err["error"]
    assert stats(ws)["writer"] == before


# ------------------------------------------------------------------ deletes

def add_and_commit(server, *docs):
    status, body = call(server, "POST", "/docs", lines(*docs), NDJSON)
    assert status == 200
    assert call(server, "POST", "/commit")[0] == 200
    return body["ids"]


def test_delete_by_id(ws):
    ids = add_and_commit(ws, {"title": "Gecko", "url": "https://example.org/gecko", "abstract": "a gecko climbs"},
                         {"title": "Gecko 2", "url": "https://example.org/gecko2", "abstract": "a gecko sleeps"})
    assert count(ws, "gecko") == 2
    status, body = call(ws, "DELETE", f"/docs/{ids[0]}")
    assert status == 200 and body["deleted"] == {"doc": ids[0]}
    assert count(ws, "gecko") == 2  # until the commit
    assert ws.get_json(f"/docs/{ids[0]}")[0] == 200
    assert call(ws, "POST", "/commit")[0] == 200
    assert count(ws, "gecko") == 1
    assert ws.get_json(f"/docs/{ids[0]}")[0] == 404
    assert ws.get_json(f"/docs/{ids[1]}")[0] == 200
    # Deleted by a commit already, never given, not an id: 404.
    next_id = stats(ws)["writer"]["next_doc_id"]
    for target in [f"/docs/{ids[0]}", f"/docs/{next_id}", "/docs/4294967296", "/docs/abc", "/docs/-1"]:
        status, body = call(ws, "DELETE", target)
        assert status == 404 and body["status"] == 404, target


def test_delete_an_uncommitted_add(ws):
    status, body = call(ws, "POST", "/docs", lines({"title": "Ephemeral", "abstract": "a mayfly lives a day"}), NDJSON)
    assert status == 200
    assert call(ws, "DELETE", f"/docs/{body['ids'][0]}")[0] == 200
    assert call(ws, "POST", "/commit")[0] == 200
    assert count(ws, "mayfly") == 0 and ws.get_json(f"/docs/{body['ids'][0]}")[0] == 404


def test_delete_by_url_and_by_query(ws):
    add_and_commit(ws, {"title": "Newt", "url": "https://example.org/newt", "abstract": "a newt swims"},
                   {"title": "Newt again", "url": "https://example.org/newt", "abstract": "the newt returns"},
                   {"title": "Toad", "url": "https://example.org/toad", "abstract": "a toad croaks loudly"},
                   {"title": "Toad two", "url": "https://example.org/toad2", "abstract": "a toad croaks softly"})
    status, body = call(ws, "DELETE", "/docs?url=" + quote("https://example.org/newt", safe=""))
    assert status == 200 and body["deleted"] == {"url": "https://example.org/newt"}
    status, body = call(ws, "DELETE", "/docs?q=" + quote("croaks AND softly", safe=""))
    assert status == 200 and body["deleted"] == {"query": "croaks AND softly"}
    assert count(ws, "newt") == 2 and count(ws, "toad") == 2
    assert call(ws, "POST", "/commit")[0] == 200
    assert count(ws, "newt") == 0 and count(ws, "toad") == 1 and count(ws, "loudly") == 1


@pytest.mark.parametrize("target,status,needle", [
    ("/docs", 400, "url= or q="),
    ("/docs?url=a&q=b", 400, "url= or q="),
    ("/docs?title=x", 400, "url= or q="),
    ("/docs?q=" + quote("title:(", safe=""), 400, "syntax error at position"),
    ("/docs?url=%ff", 400, "not valid UTF-8"),
])
def test_bad_deletes(ws, target, status, needle):
    got, body = call(ws, "DELETE", target)
    assert got == status and needle in body["error"], body


def test_unknown_parameters_400(ws):
    for method, target in [("POST", "/docs?commit=1"), ("POST", "/commit?x=1"), ("DELETE", "/docs/1?x=1")]:
        status, body = call(ws, method, target, lines({"title": "x"}), NDJSON)
        assert status == 400 and "unknown parameter" in body["error"], target


# ------------------------------------------------------------------ concurrency

def test_searches_run_while_writes_and_commits_do(ws):
    stop = threading.Event()

    def search():
        seen = []
        while not stop.is_set():
            status, body = ws.get_json("/count?q=capybara")
            assert status == 200
            seen.append(body["total_hits"])
        return seen

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        readers = [pool.submit(search) for _ in range(2)]
        acknowledged = 0
        for i in range(8):
            status, _ = call(ws, "POST", "/docs", lines(*[{"title": f"Capybara {i}.{j}", "abstract": "a capybara"}
                                                          for j in range(5)]), NDJSON)
            assert status == 200
            assert call(ws, "POST", "/commit")[0] == 200
            acknowledged += 5
            # A search that starts after the acknowledgement sees every doc committed.
            assert count(ws, "capybara") == acknowledged
        stop.set()
        seen = [r.result() for r in readers]
    # Each reader's counts only grow (a snapshot never goes back) and are whole commits.
    for counts in seen:
        assert counts and counts == sorted(counts) and all(n % 5 == 0 for n in counts), counts


def test_index_checks_after_the_writes(ws, windex):
    assert call(ws, "POST", "/commit")[0] == 200
    r = subprocess.run([tool("fts-index"), "check", windex], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


# ------------------------------------------------------------------ startup

def test_a_second_writer_is_refused_with_the_lock_error(ws, windex, tmp):
    r = subprocess.run([tool("fts-serve"), "--index", windex, "--listen", "127.0.0.1:0", "--writable",
                        "--token-file", token_file(tmp)], capture_output=True, text=True, timeout=10)
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert "locked" in r.stderr and str(ws.proc.pid) in r.stderr, r.stderr
    extra = os.path.join(tmp, "one.xml")
    with open(extra, "w") as f:
        f.write("<feed><doc><title>Wikipedia: X</title><url>u</url><abstract>x</abstract></doc></feed>\n")
    r = subprocess.run([tool("fts-index"), "add", "--index", windex, extra], capture_output=True, text=True, timeout=30)
    assert r.returncode != 0 and "locked" in r.stderr
    # A read-only server beside the writer is fine.
    with Server(windex, tmp=tmp) as s:
        assert s.alive()


def test_startup_checks_of_the_token(windex, tmp):
    empty = token_file(tmp, "\n  \n", "empty-token")
    spaced = token_file(tmp, "two words\n", "spaced-token")
    for args, rc, needle in [(["--writable"], 2, "--writable needs --token-file"),
                             (["--token-file", token_file(tmp)], 2, "only for --writable"),
                             (["--writable", "--token-file", empty], 1, "holds no token"),
                             (["--writable", "--token-file", spaced], 1, "one word"),
                             (["--writable", "--token-file", os.path.join(tmp, "missing")], 1, "cannot read")]:
        r = subprocess.run([tool("fts-serve"), "--index", windex, "--listen", "127.0.0.1:0", *args],
                           capture_output=True, text=True, timeout=10)
        assert r.returncode == rc, (args, r.stderr)
        assert r.stderr.startswith("fts-serve: ") and r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


# ------------------------------------------------------------------ a failing disk

def test_a_failed_commit_is_500_and_the_index_keeps_its_last_commit(tmp):
    import resource
    import signal
    d = os.path.join(tmp, "full-disk-index")
    build_index(d, [SAMPLE])
    limit = 256 << 10  # bytes a file may grow to, as on a full disk: the first big segment fails

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with Server(d, "--writable", "--token-file", token_file(tmp), tmp=tmp, preexec_fn=small_files) as s:
        assert add_and_commit(s, {"title": "Small", "abstract": "a lemming fits"})
        before = stats(s)
        big = [{"title": f"Big {i}", "url": f"https://example.org/big/{i}",
                "abstract": " ".join(f"word{(i * 7 + j) % 5000}" for j in range(80))} for i in range(4000)]
        status, body = call(s, "POST", "/docs", lines(*big), NDJSON)
        assert status == 200
        status, body = call(s, "POST", "/commit")
        assert status == 500 and body["status"] == 500 and body["error"], body
        # Still answering, from the last commit.
        after = stats(s)
        assert (after["generation"], after["docs"]) == (before["generation"], before["docs"])
        assert count(s, "lemming") == 1 and count(s, "word1") == 0
    r = subprocess.run([tool("fts-index"), "check", d], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
