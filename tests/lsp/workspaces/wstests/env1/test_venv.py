def test_venv():
    pass
