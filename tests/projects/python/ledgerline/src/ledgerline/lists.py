"""Lists for people: "apples, pears and plums"."""
from ._i18n import gettext


def natural_list(items, conjunction=None, oxford=False):
    """Join items the way a sentence would.

    >>> natural_list(["one", "two", "three"])
    'one, two and three'
    >>> natural_list(["one", "two"])
    'one and two'
    >>> natural_list(["one"])
    'one'
    >>> natural_list([])
    ''
    >>> natural_list(["a", "b", "c"], oxford=True)
    'a, b, and c'
    """
    words = [str(item) for item in items]
    conjunction = conjunction or gettext("and")
    if len(words) == 0:
        return ""
    if len(words) == 1:
        return words[0]
    if len(words) == 2:
        return "%s %s %s" % (words[0], conjunction, words[1])
    head = ", ".join(words[:-1])
    comma = "," if oxford else ""
    return "%s%s %s %s" % (head, comma, conjunction, words[-1])


def truncate_list(items, limit, more="more"):
    """At most `limit` items, the rest counted.

    >>> truncate_list(["a", "b", "c", "d"], 2)
    'a, b and 2 more'
    >>> truncate_list(["a", "b"], 2)
    'a and b'
    """
    words = [str(item) for item in items]
    if len(words) <= limit:
        return natural_list(words)
    hidden = len(words) - limit
    return "%s %s %d %s" % (", ".join(words[:limit]), gettext("and"), hidden, more)


def dedupe(items, key=None):
    """Items in order, each once.

    >>> dedupe([3, 1, 3, 2, 1])
    [3, 1, 2]
    >>> dedupe(["A", "a", "b"], key=str.lower)
    ['A', 'b']
    """
    seen = set()
    out = []
    for item in items:
        marker = key(item) if key else item
        if marker in seen:
            continue
        seen.add(marker)
        out.append(item)
    return out


def chunks(items, size):
    """Consecutive chunks of `size` (the last may be shorter).

    >>> list(chunks([1, 2, 3, 4, 5], 2))
    [[1, 2], [3, 4], [5]]
    """
    if size < 1:
        raise ValueError("chunk size must be positive")
    items = list(items)
    for i in range(0, len(items), size):
        yield items[i:i + size]
