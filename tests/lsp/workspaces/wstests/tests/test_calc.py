from pkg.calc import add


def test_add():
    assert add(2, 3) == 5


class TestAdd:
    def test_zero(self):
        assert add(0, 0) == 0
