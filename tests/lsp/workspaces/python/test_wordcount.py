from wordcount import count_words


def test_empty():
    assert count_words("") == 0


def test_two():
    assert count_words("hello world") == 2


def test_spaces():
    assert count_words("  a  b   c ") == 3
