"""Case conversions."""
import re

_SMALL_WORDS = {"a", "an", "and", "as", "at", "but", "by", "for", "in", "of", "on", "or", "the", "to", "vs"}


def camel_to_snake(name):
    """CamelCase to snake_case.

    >>> camel_to_snake("HTTPResponseCode")
    'http_response_code'
    >>> camel_to_snake("getX")
    'get_x'
    """
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return name.lower()


def snake_to_camel(name, upper_first=True):
    """snake_case to CamelCase (or camelCase).

    >>> snake_to_camel("http_response_code")
    'HttpResponseCode'
    >>> snake_to_camel("get_x", upper_first=False)
    'getX'
    """
    parts = [p for p in name.split("_") if p]
    if not parts:
        return ""
    words = [p.capitalize() for p in parts]
    if not upper_first:
        words[0] = parts[0].lower()
    return "".join(words)


def title_case(text):
    """Title Case, keeping small words small except first and last.

    >>> title_case("the lord of the rings")
    'The Lord of the Rings'
    """
    words = text.split()
    out = []
    for i, word in enumerate(words):
        lower = word.lower()
        if 0 < i < len(words) - 1 and lower in _SMALL_WORDS:
            out.append(lower)
        else:
            out.append(word[:1].upper() + word[1:])
    return " ".join(out)
