"""unittest.TestCase classes in a pytest project: pytest runs them as they are."""
import unittest

from textkit import camel_to_snake, slugify


class TestCamelUnittest(unittest.TestCase):
    def setUp(self):
        self.cases = {"OneTwo": "one_two", "HTTPServer": "http_server"}

    def test_cases(self):
        for camel, snake in self.cases.items():
            self.assertEqual(camel_to_snake(camel), snake)

    def test_lists(self):
        self.assertListEqual([camel_to_snake(c) for c in self.cases], list(self.cases.values()))

    @unittest.skip("not decided yet")
    def test_acronym_plural(self):
        self.assertEqual(camel_to_snake("URLs"), "urls")

    @unittest.expectedFailure
    def test_digits_split(self):
        self.assertEqual(camel_to_snake("Version2"), "version_2")


class TestSlugUnittest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.taken = set()

    def test_ascii(self):
        self.assertEqual(slugify("Plain Title"), "plain-title")

    def test_not_equal(self):
        self.assertNotEqual(slugify("a b"), "a b")

    def test_raises(self):
        with self.assertRaises(TypeError):
            slugify(None)
