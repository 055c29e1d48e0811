import doctest
import logging
import unittest
from unittest import mock

import unitconv.parse
from unitconv.parse import parse_quantity, scale_recipe


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(unitconv.parse, optionflags=doctest.ELLIPSIS))
    return tests


class TestParseQuantity(unittest.TestCase):
    GOOD = {
        "2 cups": (2.0, "cup"),
        "2 1/2 cups": (2.5, "cup"),
        "1/3 cup": (1 / 3, "cup"),
        "3.5kg": (3.5, "kg"),
        "10 grams": (10.0, "g"),
        "1 lbs": (1.0, "lb"),
        "-4 m": (-4.0, "m"),
        "6 feet": (6.0, "ft"),
        "45 mins": (45.0, "min"),
    }
    BAD = ["", "cups", "two cups", "1/0 cup", "3 parsecs", "1 1 cup"]

    def test_good(self):
        for text, expected in self.GOOD.items():
            with self.subTest(text=text):
                value, unit = parse_quantity(text)
                self.assertEqual(unit, expected[1])
                self.assertAlmostEqual(value, expected[0])

    def test_bad(self):
        for text in self.BAD:
            with self.subTest(text=text):
                with self.assertRaises(ValueError):
                    parse_quantity(text)

    def test_alias_table_targets_known_units(self):
        for alias, unit in unitconv.parse.ALIASES.items():
            with self.subTest(alias=alias):
                unitconv.core.kind_of(unit)


class TestScaleRecipe(unittest.TestCase):
    def setUp(self):
        self.recipe = ["2 cups flour", "1/2 tsp salt", "250 g butter", "3 tbsp sugar"]
        self.addCleanup(self.recipe.clear)

    def test_double(self):
        self.assertEqual(scale_recipe(self.recipe, 2),
                         ["4 cup flour", "1 tsp salt", "500 g butter", "6 tbsp sugar"])

    def test_halve(self):
        self.assertEqual(scale_recipe(self.recipe[:1], 0.5), ["1 cup flour"])

    def test_metric_volumes(self):
        self.assertEqual(scale_recipe(["1 cup milk"], 1, {"volume": "ml"}), ["236.59 ml milk"])

    def test_mass_in_ounces(self):
        self.assertEqual(scale_recipe(["100 g chocolate"], 1, {"mass": "oz"}), ["3.53 oz chocolate"])

    def test_uses_convert(self):
        with mock.patch("unitconv.parse.convert", return_value=42) as fake:
            self.assertEqual(scale_recipe(["1 cup milk"], 1, {"volume": "ml"}), ["42 ml milk"])
        fake.assert_called_once_with(1.0, "cup", "ml", digits=2)

    def test_logs_nothing(self):
        with self.assertNoLogs(level=logging.WARNING) if hasattr(self, "assertNoLogs") else mock.MagicMock():
            scale_recipe(self.recipe, 3)

    def test_ingredient_text_kept(self):
        self.assertDictEqual(
            {line.split(" ", 2)[2]: line.split(" ", 2)[1] for line in scale_recipe(self.recipe, 1)},
            {"flour": "cup", "salt": "tsp", "butter": "g", "sugar": "tbsp"})


class TestReadme(unittest.TestCase):
    def test_readme_example(self):
        import os
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.txt")
        failures, _ = doctest.testfile(path, module_relative=False, verbose=False)
        self.assertEqual(failures, 0)
