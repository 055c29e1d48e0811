"""Lifetimes seen from the tests: nothing the runner (or greenlight) adds may keep an object
alive, hold a reference, or replace the trace and profile hooks."""
import gc
import sys
import time
import tracemalloc
import unittest
import weakref

import tracked


def test_label_is_wrong_on_purpose():
    # Fails under every runner: the failing test's origin is traced, the tests after it must
    # see the same lifetimes as before.
    assert tracked.label(tracked.Item("a")) == "item-a"


_CALLS = []


def test_label_again_on_purpose():
    # Fails too; run a second time in this process (greenlight's traced rerun of a failed call)
    # it would hang: the rerun is bounded and its outcome is never the test's.
    _CALLS.append(1)
    if len(_CALLS) > 1:
        time.sleep(600)
    assert tracked.label(tracked.Item("h")) == "item-h"


class LabelCase(unittest.TestCase):
    # The same failure in a unittest.TestCase run by pytest: rerun for its origin on a result of
    # its own, its outcome the plain run's.
    def test_label_is_wrong_on_purpose(self):
        self.assertEqual(tracked.label(tracked.Item("c")), "item-c")


def test_consumed_items_are_freed():
    items = tracked.make_items(3)
    refs = [weakref.ref(item) for item in items]
    assert tracked.consume(iter(items)) == 3
    del items
    gc.collect()
    assert [ref() is None for ref in refs] == [True, True, True]


def test_returned_item_is_freed():
    item = tracked.newest(tracked.make_items(2))
    ref = weakref.ref(item)
    del item
    gc.collect()
    assert ref() is None


def test_refcount_is_back_after_a_call():
    item = tracked.Item("x")
    before = sys.getrefcount(item)
    assert tracked.name_of(item) == "x"
    assert sys.getrefcount(item) == before


def test_finalizer_runs_when_dropped():
    tracked.Noted.freed.clear()
    noted = tracked.build_noted("a")
    del noted
    gc.collect()
    assert tracked.Noted.freed == ["a"]


def test_weakref_finalize_runs_when_dropped():
    called = []
    item = tracked.newest(tracked.make_items(1))
    weakref.finalize(item, called.append, "finalized")
    del item
    gc.collect()
    assert called == ["finalized"]


def test_tracemalloc_sees_the_buffer_freed():
    tracemalloc.start()
    try:
        data = tracked.buffer(1 << 20)
        assert len(data) == 1 << 20
        del data
        gc.collect()
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert current < 1 << 19


def test_no_trace_function_is_active():
    assert tracked.tracing_active() is False


def test_own_trace_hook_counts_calls():
    # make_items, its list comprehension, Item.__init__ twice
    assert tracked.count_calls(tracked.make_items, 2) == 4
    assert sys.gettrace() is None


def test_own_profile_hook_counts_calls():
    assert tracked.profile_calls(tracked.make_items, 2) == 4
    assert sys.getprofile() is None


def test_runs_without_greenlights_plugin():
    # Stands for anything a runner's plugin leaves where a test can see it (modules, hooks,
    # descriptors): greenlight's own plugin fails this test, so greenlight must rerun it plain
    # and report what the user's own pytest reports.
    assert "_greenlight_origin" not in sys.modules


_LEFT = []


def test_order_first_leaves_state_behind():
    _LEFT.append("left over")


def test_order_second_fails_after_the_first():
    # Fails in the run (the test before left state behind) and passes alone: a real failure,
    # which a plain rerun of this test alone must not turn green.
    assert _LEFT == []
