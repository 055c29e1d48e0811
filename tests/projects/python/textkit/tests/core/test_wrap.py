import pytest

from textkit.wrap import dedent_block, shorten, wrap


class TestWrap:
    def test_width(self, lorem):
        assert all(len(line) <= 30 for line in wrap(lorem, 30))

    def test_words_kept(self, lorem):
        assert " ".join(wrap(lorem, 25)).split() == lorem.split()

    def test_indent(self):
        assert wrap("one two three four", 10, indent="> ") == ["> one two", "> three", "> four"]

    def test_width_too_small(self):
        with pytest.raises(ValueError):
            wrap("x", 2, indent="  ")

    @pytest.mark.parametrize("width", [5, 10, 20, 40, 80])
    def test_lines_never_empty(self, lorem, width):
        assert all(line.strip() for line in wrap(lorem, width))


@pytest.mark.parametrize("text, width, expected", [
    ("Hello world, how are you?", 12, "Hello..."),
    ("Hello world, how are you?", 25, "Hello world, how are you?"),
    ("Hello world, how are you?", 20, "Hello world, how..."),
    ("Supercalifragilistic", 10, "Superca..."),
    ("  lots   of   space  ", 50, "lots of space"),
    ("abc", 2, ".."),
])
def test_shorten(text, width, expected):
    assert shorten(text, width) == expected


def test_shorten_placeholder():
    assert shorten("one two three", 9, placeholder=" [..]") == "one [..]"


def test_dedent_block():
    assert dedent_block("\n    a\n      b\n") == "a\n  b"


def test_stopwatch_from_local_plugin(stopwatch):
    assert stopwatch.elapsed() >= 0


def test_fixture_by_name(request):
    assert request.getfixturevalue("lorem").startswith("Lorem")
