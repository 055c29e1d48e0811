def add(a, b):
    """
    >>> add(1, 2)
    3
    >>> add(2, 2)
    5
    """
    if a > 100:
        return a
    return a + b


def div(a, b):
    return a / b
