import pytest

from ledgerline.lists import chunks, dedupe, natural_list, truncate_list


@pytest.mark.parametrize(
    "items, expected",
    [
        ([], ""),
        (["one"], "one"),
        (["one", "two"], "one and two"),
        (["one", "two", "three"], "one, two and three"),
        ([1, 2, 3, 4], "1, 2, 3 and 4"),
        ((x for x in "ab"), "a and b"),
    ],
    ids=["empty", "one", "two", "three", "numbers", "generator"],
)
def test_natural_list(items, expected):
    assert natural_list(items) == expected


def test_oxford_comma():
    assert natural_list(["a", "b", "c"], oxford=True) == "a, b, and c"


def test_oxford_comma_two_items():
    assert natural_list(["a", "b"], oxford=True) == "a and b"


def test_custom_conjunction():
    assert natural_list(["tea", "coffee"], conjunction="or") == "tea or coffee"


def test_german(german):
    assert natural_list(["eins", "zwei", "drei"]) == "eins, zwei und drei"


@pytest.mark.parametrize("limit, expected", [
    (1, "a and 3 more"), (2, "a, b and 2 more"), (3, "a, b, c and 1 more"),
    (4, "a, b, c and d"), (10, "a, b, c and d"),
])
def test_truncate_list(limit, expected):
    assert truncate_list("abcd", limit) == expected


class TestDedupe:
    def test_keeps_order(self):
        assert dedupe([3, 1, 3, 2, 1]) == [3, 1, 2]

    def test_key(self):
        assert dedupe(["A", "a", "b", "B"], key=str.lower) == ["A", "b"]

    def test_empty(self):
        assert dedupe([]) == []

    def test_unhashable_items_with_key(self):
        assert dedupe([[1], [1], [2]], key=tuple) == [[1], [2]]


@pytest.mark.parametrize("size, expected", [
    (1, [[1], [2], [3]]), (2, [[1, 2], [3]]), (3, [[1, 2, 3]]), (5, [[1, 2, 3]]),
])
def test_chunks(size, expected):
    assert list(chunks([1, 2, 3], size)) == expected


def test_chunks_rejects_zero():
    with pytest.raises(ValueError):
        list(chunks([1], 0))
