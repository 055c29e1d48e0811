from geo import hypot


def test_345():
    assert hypot(3, 4) == 5.0
