def test_deep():
    assert True
