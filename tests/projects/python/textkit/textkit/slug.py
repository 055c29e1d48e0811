"""URL slugs."""
import re
import unicodedata

_SEPARATORS = re.compile(r"[\s_\-./\\]+")
_UNSAFE = re.compile(r"[^a-z0-9-]")

_TRANSLIT = {"ß": "ss", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "œ": "oe", "&": " and "}


def slugify(text, max_length=None, separator="-"):
    """A lowercase ASCII slug.

    >>> slugify("Hello, World!")
    'hello-world'
    >>> slugify("Straße & Café")
    'strasse-and-cafe'
    >>> slugify("a very long title indeed", max_length=10)
    'a-very'
    """
    if not isinstance(text, str):
        raise TypeError("slugify() needs a str, not %s" % type(text).__name__)
    text = "".join(_TRANSLIT.get(ch, ch) for ch in text.lower())
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = _SEPARATORS.sub("-", text)
    text = _UNSAFE.sub("", text)
    text = re.sub("-{2,}", "-", text).strip("-")
    if max_length is not None and len(text) > max_length:
        cut = text[:max_length + 1]
        text = cut.rsplit("-", 1)[0] if "-" in cut else text[:max_length]
        text = text.strip("-")
    return text.replace("-", separator)


def unique_slug(text, taken):
    """A slug not in `taken`, numbered when needed.

    >>> unique_slug("Report", {"report", "report-2"})
    'report-3'
    """
    base = slugify(text)
    if base not in taken:
        return base
    n = 2
    while "%s-%d" % (base, n) in taken:
        n += 1
    return "%s-%d" % (base, n)
