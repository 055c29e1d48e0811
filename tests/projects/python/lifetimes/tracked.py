"""Small helpers whose tests observe lifetimes: whatever a call consumed or returned is freed as
soon as the caller drops it, and the helpers that trace refuse to nest under another tracer."""
import sys


class Item:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "Item(%r)" % (self.name,)


class Noted:
    """Says when it is finalized: its name is appended to Noted.freed."""
    freed = []

    def __init__(self, name):
        self.name = name

    def __del__(self):
        Noted.freed.append(self.name)


def make_items(n):
    return [Item(i) for i in range(n)]


def consume(items):
    """Drains an iterator and returns how many items it gave."""
    count = 0
    for item in items:
        count += 1
    return count


def newest(items):
    return items[-1]


def name_of(item):
    return item.name


def build_noted(name):
    return Noted(name)


def buffer(size):
    return bytearray(size)


def label(item):
    """The label shown for an item (wrong on purpose: the tests expect 'item-<name>')."""
    return "item_%s" % (item.name,)


def tracing_active():
    return sys.gettrace() is not None


def count_calls(fn, *args):
    """How many Python function calls fn(*args) makes, counted by its own trace hook; refuses to
    replace a trace function someone else set (a debugger, a coverage tool)."""
    if sys.gettrace() is not None:
        raise RuntimeError("another trace function is active")
    calls = []

    def hook(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)
        return None

    sys.settrace(hook)
    try:
        fn(*args)
    finally:
        sys.settrace(None)
    return len(calls)


def profile_calls(fn, *args):
    """The same with a profile hook: Python calls only (C calls are not counted)."""
    if sys.getprofile() is not None:
        raise RuntimeError("another profile function is active")
    calls = []

    def hook(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)

    sys.setprofile(hook)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return len(calls)
