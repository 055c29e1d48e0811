import doctest
import sys
import unittest

from unitconv import temperature
from unitconv.temperature import describe, to_celsius, to_fahrenheit, to_kelvin


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(temperature))
    return tests


def setUpModule():
    TestScales.module_ready = True


class TestScales(unittest.TestCase):
    module_ready = False

    def test_module_fixture_ran(self):
        self.assertTrue(self.module_ready)

    def test_freezing_point(self):
        self.assertEqual(to_fahrenheit(0), 32.0)
        self.assertEqual(to_kelvin(0), 273.15)

    def test_fahrenheit_table(self):
        for c, f in [(-40, -40.0), (0, 32.0), (37, 98.6), (100, 212.0), (-17.5, 0.5)]:
            with self.subTest(celsius=c):
                self.assertAlmostEqual(to_fahrenheit(c), f)

    def test_back_and_forth(self):
        for c in range(-50, 60, 7):
            with self.subTest(c=c):
                self.assertAlmostEqual(to_celsius(to_fahrenheit(c)), c)
                self.assertAlmostEqual(to_celsius(to_kelvin(c), "K"), c)

    def test_absolute_zero(self):
        self.assertRaises(ValueError, to_kelvin, -273.16)
        self.assertEqual(to_kelvin(-273.15), 0.0)

    def test_negative_kelvin(self):
        with self.assertRaisesRegex(ValueError, "negative kelvin"):
            to_celsius(-1, "K")

    def test_unknown_scale(self):
        with self.assertRaises(ValueError):
            to_celsius(1, "R")

    def test_celsius_is_float(self):
        self.assertIsInstance(to_celsius(5, "C"), float)


class TestDescribe(unittest.TestCase):
    BANDS = {"freezing": [-30, -0.1, 0], "cold": [0.1, 11.9], "mild": [12, 21.9], "warm": [22, 29.9],
             "hot": [30, 45]}

    def test_bands(self):
        for word, temps in self.BANDS.items():
            for t in temps:
                with self.subTest(t=t):
                    self.assertEqual(describe(t), word)

    @unittest.skipIf(sys.platform == "win32", "terminal colours")
    def test_words_are_lowercase(self):
        self.assertTrue(all(describe(t).islower() for t in range(-10, 40)))

    @unittest.skipUnless(sys.platform.startswith("darwin"), "macOS only")
    def test_macos_units(self):
        self.fail("not on macOS")
