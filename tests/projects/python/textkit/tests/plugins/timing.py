"""A local plugin (addopts: -p tests.plugins.timing): a header line and a stopwatch fixture."""
import time

import pytest


def pytest_report_header(config):
    return "textkit: timing plugin active"


class Stopwatch:
    def __init__(self):
        self.start = time.perf_counter()

    def elapsed(self):
        return time.perf_counter() - self.start


@pytest.fixture
def stopwatch():
    return Stopwatch()
