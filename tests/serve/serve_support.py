"""Starting fts-serve on an ephemeral loopback port, and talking to it.

The tools come from FTS_BINARY_DIR (set by ctest), the sample dump from
FTS_SOURCE_DIR; every server and index lives in a temporary directory.
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time

SOURCE_DIR = os.environ.get("FTS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY_DIR = os.environ.get("FTS_BINARY_DIR", os.path.join(SOURCE_DIR, "build-test"))
SAMPLE = os.path.join(SOURCE_DIR, "data", "sample.xml")


def tool(name):
    return os.path.join(BINARY_DIR, name)


def write_dump(path, docs):
    """docs: (title, url, abstract) triples, written as a dump (XML-escaped)."""
    from xml.sax.saxutils import escape

    with open(path, "w", encoding="utf-8") as f:
        f.write("<feed>\n")
        for title, url, abstract in docs:
            f.write(f"<doc><title>Wikipedia: {escape(title)}</title><url>{escape(url)}</url>"
                    f"<abstract>{escape(abstract)}</abstract><links></links></doc>\n")
        f.write("</feed>\n")


# Documents the tests add to the sample: a title that is HTML, and a url
# that is a script.
EXTRA_DOCS = [
    ("<script>alert(1)</script>", "https://example.org/xss",
     "A zebrafinch title written as markup <b>bold</b> must show as text."),
    ("Javascript link", "javascript:alert(2)", "A zebrafinch with a url that is a script."),
]


def build_index(directory, dumps):
    subprocess.run([tool("fts-index"), "build", "--index", directory, *dumps], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)


def make_test_index(tmp):
    extra = os.path.join(tmp, "extra.xml")
    write_dump(extra, EXTRA_DOCS)
    index = os.path.join(tmp, "index")
    build_index(index, [SAMPLE, extra])
    return index


class Server:
    """A running fts-serve; .port, .url, .log (the access log path)."""

    def __init__(self, index, *args, tmp=None, preexec_fn=None):
        self.tmp = tmp or tempfile.mkdtemp(prefix="fts-serve-")
        self.log = os.path.join(self.tmp, f"access-{time.monotonic_ns()}.log")
        self.stderr_path = self.log + ".stderr"
        self.stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen(
            [tool("fts-serve"), "--index", index, "--listen", "127.0.0.1:0", "--access-log", self.log, *args],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True, preexec_fn=preexec_fn)
        line = self.proc.stdout.readline()
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"fts-serve did not start: {line!r} {open(self.stderr_path).read()}")
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def request(self, method, target, body=None, headers=None, timeout=10):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, target, body=body, headers=headers or {})
            r = conn.getresponse()
            data = r.read()
            return r.status, dict(r.getheaders()), data
        finally:
            conn.close()

    def get_json(self, target, **kw):
        status, headers, data = self.request("GET", target, **kw)
        return status, json.loads(data) if data else None

    def raw(self, data, timeout=10, read_all=True):
        """Sends raw bytes on a new connection; returns what came back until close."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(data)
            return recv_all(s) if read_all else s.recv(65536)

    def alive(self):
        status, body = self.get_json("/health")
        return status == 200 and body["status"] == "ok"

    def stop(self, sig=signal.SIGTERM, timeout=15):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        rc = self.proc.wait(timeout=timeout)
        self.stderr.close()
        return rc

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


def recv_all(s):
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        out += chunk
    return out


def status_of(response_bytes):
    m = re.match(rb"HTTP/1\.1 (\d{3}) ", response_bytes)
    return int(m.group(1)) if m else None


def json_body_of(response_bytes):
    head, _, body = response_bytes.partition(b"\r\n\r\n")
    return json.loads(body)
