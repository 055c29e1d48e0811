R"GLPY("
# greenlight's Python test harness. Runs inside the sandbox; never imported by user code.
#
# This file is embedded into the greenlight binary at build time (harness/Harnesses.cpp
# #includes it as a C++ raw string: the first and the last line of the file are the raw
# string's delimiters and are also valid Python expression statements, so the file stays a
# plain Python script that can be run and linted on its own).
#
# Protocol: one JSON object per line on the ORIGINAL stdout (fd 1), each line prefixed with
# "\n\x1eGL " so that it never joins a partial line printed by the code under test. Test output
# is captured per test (sys.stdout/sys.stderr) and returned in the event, capped.
#
# Events: {"ev":"start",...}, {"ev":"result",...} per test, {"ev":"done"} at the end.
#
# Assertions are rewritten at import (AST, line numbers preserved, so tracebacks stay exact):
# `assert f(x) == y` reports "f(x) returned A, expected B" without evaluating anything twice.
#
# Start-up is most of a small run, so only what every run needs is imported here: doctest
# (with unittest, pdb, ...: ~30 ms), unittest, inspect and traceback are imported by _std() when
# a module has doctests, a TestCase, a decorated test or an exception to format.
import _ast as ast  # the C node types: the ast module's import is ~1.5 ms a run
import io
import os
import sys
import time
import types

# The C module: signal.py wraps every constant in an IntEnum at import (~1 ms per run), and the
# harness only needs setitimer and SIGALRM. Older or unusual builds fall back to signal.
try:
    import _signal as signal
except ImportError:
    import signal

_OUT_FD = os.dup(1)
_STD_PATH = list(sys.path)  # before the workspace directories are added


def _std(name):
    """A standard-library module, imported on first use from the original sys.path, so a
    workspace file named like it (inspect.py, doctest.py) cannot stand in for it."""
    mod = sys.modules.get(name)
    if mod is not None:
        return mod
    saved = sys.path[:]
    sys.path[:] = _STD_PATH
    try:
        return __import__(name)
    finally:
        sys.path[:] = saved
# Our frames, by the code objects' file name: also right when we run from a cached .pyc.
_HARNESS = os.path.abspath((lambda: None).__code__.co_filename)
_CAP = 8192
_REPR_CAP = 300


# JSON through the C accelerator alone: importing the json package compiles its regular
# expressions (~2 ms a run). Events are small dicts of str/int/float/bool/None/lists; anything
# else is sent as str(), as json.dumps(default=str) would.
try:
    from _json import encode_basestring_ascii as _quote, make_scanner as _make_scanner
except ImportError:  # a Python built without the accelerator
    _quote = _make_scanner = None


def _encode(value, out):
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_quote(value))
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        # NaN and infinities are not JSON (json.dumps would write NaN, which readers reject)
        out.append(float.__repr__(value) if value - value == 0 else "null")
    elif isinstance(value, dict):
        out.append("{")
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(", ")
            out.append(_quote(k if isinstance(k, str) else str(k)))
            out.append(": ")
            _encode(v, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, v in enumerate(value):
            if i:
                out.append(", ")
            _encode(v, out)
        out.append("]")
    else:
        out.append(_quote(str(value)))


def _dumps(obj):
    if _quote is None:
        return _std("json").dumps(obj, default=str)
    out = []
    _encode(obj, out)
    return "".join(out)


class _ScanContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float


def _loads(text):
    if _make_scanner is None:
        return _std("json").loads(text)
    return _make_scanner(_ScanContext())(text.strip(), 0)[0]


def _emit(obj):
    data = ("\n\x1eGL " + _dumps(obj) + "\n").encode("utf-8", "replace")
    while data:
        n = os.write(_OUT_FD, data)
        data = data[n:]


def _short_repr(value):
    try:
        text = repr(value)
    except BaseException as e:  # a broken __repr__ must not break the report
        text = "<repr failed: %s>" % type(e).__name__
    if len(text) > _REPR_CAP:
        text = text[:_REPR_CAP] + "..."
    return text


class _GLTimeout(BaseException):
    """Raised by the per-test alarm; BaseException so `except Exception` cannot swallow it."""


_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
        ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}


class _GLAssertionError(AssertionError):
    pass


def _gl_fail(src_left, left, op, right, src_right, fn):
    """Builds the AssertionError for a failed rewritten assert."""
    shown = src_left
    if fn is not None and src_left and "(" in src_left:
        name = getattr(fn, "__name__", None)
        callee = src_left.split("(", 1)[0]
        if name and callee.isidentifier() and name != callee and not name.startswith("<"):
            shown = name + "(" + src_left.split("(", 1)[1]
    is_call = fn is not None
    if op is None:
        msg = "%s returned %s" % (shown, _short_repr(left)) if is_call else \
            "assert %s: got %s" % (shown, _short_repr(left))
        err = _GLAssertionError(msg)
        err._gl_actual = _short_repr(left)
        return err
    if is_call:
        if op == "==":
            msg = "%s returned %s, expected %s" % (shown, _short_repr(left), _short_repr(right))
        else:
            msg = "%s returned %s, expected %s %s" % (shown, _short_repr(left), op,
                                                      _short_repr(right))
    else:
        msg = "assert %s %s %s: %s %s %s is false" % (src_left, op, src_right, _short_repr(left),
                                                      op, _short_repr(right))
    err = _GLAssertionError(msg)
    err._gl_actual = _short_repr(left)
    err._gl_expected = _short_repr(right) if op == "==" else "%s %s" % (op, _short_repr(right))
    return err


class _AssertRewriter:
    def __init__(self, source):
        self.source = source
        self.counter = 0
        # Split once: ast.get_source_segment splits the whole file on every call, which made
        # rewriting a 10-test file cost more than importing the harness.
        lines = source.splitlines(True)
        # str.splitlines also breaks at \f, \v, \x1c-\x1e, \x85, \u2028, \u2029, which the
        # tokenizer does not count as line ends: then only ast's own splitting is exact.
        exact = all(line.endswith(("\n", "\r")) for line in lines[:-1])
        self._lines = lines if exact else None

    def _segment(self, node):
        try:
            seg = self._fast_segment(node) if self._lines is not None else \
                _std("ast").get_source_segment(self.source, node)
        except Exception:
            seg = None
        # A multi-line operand reads as one line; spaces inside it (string literals!) stay.
        return " ".join(part.strip() for part in (seg or "").splitlines() if part.strip())

    def _fast_segment(self, node):
        """ast.get_source_segment over the lines split once (columns are UTF-8 offsets)."""
        end_lineno, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if end_lineno is None or end_col is None:
            return None
        first, last = node.lineno - 1, end_lineno - 1
        lines = self._lines
        if first == last:
            return lines[first].encode()[node.col_offset:end_col].decode()
        head = lines[first].encode()[node.col_offset:].decode()
        tail = lines[last].encode()[:end_col].decode()
        return head + "".join(lines[first + 1:last]) + tail

    def rewrite(self, node):
        """The statements that replace the assert `node` (itself, when its shape has no rewrite)."""
        if node.msg is not None:
            return [node]
        test = node.test
        self.counter += 1
        left_name = "_gl_l%d" % self.counter
        right_name = "_gl_r%d" % self.counter
        # Every node created here takes the assert's position; the user's operand expressions
        # keep their own (exact) ones. Given at construction: walking the result afterwards to
        # place them cost more than the tests being rewritten.
        at = {"lineno": node.lineno, "col_offset": node.col_offset,
              "end_lineno": node.end_lineno, "end_col_offset": node.end_col_offset}

        def name(ident, ctx=ast.Load):
            return ast.Name(ident, ctx(), **at)

        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS:
            left, right = test.left, test.comparators[0]
            op = _OPS[type(test.ops[0])]
            cond = ast.Compare(left=name(left_name), ops=test.ops, comparators=[name(right_name)], **at)
            assigns = [ast.Assign(targets=[name(left_name, ast.Store)], value=left, **at),
                       ast.Assign(targets=[name(right_name, ast.Store)], value=right, **at)]
            right_src = self._segment(right)
            right_arg = name(right_name)
        elif isinstance(test, ast.Call):
            left, op = test, None
            cond = name(left_name)
            assigns = [ast.Assign(targets=[name(left_name, ast.Store)], value=left, **at)]
            right_src = ""
            right_arg = ast.Constant(None, **at)
        else:
            return [node]
        fn_arg = ast.Constant(None, **at)
        if isinstance(left, ast.Call) and isinstance(left.func, (ast.Name, ast.Attribute)):
            # Re-reading a name/attribute is free of side effects in all but pathological code.
            fn_arg = ast.Call(name("_gl_fnof"),
                              [ast.Lambda(ast.arguments(posonlyargs=[], args=[], vararg=None,
                                                        kwonlyargs=[], kw_defaults=[],
                                                        kwarg=None, defaults=[]),
                                          _copy_load(left.func, at), **at)], [], **at)
        raise_stmt = ast.Raise(exc=ast.Call(
            func=name("_gl_fail"),
            args=[ast.Constant(self._segment(left), **at), name(left_name),
                  ast.Constant(op, **at), right_arg, ast.Constant(right_src, **at), fn_arg],
            keywords=[], **at), cause=None, **at)
        check = ast.If(test=ast.UnaryOp(ast.Not(), cond, **at), body=[raise_stmt], orelse=[], **at)
        return assigns + [check]


def _copy_load(expr, at):
    if isinstance(expr, ast.Name):
        return ast.Name(expr.id, ast.Load(), **at)
    if isinstance(expr, ast.Attribute):
        return ast.Attribute(_copy_load(expr.value, at), expr.attr, ast.Load(), **at)
    return expr


def _gl_fnof(thunk):
    try:
        return thunk()
    except BaseException:
        return None


def _rewrite_asserts(tree, rewriter):
    """Replaces every assert statement, at any depth, with its rewrite. Asserts are statements,
    so only lists hold them."""
    todo = [tree]
    while todo:
        node = todo.pop()
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                todo.append(value)
            elif isinstance(value, list):
                if any(type(item) is ast.Assert for item in value):
                    value = [new for item in value
                             for new in (rewriter.rewrite(item) if type(item) is ast.Assert else [item])]
                    setattr(node, name, value)
                todo.extend(item for item in value if isinstance(item, ast.AST))
    return tree


def _compile_rewritten(source, filename):
    tree = compile(source, filename, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    tree = _rewrite_asserts(tree, _AssertRewriter(source))
    try:
        return compile(tree, filename, "exec", dont_inherit=True)
    except (TypeError, ValueError):
        # A node without a position (a shape rewrite() missed): fill them in
        # from their parents, a whole-tree walk the common case does not need.
        _std("ast").fix_missing_locations(tree)
        return compile(tree, filename, "exec", dont_inherit=True)


def _load_module(name, path, source=None):
    if source is None:
        with open(path, "r", encoding="utf-8") as f:
            source = f.read()
    code = _compile_rewritten(source, path)
    mod = types.ModuleType(name)
    mod.__file__ = path
    if "." in name:
        mod.__package__ = name.rpartition(".")[0]
    mod.__builtins__ = __builtins__
    mod.__dict__["_gl_fail"] = _gl_fail
    mod.__dict__["_gl_fnof"] = _gl_fnof
    sys.modules[name] = mod
    try:
        exec(code, mod.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return mod


def _frames(tb):
    out = []
    while tb is not None:
        code = tb.tb_frame.f_code
        filename, line = code.co_filename, tb.tb_lineno
        tb = tb.tb_next
        if os.path.abspath(filename) == _HARNESS:
            continue
        if filename.startswith("<frozen ") or "/unittest/" in filename:
            continue
        out.append({"file": filename, "line": line, "function": code.co_name})
    return out


class _Budget:
    def __init__(self, seconds):
        self.deadline = time.monotonic() + seconds

    def remaining(self):
        return self.deadline - time.monotonic()


def _on_alarm(signum, frame):
    raise _GLTimeout("test exceeded the time limit")


def _exc_result(exc_type, exc, tb):
    res = {"frames": _frames(tb)}
    if exc_type is _GLTimeout:
        res.update(status="timeout", kind="timeout", message="timed out (time limit reached)")
        return res
    if isinstance(exc, SyntaxError) and not isinstance(exc, _GLAssertionError):
        res.update(status="error", kind="compile",
                   message="%s: %s" % (exc_type.__name__, exc.msg))
        if exc.filename:
            res["frames"].append({"file": exc.filename, "line": exc.lineno or 0,
                                  "column": exc.offset or 0, "function": ""})
        return res
    if isinstance(exc, MemoryError):
        res.update(status="error", kind="memory", message="MemoryError")
        return res
    if isinstance(exc, AssertionError):
        text = str(exc)
        res.update(status="failed", kind="assertion",
                   message="AssertionError: " + text if text else "AssertionError")
        if hasattr(exc, "_gl_actual"):
            res["actual"] = exc._gl_actual
        if hasattr(exc, "_gl_expected"):
            res["expected"] = exc._gl_expected
        return res
    text = "".join(_std("traceback").format_exception_only(exc_type, exc)).strip()
    res.update(status="error", kind="exception", message=text)
    origin = _raise_origin(tb)
    if origin is not None:
        res["origin"] = origin
    return res


class _Capture:
    def __enter__(self):
        self.buf = io.StringIO()
        self.saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = self.buf
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False

    def text(self):
        value = self.buf.getvalue()
        return value if len(value) <= _CAP else value[:_CAP] + "\n[output truncated]"


_SOURCE = [None]  # the file under test (its functions are the ones traced)
_TRACE = [True]   # config "origin": "raise" leaves failed tests without a traced rerun
_LOCALS_MAX = 8
_LOCAL_REPR_CAP = 80


def _is_user_code(code):
    return code.co_filename == _SOURCE[0] and not code.co_name.startswith("test")


def _locals_of(frame):
    """(name, bounded repr) of a frame's locals, parameters first, at most _LOCALS_MAX."""
    code = frame.f_code
    order = list(code.co_varnames) + [n for n in frame.f_locals if n not in code.co_varnames]
    out = []
    for name in order:
        if name not in frame.f_locals or name.startswith("__") or name.startswith("_gl_"):
            continue
        value = frame.f_locals[name]
        if isinstance(value, (types.ModuleType, types.FunctionType, type)):
            continue
        text = _short_repr(value)
        if len(text) > _LOCAL_REPR_CAP:
            text = text[:_LOCAL_REPR_CAP] + "..."
        out.append([name, text])
        if len(out) >= _LOCALS_MAX:
            break
    return out


def _origin(code, line, kind, value, frame_locals):
    return {"function": getattr(code, "co_qualname", code.co_name), "file": code.co_filename,
            "line": line, "def_line": code.co_firstlineno, "kind": kind,
            "value": "" if kind == "raise" else _short_repr(value), "locals": frame_locals}


def _raise_origin(tb):
    """The innermost frame of the traceback in the file under test, with its locals."""
    found = None
    while tb is not None:
        if _SOURCE[0] and _is_user_code(tb.tb_frame.f_code):
            found = (tb.tb_frame, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    frame, line = found
    return _origin(frame.f_code, line, "raise", None, _locals_of(frame))


def _trace_origin(fn, budget, actual):
    """Runs the failed test `fn` again with the file under test's functions traced, and returns
    where the last outermost call of one of them ended (the return line, its value, its
    locals), preferring the call whose value reads as `actual`. Only failing tests pay for it."""
    calls = []
    active = set()

    def local(frame, event, arg):
        if event == "exception":
            active_state[id(frame)] = "raise"
        elif event == "line":
            active_state[id(frame)] = None
        elif event == "return":
            kind = active_state.pop(id(frame), None) or "return"
            active.discard(id(frame))
            calls.append(_origin(frame.f_code, frame.f_lineno, kind, arg, _locals_of(frame)))
        return local

    active_state = {}

    def global_trace(frame, event, arg):
        if event != "call" or not _is_user_code(frame.f_code):
            return None
        back = frame.f_back
        if back is not None and id(back) in active:
            return None  # a nested call: the outermost one is what the test saw
        active.add(id(frame))
        return local

    limit = min(max(budget.remaining(), 0.01), 2.0)
    with _Capture():
        signal.setitimer(signal.ITIMER_REAL, limit)
        sys.settrace(global_trace)
        try:
            fn()
        except BaseException:
            pass
        finally:
            sys.settrace(None)
            signal.setitimer(signal.ITIMER_REAL, 0)
    if not calls:
        return None
    if actual is not None:
        for call in reversed(calls):
            if call["kind"] == "return" and call["value"] == actual:
                return call
    return calls[-1]


class Runner:
    def __init__(self, budget, selected):
        self.budget = budget
        self.selected = set(selected or [])
        self.exhausted = False
        self.counts = 0

    def wanted(self, name):
        if not self.selected:
            return True
        short = name.split(".")[-1]
        cls = name.split(".")[0]
        return name in self.selected or short in self.selected or cls in self.selected

    def run(self, name, file, line, fn):
        """Runs one test callable with output capture and the time budget."""
        if not self.wanted(name):
            return
        self.counts += 1
        base = {"ev": "result", "name": name, "file": file, "line": line}
        if self.exhausted or self.budget.remaining() <= 0.05:
            self.exhausted = True
            base.update(status="skipped", message="not run: the time limit was reached")
            _emit(base)
            return
        _emit({"ev": "start", "name": name, "file": file, "line": line})
        cover = _COVER[0]
        if cover is not None:
            cover.test_started()
        start = time.perf_counter()
        res = {"status": "passed", "message": ""}
        with _Capture() as cap:
            signal.setitimer(signal.ITIMER_REAL, max(self.budget.remaining(), 0.01))
            try:
                outcome = fn()
                if isinstance(outcome, dict):  # unittest / doctest report their own result
                    res = outcome
            except _SkipTest as e:
                res = {"status": "skipped", "message": str(e)}
            except BaseException as e:
                signal.setitimer(signal.ITIMER_REAL, 0)
                ut = sys.modules.get("unittest")  # a plain test may raise unittest.SkipTest
                if ut is not None and isinstance(e, getattr(ut, "SkipTest", ())):
                    res = {"status": "skipped", "message": str(e)}
                else:
                    res = _exc_result(*sys.exc_info())
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                if cover is not None:
                    cover.test_finished()
        if res.get("status") == "timeout":
            self.exhausted = True
        elif res.get("status") in ("failed", "error") and _SOURCE[0] and _TRACE[0] and "origin" not in res and \
                res.get("kind") in ("assertion", "exception") and not self.exhausted:
            # The wrong value came from the code under test: say which line returned it.
            try:
                origin = _trace_origin(fn, self.budget, res.get("actual"))
            except BaseException:
                origin = None
            if origin is not None:
                res["origin"] = origin
        base.update(res)
        base["duration_ms"] = round((time.perf_counter() - start) * 1000.0, 3)
        out = cap.text()
        if out:
            base["output"] = out
        _emit(base)


class _SkipTest(Exception):
    pass


_CASE_RESULT = []


def _case_result():
    """A fresh unittest.TestResult that keeps the first outcome (the class is built on first
    use, after unittest is imported and patched)."""
    if not _CASE_RESULT:
        _patch_unittest()
        _CASE_RESULT.append(_make_case_result_class(_std("unittest")))
    return _CASE_RESULT[0]()


def _make_case_result_class(unittest):
    class _CaseResult(unittest.TestResult):
        def __init__(self):
            super().__init__()
            self.outcome = {"status": "passed", "message": ""}

        def addFailure(self, test, err):
            self.outcome = _exc_result(*err)

        def addError(self, test, err):
            if err[0] is _GLTimeout or err[0] is KeyboardInterrupt:
                raise err[1]
            self.outcome = _exc_result(*err)

        def addSkip(self, test, reason):
            self.outcome = {"status": "skipped", "message": reason}

        def addUnexpectedSuccess(self, test):
            self.outcome = {"status": "failed", "kind": "assertion",
                            "message": "unexpected success (marked expectedFailure)", "frames": []}

        def addSubTest(self, test, subtest, err):
            if err is not None and self.outcome["status"] == "passed":
                self.outcome = _exc_result(*err)
                self.outcome["message"] = "%s %s" % (subtest._subDescription(),
                                                     self.outcome["message"])
    return _CaseResult


def _patch_unittest():
    unittest = _std("unittest")
    original = unittest.TestCase.assertEqual

    def assertEqual(self, first, second, msg=None):
        try:
            original(self, first, second, msg)
        except self.failureException as e:
            e._gl_actual = _short_repr(first)
            e._gl_expected = _short_repr(second)
            raise

    unittest.TestCase.assertEqual = assertEqual


def _line_of(obj, default=0):
    code = getattr(obj, "__code__", None)
    if code is not None and not hasattr(obj, "__wrapped__"):
        return code.co_firstlineno  # the first decorator's line, as inspect would say
    try:
        return _std("inspect").getsourcelines(obj)[1]
    except (OSError, TypeError):
        return code.co_firstlineno if code else default


def _required_params(fn):
    """Names of the positional parameters without defaults (pytest fixtures, for us)."""
    if hasattr(fn, "__wrapped__"):  # functools.wraps: the signature is the wrapped one's
        inspect = _std("inspect")
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.default is inspect.Parameter.empty and
                p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    code = fn.__code__
    positional = code.co_varnames[:code.co_argcount]
    return list(positional[:len(positional) - len(fn.__defaults__ or ())])


def _is_coroutine_function(fn):
    if hasattr(fn, "__wrapped__"):
        return _std("inspect").iscoroutinefunction(fn)
    return bool(fn.__code__.co_flags & 0x80)  # CO_COROUTINE


def _collect(runner, mod, path, own_tests):
    """Runs test_* functions, unittest.TestCase classes and Test* classes defined in `mod`."""
    items = list(vars(mod).items())
    for name, obj in items:
        # A decorated test (@freeze_time, functools.wraps) is this file's by the function it wraps.
        inner = obj
        while isinstance(obj, types.FunctionType) and hasattr(inner, "__wrapped__"):
            inner = inner.__wrapped__
        if isinstance(obj, types.FunctionType) and name.startswith("test") and \
                getattr(getattr(inner, "__code__", None), "co_filename", "") == path:
            if own_tests is False:
                continue
            params = _required_params(obj)
            if params:
                def skip(names=params):
                    raise _SkipTest("needs fixtures (%s); greenlight runs plain test functions"
                                    % ", ".join(names))
                runner.run(name, path, _line_of(inner), skip)
                continue
            if _is_coroutine_function(obj):
                import asyncio
                runner.run(name, path, _line_of(inner), lambda f=obj: asyncio.run(f()))
            else:
                runner.run(name, path, _line_of(inner), obj)
        elif isinstance(obj, type) and getattr(obj, "__module__", None) == mod.__name__:
            ut = sys.modules.get("unittest")  # no unittest imported: no TestCase to find
            if ut is not None and issubclass(obj, ut.TestCase):
                loader = ut.TestLoader()
                for meth in loader.getTestCaseNames(obj):
                    fn = getattr(obj, meth)

                    def case(cls=obj, meth=meth):
                        result = _case_result()
                        cls(meth).run(result)
                        return result.outcome
                    runner.run("%s.%s" % (name, meth), path, _line_of(fn), case)
            elif name.startswith("Test") and "__init__" not in vars(obj):
                # Inherited test methods count too (pytest collects them from the base class).
                for meth in sorted(m for m in dir(obj) if m.startswith("test")):
                    fn = getattr(obj, meth)
                    if not callable(fn):
                        continue

                    def method(cls=obj, meth=meth):
                        inst = cls()
                        if hasattr(inst, "setup_method"):
                            inst.setup_method(getattr(inst, meth))
                        try:
                            getattr(inst, meth)()
                        finally:
                            if hasattr(inst, "teardown_method"):
                                inst.teardown_method(getattr(inst, meth))
                    runner.run("%s.%s" % (name, meth), path, _line_of(fn), method)


_DOC_RUNNER = []


def _doc_runner():
    if not _DOC_RUNNER:
        _DOC_RUNNER.append(_make_doc_runner_class(_std("doctest")))
    return _DOC_RUNNER[0]()


def _make_doc_runner_class(doctest):
    class _DocRunner(doctest.DocTestRunner):
        def __init__(self):
            super().__init__(verbose=False, optionflags=doctest.ELLIPSIS)
            self.outcome = None

        def report_failure(self, out, test, example, got):
            if self.outcome is None:
                src = example.source.strip()
                want = example.want.strip()
                self.outcome = {"status": "failed", "kind": "assertion",
                                "message": "doctest: %s returned %s, expected %s" % (
                                    src, got.strip() or "nothing", want or "nothing"),
                                "expected": want, "actual": got.strip(),
                                "frames": [{"file": test.filename,
                                            "line": test.lineno + example.lineno + 1,
                                            "function": test.name.split(".")[-1]}]}

        def report_unexpected_exception(self, out, test, example, exc_info):
            if self.outcome is None:
                res = _exc_result(*exc_info)
                res["frames"] = [f for f in res.get("frames", []) if f["file"] != "<doctest>" and
                                 not f["file"].startswith("<doctest ")]
                res["frames"].insert(0, {"file": test.filename,
                                         "line": test.lineno + example.lineno + 1,
                                         "function": test.name.split(".")[-1]})
                self.outcome = res

        def report_success(self, out, test, example, got):
            pass

        def report_start(self, out, test, example):
            pass
    return _DocRunner


def _doctests_one_by_one(finder, mod, path):
    tests = []
    for name, obj in list(vars(mod).items()):
        if not isinstance(obj, (types.FunctionType, type)) or getattr(obj, "__module__", None) != mod.__name__:
            continue
        try:
            tests.extend(finder.find(obj, mod.__name__ + "." + name, module=mod))
        except ValueError as e:
            line = _line_of(obj)
            try:
                # doctest counts "line N of the docstring" from the definition's line (0-based).
                n = int(str(e).split("line ", 1)[1].split(" ", 1)[0])
                if n >= line:
                    line = n
            except (IndexError, ValueError):
                pass
            _emit({"ev": "warning", "file": path, "line": line, "code": "doctest-invalid",
                   "message": "the examples in the docstring of %s cannot be run as doctests: %s "
                              "(a backslash escape such as \\n in a docstring needs a raw docstring, "
                              "r\"\"\"...\"\"\")" % (name, e)})
    return tests


def _doctests(runner, mod, path, which):
    if which == "none":
        return
    try:  # no ">>>" anywhere: no doctest, and no need to import the doctest module
        with open(path, "r", encoding="utf-8") as f:
            if ">>>" not in f.read():
                return
    except OSError:
        pass
    finder = _std("doctest").DocTestFinder(recurse=True, exclude_empty=True)
    try:
        tests = finder.find(mod, mod.__name__)
    except ValueError:
        # One docstring doctest cannot parse sinks the whole module's search: look at each
        # definition alone, run what parses, and say why the rest cannot run.
        tests = _doctests_one_by_one(finder, mod, path)
    except Exception:
        return
    for test in sorted(tests, key=lambda t: t.lineno or 0):
        if not test.examples or test.filename != path:
            continue
        # The name inside the module (a module imported as part of its package has a dotted name).
        prefix = mod.__name__ + "."
        short = test.name[len(prefix):] if test.name.startswith(prefix) else (
            test.name.split(".", 1)[1] if "." in test.name else test.name)
        if which != "all" and short not in which and short.split(".")[-1] not in which:
            continue

        def run_doc(test=test):
            dr = _doc_runner()
            dr.run(test, out=lambda s: None, clear_globs=True)
            return dr.outcome or {"status": "passed", "message": ""}
        name = "doctest:" + short
        line = (test.lineno or 0) + 1
        # Narrowed to a function, its own doctest runs whatever the selected tests are called.
        if which == "all" and runner.selected and not runner.wanted(name):
            if short.split(".")[-1] not in runner.selected:
                continue
        saved = runner.selected
        runner.selected = set()
        runner.run(name, path, line, run_doc)
        runner.selected = saved


class _Started:
    def __init__(self, module, started):
        self.module = module
        self.started = started

    def test_started(self):
        self.module.test_started(self.started)

    def test_finished(self):
        self.module.test_finished(self.started)

    def finish(self, emit):
        self.module.finish(self.started, emit)


_COVER = [None]  # the _Started coverage of this run, or None


def _start_cover(cfg):
    """Line coverage of the source (config `cover`): _greenlight_cover beside this file, loaded
    before the run's paths come first on sys.path; None when absent or off."""
    if not cfg.get("cover"):
        return None
    try:
        import importlib.util

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_greenlight_cover.py")
        spec = importlib.util.spec_from_file_location("_greenlight_cover", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        started = module.from_config(cfg)
    except Exception:
        return None
    return _Started(module, started) if started is not None else None


def main():
    with open(sys.argv[1], "r", encoding="utf-8") as f:
        cfg = _loads(f.read())
    sys.argv = [cfg.get("source") or "greenlight"]
    for p in reversed(cfg.get("paths", [])):
        if p not in sys.path:
            sys.path.insert(0, p)
    signal.signal(signal.SIGALRM, _on_alarm)
    budget = _Budget(float(cfg.get("budget", 10)))
    cover = _COVER[0] = _start_cover(cfg)
    runner = Runner(budget, cfg.get("select"))
    loaded = {}
    # The test files as they are before any code under test runs: the source module is imported
    # first, and code that rewrote a (writable, staged) test file at import time would otherwise
    # choose the tests that judge it.
    texts = {}
    for path in cfg.get("tests", []):
        try:
            with open(path, "r", encoding="utf-8") as f:
                texts[path] = f.read()
        except (OSError, ValueError):
            pass  # load() reports it

    def load(path, dotted=None):
        name = os.path.splitext(os.path.basename(path))[0]
        if path in loaded:
            return loaded[path]
        _emit({"ev": "start", "name": name + " (import)", "file": path, "line": 1})
        with _Capture() as cap:
            signal.setitimer(signal.ITIMER_REAL, max(budget.remaining(), 0.01))
            try:
                mod = _load_module(dotted or name, path, texts.get(path))
            except BaseException:
                signal.setitimer(signal.ITIMER_REAL, 0)
                res = _exc_result(*sys.exc_info())
                res.update(ev="result", name=name + " (import)", file=path, line=1)
                out = cap.text()
                if out:
                    res["output"] = out
                _emit(res)
                loaded[path] = None
                return None
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        loaded[path] = mod
        _emit({"ev": "loaded", "name": name + " (import)", "file": path})
        return mod

    source = cfg.get("source")
    _SOURCE[0] = source or None
    _TRACE[0] = cfg.get("origin", "trace") == "trace"
    module = cfg.get("module")
    if source and module:
        # Inside a package: its parents imported first (their __init__ run), then the module
        # under its dotted name, so relative imports resolve and the tests' `from pkg.m import`
        # finds this very module.
        parent = module.rpartition(".")[0]
        try:
            __import__(parent)
        except BaseException:
            pass  # the module's own import reports what is wrong

        def load_in_package(path, _load=load):
            return _load(path, module)
        src_mod = load_in_package(source)
    else:
        src_mod = load(source) if source else None
    if src_mod is not None:
        if cfg.get("same_file", True):
            _collect(runner, src_mod, source, True)
        _doctests(runner, src_mod, source, cfg.get("doctests", "all"))
    for path in cfg.get("tests", []):
        if path == source:
            continue
        mod = load(path)
        if mod is not None:
            _collect(runner, mod, path, True)
    if cover is not None:
        cover.finish(_emit)
    _emit({"ev": "done", "ran": runner.counts})


if __name__ == "__main__":
    main()
")GLPY"
