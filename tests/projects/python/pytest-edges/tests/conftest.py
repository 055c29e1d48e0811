import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")

@pytest.fixture
def bad_teardown():
    yield 1
    raise ValueError("teardown broke")
