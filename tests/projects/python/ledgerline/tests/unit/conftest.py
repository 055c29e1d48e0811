import pytest

from ledgerline import Money


@pytest.fixture(params=["EUR", "USD", "GBP", "CHF"])
def currency(request):
    """Each two-decimal currency in turn."""
    return request.param


@pytest.fixture
def ten(currency):
    return Money("10.00", currency)


@pytest.fixture
def wallet():
    return [Money("1.10"), Money("2.20"), Money("3.30")]
