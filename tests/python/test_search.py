"""fts.Index against the C++ tools on the same index (data/sample.xml built
by fts-index): hits, scores, snippets, counts and plans equal fts-search's;
stored documents equal the dump; threads search in parallel."""
import concurrent.futures
import json
import random

import pytest

import fts
from conftest import QUERIES, run_tool, sample_docs
from gil import assert_releases_gil


def cli_json(index_dir, query, *options):
    out = run_tool("fts-search", "--index", index_dir, "--json", *options, query).stdout
    return json.loads(out)


def assert_same_hits(results, expected):
    assert results.total_hits == expected["total_hits"]
    assert results.total_hits_relation == expected["total_hits_relation"]
    assert [h.doc for h in results] == [h["doc"] for h in expected["hits"]]
    for hit, want in zip(results, expected["hits"]):
        assert hit.score == pytest.approx(want["score"], abs=5e-5)
        assert (hit.title, hit.url, hit.snippet) == (want["title"], want["url"], want["snippet"])


@pytest.fixture(scope="module")
def index(sample_index):
    return fts.Index(sample_index)


@pytest.mark.parametrize("query", QUERIES)
def test_search_equals_fts_search(index, sample_index, query):
    assert_same_hits(index.search(query, limit=20), cli_json(sample_index, query, "--limit", "20"))


@pytest.mark.parametrize("query", ["cat OR dog", "-zzzunknownword", "coast"])
def test_paging_doc_order_and_threshold_equal_fts_search(index, sample_index, query):
    assert_same_hits(index.search(query, 7, 5), cli_json(sample_index, query, "--limit", "7", "--offset", "5"))
    assert_same_hits(index.search(query, limit=7, offset=3, sort="doc"),
                     cli_json(sample_index, query, "--limit", "7", "--offset", "3", "--sort", "doc"))
    assert_same_hits(index.search(query, limit=3, total_hits_threshold=4),
                     cli_json(sample_index, query, "--limit", "3", "--total-hits", "4"))


def test_collapse_equals_fts_search_collapse(tmp_path):
    d = str(tmp_path / "index")
    text = "the heron nests in tall reeds beside the slow river and feeds on small fish at dawn"
    with fts.IndexWriter(d) as writer:
        for i in range(4):
            writer.add(title="Grey heron", url=f"h{i}", abstract=text)
        writer.add(title="Kingfisher", url="k", abstract="the kingfisher dives from a branch for fish in the river")
        writer.add(title="Otter", url="o", abstract="an otter swims in the river at night hunting fish and frogs")
    index = fts.Index(d)
    results = index.search("fish", limit=10, collapse=True)
    expected = cli_json(d, "fish", "--collapse", "--limit", "10")
    assert (results.total_hits, results.collapsed_hits) == (expected["total_hits"], expected["collapsed_hits"]) == (6, 3)
    assert [(h.doc, h.duplicates) for h in results] == [(h["doc"], h["duplicates"]) for h in expected["hits"]]
    assert sorted(h.duplicates for h in results) == [0, 0, 3]
    plain = index.search("fish", limit=10)
    assert len(plain) == 6 and plain.collapsed_hits == 0 and all(h.duplicates == 0 for h in plain)


@pytest.fixture(scope="module")
def big_index(tmp_path_factory):
    """20,000 docs of ten words: enough that ranking skips docs and that a
    search fills thousands of hits (the sample is too small for either)."""
    words = "cat dog red fish blue moon tree lake river town".split()
    rng = random.Random(1)
    d = str(tmp_path_factory.mktemp("big") / "index")
    with fts.IndexWriter(d) as writer:
        for i in range(20000):
            writer.add(title=rng.choice(words), url=f"u{i}", abstract=" ".join(rng.choices(words, k=12)))
    return d


def test_threshold_makes_total_a_lower_bound(big_index):
    d = big_index
    index = fts.Index(d)
    exact = index.search("cat OR dog", limit=10)
    bounded = index.search("cat OR dog", limit=10, total_hits_threshold=100)
    assert exact.total_hits == index.count("cat OR dog") and exact.total_hits_relation == "eq"
    assert bounded.total_hits_relation == "gte" and 100 <= bounded.total_hits <= exact.total_hits
    assert [(h.doc, h.score) for h in bounded] == [(h.doc, h.score) for h in exact]
    assert_same_hits(bounded, cli_json(d, "cat OR dog", "--limit", "10", "--total-hits", "100"))


def test_a_search_past_its_budget_raises_timeout_error(big_index):
    # The budget is checked every 4,096 hits filled with stored fields; filling
    # 4,096 (decompressing each doc, analyzing it for its snippet) takes far
    # more than the 1 ms budget on any machine, so the search cannot finish.
    index = fts.Index(big_index)
    with pytest.raises(fts.TimeoutError) as e:
        index.search("-zzzunknownword", limit=20000, time_budget=0.001)
    assert isinstance(e.value, TimeoutError) and e.value.where == "search" and "1 ms" in str(e.value)
    assert len(index.search("-zzzunknownword", limit=20000, time_budget=60)) == 20000  # unaffected


@pytest.mark.parametrize("query", QUERIES)
def test_count_and_matching_docs_equal_fts_search(index, sample_index, query):
    expected = int(run_tool("fts-search", "--index", sample_index, "--count", query).stdout)
    assert index.count(query) == expected
    docs = index.matching_docs(query)
    assert docs == sorted(set(docs)) and len(docs) == expected
    assert docs == sorted(h.doc for h in index.search(query, limit=max(expected, 1), sort="doc"))


@pytest.mark.parametrize("query", QUERIES)
def test_explain_equals_fts_search(index, sample_index, query):
    out = run_tool("fts-search", "--index", sample_index, "--explain", "--count", query).stdout
    plan = out[:out.rstrip("\n").rfind("\n") + 1]  # the count is the last line
    assert index.explain(query) == plan


def flatten(node, depth=0):
    yield depth, node
    for child in node.children:
        yield from flatten(child, depth + 1)


@pytest.mark.parametrize("query", ["wild cat -dog", 'cat OR "search engine"', "title:(cat OR dog) fish"])
def test_explain_tree_is_the_text_plan(index, query):
    lines = index.explain(query).splitlines()
    nodes = list(flatten(index.explain_tree(query)))
    assert len(nodes) == len(lines)
    assert nodes[0][1].what.startswith("query ")
    for (depth, node), line in zip(nodes, lines):
        assert node.what in line
        if "cost=" in line:
            assert line.endswith(f"cost={node.cost}")


def test_documents_equal_the_dump(index):
    docs = sample_docs()
    assert index.doc_count == len(docs) == 300
    for doc_id in (0, 1, 2, 150, 299):
        d = index.document(doc_id)
        assert isinstance(d, fts.Document)
        assert d.to_dict() == {**docs[doc_id], "links": []}  # links are not stored
    assert [h.title for h in index.search("cat", limit=5)] == [docs[h.doc]["title"] for h in index.search("cat", limit=5)]


def test_lazy_stored_fields_equal_eager_ones(index):
    query = index.parse('"wild cat" OR title:cat')
    eager = index.search(query, limit=8, snippet_chars=60)
    lazy = index.search(query, limit=8, stored_fields=False)
    assert [h.doc for h in lazy] == [h.doc for h in eager]
    for hit, want in zip(lazy, eager):
        assert (hit.title, hit.url, hit.snippet) == ("", "", "")
        index.load_stored(query, hit, snippet_chars=60)
        assert (hit.title, hit.url, hit.snippet, hit.highlights) == (want.title, want.url, want.snippet, want.highlights)


def test_highlights_are_str_offsets_of_the_matches(index):
    results = index.search("crème OR cat", limit=10)
    assert any(not h.snippet.isascii() for h in results), "the sample has a non-ASCII snippet with a match"
    for hit in results:
        assert hit.highlights
        for start, end in hit.highlights:
            assert hit.snippet[start:end].lower().startswith(("crème", "cat")), (hit.snippet, start, end)


def test_results_behave_as_a_sequence(index):
    results = index.search("cat", limit=4)
    assert len(results) == 4 and len(results.hits) == 4
    assert results[0].doc == results.hits[0].doc and results[-1].doc == results.hits[3].doc
    assert [h.doc for h in results[1:3]] == [h.doc for h in results.hits[1:3]]
    assert [h.doc for h in results] == [h.doc for h in results.hits]
    assert results[0].score >= results[1].score
    hit = results[0]
    del results  # a Hit keeps its Results alive
    assert hit.title and "fts.Hit(doc=" in repr(hit)


def test_a_parsed_query_searches_as_its_text(index):
    q = index.parse("wild cat -dog")
    assert isinstance(q, fts.Query) and str(q) == "AND(wild, cat, NOT(dog))"
    assert [h.doc for h in index.search(q)] == [h.doc for h in index.search("wild cat -dog")]
    assert index.count(q) == index.count("wild cat -dog")
    assert index.parse("the of a").matches_nothing and index.count("the of a") == 0


def test_reopen_and_properties(index, sample_index):
    again = index.reopen()
    assert again.doc_count == index.doc_count and again.generation == index.generation
    assert index.dir == sample_index
    index.search("wild cat")
    stats = index.cache_stats()
    assert set(stats) == {"hits", "misses", "entries", "bytes", "capacity_bytes"}


def answers(index, query):
    r = index.search(query, limit=10)
    return r.total_hits, [(h.doc, h.score, h.title, h.snippet) for h in r], index.count(query)


def test_segments_searched_at_once_answer_as_one_thread(tmp_path):
    words = "cat dog red fish blue moon tree lake river town".split()
    rng = random.Random(2)
    d = str(tmp_path / "index")
    with fts.IndexWriter(d, merge=False, max_segment_docs=500) as writer:
        for i in range(3000):
            writer.add(title=rng.choice(words), url=f"u{i}", abstract=" ".join(rng.choices(words, k=8)))
    index = fts.Index(d)
    for q in ["cat", "cat dog", "cat OR dog", '"red fish"', "moon -lake", "-tree"]:
        one, three = index.search(q, limit=15), index.search(q, limit=15, threads=3)
        assert [(h.doc, h.score) for h in three] == [(h.doc, h.score) for h in one], q
        assert three.total_hits == one.total_hits
        assert index.count(q, threads=3) == index.count(q)
        assert index.matching_docs(q, threads=3) == index.matching_docs(q)
    with pytest.raises(fts.ArgumentError):
        index.search("cat", threads=0)


def test_threads_searching_at_once_answer_as_one_thread(index):
    work = QUERIES * 6
    serial = [answers(index, q) for q in work]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda q: answers(index, q), work))
    assert parallel == serial


@pytest.mark.parametrize("call", ["search", "count", "matching_docs", "explain", "document", "open"])
def test_calls_release_the_gil(index, sample_index, call):
    calls = {
        "search": lambda: index.search("cathedral OR mill OR coast", limit=50),
        "count": lambda: index.count("cathedral OR mill OR coast"),
        "matching_docs": lambda: index.matching_docs("-zzzunknownword"),
        "explain": lambda: index.explain("wild cat -dog"),
        "document": lambda: index.document(7),
        "open": lambda: fts.Index(sample_index),
    }
    assert_releases_gil(calls[call])
