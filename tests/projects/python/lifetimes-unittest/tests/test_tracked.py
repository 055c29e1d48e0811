"""Lifetimes seen from unittest tests: nothing the runner (or greenlight) adds may keep an object
alive, hold a reference, or replace the trace and profile hooks."""
import doctest
import gc
import sys
import time
import tracemalloc
import unittest
import weakref

from lifepkg import tracked


def load_tests(loader, tests, pattern):
    # The module's own doctest-style example, failing on purpose like test_a_label.
    tests.addTests(doctest.DocTestSuite(sys.modules[__name__]))
    return tests


def shown_label():
    """
    >>> tracked.label(tracked.Item("b"))
    'item-b'
    """


class LabelTest(unittest.TestCase):
    def test_a_label_is_wrong_on_purpose(self):
        # Fails under every runner: its origin is traced; the tests after it see the same
        # lifetimes as before.
        self.assertEqual(tracked.label(tracked.Item("a")), "item-a")


class HangTest(unittest.TestCase):
    calls = []

    def test_b_label_again_on_purpose(self):
        # Fails too; run a second time in this process (greenlight's traced rerun of a failed
        # test) it would hang: the rerun is bounded and its outcome is never the test's.
        HangTest.calls.append(1)
        if len(HangTest.calls) > 1:
            time.sleep(600)
        self.assertEqual(tracked.label(tracked.Item("h")), "item-h")


class LifetimeTest(unittest.TestCase):
    def test_consumed_items_are_freed(self):
        items = tracked.make_items(3)
        refs = [weakref.ref(item) for item in items]
        self.assertEqual(tracked.consume(iter(items)), 3)
        del items
        gc.collect()
        self.assertEqual([ref() is None for ref in refs], [True, True, True])

    def test_returned_item_is_freed(self):
        item = tracked.newest(tracked.make_items(2))
        ref = weakref.ref(item)
        del item
        gc.collect()
        self.assertIsNone(ref())

    def test_refcount_is_back_after_a_call(self):
        item = tracked.Item("x")
        before = sys.getrefcount(item)
        self.assertEqual(tracked.name_of(item), "x")
        self.assertEqual(sys.getrefcount(item), before)

    def test_finalizer_runs_when_dropped(self):
        tracked.Noted.freed.clear()
        noted = tracked.build_noted("a")
        del noted
        gc.collect()
        self.assertEqual(tracked.Noted.freed, ["a"])

    def test_weakref_finalize_runs_when_dropped(self):
        called = []
        item = tracked.newest(tracked.make_items(1))
        weakref.finalize(item, called.append, "finalized")
        del item
        gc.collect()
        self.assertEqual(called, ["finalized"])

    def test_tracemalloc_sees_the_buffer_freed(self):
        tracemalloc.start()
        try:
            data = tracked.buffer(1 << 20)
            self.assertEqual(len(data), 1 << 20)
            del data
            gc.collect()
            current, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        self.assertLess(current, 1 << 19)


class HookTest(unittest.TestCase):
    def test_no_trace_function_is_active(self):
        self.assertFalse(tracked.tracing_active())

    def test_own_trace_hook_counts_calls(self):
        # make_items, its list comprehension, Item.__init__ twice
        self.assertEqual(tracked.count_calls(tracked.make_items, 2), 4)
        self.assertIsNone(sys.gettrace())

    def test_own_profile_hook_counts_calls(self):
        self.assertEqual(tracked.profile_calls(tracked.make_items, 2), 4)
        self.assertIsNone(sys.getprofile())


class PlainTest(unittest.TestCase):
    def test_runs_without_greenlights_runner(self):
        # Stands for anything a runner adds where a test can see it: greenlight's own runner
        # fails this test, so greenlight must rerun it plain and report what unittest reports.
        self.assertNotIn("_greenlight_origin", sys.modules)


class OrderTest(unittest.TestCase):
    left = []

    def test_a_leaves_state_behind(self):
        OrderTest.left.append("left over")

    def test_b_fails_after_the_first(self):
        # Fails in the run (the test before left state behind) and passes alone: a real
        # failure, which a plain rerun of this test alone must not turn green.
        self.assertEqual(OrderTest.left, [])
