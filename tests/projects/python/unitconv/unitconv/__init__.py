"""Unit conversion."""
from .core import UnitError, convert, units_of
from .temperature import to_celsius, to_fahrenheit, to_kelvin

__all__ = ["UnitError", "convert", "to_celsius", "to_fahrenheit", "to_kelvin", "units_of"]
