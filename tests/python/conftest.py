"""Fixtures of the Python module's tests: the built C++ tools (the answers
the module is compared with), the bundled sample and an index of it built
by fts-index. ctest puts the built module first on PYTHONPATH."""
import os
import subprocess
import xml.etree.ElementTree as ElementTree

import pytest

BINARY_DIR = os.environ["FTS_BINARY_DIR"]
SOURCE_DIR = os.environ["FTS_SOURCE_DIR"]
SAMPLE = os.path.join(SOURCE_DIR, "data", "sample.xml")

# Words, phrases, fields, every operator, stopwords only, an unknown word,
# non-ASCII: the query language of DESIGN.md over data/sample.xml.
QUERIES = [
    "cat", "wild cat", 'cat OR "search engine"', "title:cat", 'abstract:"wild cat"', "cat -dog", "-dog",
    "(cat OR dog) fish", "cat NOT dog", "title:(cat OR dog)", "the", "zzzunknownword", "crème",
    "search engine", "cathedral OR mill", "coast AND NOT fish", '"grey heron"', "choir OR chord OR melody",
]


def tool(name):
    return os.path.join(BINARY_DIR, name)


def run_tool(*args, check=True):
    return subprocess.run([tool(args[0]), *args[1:]], check=check, capture_output=True, text=True, timeout=60)


def sample_docs():
    """The docs of data/sample.xml as fts stores them (the brute-force truth of document())."""
    docs = []
    for doc in ElementTree.parse(SAMPLE).getroot().iter("doc"):
        space = " \t\r\n"  # the dump reader's: leading space and the prefix go from titles, space around urls
        docs.append({
            "title": doc.findtext("title", "").lstrip(space).removeprefix("Wikipedia: "),
            "url": doc.findtext("url", "").strip(space),
            "abstract": doc.findtext("abstract", "") or "",
        })
    return docs


@pytest.fixture(scope="session")
def sample_index(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("sample") / "index")
    run_tool("fts-index", "build", "--index", directory, SAMPLE)
    return directory
