from ranged import sign


def test_negative():
    assert sign(-3) == -1


def test_positive():
    assert sign(3) == 1
