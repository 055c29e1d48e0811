from mathutil import fib, is_prime


def test_fib():
    assert fib(0) == 0
    assert fib(1) == 1
    assert fib(10) == 55


def test_is_prime():
    assert [n for n in range(20) if is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19]
