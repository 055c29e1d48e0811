def double(x):
    """
    >>> double(2)
    4
    >>> double(3)
    7
    """
    return x * 2


def boom():
    """
    >>> boom()
    1
    """
    return 1 / 0
