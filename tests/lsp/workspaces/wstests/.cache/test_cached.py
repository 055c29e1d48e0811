def test_cached():
    pass
