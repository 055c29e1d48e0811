"""Cases from tests/data, parametrized through pytest_generate_tests."""
import pathlib

import pytest


def _slug_cases():
    path = pathlib.Path(__file__).parent.parent / "data" / "slugs.txt"
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        title, slug = line.rsplit("|", 1)
        yield pytest.param((title.strip(), slug.strip()), id=slug.strip() or "empty")


def pytest_generate_tests(metafunc):
    if "slug_case" in metafunc.fixturenames:
        metafunc.parametrize("slug_case", list(_slug_cases()))


@pytest.fixture
def title_and_slug(slug_case):
    return slug_case
