"""Project-wide fixtures and options."""
import datetime as dt

import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: needs --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """Every test starts in English with ',' separators, whatever the shell says."""
    monkeypatch.setenv("LEDGERLINE_LANG", "en")
    monkeypatch.delenv("LEDGERLINE_THOUSANDS", raising=False)


@pytest.fixture
def german(monkeypatch):
    monkeypatch.setenv("LEDGERLINE_LANG", "de")
    monkeypatch.setenv("LEDGERLINE_THOUSANDS", ".")


@pytest.fixture(scope="session")
def epoch():
    return dt.date(2024, 1, 1)
