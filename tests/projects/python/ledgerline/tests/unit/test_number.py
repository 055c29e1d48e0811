import math

import pytest

from ledgerline import number
from ledgerline.number import clamp, fractional, intcomma, intword, naturalsize, ordinal, scientific


@pytest.mark.parametrize(
    "value, expected",
    [
        (300, "300 Bytes"),
        (1, "1 Byte"),
        (0, "0 Bytes"),
        (999, "999 Bytes"),
        (1000, "1.0 kB"),
        (3000, "3.0 kB"),
        (3000000, "3.0 MB"),
        (3000000000, "3.0 GB"),
        (3000000000000, "3.0 TB"),
        (10 ** 26, "100.0 YB"),
        (-4096, "-4.1 kB"),
        ("1000", "1.0 kB"),
        (1.5e6, "1.5 MB"),
    ],
)
def test_naturalsize_decimal(value, expected):
    assert naturalsize(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [(300, "300 Bytes"), (1023, "1023 Bytes"), (1024, "1.0 KiB"), (3000, "2.9 KiB"),
     (3000000, "2.9 MiB"), (2 ** 30, "1.0 GiB"), (2 ** 40 * 5, "5.0 TiB")],
    ids=lambda v: str(v),
)
def test_naturalsize_binary(value, expected):
    assert naturalsize(value, binary=True) == expected


@pytest.mark.parametrize(
    "value, expected",
    [(300, "300B"), (1024, "1.0K"), (3000000, "2.9M"), (2 ** 30 * 3, "3.0G")],
)
def test_naturalsize_gnu(value, expected):
    assert naturalsize(value, gnu=True) == expected


def test_naturalsize_format():
    assert naturalsize(1234567, format="%.3f") == "1.235 MB"


@pytest.mark.parametrize(
    "value, expected",
    [
        pytest.param(100, "100", id="small"),
        pytest.param(1000, "1,000", id="thousand"),
        pytest.param(10123, "10,123", id="ten-thousand"),
        pytest.param(10311, "10,311", id="another"),
        pytest.param(1000000, "1,000,000", id="million"),
        pytest.param(1234567.25, "1,234,567.25", id="float"),
        pytest.param("100", "100", id="str-small"),
        pytest.param("1000", "1,000", id="str-thousand"),
        pytest.param("1,000", "1,000", id="str-with-separator"),
        pytest.param(-1000, "-1,000", id="negative"),
        pytest.param(0, "0", id="zero"),
    ],
)
def test_intcomma(value, expected):
    assert intcomma(value) == expected


@pytest.mark.parametrize("ndigits, expected", [(0, "1,235"), (1, "1,234.5"), (2, "1,234.55"), (3, "1,234.545")])
def test_intcomma_ndigits(ndigits, expected):
    assert intcomma(1234.5454545, ndigits) == expected


@pytest.mark.locale
def test_intcomma_german_separator(german):
    assert intcomma(1234567) == "1.234.567"


@pytest.mark.parametrize(
    "value, expected",
    [
        ("100", "100"),
        ("1000", "1.0 thousand"),
        ("12400", "12.4 thousand"),
        ("12490", "12.5 thousand"),
        ("1000000", "1.0 million"),
        ("1200000", "1.2 million"),
        ("1290000", "1.3 million"),
        ("999999999", "1.0 billion"),
        ("1000000000", "1.0 billion"),
        ("2000000000", "2.0 billion"),
        ("6000000000000", "6.0 trillion"),
        ("1300000000000000", "1.3 quadrillion"),
        ("3500000000000000000000", "3.5 sextillion"),
        ("8100000000000000000000000000000000", "8.1 decillion"),
        (-1200000, "-1.2 million"),
    ],
)
def test_intword(value, expected):
    assert intword(value) == expected


def test_intword_format():
    assert intword(1234000, "%0.3f") == "1.234 million"


def test_intword_german(german):
    assert intword(2500000) == "2.5 Million"


@pytest.mark.parametrize("value, expected", [
    (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
    (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (0, "0th"),
])
def test_ordinal(value, expected):
    assert ordinal(value) == expected


@pytest.mark.parametrize("value, expected", [
    (1, "1"), (2.0, "2"), (0.3, "3/10"), (1.3, "1 3/10"), (0.25, "1/4"), (7.5, "7 1/2"),
    (0.333, "333/1000"), (float("inf"), "inf"),
])
def test_fractional(value, expected):
    assert fractional(value) == expected


@pytest.mark.parametrize("value, precision, expected", [
    (500, 2, "5.00 x 10²"), (-500, 2, "-5.00 x 10²"), (0.3, 2, "3.00 x 10⁻¹"),
    (1000000, 1, "1.0 x 10⁶"), (12345, 3, "1.234 x 10⁴"),
])
def test_scientific(value, precision, expected):
    assert scientific(value, precision) == expected


class TestClamp:
    def test_below_floor(self):
        assert clamp(0.0001, floor=0.01) == "<0.01"

    def test_above_ceiling(self):
        assert clamp(0.999, ceil=0.99) == ">0.99"

    def test_inside(self):
        assert clamp(0.5, floor=0.01, ceil=0.99) == "0.5"

    def test_no_bounds(self):
        assert clamp(123) == "123"


def test_powers_and_words_line_up():
    assert len(number._POWERS) == len(number._POWER_WORDS)
    assert all(b > a for a, b in zip(number._POWERS, number._POWERS[1:]))


def test_nan_is_kept():
    assert fractional(math.nan) == "nan"


@pytest.mark.skipif(not hasattr(math, "lcm"), reason="math.lcm needs Python 3.9")
def test_lcm_available():
    assert math.lcm(4, 6) == 12


@pytest.mark.xfail(reason="negative sizes keep their sign only in decimal mode", strict=True)
def test_naturalsize_negative_binary():
    assert naturalsize(-4096, binary=True) == "-4.0 KiB " + "(exact)"
