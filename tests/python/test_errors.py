"""The C++ error hierarchy as Python classes under fts.Error: each raised
where C++ raises it, with its where (and position for query syntax)."""
import datetime
import os
import shutil

import pytest

import fts
from conftest import run_tool


def test_one_hierarchy_under_fts_error():
    kinds = [fts.InvalidIndexError, fts.QuerySyntaxError, fts.DumpError, fts.LockError, fts.IoError,
             fts.ArgumentError, fts.TimeoutError, fts.CancelledError]
    assert issubclass(fts.Error, Exception)
    for kind in kinds:
        assert issubclass(kind, fts.Error) and kind.__module__ == "fts" and kind.__doc__
    # The builtin families a Python caller may already catch.
    assert issubclass(fts.QuerySyntaxError, ValueError) and issubclass(fts.ArgumentError, ValueError)
    assert issubclass(fts.IoError, OSError) and issubclass(fts.TimeoutError, TimeoutError)
    assert not issubclass(fts.InvalidIndexError, IndexError)  # not a subscript error
    assert not hasattr(fts, "IndexError")


def test_missing_and_damaged_indexes(tmp_path, sample_index):
    missing = str(tmp_path / "nowhere")
    with pytest.raises(fts.InvalidIndexError) as e:
        fts.Index(missing)
    assert missing in e.value.where and str(e.value).startswith(e.value.where)
    damaged = str(tmp_path / "damaged")
    shutil.copytree(sample_index, damaged)
    with open(os.path.join(damaged, "MANIFEST"), "r+b") as f:
        f.seek(12)
        f.write(b"\xff\xfe\xfd\xfc")
    with pytest.raises(fts.InvalidIndexError) as e:
        fts.Index(damaged)
    assert "MANIFEST" in str(e.value)


def cli_syntax_error(sample_index, query):
    out = run_tool("fts-search", "--index", sample_index, query, check=False)
    assert out.returncode == 2
    first = out.stderr.splitlines()[0]  # fts-search: syntax error at position N: MESSAGE
    position, message = first.removeprefix("fts-search: syntax error at position ").split(": ", 1)
    return int(position), message


@pytest.mark.parametrize("query", ["cat AND (dog OR", '"wild cat', "cat )", "title:", "crème AND (zürich OR", ""])
def test_query_syntax_error_has_the_position_fts_search_gives(sample_index, query):
    index = fts.Index(sample_index)
    byte_position, message = cli_syntax_error(sample_index, query)
    for call in (index.search, index.count, index.explain, index.parse, index.matching_docs):
        with pytest.raises(fts.QuerySyntaxError) as e:
            call(query)
        err = e.value
        assert (str(err), err.where, err.query, err.byte_position) == (message, "query", query, byte_position)
        # position indexes the str; byte_position its UTF-8 bytes.
        assert len(query[:err.position].encode()) == err.byte_position


def test_non_ascii_positions_count_characters(sample_index):
    with pytest.raises(fts.QuerySyntaxError) as e:
        fts.Index(sample_index).search("crème zürich )")
    assert e.value.position == 13 and e.value.byte_position == 15


def test_writer_query_syntax_error(tmp_path):
    with fts.IndexWriter(str(tmp_path / "idx")) as writer:
        with pytest.raises(fts.QuerySyntaxError) as e:
            writer.delete_by_query("cat OR")
        assert e.value.position == 4 and e.value.query == "cat OR"


def test_bad_arguments(sample_index):
    index = fts.Index(sample_index)
    with pytest.raises(fts.ArgumentError) as e:
        index.document(300)
    assert e.value.where
    with pytest.raises(fts.ArgumentError, match="sort"):
        index.search("cat", sort="title")
    with pytest.raises(fts.ArgumentError, match="limit"):
        index.search("cat", limit=-1)
    with pytest.raises(fts.ArgumentError, match="snippet_chars"):
        index.search("cat", snippet_chars=1 << 20)
    with pytest.raises(fts.ArgumentError, match="time_budget"):
        index.count("cat", time_budget=-1)
    with pytest.raises(ValueError):  # the builtin family too
        index.search("cat", time_budget=float("nan"))
    with pytest.raises(TypeError):
        index.search(42)
    with pytest.raises(TypeError):
        index.search("cat", time_budget="1s")
    with pytest.raises(fts.ArgumentError, match="mode"):
        fts.IndexWriter(os.path.join(sample_index, "never"), mode="overwrite")


def test_time_budgets_that_are_not_exceeded_answer(sample_index):
    index = fts.Index(sample_index)
    expected = index.count("cat")
    for budget in (None, 0, 30, 30.0, datetime.timedelta(seconds=30)):
        assert index.count("cat", time_budget=budget) == expected
        assert index.search("cat", time_budget=budget).total_hits == expected


def test_cancel_token_stops_every_kind_of_call(sample_index):
    index = fts.Index(sample_index)
    token = fts.CancelToken()
    assert index.count("cat", cancel=token) > 0
    token.cancel()
    assert token.cancelled
    for call in (index.search, index.count, index.matching_docs):
        with pytest.raises(fts.CancelledError) as e:
            call("cat", cancel=token)
        assert e.value.where == "search"
    token.reset()
    assert index.search("cat", cancel=token).total_hits > 0


def test_dump_and_io_errors(tmp_path):
    with fts.IndexWriter(str(tmp_path / "idx")) as writer:
        missing = str(tmp_path / "missing.xml")
        with pytest.raises(fts.DumpError) as e:
            writer.add_dump(missing)
        assert e.value.where == missing
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(fts.IoError) as e:
        fts.IndexWriter(str(blocker / "idx"))
    assert str(blocker) in str(e.value) and isinstance(e.value, OSError)
