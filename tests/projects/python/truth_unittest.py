#!/usr/bin/env python3
"""The ground truth of a unittest project: runs it as `python -m unittest ARGS...` does (the
stock TestProgram, TextTestRunner and TextTestResult) and writes each test id's outcome.

    truth_unittest.py OUT.json [unittest's arguments...]     (cwd: the project root)

OUT.json: {"tests": {id: outcome}, "exit": status} with outcome passed, failed, error, skipped,
xfailed (expectedFailure); an unexpected success is failed; a test whose subtests failed is
failed (an assertion) or error (another exception), failed first. An id run twice (a suite
that holds a test twice) takes the first of failed > error > xfailed > skipped > passed.
"""
import json
import os
import sys
import unittest

ORDER = ["failed", "error", "xfailed", "skipped", "passed"]


def combine(a, b):
    for o in ORDER:
        if o in (a, b):
            return o
    return b


class Recording(unittest.TextTestResult):
    outcomes = {}

    def _set(self, test, outcome):
        tid = test.id()
        prev = self.outcomes.get(tid)
        self.outcomes[tid] = outcome if prev is None else combine(prev, outcome)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._set(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set(test, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self._set(test, "error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._set(test, "skipped")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._set(test, "xfailed")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._set(test, "failed")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._set(test, "failed" if issubclass(err[0], test.failureException) else "error")


class Runner(unittest.TextTestRunner):
    resultclass = Recording


def main():
    out = sys.argv[1]
    sys.argv = [os.path.basename(sys.executable) + " -m unittest"] + sys.argv[2:]
    sys.path.insert(0, os.getcwd())
    program = unittest.main(module=None, testRunner=Runner, exit=False)
    code = 0 if program.result.wasSuccessful() else 1
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"tests": Recording.outcomes, "exit": code}, f, indent=1, sort_keys=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
