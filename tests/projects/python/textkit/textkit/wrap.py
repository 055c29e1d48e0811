"""Wrapping and shortening."""
import textwrap


def wrap(text, width=70, indent=""):
    """Lines of at most `width` characters.

    >>> wrap("the quick brown fox jumps over the lazy dog", 15)
    ['the quick brown', 'fox jumps over', 'the lazy dog']
    """
    if width <= len(indent):
        raise ValueError("width must exceed the indent")
    return textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=indent)


def shorten(text, width, placeholder="..."):
    """At most `width` characters, cut at a word boundary.

    >>> shorten("Hello world, how are you?", 12)
    'Hello...'
    >>> shorten("short", 10)
    'short'
    """
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    room = width - len(placeholder)
    if room <= 0:
        return placeholder[:width]
    cut = text[:room + 1]
    if " " in cut:
        cut = cut[:cut.rindex(" ")]
    else:
        cut = cut[:room]
    return cut.rstrip(" ,.;:") + placeholder


def dedent_block(text):
    """Dedent and strip a triple-quoted block.

    >>> dedent_block('''
    ...     a
    ...       b
    ... ''')
    'a\\n  b'
    """
    return textwrap.dedent(text).strip("\n")
