import sys
import pytest
from calc import add, div

def test_pass():
    assert add(1, 2) == 3

def test_fail():
    assert add(1, 2) == 4

def test_fail_origin():
    assert add(101, 2) == 103

def test_exc():
    div(1, 0)

@pytest.mark.parametrize("a,b,c", [(1, 1, 2), (2, 2, 5)], ids=["ok", "bad"])
def test_param(a, b, c):
    assert add(a, b) == c

def test_setup_error(broken):
    pass

def test_teardown_error(bad_teardown):
    pass

def test_fail_and_teardown(bad_teardown):
    assert 0

@pytest.mark.skip(reason="not today")
def test_skip():
    pass

@pytest.mark.skipif(sys.version_info > (3,), reason="py3")
def test_skipif():
    pass

@pytest.mark.xfail(reason="known")
def test_xfail():
    assert 0

@pytest.mark.xfail(reason="known2")
def test_xpass():
    pass

@pytest.mark.xfail(strict=True, reason="strict one")
def test_xpass_strict():
    pass

def test_imperative_skip():
    pytest.skip("nope")

def test_print(capsys):
    print("hello out")
    assert False, "with message"

def test_list_diff():
    assert [1, 2, 3] == [1, 2, 4]

def test_fail_call():
    pytest.fail("explicit")

class TestK:
    def test_m(self):
        assert "abc" in "xyz"
