import pytest

from textkit.tokens import tokenize


@pytest.fixture
def tokens_of():
    def _tokens(text):
        return [(t.kind, t.text) for t in tokenize(text)]
    return _tokens


@pytest.fixture(params=[1, 2, 3])
def depth(request):
    return request.param


@pytest.fixture
def nested_expression(depth):
    return "(" * depth + "1 + 2" + ")" * depth
