import m


def test_version():
    assert m.version() == "lib"


def test_double():
    assert m.double(4) == 8
