"""Small math helpers (the passing Python example)."""


def fib(n):
    """Return the n-th Fibonacci number (fib(0) == 0, fib(1) == 1).

    >>> fib(10)
    55
    """
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True
