"""Numbers for people: sizes, separators, ordinals and large-number words."""
import math
from fractions import Fraction

from ._i18n import gettext, thousands_separator

_SUFFIXES = {
    "decimal": ("kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"),
    "binary": ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"),
    "gnu": "KMGTPEZY",
}

_POWERS = [10 ** x for x in (3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 100)]
_POWER_WORDS = ("thousand", "million", "billion", "trillion", "quadrillion", "quintillion",
                "sextillion", "septillion", "octillion", "nonillion", "decillion", "googol")


def naturalsize(value, binary=False, gnu=False, format="%.1f"):
    """Format a number of bytes like a human-readable file size.

    >>> naturalsize(3000000)
    '3.0 MB'
    >>> naturalsize(300, False, True)
    '300B'
    >>> naturalsize(3000, True)
    '2.9 KiB'
    >>> naturalsize(1)
    '1 Byte'
    >>> naturalsize(10 ** 28)
    '10000.0 YB'
    """
    if gnu:
        suffix = _SUFFIXES["gnu"]
    elif binary:
        suffix = _SUFFIXES["binary"]
    else:
        suffix = _SUFFIXES["decimal"]
    base = 1024 if (gnu or binary) else 1000
    count = float(value)
    abs_bytes = abs(count)

    if abs_bytes == 1 and not gnu:
        return "%d Byte" % count
    if abs_bytes < base and not gnu:
        return "%d Bytes" % count
    if abs_bytes < base and gnu:
        return "%dB" % count

    for i, s in enumerate(suffix):
        unit = base ** (i + 2)
        if abs_bytes < unit:
            break
    ret = format % (base * count / unit)
    return ret + (s if gnu else " " + s)


def intcomma(value, ndigits=None):
    """Put a thousands separator between every three digits of an integer part.

    >>> intcomma(1000)
    '1,000'
    >>> intcomma(1234567.25)
    '1,234,567.25'
    >>> intcomma(-1234567)
    '-1,234,567'
    >>> intcomma(1234.5454545, 2)
    '1,234.55'
    >>> intcomma("10311")
    '10,311'
    """
    sep = thousands_separator()
    if isinstance(value, str):
        value = value.replace(sep, "")
        value = float(value) if "." in value else int(value)
    if ndigits is not None:
        orig = "{0:.{1}f}".format(value, ndigits)
    else:
        orig = str(value)
    negative = orig.startswith("-")
    digits = orig[1:] if negative else orig
    whole, dot, frac = digits.partition(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    out = sep.join(groups) + dot + frac
    return "-" + out if negative else out


def intword(value, format="%.1f"):
    """Say a large integer with a word: 1.0 million, 1.2 billion.

    >>> intword(100)
    '100'
    >>> intword(12400)
    '12.4 thousand'
    >>> intword(1000000)
    '1.0 million'
    >>> intword(1200000000)
    '1.2 billion'
    >>> intword(-8400000)
    '-8.4 million'
    """
    value = int(value)
    if value < 0:
        return "-" + intword(-value, format)
    if value < _POWERS[0]:
        return str(value)
    for ordinal_, power in enumerate(_POWERS[1:], 1):
        if value < power:
            chopped = value / float(_POWERS[ordinal_ - 1])
            if float(format % chopped) == float(10 ** 3):
                chopped = value / float(_POWERS[ordinal_])
                return (format % chopped) + " " + gettext(_POWER_WORDS[ordinal_])
            return (format % chopped) + " " + gettext(_POWER_WORDS[ordinal_ - 1])
    return str(value)


def ordinal(value):
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ...

    >>> ordinal(1)
    '1st'
    >>> ordinal(12)
    '12th'
    >>> ordinal(103)
    '103rd'
    """
    value = int(value)
    suffixes = ("th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th")
    if value % 100 in (11, 12, 13):
        return "%d%s" % (value, suffixes[0])
    return "%d%s" % (value, suffixes[value % 10])


def fractional(value):
    """A float as a whole number and a fraction.

    >>> fractional(0.3)
    '3/10'
    >>> fractional(1.3)
    '1 3/10'
    >>> fractional(2)
    '2'
    """
    number = float(value)
    if not math.isfinite(number):
        return str(number)
    whole = int(number)
    frac = Fraction(number - whole).limit_denominator(1000)
    numerator, denominator = frac.numerator, frac.denominator
    if whole and not numerator and denominator == 1:
        return "%d" % whole
    if not whole:
        return "%d/%d" % (numerator, denominator)
    return "%d %d/%d" % (whole, numerator, denominator)


def scientific(value, precision=2):
    """Scientific notation with a superscript exponent.

    >>> scientific(500)
    '5.00 x 10²'
    >>> scientific(-0.3)
    '-3.00 x 10⁻¹'
    """
    exponents = {"0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶",
                 "7": "⁷", "8": "⁸", "9": "⁹", "-": "⁻"}
    fmt = "{:.%se}" % int(precision)
    mantissa, exponent = fmt.format(float(value)).split("e")
    exponent = str(int(exponent))
    return "%s x 10%s" % (mantissa, "".join(exponents[c] for c in exponent))


def clamp(value, floor=None, ceil=None):
    """Clamp into [floor, ceil], saying so with < or >.

    >>> clamp(0.0001, floor=0.01)
    '<0.01'
    >>> clamp(0.999, ceil=0.99)
    '>0.99'
    >>> clamp(0.5, floor=0.01, ceil=0.99)
    '0.5'
    """
    if floor is not None and value < floor:
        return "<%s" % floor
    if ceil is not None and value > ceil:
        return ">%s" % ceil
    return str(value)
