"""Reading quantities written by people: '2 1/2 cups', '3.5kg', '10 °F'."""
import re
from fractions import Fraction

from .core import convert, kind_of

_QUANTITY = re.compile(
    r"^\s*(?P<whole>-?\d+(?:\.\d+)?)?(?:\s*(?P<num>\d+)/(?P<den>\d+))?\s*(?P<unit>[a-zA-Z°]+)\s*$")

ALIASES = {"cups": "cup", "grams": "g", "gram": "g", "kilos": "kg", "pounds": "lb", "lbs": "lb",
           "ounces": "oz", "hours": "h", "minutes": "min", "mins": "min", "litres": "l", "liters": "l",
           "meters": "m", "metres": "m", "feet": "ft", "foot": "ft", "inches": "in", "miles": "mi"}


def parse_quantity(text):
    """(value, unit) from text.

    >>> parse_quantity("2 1/2 cups")
    (2.5, 'cup')
    >>> parse_quantity("3.5kg")
    (3.5, 'kg')
    >>> parse_quantity("1/4 tsp")
    (0.25, 'tsp')
    >>> parse_quantity("a pinch")
    Traceback (most recent call last):
    ...
    ValueError: not a quantity: 'a pinch'
    """
    m = _QUANTITY.match(text)
    if not m or (m.group("whole") is None and m.group("num") is None):
        raise ValueError("not a quantity: %r" % (text,))
    value = Fraction(m.group("whole") or 0)
    if m.group("num"):
        if int(m.group("den")) == 0:
            raise ValueError("zero denominator in %r" % (text,))
        value += Fraction(int(m.group("num")), int(m.group("den")))
    unit = ALIASES.get(m.group("unit").lower(), m.group("unit"))
    kind_of(unit)
    return float(value), unit


def scale_recipe(lines, factor, target_units=None):
    """Scale recipe lines 'QUANTITY UNIT ingredient'.

    >>> scale_recipe(["2 cups flour", "1/2 tsp salt"], 2)
    ['4 cup flour', '1 tsp salt']
    """
    out = []
    for line in lines:
        qty, _, ingredient = line.partition(" ")
        unit, _, rest = ingredient.partition(" ")
        value, unit = parse_quantity(qty + " " + unit)
        value *= factor
        if target_units and kind_of(unit) in target_units:
            value = convert(value, unit, target_units[kind_of(unit)], digits=2)
            unit = target_units[kind_of(unit)]
        text = ("%g" % value)
        out.append("%s %s %s" % (text, unit, rest))
    return out
