def is_prime(n):
    """True when n is a prime number."""
    pass
