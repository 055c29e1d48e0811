from fact import factorial


def test_factorial():
    assert factorial(5) == 120
