def test_built():
    pass
