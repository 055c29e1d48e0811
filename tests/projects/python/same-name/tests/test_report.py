from pkg_b import describe


def test_one():
    assert describe(1, "item") == "1 item"


def test_many():
    assert describe(3, "item") == "3 items"
