#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from data/ and ../shared.

    fuzz/make_seeds.py OUT_DIR

OUT_DIR/<target>/ gets small inputs in each target's input format:
  dump_reader_fuzz  one flag byte (bit 1: the harness gzips the rest) + a
                    few consecutive <doc>s of data/sample.xml and of
                    ../shared/corpus/quirks.xml inside <feed>, plain and gzip
  query_fuzz        every distinct line of ../shared/queries/*.txt
  analyzer_fuzz     those queries, the titles and abstracts of data/sample.xml
                    and a few scripts beyond ASCII
index_files_fuzz writes its own seeds (they are the bytes of an index it
builds): FTS_FUZZ_WRITE_SEEDS=DIR.
Nothing here is committed: the corpora are rebuilt from their sources.
"""
import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def write(dir_: pathlib.Path, data: bytes) -> None:
    dir_.mkdir(parents=True, exist_ok=True)
    (dir_ / hashlib.sha1(data).hexdigest()).write_bytes(data)


def docs_of(path: pathlib.Path) -> list[bytes]:
    return re.findall(rb"<doc>.*?</doc>", path.read_bytes(), flags=re.S)


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    dumps = [ROOT / "data" / "sample.xml", SHARED / "corpus" / "quirks.xml"]
    dump_dir = out / "dump_reader_fuzz"
    for dump in dumps:
        if not dump.exists():
            continue
        docs = docs_of(dump)
        for i in range(0, len(docs), 4):
            feed = b"<feed>\n" + b"\n".join(docs[i:i + 4]) + b"\n</feed>\n"
            write(dump_dir, b"\x00" + feed)
            if i % 16 == 0:
                write(dump_dir, b"\x02" + feed)
    for edge in [b"", b"<feed></feed>", b"<feed><doc></doc></feed>", b"<doc><title>x</title></doc>"]:
        write(dump_dir, b"\x00" + edge)

    queries = set()
    for path in sorted((SHARED / "queries").glob("*.txt")):
        for line in path.read_bytes().splitlines():
            if line.strip():
                queries.add(line)
    for q in sorted(queries):
        write(out / "query_fuzz", q)

    analyzer_dir = out / "analyzer_fuzz"
    for q in sorted(queries)[::4]:
        write(analyzer_dir, q)
    for doc in docs_of(ROOT / "data" / "sample.xml"):
        for field in re.findall(rb"<(?:title|abstract)>(.*?)</", doc, flags=re.S):
            write(analyzer_dir, field)
    for text in ["Straße ÉCOLE naïve café", "Ελληνικά κείμενα", "日本語のテキスト", "русский ТЕКСТ",
                 "x\u0301y \u00df\u1e9e", "wi-fi e-mail 3.14 2,000"]:
        write(analyzer_dir, text.encode())


if __name__ == "__main__":
    main()
