import doctest
import unittest

import unitconv.core
from unitconv import UnitError, convert, units_of
from unitconv.core import best_unit, kind_of


def load_tests(loader, tests, ignore):
    """The module's doctests run with its unit tests (python -m unittest)."""
    tests.addTests(doctest.DocTestSuite(unitconv.core))
    return tests


class TestConvert(unittest.TestCase):
    CASES = [
        (1, "km", "m", 1000.0),
        (1, "mi", "km", 1.609344),
        (12, "in", "ft", 1.0),
        (1, "yd", "ft", 3.0),
        (1, "lb", "g", 453.59237),
        (16, "oz", "lb", 1.0),
        (1, "gal", "l", 3.785411784),
        (3, "tsp", "tbsp", 1.0),
        (1, "wk", "d", 7.0),
        (90, "min", "h", 1.5),
        (0, "m", "km", 0.0),
        (-5, "m", "cm", -500.0),
    ]

    def test_table(self):
        for value, source, target, expected in self.CASES:
            with self.subTest(value=value, source=source, target=target):
                self.assertAlmostEqual(convert(value, source, target), expected, places=9)

    def test_round_trip(self):
        for kind in ("length", "mass", "volume", "time"):
            for unit in units_of(kind):
                with self.subTest(unit=unit):
                    there = convert(7.25, unit, units_of(kind)[0])
                    self.assertAlmostEqual(convert(there, units_of(kind)[0], unit), 7.25, places=6)

    def test_digits(self):
        self.assertEqual(convert(2, "cup", "ml", digits=1), 473.2)

    def test_kinds_do_not_mix(self):
        with self.assertRaisesRegex(UnitError, "cannot convert mass to length"):
            convert(1, "kg", "m")

    def test_unknown_unit(self):
        with self.assertRaises(UnitError) as ctx:
            convert(1, "furlong", "m")
        self.assertIn("furlong", str(ctx.exception))


class TestUnits(unittest.TestCase):
    def test_kind_of(self):
        self.assertEqual(kind_of("tbsp"), "volume")

    def test_units_sorted(self):
        self.assertListEqual(units_of("length"), ["mm", "cm", "in", "ft", "yd", "m", "km", "mi"])

    def test_mass_units(self):
        self.assertCountEqual(units_of("mass"), ["kg", "g", "mg", "lb", "oz", "t"])

    def test_unit_error_is_value_error(self):
        self.assertTrue(issubclass(UnitError, ValueError))


class TestBestUnit(unittest.TestCase):
    def test_metric(self):
        self.assertEqual(best_unit(2500, "m"), (2.5, "km"))

    def test_small_stays(self):
        self.assertEqual(best_unit(0.5, "mm"), (0.5, "mm"))

    def test_imperial_stays_imperial(self):
        self.assertEqual(best_unit(36, "in"), (1.0, "yd"))

    def test_time(self):
        self.assertEqual(best_unit(172800, "s"), (2.0, "d"))

    @unittest.expectedFailure
    def test_down_to_metres(self):
        # best_unit only ever moves to larger units for now
        self.assertEqual(best_unit(0.001, "km"), (1.0, "m"))
