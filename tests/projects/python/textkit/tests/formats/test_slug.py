import pytest

from textkit.slug import slugify, unique_slug

pytestmark = pytest.mark.unicode


@pytest.mark.data
def test_slug_from_data(slug_case):
    title, slug = slug_case
    assert slugify(title) == slug


@pytest.mark.parametrize("length, expected", [
    (3, "a"), (6, "a-very"), (7, "a-very"), (11, "a-very-long"), (100, "a-very-long-title"),
])
def test_max_length(length, expected):
    assert slugify("A very long title", max_length=length) == expected


def test_max_length_single_word():
    assert slugify("Supercalifragilistic", max_length=5) == "super"


def test_separator(separator):
    assert slugify("one two three", separator=separator) == separator.join(["one", "two", "three"])


def test_empty():
    assert slugify("") == ""


def test_only_symbols():
    assert slugify("!!!") == ""


class TestUnique:
    def test_free(self):
        assert unique_slug("Report", set()) == "report"

    def test_second(self):
        assert unique_slug("Report", {"report"}) == "report-2"

    @pytest.mark.parametrize("taken, expected", [
        ({"a"}, "a-2"), ({"a", "a-2"}, "a-3"), ({"a", "a-3"}, "a-2"), ({"a-2"}, "a"),
    ])
    def test_numbering(self, taken, expected):
        assert unique_slug("A", taken) == expected
