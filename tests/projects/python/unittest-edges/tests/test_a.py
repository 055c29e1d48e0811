import doctest
import unittest
import pkg.mod
from pkg.mod import double


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(pkg.mod))
    return tests


class TestA(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(double(2), 4)

    def test_list(self):
        print("some output")
        self.assertEqual([1, 2, 3], [1, 2, 4])

    def test_err(self):
        {}["x"]

    def test_sub(self):
        for i in range(4):
            with self.subTest(i=i):
                self.assertEqual(double(i), i + i + (i == 2))

    @unittest.skip("later")
    def test_skip(self):
        pass

    @unittest.expectedFailure
    def test_xf(self):
        self.assertEqual(1, 2)

    @unittest.expectedFailure
    def test_xp(self):
        pass


class TestB(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("class setup broke")

    def test_never(self):
        pass
