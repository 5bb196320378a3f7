"""Fixtures of the fts-serve tests: a temporary directory and the test index
(the sample dump plus two hostile documents), built once per test file."""
import shutil
import tempfile

import pytest

from serve_support import make_test_index


@pytest.fixture(scope="module")
def tmp():
    d = tempfile.mkdtemp(prefix="fts-serve-test-")
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def index(tmp):
    return make_test_index(tmp)
