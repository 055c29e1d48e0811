def describe(count, noun):
    """'1 item', '3 items'."""
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")
