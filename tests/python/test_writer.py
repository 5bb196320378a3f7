"""fts.IndexWriter round trips: what Python adds, updates and deletes is
what an Index (and fts-search) then finds; the sample added from Python
answers exactly as fts-index built it; one writer at a time; the GIL is
released while the writer works."""
import json
import os

import pytest

import fts
from conftest import QUERIES, SAMPLE, run_tool, sample_docs
from gil import assert_releases_gil

CAT = {"title": "Cat", "url": "https://example.org/cat", "abstract": "The cat sleeps on the warm roof."}
DOG = {"title": "Dog", "url": "https://example.org/dog", "abstract": "A dog chases the cat around the yard."}
FISH = {"title": "Fish", "url": "https://example.org/fish", "abstract": "Fish swim in the cold river."}


def ranking(index, query):
    r = index.search(query, limit=20)
    return r.total_hits, [(h.doc, h.score, h.title, h.url, h.snippet) for h in r]


def test_add_commit_then_search_and_fetch(tmp_path):
    d = str(tmp_path / "idx")
    writer = fts.IndexWriter(d)
    assert writer.add(**CAT) == 0                     # keyword fields
    assert writer.add(DOG) == 1                       # a dict
    assert writer.add(fts.Document(**FISH, links=["Rivers"])) == 2  # a Document
    assert writer.next_doc_id == 3 and writer.docs_added == 3
    stats = writer.commit()
    assert (stats.docs, stats.added, stats.deleted, stats.segments) == (3, 3, 0, 1)
    writer.close()
    index = fts.Index(d)
    assert index.doc_count == 3
    assert sorted(h.doc for h in index.search("cat")) == [0, 1]
    assert [h.title for h in index.search("river")] == ["Fish"]
    assert index.document(1).to_dict() == {**DOG, "links": []}
    out = json.loads(run_tool("fts-search", "--index", d, "--json", "cat").stdout)  # the C++ tool reads it too
    assert sorted(h["doc"] for h in out["hits"]) == [0, 1]


def test_sample_added_from_python_answers_as_fts_index_built_it(sample_index, tmp_path):
    by_add, by_dump = str(tmp_path / "add"), str(tmp_path / "dump")
    with fts.IndexWriter(by_add) as writer:
        for doc in sample_docs():
            writer.add(doc)
    with fts.IndexWriter(by_dump) as writer:
        assert writer.add_dump(SAMPLE) == 0
    built = fts.Index(sample_index)
    for d in (by_add, by_dump):
        index = fts.Index(d)
        assert index.doc_count == 300
        for query in QUERIES:
            assert ranking(index, query) == ranking(built, query), query


def test_context_manager_commits_on_success_and_drops_on_error(tmp_path):
    d = str(tmp_path / "idx")
    with fts.IndexWriter(d) as writer:
        writer.add(**CAT)
    assert writer.closed
    assert fts.Index(d).doc_count == 1
    with pytest.raises(RuntimeError, match="boom"):
        with fts.IndexWriter(d) as writer:
            writer.add(**DOG)
            raise RuntimeError("boom")
    assert writer.closed
    assert fts.Index(d).doc_count == 1 and fts.Index(d).count("dog") == 0
    with fts.IndexWriter(d) as writer:  # the lock went with the failed writer
        assert writer.next_doc_id >= 1


def test_appending_gives_new_ids_and_reopen_sees_them(tmp_path):
    d = str(tmp_path / "idx")
    with fts.IndexWriter(d) as writer:
        writer.add(**CAT)
    old = fts.Index(d)
    with fts.IndexWriter(d) as writer:
        assert writer.add(**DOG) == 1
    assert old.count("dog") == 0 and old.doc_count == 1  # its own snapshot
    new = old.reopen()
    assert new.count("dog") == 1 and new.doc_count == 2 and new.generation > old.generation


def test_update_and_deletes_apply_at_commit(tmp_path):
    d = str(tmp_path / "idx")
    with fts.IndexWriter(d) as writer:
        for doc in (CAT, DOG, FISH):
            writer.add(doc)
    writer = fts.IndexWriter(d)
    new_id = writer.update(title="Cat", url=CAT["url"], abstract="The cat now sleeps in the barn.")
    assert new_id == 3
    assert fts.Index(d).count("barn") == 0  # nothing visible before commit
    stats = writer.commit()
    assert (stats.docs, stats.added, stats.deleted) == (3, 1, 1)
    index = fts.Index(d)
    assert [h.doc for h in index.search("barn")] == [3] and index.count("roof") == 0

    writer.delete(1)
    writer.delete_url(FISH["url"])
    writer.commit()
    index = index.reopen()
    assert index.doc_count == 1 and index.matching_docs("-zzz") == [3]

    writer.add(**DOG)
    writer.delete_by_query("title:cat")
    writer.force_merge(1)
    stats = writer.commit()
    writer.close()
    assert (stats.docs, stats.segments) == (1, 1)
    index = index.reopen()
    assert [index.document(doc).title for doc in index.matching_docs("-zzz")] == ["Dog"]


def test_pair_words(tmp_path):
    d = str(tmp_path / "idx")
    with fts.IndexWriter(d, pair_words=["dog", "chase"]) as writer:  # as analyzed: "chases" -> "chase"
        writer.add(**CAT)
        writer.add(**DOG)
    index = fts.Index(d)
    assert index.count('"dog chases"') == 1 and index.count('"cat chases"') == 0
    assert 'term "dog chase"' in index.explain('"dog chases"')  # the pair's list, no positions
    with pytest.raises(fts.ArgumentError, match="pair_words"):
        fts.IndexWriter(str(tmp_path / "bad"), pair_words=["wild cat"])


def test_replace_mode_and_stopwords(tmp_path):
    d = str(tmp_path / "idx")
    with fts.IndexWriter(d) as writer:
        writer.add(**CAT)
    with fts.IndexWriter(d, mode="replace", stopwords="none") as writer:
        writer.add(**DOG)
    index = fts.Index(d)
    assert index.doc_count == 1 and index.count("cat") == 1 and index.count("roof") == 0
    assert index.count("the") == 1  # not a stopword in this index
    with fts.IndexWriter(str(tmp_path / "words"), stopwords=["dog"]) as writer:
        writer.add(**DOG)
    assert fts.Index(str(tmp_path / "words")).count("dog") == 0


def test_many_segments_without_merge(tmp_path):
    d = str(tmp_path / "idx")
    with fts.IndexWriter(d, merge=False, max_segment_docs=50, threads=1) as writer:
        writer.add_dump(SAMPLE)
    info = run_tool("fts-index", "info", d).stdout
    assert "6 segment" in info or info.count("seg-") >= 6, info
    assert fts.Index(d).count("cat") == int(run_tool("fts-search", "--index", d, "--count", "cat").stdout)


def test_dump_warnings_and_strict(tmp_path):
    dump = tmp_path / "bad.xml"
    dump.write_text("<feed><doc><title>Wikipedia: Ok</title><url>u1</url><abstract>fine cat</abstract></doc>"
                    "<doc><title>broken<url></doc>"
                    "<doc><title>Wikipedia: Also</title><url>u2</url><abstract>another cat</abstract></doc></feed>")
    warnings = []
    with fts.IndexWriter(str(tmp_path / "idx")) as writer:
        assert writer.add_dump(dump, on_warning=warnings.append) == 1
    assert len(warnings) == 1 and "bad.xml" in warnings[0]
    assert fts.Index(str(tmp_path / "idx")).count("cat") == 2
    with fts.IndexWriter(str(tmp_path / "strict")) as writer:
        with pytest.raises(fts.DumpError) as e:
            writer.add_dump(str(dump), strict=True)
        assert e.value.where == str(dump)
        writer.close()


def test_one_writer_at_a_time(tmp_path):
    d = str(tmp_path / "idx")
    first = fts.IndexWriter(d)
    with pytest.raises(fts.LockError) as e:
        fts.IndexWriter(d)
    assert f"process {os.getpid()}" in str(e.value) and e.value.where == d
    first.close()
    first.close()  # closing twice is harmless
    fts.IndexWriter(d).close()
    with pytest.raises(fts.ArgumentError, match="close"):
        first.add(**CAT)


def test_bad_documents_are_type_errors(tmp_path):
    with fts.IndexWriter(str(tmp_path / "idx")) as writer:
        with pytest.raises(TypeError, match="'body' is not a document field"):
            writer.add(title="x", body="y")
        with pytest.raises(TypeError, match="not both"):
            writer.add(CAT, title="x")
        with pytest.raises(TypeError):
            writer.add(["not", "a", "doc"])
        with pytest.raises(TypeError, match="list of str"):
            writer.add(title="x", links="y")
        with pytest.raises(TypeError, match="title takes a str, not int"):
            writer.add(title=5)
        with pytest.raises(TypeError, match="links takes a str"):
            writer.add({"title": "x", "links": ["ok", None]})
        assert writer.docs_added == 0


@pytest.mark.parametrize("call", ["add", "commit", "add_dump"])
def test_writer_calls_release_the_gil(tmp_path, call):
    writer = fts.IndexWriter(str(tmp_path / "idx"), ram_mb=16)
    calls = {
        "add": lambda: writer.add(**CAT),
        "commit": lambda: (writer.add(**DOG), writer.commit()),
        "add_dump": lambda: writer.add_dump(SAMPLE),
    }
    assert_releases_gil(calls[call])
    writer.close()
