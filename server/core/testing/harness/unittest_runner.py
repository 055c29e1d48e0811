R"GLPY("
"""greenlight's unittest runner (module greenlight_unittest).

Embedded into the greenlight binary like python_harness.py (the first and the last line of this
file are a C++ raw string's delimiters; the accessor harness::unittestRunner() drops them) and
staged as /work/.gl/greenlight_unittest.py. It runs a project as `python -m unittest` does,
with the same arguments, and reports per test through EVENTS.md:

    GREENLIGHT_CONFIG=/work/.gl/config.json PYTHONPATH=/work/.gl[:...] \\
        python -m greenlight_unittest [unittest's arguments: none (discovery), discover -s DIR
                                       -t TOP -p PATTERN, module / Class / test ids, -k ...]

unittest's own TestProgram parses the arguments, discovers and loads (load_tests protocol
included: the doctests a module adds through it run), and its TextTestRunner runs the suite
(warnings filters, startTestRun/stopTestRun, class and module fixtures, its summary on
stderr). greenlight only brings a TestResult subclass that reports as it goes, and a runner
that lists the suite before it runs. The exit status is unittest's.

Events go to the ORIGINAL stdout (fd 1 duplicated at import). Unless the config says
"capture": false, each test's stdout and stderr are captured at the descriptor level (as
pytest does): Python objects (sys.stdout) stay what they are, the output lands in the test's
`output`. The runner's own report (dots, tracebacks, summary) goes to the original stderr.

Config (JSON, the file named by $GREENLIGHT_CONFIG; optional): source, budget, origin,
capture: as greenlight_pytest's.
"""
import os
import sys
import time
import unittest

import _greenlight_origin as _gl_origin  # the line of origin, shared with greenlight_pytest
import _greenlight_cover as _gl_cover  # line coverage of the file under test, shared likewise

_OUT_FD = os.dup(1)
_ERR_FD = os.dup(2)
_T0 = time.monotonic()
_ROOT = os.getcwd()
_CAP = 8192
_DETAILS_CAP = 4096
_MESSAGE_CAP = 500
_REPR_CAP = 300


def _emit(obj):
    import json

    data = ("\n\x1eGL " + json.dumps(obj, default=str) + "\n").encode("utf-8", "replace")
    while data:
        try:
            n = os.write(_OUT_FD, data)
        except InterruptedError:
            continue
        data = data[n:]


def _short_repr(value, cap=_REPR_CAP):
    try:
        text = repr(value)
    except BaseException as e:  # a broken __repr__ must not break the report
        text = "<repr failed: %s>" % type(e).__name__
    if len(text) > cap:
        text = text[:cap] + "..."
    return text


def _cap(text, limit):
    return text if len(text) <= limit else text[:limit] + "\n[truncated]"


def _one_line(text):
    for line in text.splitlines():
        if line.strip():
            line = line.rstrip()
            return line if len(line) <= _MESSAGE_CAP else line[:_MESSAGE_CAP] + "..."
    return ""


def _load_config():
    path = os.environ.get("GREENLIGHT_CONFIG")
    if not path:
        return {}
    try:
        import json

        with open(path, "r", encoding="utf-8") as f:
            cfg = json.load(f)
        return cfg if isinstance(cfg, dict) else {}
    except (OSError, ValueError):
        return {}


class _GLTimeout(BaseException):
    """Raised by the budget's alarm; BaseException so `except Exception` cannot swallow it."""


class _Config:
    source = None
    origin = "off"
    capture = True
    timed_out = False
    result = None


_C = _Config()


def _on_alarm(signum, frame):
    _C.timed_out = True
    if _C.result is not None:
        _C.result.stop()
    raise _GLTimeout("the time limit was reached")


def _start_budget(seconds):
    import signal

    if not hasattr(signal, "setitimer") or signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, None):
        return
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(_T0 + seconds - time.monotonic(), 0.01))


def _stop_budget():
    import signal

    if hasattr(signal, "setitimer") and signal.getsignal(signal.SIGALRM) is _on_alarm:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


# ---------------------------------------------------------------------------------------------
# What a test is


def _flatten(test, out):
    if isinstance(test, unittest.TestSuite):
        for t in test:
            _flatten(t, out)
    else:
        out.append(test)
    return out


def _doctest_of(test):
    return getattr(test, "_dt_test", None)


def _code_of(fn):
    seen = 0
    while hasattr(fn, "__wrapped__") and seen < 20:
        fn, seen = fn.__wrapped__, seen + 1
    fn = getattr(fn, "__func__", fn)
    return getattr(fn, "__code__", None)


def _failed_import(test):
    return type(test).__name__ == "_FailedTest" and type(test).__module__ == "unittest.loader"


def _where(test):
    """(file, line, module) of a test: the method's definition; a doctest's docstring."""
    dt = _doctest_of(test)
    if dt is not None:
        module = (dt.globs or {}).get("__name__") or ""
        return os.path.abspath(dt.filename or ""), (dt.lineno or 0) + 1, module
    cls = type(test)
    module = cls.__module__
    fn = None
    name = getattr(test, "_testMethodName", None)
    if type(test).__name__ == "FunctionTestCase":
        fn = getattr(test, "_testFunc", None)
        module = getattr(fn, "__module__", module)
    elif name:
        fn = getattr(cls, name, None)
    code = _code_of(fn) if fn is not None else None
    if code is not None:
        return os.path.abspath(code.co_filename), code.co_firstlineno, module
    mod = sys.modules.get(module)
    path = getattr(mod, "__file__", None)
    if _failed_import(test):
        path = _module_path(getattr(test, "_testMethodName", ""))
    return (os.path.abspath(path) if path else ""), 1, module


def _module_path(dotted):
    base = os.path.join(_ROOT, *dotted.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.exists(candidate):
            return candidate
    return base + ".py"


def _describe(test, test_id):
    file, line, module = _where(test)
    name = test_id
    if module and test_id.startswith(module + "."):
        name = test_id[len(module) + 1:]
    if _failed_import(test):
        name = "%s (collection)" % getattr(test, "_testMethodName", test_id)
    parent = test_id.rsplit(".", 1)[0] if "." in test_id and _doctest_of(test) is None else (module or file)
    return {"id": test_id, "name": name, "file": file, "line": line, "parent": parent}


# ---------------------------------------------------------------------------------------------
# Failures


def _is_user_file(filename):
    if not filename or filename.startswith("<"):
        return False
    path = os.path.abspath(filename)
    if _C.source and path == _C.source:
        return True
    if path == os.path.abspath(__file__) or "/site-packages/" in path or "/dist-packages/" in path:
        return False
    if path.startswith(os.path.dirname(os.__file__) + os.sep):
        return False
    return path.startswith(_ROOT.rstrip(os.sep) + os.sep)


def _frames(tb):
    out = []
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if _is_user_file(code.co_filename) and not frame.f_globals.get("__unittest"):
            out.append({"file": os.path.abspath(code.co_filename), "line": tb.tb_lineno,
                        "function": code.co_name})
        tb = tb.tb_next
    return out


def _assert_values(tb):
    """actual/expected of a failed assert*Equal: its first two arguments, read from its frame."""
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if code.co_name.startswith("assert") and code.co_name.endswith("Equal") and \
                frame.f_globals.get("__unittest") and code.co_argcount >= 3:
            names = code.co_varnames[1:3]
            try:
                return _short_repr(frame.f_locals[names[0]]), _short_repr(frame.f_locals[names[1]])
            except KeyError:
                return None
        tb = tb.tb_next
    return None


def _exception_text(etype, value):
    import traceback

    return "".join(traceback.format_exception_only(etype, value)).strip("\n")


def _split(text):
    first = _one_line(text)
    rest = text.split("\n", 1)[1].strip("\n") if "\n" in text.strip("\n") else ""
    return first, rest


def _doctest_failure(test, text):
    """The first failing example of a DocTestCase's report (doctest's own format)."""
    import re

    dt = _doctest_of(test)
    found = re.findall(r'File "([^"]*)", line (\d+|\?), in ', text)
    file = os.path.abspath(dt.filename or "")
    line = (dt.lineno or 0) + 1
    if len(found) >= 2 and found[1][1].isdigit():
        file, line = os.path.abspath(found[1][0]), int(found[1][1])
    fields = {"frames": [{"file": file, "line": line, "function": dt.name.split(".")[-1]}],
              "details": _cap(text.split("-" * 20, 1)[-1].lstrip("-\n"), _DETAILS_CAP)}
    body = text.split("Failed example:\n", 1)
    src = ""
    if len(body) == 2:
        example, _, after = body[1].partition("\n")
        src = example.strip()
        tail = body[1][len(example) + 1:]
        # Only the first failing example: the next one starts after doctest's divider.
        tail = re.split(r"\n(?:-{70}|\*{70})\n", tail, 1)[0]
        if tail.startswith("Exception raised:"):
            # The traceback, indented by doctest; its last line is the exception.
            lines = [l.strip() for l in tail.splitlines()[1:] if l.strip()]
            exc = lines[-1] if lines else "an exception"
            fields.update(kind="exception", message=_one_line("doctest: %s raised %s" % (src, exc)))
            return fields
        want, got = _sections(tail)
        fields.update(kind="assertion", expected=want, actual=got,
                      message=_one_line("doctest: %s returned %s, expected %s" % (
                          src, got.replace("\n", "\\n") or "nothing", want.replace("\n", "\\n") or "nothing")))
        return fields
    fields.update(kind="assertion", message=_one_line(text))
    return fields


def _sections(tail):
    import textwrap

    want = got = ""
    if tail.startswith("Expected:\n"):
        rest = tail[len("Expected:\n"):]
        want, _, got = rest.partition("\nGot:\n")
        if not _:
            want, _, got = rest.partition("\nGot nothing")
            got = ""
    elif tail.startswith("Expected nothing\nGot:\n"):
        got = tail[len("Expected nothing\nGot:\n"):]
    return textwrap.dedent(want).strip(), textwrap.dedent(got).strip()


# ---- the line of origin (_greenlight_origin, shared with greenlight_pytest)

def _raise_origin(tb):
    return _gl_origin.raise_origin(tb, _C.source, _short_repr)


def _traced_origin(test, actual):
    """The failed test run once more with the source's functions traced (only failing tests pay:
    every test runs plain), on a throw-away result: its outcome is never the test's. A
    unittest.TestCase may be run again (a doctest's tearDown restores its globals)."""
    import unittest

    if not isinstance(test, unittest.TestCase):
        return None
    return _gl_origin.rerun_traced(lambda: test.run(unittest.TestResult()), _C.source, _short_repr,
                                   actual)


# ---------------------------------------------------------------------------------------------
# The result


class _Capture:
    """Descriptor-level capture of fds 1 and 2 into one temporary file, per test."""

    def __init__(self):
        import tempfile

        self.file = tempfile.TemporaryFile(mode="w+b")
        self.saved = None

    def start(self):
        _flush()
        self.saved = (os.dup(1), os.dup(2))
        self.file.seek(0)
        self.file.truncate()
        os.dup2(self.file.fileno(), 1)
        os.dup2(self.file.fileno(), 2)

    def stop(self):
        if self.saved is None:
            return ""
        _flush()
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        os.close(self.saved[0])
        os.close(self.saved[1])
        self.saved = None
        self.file.seek(0)
        data = self.file.read(_CAP + 1)
        text = data.decode("utf-8", "replace")
        return text if len(data) <= _CAP else text[:_CAP] + "\n[output truncated]"


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _result_class(base):
    class GreenlightResult(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._gl_ids = {}       # id(test) -> the id reported for it
            self._gl_seen = {}      # id -> how many times it was reported
            self._gl_current = None
            self._gl_capture = _Capture() if _C.capture else None
            self._gl_done = set()
            self._gl_ran = 0
            self._gl_blocked = {}   # "module.Class" or "module" -> why its tests did not run

        # -- ids and the list

        def _gl_id(self, test):
            key = id(test)
            if key not in self._gl_ids:
                base_id = test.id()
                n = self._gl_seen.get(base_id, 0) + 1
                self._gl_seen[base_id] = n
                # A suite may hold the same test twice (run under two settings): ids stay unique.
                self._gl_ids[key] = base_id if n == 1 else "%s [%d]" % (base_id, n)
            return self._gl_ids[key]

        def _gl_list(self, tests):
            entries = [_describe(t, self._gl_id(t)) for t in tests]
            self._gl_tests = {e["id"]: e for e in entries}
            _emit({"ev": "collected", "tests": entries})

        # -- a test's life

        def startTest(self, test):
            _gl_cover.test_started(_COVER[0])
            tid = self._gl_id(test)
            entry = self._gl_tests.get(tid) if hasattr(self, "_gl_tests") else None
            if entry is None:
                entry = _describe(test, tid)
            self._gl_current = {"entry": entry, "status": None, "fields": {}, "t0": time.perf_counter(),
                                "subfails": [], "trace": None}
            if not _failed_import(test):
                _emit({"ev": "start", "id": tid, "name": entry["name"], "file": entry["file"],
                       "line": entry["line"]})
            if self._gl_capture is not None:
                self._gl_capture.start()
            super().startTest(test)

        def stopTest(self, test):
            _gl_cover.test_finished(_COVER[0])
            output = self._gl_capture.stop() if self._gl_capture is not None else ""
            super().stopTest(test)
            cur = self._gl_current
            self._gl_current = None
            if cur is None:
                return
            if cur["trace"] is not None and not _C.timed_out:
                self._gl_trace(test, *cur["trace"])
            self._gl_finish(test, cur, output)

        def _gl_trace(self, test, fields, actual):
            """Where the failing value came from: the test's rerun, traced, its output dropped."""
            try:
                origin = _traced_origin(test, actual)
            except Exception:
                origin = None
            if origin is not None:
                fields["origin"] = origin

        def _gl_finish(self, test, cur, output):
            entry = cur["entry"]
            res = {"ev": "result", "id": entry["id"], "name": entry["name"], "parent": entry["parent"],
                   "file": entry["file"], "line": entry["line"]}
            status = cur["status"] or "passed"
            fields = cur["fields"]
            if cur["subfails"] and status == "passed":
                status, fields = cur["subfails"][0]
            if len(cur["subfails"]) > 1:
                more = "\n".join(f.get("message", "") for _, f in cur["subfails"][1:])
                fields = dict(fields)
                fields["details"] = _cap((fields.get("details", "") + "\nother subtests:\n" + more).strip("\n"),
                                         _DETAILS_CAP)
            outcome = fields.pop("outcome", None) or status
            res["status"] = status
            res["outcome"] = outcome
            res.update(fields)
            res.setdefault("message", "")
            res["duration_ms"] = round((time.perf_counter() - cur["t0"]) * 1000.0, 3)
            if output:
                res["output"] = output
            self._gl_done.add(entry["id"])
            if status != "skipped":
                self._gl_ran += 1
            _emit(res)

        def _gl_fields(self, test, err, failure):
            etype, value, tb = err
            if _C.timed_out and etype is _GLTimeout:
                return "timeout", {"kind": "timeout", "message": "timed out (time limit reached)",
                                   "frames": _frames(tb)}
            text = _exception_text(etype, value)
            if _doctest_of(test) is not None and failure:
                fields = _doctest_failure(test, str(value))
                if _C.source and _C.origin == "trace" and fields.get("kind") == "assertion":
                    self._gl_want_trace(fields, fields.get("actual"))
                return "failed", fields
            first, rest = _split(text)
            fields = {"kind": "assertion" if failure else "exception", "message": first or etype.__name__,
                      "frames": _frames(tb)}
            if rest:
                fields["details"] = _cap(rest, _DETAILS_CAP)
            if failure:
                values = _assert_values(tb)
                if values is not None:
                    fields["actual"], fields["expected"] = values
            if _failed_import(test):
                fields.update(_import_failure(str(value)))
            if _C.source and _C.origin != "off":
                origin = _raise_origin(tb)
                if origin is None and failure and _C.origin == "trace":
                    self._gl_want_trace(fields, fields.get("actual"))
                if origin is not None:
                    fields["origin"] = origin
            return ("failed" if failure else "error"), fields

        def _gl_want_trace(self, fields, actual):
            # The first failure of the test is the one reported: its origin, by the rerun at stopTest.
            cur = self._gl_current
            if cur is not None and cur["trace"] is None:
                cur["trace"] = (fields, actual)

        def _gl_set(self, test, status, fields):
            cur = self._gl_current
            if cur is None or cur["entry"]["id"] != self._gl_id(test):
                # Reported outside the test's start/stop: a class or module fixture that failed
                # (setUpClass, tearDownModule: unittest's _ErrorHolder), or a result for a test
                # that was never started.
                self._gl_orphan(test, status, fields)
                return
            if cur["status"] in ("failed", "error", "timeout") and status not in ("failed", "timeout"):
                return  # the first failure stays; a later error (tearDown) does not hide it
            cur["status"] = status
            cur["fields"] = fields

        def _gl_orphan(self, test, status, fields):
            tid = self._gl_id(test)
            if tid in self._gl_done:
                return
            desc = getattr(test, "description", None) or tid
            file, line = "", 1
            frames = fields.get("frames") or []
            if frames:
                file, line = frames[-1]["file"], frames[-1]["line"]
            entry = {"id": tid, "name": desc, "file": file, "line": line, "parent": file}
            if hasattr(self, "_gl_tests") and tid not in self._gl_tests:
                # Not in the list sent before the run: say so now, then its result.
                _emit({"ev": "collected", "tests": [entry]})
                self._gl_tests[tid] = entry
            res = {"ev": "result", "id": tid, "name": desc, "file": file, "line": line,
                   "status": status, "outcome": fields.pop("outcome", None) or status}
            res.update(fields)
            res.setdefault("message", "")
            self._gl_done.add(tid)
            # The tests it kept from running: "setUpClass (pkg.mod.Class)", "setUpModule (pkg.mod)".
            scope = desc.split("(", 1)[1].rstrip(")").strip() if "(" in desc else ""
            if scope and status != "skipped":
                self._gl_blocked[scope] = "%s failed" % desc.split(" (", 1)[0]
            _emit(res)

        def addSuccess(self, test):
            super().addSuccess(test)
            self._gl_set(test, "passed", {})

        # Each reads the traceback before unittest formats it: formatting cuts the assert*
        # frames off it (TestResult._remove_unittest_tb_frames), and with them the values.
        def addFailure(self, test, err):
            status, fields = self._gl_fields(test, err, True)
            super().addFailure(test, err)
            self._gl_set(test, status, fields)

        def addError(self, test, err):
            status, fields = self._gl_fields(test, err, False)
            super().addError(test, err)
            if _failed_import(test):
                _emit({"ev": "error", "file": fields.get("file") or _where(test)[0],
                       "line": fields.get("line", 1), "message": fields.get("message", ""),
                       "details": fields.get("details", ""), "frames": fields.get("frames", [])})
                fields.pop("file", None)
                fields.pop("line", None)
            self._gl_set(test, status, fields)

        def addSkip(self, test, reason):
            super().addSkip(test, reason)
            self._gl_set(test, "skipped", {"reason": reason, "message": reason})

        def addExpectedFailure(self, test, err):
            text = _exception_text(err[0], err[1])
            super().addExpectedFailure(test, err)
            self._gl_set(test, "skipped", {"outcome": "xfailed", "reason": "expected failure",
                                           "message": _one_line(text)})

        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test)
            self._gl_set(test, "failed", {"outcome": "xpassed", "kind": "assertion",
                                          "message": "unexpected success (marked expectedFailure)",
                                          "frames": []})

        def addSubTest(self, test, subtest, err):
            if err is None:
                super().addSubTest(test, subtest, err)
                return
            failure = issubclass(err[0], test.failureException)
            status, fields = self._gl_fields(test, err, failure)
            super().addSubTest(test, subtest, err)
            desc = subtest._subDescription() if hasattr(subtest, "_subDescription") else str(subtest)
            fields["message"] = "%s %s" % (desc, fields.get("message", ""))
            cur = self._gl_current
            if cur is not None:
                cur["subfails"].append((status, fields))

    return GreenlightResult


def _import_failure(text):
    """Where a module failed to import, from the traceback text unittest keeps of it."""
    import re

    lines = [l for l in text.splitlines() if l.strip()]
    where = re.findall(r'File "([^"]*)", line (\d+), in ', text)
    user = [(f, int(n)) for f, n in where if _is_user_file(f)]
    out = {"message": _one_line(lines[-1]) if lines else "the module failed to import",
           "details": _cap(text, _DETAILS_CAP),
           "frames": [{"file": os.path.abspath(f), "line": n, "function": ""} for f, n in user]}
    if user:
        out["file"], out["line"] = os.path.abspath(user[-1][0]), user[-1][1]
    if lines and lines[-1].startswith(("SyntaxError", "IndentationError", "TabError")):
        out["kind"] = "compile"
    return out


class GreenlightRunner(unittest.TextTestRunner):
    def __init__(self, *args, **kwargs):
        # unittest's report goes to the original stderr: the tests' own output is captured.
        if kwargs.get("stream") is None and not args:
            kwargs["stream"] = open(os.dup(_ERR_FD), "w", buffering=1, encoding="utf-8", errors="replace",
                                    closefd=True)
        super().__init__(*args, **kwargs)
        self.resultclass = _result_class(self.resultclass or unittest.TextTestResult)

    def _makeResult(self):
        result = super()._makeResult()
        _C.result = result
        return result

    def run(self, test):
        tests = _flatten(test, [])
        original = self._makeResult

        def make():
            result = original()
            result._gl_list(tests)
            return result
        self._makeResult = make
        try:
            result = super().run(test)
        except _GLTimeout:
            result = _C.result
        self.gl_result = result
        _finish(result, tests)
        return result


def _finish(result, tests):
    if result is None:
        return
    for test in tests:
        tid = result._gl_id(test)
        if tid in result._gl_done:
            continue
        cls = type(test)
        blocked = result._gl_blocked
        why = blocked.get("%s.%s" % (cls.__module__, cls.__qualname__)) or blocked.get(cls.__module__)
        if why is None:
            why = "the time limit was reached" if _C.timed_out else "the run stopped early"
        entry = result._gl_tests.get(tid) or _describe(test, tid)
        _emit({"ev": "result", "id": tid, "name": entry["name"], "parent": entry.get("parent", ""),
               "file": entry["file"], "line": entry["line"], "status": "skipped", "outcome": "notrun",
               "reason": "not run: " + why, "message": "not run: " + why})
        result._gl_done.add(tid)


_COVER = [None]  # the started _gl_cover.Cover of this run, or None


def main():
    cfg = _load_config()
    source = cfg.get("source") or None
    _C.source = os.path.abspath(source) if source else None
    mode = cfg.get("origin") or ("trace" if _C.source else "off")
    _C.origin = mode if _C.source else "off"
    _C.capture = cfg.get("capture", True) is not False
    budget = cfg.get("budget")
    if isinstance(budget, (int, float)) and budget > 0:
        _start_budget(float(budget))
    cover = _COVER[0] = _gl_cover.from_config(cfg)
    # As `python -m unittest` names itself (its usage text), and its directory first on sys.path.
    sys.argv[0] = os.path.basename(sys.executable) + " -m unittest"
    program = None
    code = 0
    try:
        program = unittest.main(module=None, testRunner=GreenlightRunner, exit=False)
        result = program.result
        if sys.version_info >= (3, 12) and result.testsRun == 0 and not result.skipped:
            code = 5
        else:
            code = 0 if result.wasSuccessful() else 1
    except SystemExit as e:  # argument errors: unittest's usage message and status
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        _stop_budget()
        ran = getattr(getattr(program, "result", None), "_gl_ran", 0)
        _gl_cover.finish(cover, _emit)
        _emit({"ev": "done", "ran": ran, "exit": code})
    sys.exit(code)


if __name__ == "__main__":
    main()
")GLPY"
