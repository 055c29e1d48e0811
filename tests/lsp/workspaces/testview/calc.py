"""Arithmetic with one bug (sub) for the test-view transcripts."""


def add(a, b):
    """The sum of a and b.

    >>> add(2, 3)
    5
    """
    return a + b


def sub(a, b):
    return a + b  # bug: should subtract
