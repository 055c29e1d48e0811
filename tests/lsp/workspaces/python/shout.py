"""Loud strings."""

# shout(text): the text upper-cased, with "!" appended.

