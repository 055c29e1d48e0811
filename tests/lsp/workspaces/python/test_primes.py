from primes import is_prime


def test_small():
    assert is_prime(2) and is_prime(3) and not is_prime(4)


def test_one():
    assert is_prime(1) is False
