"""Shared fixtures, loaded through pytest_plugins in the rootdir conftest."""
import pytest


@pytest.fixture
def context():
    return {"name": "ada lovelace", "items": ["tea", "scones"], "user": {"email": "ada@example.org"}}


@pytest.fixture(params=["-", "_", "."], ids=["dash", "underscore", "dot"])
def separator(request):
    return request.param
