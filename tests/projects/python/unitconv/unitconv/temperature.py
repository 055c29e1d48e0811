"""Temperatures: Celsius, Fahrenheit, Kelvin."""

ABSOLUTE_ZERO_C = -273.15


def to_kelvin(celsius):
    """
    >>> to_kelvin(0)
    273.15
    >>> to_kelvin(-300)
    Traceback (most recent call last):
    ...
    ValueError: below absolute zero: -300
    """
    if celsius < ABSOLUTE_ZERO_C:
        raise ValueError("below absolute zero: %s" % celsius)
    return round(celsius - ABSOLUTE_ZERO_C, 10)


def to_fahrenheit(celsius):
    """
    >>> to_fahrenheit(100)
    212.0
    >>> to_fahrenheit(-40)
    -40.0
    """
    return round(celsius * 9 / 5 + 32, 10)


def to_celsius(value, scale="F"):
    """
    >>> to_celsius(212)
    100.0
    >>> to_celsius(0, "K")
    -273.15
    """
    if scale == "F":
        return round((value - 32) * 5 / 9, 10)
    if scale == "K":
        if value < 0:
            raise ValueError("negative kelvin: %s" % value)
        return round(value + ABSOLUTE_ZERO_C, 10)
    if scale == "C":
        return float(value)
    raise ValueError("unknown scale: %r" % (scale,))


def describe(celsius):
    """A word for a temperature.

    >>> [describe(t) for t in (-5, 8, 18, 26, 35)]
    ['freezing', 'cold', 'mild', 'warm', 'hot']
    """
    if celsius <= 0:
        return "freezing"
    if celsius < 12:
        return "cold"
    if celsius < 22:
        return "mild"
    if celsius < 30:
        return "warm"
    return "hot"
