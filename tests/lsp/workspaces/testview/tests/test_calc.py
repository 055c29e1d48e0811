from calc import add, sub


def test_add():
    assert add(2, 3) == 5


class TestSub:
    def test_sub(self):
        assert sub(5, 3) == 2

    def test_sub_zero(self):
        assert sub(0, 0) == 0
