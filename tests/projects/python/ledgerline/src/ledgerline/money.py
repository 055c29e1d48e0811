"""Exact money: Decimal amounts in one currency, fair allocation, formatting."""
import warnings
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation

from .number import intcomma

CURRENCIES = {
    # code: (symbol, minor units)
    "EUR": ("€", 2),
    "USD": ("$", 2),
    "GBP": ("£", 2),
    "JPY": ("¥", 0),
    "KWD": ("KD", 3),
    "CHF": ("CHF", 2),
}


class CurrencyMismatch(TypeError):
    """Arithmetic between amounts in different currencies."""


class PrecisionWarning(UserWarning):
    """An amount had more decimals than its currency allows and was rounded."""


class Money:
    """An amount of money in one currency.

    >>> Money("10.50", "EUR") + Money("0.25", "EUR")
    Money('10.75', 'EUR')
    >>> str(Money(1234567, "USD"))
    '$1,234,567.00'
    """

    __slots__ = ("amount", "currency")

    def __init__(self, amount, currency="EUR", rounding=ROUND_HALF_EVEN):
        if currency not in CURRENCIES:
            raise ValueError("unknown currency: %r" % (currency,))
        try:
            value = Decimal(str(amount)) if not isinstance(amount, Decimal) else amount
        except InvalidOperation:
            raise ValueError("not an amount: %r" % (amount,)) from None
        if not value.is_finite():
            raise ValueError("not a finite amount: %r" % (amount,))
        quantum = Decimal(1).scaleb(-CURRENCIES[currency][1])
        rounded = value.quantize(quantum, rounding=rounding)
        if rounded != value:
            warnings.warn("%s rounded to %s" % (value, rounded), PrecisionWarning, stacklevel=2)
        self.amount = rounded
        self.currency = currency

    @classmethod
    def zero(cls, currency="EUR"):
        return cls(0, currency)

    @property
    def minor_units(self):
        """The amount in the currency's smallest unit (cents).

        >>> Money("12.34", "EUR").minor_units
        1234
        >>> Money("7", "JPY").minor_units
        7
        """
        return int(self.amount.scaleb(CURRENCIES[self.currency][1]))

    def _check(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        if other.currency != self.currency:
            raise CurrencyMismatch("%s and %s" % (self.currency, other.currency))
        return other

    def __add__(self, other):
        other = self._check(other)
        if other is NotImplemented:
            return other
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other):
        other = self._check(other)
        if other is NotImplemented:
            return other
        return Money(self.amount - other.amount, self.currency)

    def __mul__(self, factor):
        if isinstance(factor, Money):
            return NotImplemented
        exact = self.amount * Decimal(str(factor))
        quantum = Decimal(1).scaleb(-CURRENCIES[self.currency][1])
        return Money(exact.quantize(quantum, rounding=ROUND_HALF_UP), self.currency)

    __rmul__ = __mul__

    def __neg__(self):
        return Money(-self.amount, self.currency)

    def __abs__(self):
        return Money(abs(self.amount), self.currency)

    def __bool__(self):
        return bool(self.amount)

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.currency == other.currency and self.amount == other.amount

    def __lt__(self, other):
        other = self._check(other)
        if other is NotImplemented:
            return other
        return self.amount < other.amount

    def __le__(self, other):
        other = self._check(other)
        if other is NotImplemented:
            return other
        return self.amount <= other.amount

    def __hash__(self):
        return hash((self.amount, self.currency))

    def __repr__(self):
        return "Money(%r, %r)" % (str(self.amount), self.currency)

    def __str__(self):
        symbol, places = CURRENCIES[self.currency]
        text = intcomma(abs(self.amount), places) if places else intcomma(int(abs(self.amount)))
        sign = "-" if self.amount < 0 else ""
        if len(symbol) > 1:
            return "%s%s %s" % (sign, symbol, text)
        return "%s%s%s" % (sign, symbol, text)

    def allocate(self, ratios):
        """Split into parts proportional to `ratios`; no cent is lost or made up.

        >>> [str(m) for m in Money("100", "EUR").allocate([1, 1, 1])]
        ['€33.34', '€33.33', '€33.33']
        >>> [m.minor_units for m in Money("0.05", "USD").allocate([3, 7])]
        [2, 3]
        """
        if not ratios or any(r < 0 for r in ratios) or sum(ratios) == 0:
            raise ValueError("ratios must be non-negative and not all zero")
        total = self.minor_units
        parts = [total * r // sum(ratios) for r in ratios]
        remainder = total - sum(parts)
        for i in range(remainder):
            parts[i % len(parts)] += 1
        places = CURRENCIES[self.currency][1]
        return [Money(Decimal(p).scaleb(-places), self.currency) for p in parts]

    def split(self, n):
        """Split evenly into n parts.

        >>> [str(m) for m in Money("10", "EUR").split(3)]
        ['€3.34', '€3.33', '€3.33']
        """
        if n < 1:
            raise ValueError("cannot split into %d parts" % n)
        return self.allocate([1] * n)


def total(amounts, currency="EUR"):
    """Sum amounts of one currency (an empty sum is zero).

    >>> total([Money("1.10"), Money("2.20")])
    Money('3.30', 'EUR')
    >>> total([], "USD")
    Money('0.00', 'USD')
    """
    result = Money.zero(currency)
    for amount in amounts:
        result = result + amount
    return result


def parse_money(text):
    """Parse '12.50 EUR', '€12.50', '-$3', '1,234.56 USD'.

    >>> parse_money("€12.50")
    Money('12.50', 'EUR')
    >>> parse_money("1,234.56 USD")
    Money('1234.56', 'USD')
    >>> parse_money("-$3")
    Money('-3.00', 'USD')
    """
    text = text.strip()
    negative = text.startswith("-")
    if negative:
        text = text[1:].strip()
    currency = None
    for code, (symbol, _) in CURRENCIES.items():
        if text.endswith(" " + code):
            currency, text = code, text[: -len(code) - 1]
            break
        if text.startswith(symbol):
            currency, text = code, text[len(symbol):]
            break
    if currency is None:
        raise ValueError("no currency in %r" % (text,))
    amount = Decimal(text.replace(",", "").strip())
    return Money(-amount if negative else amount, currency)
