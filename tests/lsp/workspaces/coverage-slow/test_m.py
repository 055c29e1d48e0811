from m import value


def test_value():
    assert value() == 1


def test_other():
    assert 2 == 2
