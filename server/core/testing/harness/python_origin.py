R"GLPY("
"""The line of origin of a failing test, shared by greenlight's pytest plugin and its unittest
runner (staged as /work/.gl/_greenlight_origin.py; the first and last lines of this file are a
C++ raw string's delimiters, dropped by harness::pythonOrigin()).

A test fails on its own line; the wrong value came from the user's function. Tests run plain (no
trace hook: instrumentation must never change an outcome, and passing tests pay nothing). Only
after a test's call failed does its runner call rerun_traced(): the call runs once more with the
outermost calls into the source file traced, bounded in time, its outcome ignored. Each call's
end becomes text AT its event (the value's repr, a few locals, all capped): no frame, local,
argument or return value outlives its event, so code observing lifetimes (weakref, gc,
sys.getrefcount, finalizers) sees what it sees plain. origin() turns the record that produced
the failing value into the `origin` object of EVENTS.md. Each runner passes its own repr
(pytest's saferepr, or plain repr capped) so the values read as its messages do.
"""
import sys
import types
from collections import deque

LOCALS_MAX = 8
LOCAL_REPR_CAP = 80
SHOWN_CAP = 4096  # a doctest's printed value is compared with repr() up to this length
RERUN_LIMIT = 2.0  # seconds a traced rerun may take; past it, what was recorded so far
KEEP = 8           # the last calls recorded


class Tracer:
    """Records how the outermost calls of the source file's functions ended, as bounded text:
    a global trace function that returns at once for every other frame, no line events.
    `actual` / `shown`: the failing value as the runner printed it (its repr, or what a doctest
    printed), compared at the event, so the value itself is never kept."""

    def __init__(self, source, short_repr, actual=None, shown=None):
        self.source = source
        self.short_repr = short_repr
        self.actual = actual
        self.shown = shown
        self.active = None  # the frame of the call in progress, dropped at its return
        self.raised = False
        self.calls = deque(maxlen=KEEP)

    def call(self, frame, event, arg):
        code = frame.f_code
        if code.co_filename != self.source or self.active is not None or \
                code.co_name.startswith("test"):
            return None
        self.active = frame
        self.raised = False
        frame.f_trace_lines = False
        return self.local

    def local(self, frame, event, arg):
        if frame is not self.active:
            return None
        if event == "exception":
            self.raised = True
        elif event == "return":
            self.active = None
            try:
                self.calls.append(self._record(frame, arg))
            except Exception:  # a record is best effort; the rerun's outcome does not matter
                pass
        return self.local

    def _record(self, frame, value):
        code = frame.f_code
        kind = "raise" if self.raised else "return"
        record = origin(code, frame.f_lineno, kind, value, _frame_locals(frame), self.short_repr)
        matches = False
        if kind == "return":
            if self.actual is not None and record["value"] == self.actual:
                matches = True
            elif self.shown is not None:
                matches = _shown_repr(value) == self.shown
        return record, matches


def _shown_repr(value):
    try:
        text = repr(value)
    except BaseException:
        return None
    return text if len(text) <= SHOWN_CAP else None


def rerun_traced(run, source, short_repr, actual=None, shown=None, limit=RERUN_LIMIT):
    """Runs `run()` (the failed test's call, once more) with the source file's functions traced
    and returns the origin it points at, or None. Bounded: SIGALRM after `limit` seconds (never
    past a timer someone else set, restored after), so only in the main thread; a test that sets
    its own trace hook is not traced over. Whatever it raises is swallowed: the plain run's
    outcome is the test's."""
    import signal
    import threading
    import time

    if not source or sys.gettrace() is not None or not hasattr(signal, "setitimer") or \
            threading.current_thread() is not threading.main_thread():
        return None
    old_handler = signal.getsignal(signal.SIGALRM)
    old_left, old_interval = signal.getitimer(signal.ITIMER_REAL)
    if old_left > 0:
        # Someone's timer (the run's budget, pytest-timeout) keeps its deadline: the rerun ends
        # before it, or does not start.
        limit = min(limit, old_left - 0.2)
        if limit < 0.05:
            return None

    def on_alarm(signum, frame):
        raise _RerunLimit()

    tracer = Tracer(source, short_repr, actual, shown)
    profile = sys.getprofile()
    t0 = time.monotonic()
    unsilence = _silence()
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        sys.settrace(tracer.call)
        try:
            run()
        finally:
            # The hooks as they were before the rerun (code under test may set its own).
            sys.settrace(None)
            sys.setprofile(profile)
            signal.setitimer(signal.ITIMER_REAL, 0)
    except KeyboardInterrupt:
        raise
    except BaseException:
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        unsilence()
        signal.signal(signal.SIGALRM, old_handler if old_handler is not None else signal.SIG_DFL)
        if old_left > 0:
            signal.setitimer(signal.ITIMER_REAL, max(old_left - (time.monotonic() - t0), 0.01), old_interval)
    calls = list(tracer.calls)
    tracer = None
    if not calls:
        return None
    if actual is not None or shown is not None:
        for record, matches in reversed(calls):
            if matches:
                return record
    return calls[-1][0]


def _silence():
    """What the rerun prints goes nowhere: not into the test's captured output (the runner's
    capture, a capsys fixture), not onto the runner's report. Both the streams and fds 1 and 2
    (a subprocess, C code) are pointed at /dev/null; the returned function puts them back."""
    import os

    streams = (sys.stdout, sys.stderr)
    for stream in streams:
        try:
            stream.flush()
        except Exception:
            pass
    try:
        null_fd = os.open(os.devnull, os.O_WRONLY)
        saved = (os.dup(1), os.dup(2))
        os.dup2(null_fd, 1)
        os.dup2(null_fd, 2)
        os.close(null_fd)
    except OSError:
        saved = None
    sink = open(os.devnull, "w")
    sys.stdout = sys.stderr = sink

    def restore():
        sys.stdout, sys.stderr = streams
        try:
            sink.close()
        except Exception:
            pass
        if saved is not None:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
    return restore


class _RerunLimit(BaseException):
    """The traced rerun took too long (BaseException: `except Exception` cannot swallow it)."""


def _locals_list(code, frame_locals, short_repr):
    order = list(code.co_varnames) + [n for n in frame_locals if n not in code.co_varnames]
    out = []
    for name in order:
        if name not in frame_locals or name.startswith("__") or name.startswith("@"):
            continue
        value = frame_locals[name]
        if isinstance(value, (types.ModuleType, types.FunctionType, type)):
            continue
        out.append([name, short_repr(value, LOCAL_REPR_CAP)])
        if len(out) >= LOCALS_MAX:
            break
    return out


def _frame_locals(frame):
    try:
        return dict(frame.f_locals)
    except Exception:
        return {}


def origin(code, line, kind, value, frame_locals, short_repr):
    return {"function": getattr(code, "co_qualname", code.co_name), "file": code.co_filename,
            "line": line, "def_line": code.co_firstlineno, "kind": kind,
            "value": "" if kind == "raise" else short_repr(value),
            "locals": _locals_list(code, frame_locals, short_repr)}


def raise_origin(tb, source, short_repr):
    """The deepest frame of the traceback in the source file (not a test): where it raised. Read
    from the failure's own traceback when it is reported: nothing is traced or kept."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == source and not code.co_name.startswith("test"):
            found = tb
        tb = tb.tb_next
    if found is None:
        return None
    return origin(found.tb_frame.f_code, found.tb_lineno, "raise", None, _frame_locals(found.tb_frame),
                  short_repr)
")GLPY"
