R"GLPY("
"""The line of origin of a failing test, shared by greenlight's pytest plugin and its unittest
runner (staged as /work/.gl/_greenlight_origin.py; the first and last lines of this file are a
C++ raw string's delimiters, dropped by harness::pythonOrigin()).

A test fails on its own line; the wrong value came from the user's function. While a test's call
runs, a Tracer records how the outermost calls into the source file ended (the value returned or
that it raised), and origin() turns the one that produced the failing value into the `origin`
object of EVENTS.md: function, file, line, the value, a few locals. Each runner passes its own
repr (pytest's saferepr, or plain repr) so the values read as its messages do.
"""
import types
from collections import deque

LOCALS_MAX = 8
LOCAL_REPR_CAP = 80


class Tracer:
    """Records how the outermost calls of the source file's functions ended, during the call
    phase only: a global trace function that returns at once for every other frame, no line
    events. The last few returns are kept (value and frame) until the phase's report."""

    def __init__(self, source):
        self.source = source
        self.active = None
        self.raised = False
        self.calls = deque(maxlen=8)

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
            # The frame itself: a frame that has returned keeps its locals, read only if the
            # test fails (copying them on every return was most of the tracing's cost).
            self.calls.append((frame.f_code, frame.f_lineno, "raise" if self.raised else "return",
                               arg, frame))
        return self.local


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
    """The deepest frame of the traceback in the source file (not a test): where it raised."""
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


def traced_origin(calls, actual, short_repr, shown=None):
    """The traced return whose value reads as `actual` (the runner's repr) or as `shown` (what a
    doctest printed), else the last one."""
    if not calls:
        return None
    chosen = None
    if actual is not None or shown is not None:
        for call in reversed(calls):
            if call[2] != "return":
                continue
            if actual is not None and short_repr(call[3]) == actual:
                chosen = call
                break
            if shown is not None:
                try:
                    text = repr(call[3])
                except BaseException:
                    continue
                if text == shown:
                    chosen = call
                    break
    code, line, kind, value, frame = chosen or calls[-1]
    return origin(code, line, kind, value, _frame_locals(frame), short_repr)
")GLPY"
