"""SIGKILL of a --writable fts-serve while it adds and commits: after each kill
the index passes fts-index check, every doc whose commit was acknowledged
(200 received) is there, and a commit in flight when the kill came is there
whole or not at all. FTS_KILL_SEED replays a run."""
import http.client
import json
import os
import random
import signal
import subprocess
import threading
import time
from urllib.parse import quote

from serve_support import SAMPLE, Server, build_index, tool

TOKEN = "kill-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
NDJSON = {**AUTH, "Content-Type": "application/x-ndjson"}
ROUNDS = 6
WORD = "marmot"  # in every doc the test adds, in none of the sample's


class Round:
    """What one server life did: batches committed with a 200, and the batches
    added since (with the count of them an unanswered commit covered)."""

    def __init__(self):
        self.acknowledged = []  # [(ids, urls)]
        self.pending = []       # added, no acknowledged commit yet
        self.in_flight = 0      # pending[:in_flight] were covered by a commit sent but not answered


def write_until_killed(server, rng, number, log):
    r = Round()
    killer = threading.Timer(rng.uniform(0.05, 0.6), lambda: server.proc.send_signal(signal.SIGKILL))
    killer.start()
    try:
        for batch in range(10 ** 6):
            n = rng.randint(1, 120)
            urls = [f"https://kill.example/{number}/{batch}/{i}" for i in range(n)]
            body = "".join(json.dumps({"title": f"Batch {batch} doc {i}", "url": u, "abstract": f"a {WORD} {i}"}) + "\n"
                           for i, u in enumerate(urls)).encode()
            status, _, data = server.request("POST", "/docs", body=body, headers=NDJSON, timeout=10)
            assert status == 200, data
            r.pending.append((json.loads(data)["ids"], urls))
            if rng.random() < 0.5:
                r.in_flight = len(r.pending)
                status, _, data = server.request("POST", "/commit", headers=AUTH, timeout=10)
                assert status == 200, data
                r.acknowledged += r.pending
                r.pending, r.in_flight = [], 0
    except (OSError, http.client.HTTPException) as e:  # the kill
        log.append(f"round {number}: killed after {len(r.acknowledged)} acknowledged batches, "
                   f"{len(r.pending)} pending ({r.in_flight} in a commit): {type(e).__name__}")
    killer.join()
    assert server.proc.wait(timeout=10) == -signal.SIGKILL
    return r


def present(server, ids, urls):
    """How many of the docs are in the served index with their url."""
    found = 0
    for doc_id, url in zip(ids, urls):
        status, body = server.get_json(f"/docs/{doc_id}")
        assert status in (200, 404)
        found += status == 200 and body["url"] == url
    return found


def verify(server, r, committed_before, why):
    """Checks the round's effect on the restarted server; returns the docs now
    committed, and whether the commit in flight (if any) landed."""
    for ids, urls in r.acknowledged:
        assert present(server, ids, urls) == len(ids), f"an acknowledged commit lost docs; {why}"
    # The commit in flight: all of what it covered, or none of it.
    covered = r.pending[:r.in_flight]
    counts = [present(server, ids, urls) for ids, urls in covered]
    whole = all(c == len(ids) for c, (ids, _) in zip(counts, covered))
    assert whole or not any(counts), f"a commit is there in part: {counts}; {why}"
    for ids, urls in r.pending[r.in_flight:]:
        assert present(server, ids, urls) == 0, f"docs never committed are there; {why}"
    committed = committed_before + sum(len(ids) for ids, _ in r.acknowledged)
    committed += sum(len(ids) for ids, _ in covered) if whole and covered else 0
    status, body = server.get_json("/count?q=" + quote(WORD))
    assert status == 200 and body["total_hits"] == committed, f"{body}; {why}"
    status, stats = server.get_json("/stats")
    assert stats["docs"] == 300 + committed
    return committed, bool(covered) and whole


def test_sigkill_during_writes_keeps_every_acknowledged_commit(tmp_path):
    seed = int(os.environ.get("FTS_KILL_SEED", time.time_ns() % 10 ** 9))
    rng = random.Random(seed)
    index = str(tmp_path / "index")
    build_index(index, [SAMPLE])
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    args = ["--writable", "--token-file", str(token), "--threads", "2"]
    log, committed, last = [], 0, None
    started = time.monotonic()
    for number in range(ROUNDS + 1):
        with Server(index, *args, tmp=str(tmp_path)) as server:
            why = f"seed {seed}, " + "; ".join(log)
            if last is not None:
                committed, landed = verify(server, last, committed, why)
                log[-1] += ", its commit landed" if landed else ""
            if number == ROUNDS:
                assert server.stop(signal.SIGTERM) == 0
                break
            last = write_until_killed(server, rng, number, log)
        check = subprocess.run([tool("fts-index"), "check", index], capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, f"{check.stdout}{check.stderr}; seed {seed}, " + "; ".join(log)
    print(f"seed {seed}: " + "; ".join(log), f"; {committed} docs committed")
    assert committed > 0, f"no commit was acknowledged in {ROUNDS} rounds; seed {seed}"
    assert time.monotonic() - started < 60
