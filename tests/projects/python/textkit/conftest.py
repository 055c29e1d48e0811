# The rootdir conftest: the only place pytest accepts pytest_plugins.
pytest_plugins = ["tests.plugins.fixtures"]
