import warnings
from decimal import Decimal

import pytest

from ledgerline import Money, PrecisionWarning
from ledgerline.money import CurrencyMismatch, parse_money, total


class TestConstruction:
    def test_from_string(self):
        assert Money("10.50").amount == Decimal("10.50")

    def test_from_int(self, currency):
        assert Money(3, currency).amount == Decimal("3.00")

    def test_unknown_currency(self):
        with pytest.raises(ValueError, match="unknown currency"):
            Money(1, "XYZ")

    @pytest.mark.parametrize("bad", ["ten", "", "1.2.3", None])
    def test_not_an_amount(self, bad):
        with pytest.raises(ValueError):
            Money(bad)

    @pytest.mark.parametrize("bad", ["inf", "-inf", "nan"])
    def test_not_finite(self, bad):
        with pytest.raises(ValueError, match="finite"):
            Money(bad)

    def test_rounding_warns(self):
        with pytest.warns(PrecisionWarning, match="rounded"):
            m = Money("1.005", "EUR")
        assert m.amount == Decimal("1.00")

    def test_exact_does_not_warn(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            Money("1.25", "EUR")

    def test_yen_has_no_minor_units(self):
        assert Money("7", "JPY").minor_units == 7

    def test_kwd_has_three(self):
        assert Money("1.234", "KWD").minor_units == 1234


class TestArithmetic:
    def test_add(self, ten, currency):
        assert ten + Money("0.50", currency) == Money("10.50", currency)

    def test_sub(self, ten, currency):
        assert ten - Money("10.01", currency) == Money("-0.01", currency)

    def test_mul_rounds_half_up(self):
        assert Money("0.05") * 0.5 == Money("0.03")

    def test_rmul(self):
        assert 3 * Money("1.11") == Money("3.33")

    def test_neg_abs(self):
        assert abs(-Money("2.00")) == Money("2.00")

    def test_mismatch(self):
        with pytest.raises(CurrencyMismatch):
            Money(1, "EUR") + Money(1, "USD")

    def test_add_number_is_not_supported(self):
        with pytest.raises(TypeError):
            Money(1) + 1

    def test_ordering(self):
        assert sorted([Money("3"), Money("1"), Money("2")]) == [Money("1"), Money("2"), Money("3")]

    def test_le(self):
        assert Money("1") <= Money("1.00")

    def test_bool(self):
        assert not Money("0.00")
        assert Money("0.01")

    def test_hash_equal_amounts(self):
        assert len({Money("1.0"), Money("1.00")}) == 1


@pytest.mark.parametrize(
    "amount, ratios, expected",
    [
        ("100", [1, 1, 1], ["33.34", "33.33", "33.33"]),
        ("0.05", [3, 7], ["0.02", "0.03"]),
        ("10", [1], ["10.00"]),
        ("10", [1, 0], ["10.00", "0.00"]),
        ("1", [1, 1, 1, 1, 1, 1, 1], ["0.15", "0.15", "0.14", "0.14", "0.14", "0.14", "0.14"]),
        ("-1", [1, 1], ["-0.50", "-0.50"]),
        ("999.99", [50, 30, 20], ["500.00", "300.00", "199.99"]),
    ],
    ids=["thirds", "3-7", "single", "with-zero", "sevenths", "negative", "percentages"],
)
def test_allocate(amount, ratios, expected):
    parts = Money(amount).allocate(ratios)
    assert [str(p.amount) for p in parts] == expected
    assert sum(p.minor_units for p in parts) == Money(amount).minor_units


@pytest.mark.parametrize("ratios", [[], [0, 0], [1, -1]])
def test_allocate_rejects(ratios):
    with pytest.raises(ValueError):
        Money("1").allocate(ratios)


@pytest.mark.parametrize("n", range(1, 8))
def test_split_keeps_every_cent(n, currency):
    parts = Money("10.00", currency).split(n)
    assert len(parts) == n
    assert total(parts, currency) == Money("10.00", currency)
    assert max(parts) - min(parts) <= Money("0.01", currency)


def test_split_zero():
    with pytest.raises(ValueError, match="0 parts"):
        Money("1").split(0)


@pytest.mark.parametrize(
    "money, text",
    [
        (Money("1234567", "USD"), "$1,234,567.00"),
        (Money("-3.5", "EUR"), "-€3.50"),
        (Money("0.5", "GBP"), "£0.50"),
        (Money("1500", "JPY"), "¥1,500"),
        (Money("12.345", "KWD"), "KD 12.345"),
        (Money("99.90", "CHF"), "CHF 99.90"),
    ],
    ids=repr,
)
def test_str(money, text):
    assert str(money) == text


def test_total(wallet):
    assert total(wallet) == Money("6.60")


def test_total_empty():
    assert total([], "GBP") == Money(0, "GBP")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("€12.50", Money("12.50", "EUR")),
        ("12.50 EUR", Money("12.50", "EUR")),
        ("1,234.56 USD", Money("1234.56", "USD")),
        ("-$3", Money("-3", "USD")),
        ("  £7 ", Money("7", "GBP")),
        ("¥300", Money("300", "JPY")),
        ("CHF 5.05", Money("5.05", "CHF")),
        ("- €1", Money("-1", "EUR")),
    ],
)
def test_parse_money(text, expected):
    assert parse_money(text) == expected


@pytest.mark.parametrize("text", ["12.50", "EUR", "12.5.0 EUR", "$$3"])
def test_parse_money_rejects(text):
    with pytest.raises((ValueError, ArithmeticError)):
        parse_money(text)


def test_repr_round_trips():
    m = Money("4.20", "USD")
    assert eval(repr(m)) == m
