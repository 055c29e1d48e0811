"""Linear units: length, mass, volume, time."""

_TABLES = {
    "length": {"m": 1.0, "km": 1000.0, "cm": 0.01, "mm": 0.001, "in": 0.0254, "ft": 0.3048,
               "yd": 0.9144, "mi": 1609.344},
    "mass": {"kg": 1.0, "g": 0.001, "mg": 1e-6, "lb": 0.45359237, "oz": 0.028349523125, "t": 1000.0},
    "volume": {"l": 1.0, "ml": 0.001, "cup": 0.2365882365, "tbsp": 0.01478676478125,
               "tsp": 0.00492892159375, "gal": 3.785411784},
    "time": {"s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0, "wk": 604800.0},
}


class UnitError(ValueError):
    """An unknown unit, or two units of different kinds."""


def kind_of(unit):
    """The kind of a unit.

    >>> kind_of("oz")
    'mass'
    >>> kind_of("parsec")
    Traceback (most recent call last):
    ...
    unitconv.core.UnitError: unknown unit: 'parsec'
    """
    for kind, table in _TABLES.items():
        if unit in table:
            return kind
    raise UnitError("unknown unit: %r" % (unit,))


def units_of(kind):
    """The units of one kind, smallest first.

    >>> units_of("time")
    ['s', 'min', 'h', 'd', 'wk']
    """
    table = _TABLES[kind]
    return sorted(table, key=table.get)


def convert(value, source, target, digits=None):
    """Convert between units of one kind.

    >>> convert(1, "km", "m")
    1000.0
    >>> convert(3, "ft", "in")
    36.0
    >>> convert(2, "cup", "ml", digits=1)
    473.2
    >>> convert(1, "kg", "m")
    Traceback (most recent call last):
    ...
    unitconv.core.UnitError: cannot convert mass to length
    """
    src_kind, dst_kind = kind_of(source), kind_of(target)
    if src_kind != dst_kind:
        raise UnitError("cannot convert %s to %s" % (src_kind, dst_kind))
    table = _TABLES[src_kind]
    result = value * table[source] / table[target]
    if digits is not None:
        return round(result, digits)
    return round(result, 10)


def best_unit(value, unit):
    """Re-express in the largest unit of the kind that keeps the value >= 1.

    >>> best_unit(2500, "m")
    (2.5, 'km')
    >>> best_unit(90, "min")
    (1.5, 'h')
    >>> best_unit(0.5, "mm")
    (0.5, 'mm')
    """
    kind = kind_of(unit)
    table = _TABLES[kind]
    base = value * table[unit]
    choice = unit
    for candidate in units_of(kind):
        if base / table[candidate] >= 1 and table[candidate] >= table[choice] and _metric(candidate) == _metric(unit):
            choice = candidate
    return round(base / table[choice], 10), choice


def _metric(unit):
    return unit not in ("in", "ft", "yd", "mi", "lb", "oz", "cup", "tbsp", "tsp", "gal")
