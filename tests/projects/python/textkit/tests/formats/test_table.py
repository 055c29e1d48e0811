import pytest

from textkit.table import markdown_table


def test_numbers_align_right():
    table = markdown_table([["apple", 3], ["kiwi", 12]], ["fruit", "n"])
    assert table.splitlines()[1] == "|-------|---:|"


def test_explicit_alignment():
    table = markdown_table([["a", "b"]], ["x", "y"], align=["right", "left"])
    assert table.splitlines() == ["| x | y |", "|--:|---|", "| a | b |"]


def test_mixed_column_is_left():
    table = markdown_table([[1], ["two"]], ["v"])
    assert table.splitlines()[1] == "|-----|"


def test_no_rows():
    assert markdown_table([], ["only"]).splitlines() == ["| only |", "|------|"]


@pytest.mark.parametrize("row", [["a"], ["a", "b", "c"]], ids=["short", "long"])
def test_ragged_rows(row):
    with pytest.raises(ValueError, match="cells, expected 2"):
        markdown_table([row], ["x", "y"])


def test_widths_follow_longest_cell():
    lines = markdown_table([["a", "bbbbbb"]], ["h1", "h2"]).splitlines()
    assert lines[0] == "| h1 | h2     |"
    assert len({len(line) for line in lines}) == 1


@pytest.mark.unicode
def test_unicode_cells():
    lines = markdown_table([["é", 1]], ["ü", "n"]).splitlines()
    assert lines[2] == "| é | 1 |"


def test_floats():
    lines = markdown_table([[1.5], [10.25]], ["x"]).splitlines()
    assert lines[2:] == ["|   1.5 |", "| 10.25 |"]
