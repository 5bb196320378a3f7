"""Hostile clients against fts-serve: each ends in the right status (or a
closed connection where no status is possible) and the server keeps
answering."""
import os
import resource
import socket
import struct
import threading
import time

import pytest

from serve_support import Server, recv_all, status_of


@pytest.fixture(scope="module")
def server(index, tmp):
    with Server(index, "--header-timeout-ms", "1500", "--body-timeout-ms", "1500", tmp=tmp) as s:
        yield s


@pytest.mark.parametrize("request_bytes,expected", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET\r\n\r\n", 400),
    (b"GET /\r\n\r\n", 400),
    (b"GET / HTTP/1.1 extra\r\n\r\n", 400),
    (b"\x00\x01\x02\x03\r\n\r\n", 400),
    (b"GET /health HTTP/1.1\nHost: x\n\n", 400),  # bare LF
    (b"GET /health HTTP/2.0\r\nHost: x\r\n\r\n", 505),
    (b"GET /health HTTP/1.1\r\nHost x\r\n\r\n", 400),
    (b"GET /health HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde", 400),
    (b"GET /health HTTP/1.1\r\nContent-Length: -5\r\n\r\n", 400),
    (b"GET /health HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    (b"GET health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
    (b"GET /search?q=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
    (b"GET /search?q=caf\xe9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
])
def test_malformed_requests(server, request_bytes, expected):
    reply = server.raw(request_bytes)
    assert status_of(reply) == expected, reply[:200]
    assert server.alive()


def test_long_request_line_414(server):
    reply = server.raw(b"GET /search?q=" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status_of(reply) == 414
    reply = server.raw(b"GET /" + b"b" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status_of(reply) == 414
    assert server.alive()


def test_megabyte_header_431(server):
    def send_big(s, payload):
        try:
            s.sendall(payload)
        except OSError:
            pass  # the server answered and closed before taking it all

    for payload in [b"GET /health HTTP/1.1\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n",
                    b"GET /health HTTP/1.1\r\n" + b"X-A: b\r\n" * 100000 + b"\r\n"]:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            t = threading.Thread(target=send_big, args=(s, payload))
            t.start()
            reply = recv_all(s)
            t.join()
        assert status_of(reply) == 431, reply[:200]
    assert server.alive()


def test_hundred_megabyte_body_413(server):
    # Announced: refused from the header alone.
    reply = server.raw(b"POST /search?q=cat HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
    assert status_of(reply) == 413
    # Sent chunked: refused once past the limit, while the client still sends.
    chunk = b"a" * (1 << 20)
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
        def send():
            try:
                s.sendall(b"POST /docs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in range(100):
                    s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            except OSError:
                pass
        t = threading.Thread(target=send)
        t.start()
        reply = recv_all(s)
        t.join()
    assert status_of(reply) == 413, reply[:200]
    assert server.alive()


def test_slow_sender_is_dropped(server):
    # A byte every 0.25 s: the 1.5 s header budget runs out long before the
    # request is complete; the answer is 408 and the connection closes.
    request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"z" * 40 + b"\r\n\r\n"
    start = time.time()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        reply = b""
        for i, byte in enumerate(request):
            try:
                s.sendall(bytes([byte]))
            except OSError:
                break
            if i % 4 == 3:
                assert server.alive()  # others are served meanwhile
            time.sleep(0.25)
            if time.time() - start > 4:
                break
        reply = recv_all(s)
    assert status_of(reply) == 408, reply[:200]
    assert time.time() - start < 4.5
    assert server.alive()


def test_silent_connection_is_dropped(server):
    start = time.time()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        assert s.recv(100) == b""  # closed without a status: nothing was asked
    assert 1.0 < time.time() - start < 4


def test_nested_parentheses(index, tmp):
    deep = "(" * 10000 + "cat" + ")" * 10000
    from urllib.parse import quote
    with Server(index, "--max-request-line", "100000", "--max-header-bytes", "200000",
                "--max-query-bytes", "100000", tmp=tmp) as s:
        status, body = s.get_json("/count?q=" + quote(deep))
        _, plain = s.get_json("/count?q=cat")
        assert status == 200 and body["total_hits"] == plain["total_hits"]
        status, body = s.get_json("/search?q=" + quote("(" * 10000 + "cat"))
        assert status == 400 and "position" in body
        status, body = s.get_json("/search?q=" + quote("(NOT " * 6000 + "cat" + ")" * 6000))
        assert status in (200, 400)
        assert s.alive()
    with Server(index, tmp=tmp) as s:  # default bounds: the request line is too long
        status, _, _ = s.request("GET", "/search?q=" + quote(deep))
        assert status == 414
        status, body = s.get_json("/search?q=" + "(" * 600 + "cat" + ")" * 600)
        assert status == 400 and "longer than 1024" in body["error"]
        assert s.alive()


def test_clients_that_disconnect_mid_response(server):
    request = b"GET /search?q=-zebrafinch&limit=100 HTTP/1.1\r\nHost: x\r\n\r\n"
    for i in range(200):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        s.sendall(request * 5)
        if i % 2:
            s.recv(100)  # part of the first response
        # A reset, not a polite close: the server's write fails midway.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    assert server.alive()
    status, body = server.get_json("/search?q=cat")
    assert status == 200 and body["hits"]


def test_many_idle_connections(index, tmp):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 10000 + 200
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    n = min(10000, soft - 200)
    print(f"idle connections: {n} (descriptor limit {soft})")
    assert n >= 500 or os.environ.get("CI") != "true"
    # The server (a child, with the same limit) holds them all under its cap,
    # and still answers; past the cap it says 503.
    with Server(index, "--max-connections", str(n + 10), "--header-timeout-ms", "3000", tmp=tmp) as s:
        conns = []
        for _ in range(n):
            conns.append(socket.create_connection(("127.0.0.1", s.port), timeout=10))
        time.sleep(0.5)
        assert s.alive()
        _, stats = s.get_json("/stats")
        assert stats["connections"]["open"] >= n * 0.95
        for c in conns:
            c.close()
    with Server(index, "--max-connections", "100", tmp=tmp) as s:
        conns = [socket.create_connection(("127.0.0.1", s.port), timeout=10) for _ in range(min(n, 2000))]
        time.sleep(0.5)
        # Past the cap a few connections at a time are told 503 (each for at
        # most a second); the flood beyond those is closed at once.
        statuses = set()
        deadline = time.time() + 5
        while time.time() < deadline and 503 not in statuses:
            try:
                statuses.add(s.request("GET", "/health")[0])
            except (ConnectionError, OSError):
                statuses.add("closed")
        assert 503 in statuses and 200 not in statuses
        for c in conns:
            c.close()
        deadline = time.time() + 5
        while time.time() < deadline and s.request("GET", "/health")[0] != 200:
            time.sleep(0.1)
        assert s.alive()
