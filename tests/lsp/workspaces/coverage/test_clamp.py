from clamp import clamp


def test_low():
    assert clamp(-5) == 0


def test_mid():
    assert clamp(50) == 50
