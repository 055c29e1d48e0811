from triangle import triangular


def test_small():
    assert triangular(1) == 1
    assert triangular(4) == 10


def test_zero_and_negative():
    assert triangular(0) == 0
    assert triangular(-3) == 0
