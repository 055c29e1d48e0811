from pkg_a.util import shout


def test_shout():
    assert shout("hi") == "HI!"


def test_shout_empty():
    assert shout("") == "!"
