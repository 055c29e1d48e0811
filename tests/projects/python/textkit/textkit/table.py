"""Markdown tables."""


def markdown_table(rows, headers, align=None):
    """A Markdown table; numbers right-aligned unless told otherwise.

    >>> print(markdown_table([["apple", 3], ["kiwi", 12]], ["fruit", "n"]))
    | fruit |  n |
    |-------|---:|
    | apple |  3 |
    | kiwi  | 12 |
    """
    cells = [[str(c) for c in row] for row in rows]
    for row in cells:
        if len(row) != len(headers):
            raise ValueError("row %r has %d cells, expected %d" % (row, len(row), len(headers)))
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    if align is None:
        align = []
        for i in range(len(headers)):
            numeric = rows and all(isinstance(r[i], (int, float)) for r in rows)
            align.append("right" if numeric else "left")

    def fmt(row):
        parts = []
        for text, width, how in zip(row, widths, align):
            parts.append(text.rjust(width) if how == "right" else text.ljust(width))
        return "| " + " | ".join(parts) + " |"

    rule = []
    for width, how in zip(widths, align):
        dashes = "-" * (width + 2)
        rule.append(dashes[:-1] + ":" if how == "right" else dashes)
    lines = [fmt(headers), "|" + "|".join(rule) + "|"] + [fmt(r) for r in cells]
    return "\n".join(lines)
