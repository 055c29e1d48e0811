R"GLPY("
"""greenlight's pytest plugin, implementation (module _greenlight_pytest). PYTEST_DONT_REWRITE

Embedded into the greenlight binary like python_harness.py (the first and the last line of this
file are a C++ raw string's delimiters; the accessor harness::pytestPlugin() drops them) and
staged as /work/.gl/_greenlight_pytest.py, beside pytest_plugin_entry.py staged as
/work/.gl/greenlight_pytest.py (harness::pytestPluginEntry()). pytest runs the project as it
always does:

    GREENLIGHT_CONFIG=/work/.gl/config.json PYTHONPATH=/work/.gl[:...] \\
        python -m pytest -p greenlight_pytest -o cache_dir=/tmp/.pytest_cache [node ids or files]

(pytest parses and assertion-rewrites every module named with -p, on every run: the module it
names is a few lines that import this one, which it leaves alone and a warm interpreter has
loaded already.)

This module only listens: it never selects, orders, skips or changes a test, so the project's
own configuration (addopts, testpaths, --doctest-modules, markers), its conftest.py files and
plugins, fixtures, parametrize and marks work as they do without it. It reports through
EVENTS.md: one "\\n\\x1eGL {json}\\n" line per event on the ORIGINAL stdout (fd 1 duplicated at
import, before pytest's capture replaces it).

Config (JSON, the file named by $GREENLIGHT_CONFIG; optional, every key optional):
  source   the file under test (absolute): a failure's "origin" says which line of it produced
           the wrong value (a return it traced) or raised
  budget   seconds from pytest's configure step: the test running when it ends is reported as
           `timeout` and pytest stops; the tests not run get a `notrun` result
  origin   "trace" (default when source is set), "raise" (only exceptions raised in the
           source, no tracing) or "off"
  cover    files (absolute) whose executed lines are reported in a `coverage` event at the end
           (_greenlight_cover, python_cover.py); not measured when the project runs pytest-cov
"""
import os
import sys
import time

import pytest

import _greenlight_origin as _gl_origin  # the line of origin, shared with greenlight_unittest
import _greenlight_cover as _gl_cover  # line coverage of the file under test, shared likewise

_OUT_FD = os.dup(1)
_T0 = [time.monotonic()]  # reset when pytest configures (a warm interpreter imports this early)
_CAP = 8192
_DETAILS_CAP = 4096
_MESSAGE_CAP = 500
_REPR_CAP = 300


def _emit(obj):
    if _S.worker:
        return
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
        from _pytest._io.saferepr import saferepr

        text = saferepr(value, maxsize=cap)
    except BaseException as e:  # a broken __repr__ must not break the report
        text = "<repr failed: %s>" % type(e).__name__
    return text


def _cap(text, limit):
    if len(text) <= limit:
        return text
    return text[:limit] + "\n[truncated]"


def _one_line(text):
    for line in text.splitlines():
        if line.strip():
            line = line.rstrip()
            return line if len(line) <= _MESSAGE_CAP else line[:_MESSAGE_CAP] + "..."
    return ""


class _GLTimeout(BaseException):
    """Raised by the budget's alarm; BaseException so `except Exception` cannot swallow it."""


class _State:
    def __init__(self):
        self.config = None
        self.rootdir = ""
        self.source = None
        self.origin_mode = "off"
        self.budget = None
        self.timed_out = False
        self.items = {}       # nodeid -> item, the selection (session.items)
        self.done_ids = set()  # nodeids that got a result
        self.problems = []    # collection errors / skips: (test entry, result)
        self.phases = {}      # nodeid -> {when: info}
        self.compare = None   # (op, left repr, right repr) of the current phase's failing assert
        self.traced = None    # the origin the traced rerun of a failed call found (text only)
        self.ran = 0
        self.finished = False
        self.skip_dirs = ()
        self.own_files = ()
        self.worker = False
        self.cover = None     # the started _gl_cover.Cover, or None



_S = _State()


# ---------------------------------------------------------------------------------------------
# Configuration, budget


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


def _on_alarm(signum, frame):
    _S.timed_out = True
    raise _GLTimeout("the time limit was reached")


def _start_budget(seconds):
    import signal

    if not hasattr(signal, "setitimer"):
        return
    if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, None):
        return  # someone else owns SIGALRM: the sandbox's limit still ends the run
    remaining = _T0[0] + seconds - time.monotonic()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(remaining, 0.01))
    _S.budget = seconds


def _stop_budget():
    if _S.budget is None:
        return
    import signal

    signal.setitimer(signal.ITIMER_REAL, 0)
    if signal.getsignal(signal.SIGALRM) is _on_alarm:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    _S.budget = None


def _dir_of(module_name):
    mod = sys.modules.get(module_name)
    f = getattr(mod, "__file__", None)
    return os.path.dirname(os.path.abspath(f)) + os.sep if f else None


def _start_cover(config):
    """Coverage from before the conftest.py files import (as coverage.py's would), unless the
    project measures with coverage.py itself (pytest-cov's --cov): never traced twice."""
    if _S.cover is not None or _in_worker(config):
        return
    ns = getattr(config, "known_args_namespace", None) or getattr(config, "option", None)
    if getattr(ns, "cov_source", None) or getattr(getattr(config, "option", None), "cov_source", None):
        return
    _S.cover = _gl_cover.from_config(_load_config())


@pytest.hookimpl(hookwrapper=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """A conftest.py that does not import stops pytest before any test (exit 4): say where."""
    try:
        _start_cover(early_config)
    except Exception:
        pass
    outcome = yield
    excinfo = getattr(outcome, "excinfo", None)
    if excinfo is None or _in_worker(early_config):
        return
    exc = excinfo[1]
    cause = getattr(exc, "cause", None) or exc.__cause__ or exc
    path = str(getattr(exc, "path", "") or "")
    try:
        import traceback

        message = _one_line("".join(traceback.format_exception_only(type(cause), cause)))
        details = "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))
    except Exception:
        message, details = str(exc), ""
    _S.rootdir = os.getcwd()
    frames = _frames(cause.__traceback__)
    line = 1
    if isinstance(cause, SyntaxError) and cause.lineno:
        line = cause.lineno
    else:
        in_file = [f for f in frames if f["file"] == os.path.abspath(path)] if path else []
        if in_file:
            line = in_file[-1]["line"]
    _emit({"ev": "error", "file": os.path.abspath(path) if path else "", "line": line,
           "message": "conftest.py: " + message, "details": _cap(details, _DETAILS_CAP),
           "frames": frames})


def _in_worker(config):
    """An xdist worker: the controller reports (the workers' reports reach it)."""
    return hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    _T0[0] = time.monotonic()
    if _in_worker(config):
        _S.worker = True
        return
    _S.config = config
    try:
        _S.rootdir = str(config.rootpath)
    except AttributeError:  # pytest < 6.1
        _S.rootdir = str(config.rootdir)
    cfg = _load_config()
    source = cfg.get("source") or None
    _S.source = os.path.abspath(source) if source else None
    mode = cfg.get("origin") or ("trace" if _S.source else "off")
    _S.origin_mode = mode if _S.source else "off"
    skip = [d for d in (_dir_of("_pytest"), _dir_of("pytest"), _dir_of("pluggy"), _dir_of("py"),
                        os.path.dirname(os.__file__) + os.sep) if d]
    _S.skip_dirs = tuple(skip)
    entry = sys.modules.get("greenlight_pytest")
    _S.own_files = tuple(os.path.abspath(f) for f in (__file__, getattr(entry, "__file__", None)) if f)
    budget = cfg.get("budget")
    if isinstance(budget, (int, float)) and budget > 0:
        _start_budget(float(budget))
    try:
        _start_cover(config)
    except Exception:
        pass


# ---------------------------------------------------------------------------------------------
# Where things are


def _abs(rel):
    if not rel:
        return ""
    return os.path.normpath(os.path.join(_S.rootdir, str(rel)))


def _name_of(nodeid):
    return nodeid.split("::", 1)[1] if "::" in nodeid else nodeid


def _entry(item):
    try:
        rel, lineno, _ = item.location
        file = _abs(rel)
    except Exception:
        file, lineno = str(getattr(item, "fspath", "")), None
    line = lineno + 1 if isinstance(lineno, int) and lineno >= 0 else 1
    parent = getattr(item, "parent", None)
    entry = {"id": item.nodeid, "name": _name_of(item.nodeid), "file": file, "line": line}
    pid = getattr(parent, "nodeid", None)
    entry["parent"] = pid if pid else file
    return entry


def _is_user_file(filename):
    if not filename or filename.startswith("<"):
        return False
    path = os.path.abspath(filename)
    if _S.source and path == _S.source:
        return True
    if path in _S.own_files or path.startswith(_S.skip_dirs):
        return False
    if "/site-packages/" in path or "/dist-packages/" in path:
        return False
    root = _S.rootdir.rstrip(os.sep) + os.sep
    return path.startswith(root)


def _hidden(frame):
    try:
        hide = frame.f_locals.get("__tracebackhide__", frame.f_globals.get("__tracebackhide__"))
    except Exception:
        return False
    if callable(hide):
        return False  # pytest's own filter callables: not a plain flag
    return bool(hide)


def _frames(tb):
    out = []
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if _is_user_file(code.co_filename) and not _hidden(frame):
            out.append({"file": os.path.abspath(code.co_filename), "line": tb.tb_lineno,
                        "function": code.co_name})
        tb = tb.tb_next
    return out


# ---------------------------------------------------------------------------------------------
# Collection


def _collection_problem(report, status, excinfo=None):
    nodeid = report.nodeid
    path = nodeid.split("::", 1)[0]
    file = _abs(path) if path else _S.rootdir
    name = "%s (collection)" % (path or nodeid or ".")
    res = {"ev": "result", "id": nodeid or path or ".", "name": name, "parent": file, "file": file,
           "line": 1, "status": status, "outcome": status}
    if status == "skipped":
        reason = _skip_reason(report)
        res["reason"] = reason
        res["message"] = reason
    else:
        res["kind"] = "exception"
        res.update(_collect_error_fields(report, excinfo, file))
    entry = {"id": res["id"], "name": name, "file": file, "line": res["line"], "parent": file}
    return entry, res


def _original(exc):
    """The exception a CollectError stands for (pytest raises it `from` the import error)."""
    seen = 0
    while exc is not None and type(exc).__name__ == "CollectError" and seen < 5:
        nxt = exc.__cause__ or exc.__context__
        if nxt is None:
            break
        exc, seen = nxt, seen + 1
    return exc


def _collect_error_fields(report, excinfo, file):
    text = str(getattr(report, "longrepr", "") or "")
    fields = {}
    exc = _original(excinfo.value) if excinfo is not None else None
    if exc is not None and type(exc).__name__ != "CollectError":
        import traceback

        if isinstance(exc, SyntaxError):
            fields["message"] = "%s: %s" % (type(exc).__name__, exc.msg)
        else:
            fields["message"] = _one_line("".join(traceback.format_exception_only(type(exc), exc)))
        frames = _frames(exc.__traceback__)
        if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
            frames.append({"file": os.path.abspath(exc.filename), "line": exc.lineno,
                           "column": exc.offset or 0, "function": ""})
            fields["kind"] = "compile"
        fields["frames"] = frames
        in_file = [f for f in frames if f["file"] == file]
        if in_file:
            fields["line"] = in_file[-1]["line"]
    else:
        # A collector's own error (pytest's message only).
        lines = [l for l in text.splitlines() if l.strip()]
        fields["message"] = _one_line(lines[-1] if lines else text) or "collection failed"
        fields["frames"] = []
    if text:
        fields["details"] = _cap(text, _DETAILS_CAP)
    return fields


_COLLECT_EXC = {}


def pytest_exception_interact(node, call, report):
    if getattr(report, "when", None) == "collect" or type(report).__name__ == "CollectReport":
        _COLLECT_EXC[report.nodeid] = call.excinfo


def pytest_collectreport(report):
    if (report.failed or report.skipped) and any(res["id"] == (report.nodeid or ".")
                                                 for _, res in _S.problems):
        # The same file seen by two collectors (a test module that --doctest-modules also
        # imports): pytest reports it twice, one id is one result.
        _COLLECT_EXC.pop(report.nodeid, None)
        return
    if report.failed:
        entry, res = _collection_problem(report, "error", _COLLECT_EXC.pop(report.nodeid, None))
        err = {"ev": "error", "file": res["file"], "line": res["line"], "message": res["message"]}
        for key in ("details", "frames"):
            if key in res:
                err[key] = res[key]
        frames = res.get("frames") or []
        if frames:
            err["file"], err["line"] = frames[-1]["file"], frames[-1]["line"]
        _emit(err)
        _S.problems.append((entry, res))
    elif report.skipped:
        _S.problems.append(_collection_problem(report, "skipped"))


def pytest_warning_recorded(warning_message, when, nodeid, location):
    if when not in ("config", "collect"):
        return
    try:
        _emit({"ev": "warning", "file": os.path.abspath(str(warning_message.filename)),
               "line": int(warning_message.lineno or 0),
               "code": getattr(warning_message.category, "__name__", "warning"),
               "message": _one_line(str(warning_message.message))})
    except Exception:
        pass


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """With pytest-xdist the controller has no items: the first worker's ids are the list."""
    if _S.items or _S.worker:
        return
    _S.items = {nodeid: None for nodeid in ids}
    tests = [entry for entry, _ in _S.problems]
    for nodeid in ids:
        file = _abs(nodeid.split("::", 1)[0])
        tests.append({"id": nodeid, "name": _name_of(nodeid), "file": file, "line": 1, "parent": file})
    _emit({"ev": "collected", "tests": tests})


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    if _S.worker:
        return
    items = list(session.items)
    if not items and _S.items:
        return  # the xdist controller: listed from the workers' collection
    _S.items = {item.nodeid: item for item in items}
    tests = [entry for entry, _ in _S.problems]
    tests.extend(_entry(item) for item in items)
    _emit({"ev": "collected", "tests": tests})
    for entry, res in _S.problems:
        _S.done_ids.add(res["id"])
        _emit(res)


# ---------------------------------------------------------------------------------------------
# Running


def pytest_runtest_logstart(nodeid, location):
    _S.phases[nodeid] = {}
    rel, lineno, _ = location
    line = lineno + 1 if isinstance(lineno, int) and lineno >= 0 else 1
    _emit({"ev": "start", "id": nodeid, "name": _name_of(nodeid), "file": _abs(rel), "line": line})


def pytest_assertrepr_compare(config, op, left, right):
    # Called while the failing assert builds its message: pytest's own view of both sides.
    try:
        _S.compare = (op, _short_repr(left), _short_repr(right))
    except BaseException:
        pass
    return None


def _skip_reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
    else:
        reason = str(longrepr or "")
    if reason.startswith("Skipped: "):
        reason = reason[len("Skipped: "):]
    return reason


def _xfail_reason(report):
    reason = str(getattr(report, "wasxfail", "") or "")
    if reason.startswith("reason: "):
        reason = reason[len("reason: "):]
    return reason


# ---- the line of origin: a failed call is run once more, traced (python_origin.py)

def _raise_origin(tb):
    return _gl_origin.raise_origin(tb, _S.source, _short_repr)


# Coverage counts inside each test's call and the fixtures' own code (not pytest's fixture
# machinery around it, whose calls a Python tracer would pay for on every test).
@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_setup(item):
    yield from _counting_fixture_code()


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_teardown(item, nextitem):
    yield from _counting_fixture_code()


def _counting_fixture_code():
    """A setup or teardown phase: counted as a whole where pytest's fixture calls cannot be
    windowed one by one."""
    windowed = _fixtures_windowed()
    if not windowed:
        _gl_cover.test_started(_S.cover)
    yield
    if not windowed:
        _gl_cover.test_finished(_S.cover)


_FIXTURES = []  # [True] once pytest's fixture calls are windowed, [False] when they cannot be


def _fixtures_windowed():
    """Wraps pytest's two calls into fixture code (a fixture's setup, a yield fixture's teardown)
    in coverage windows, once; False when this pytest has not those functions (then the whole
    setup and teardown phases are the windows)."""
    if _FIXTURES:
        return _FIXTURES[0]
    ok = False
    try:
        from _pytest import fixtures as fx

        call, teardown = getattr(fx, "call_fixture_func", None), getattr(fx, "_teardown_yield_fixture", None)
        if _S.cover is not None and callable(call) and callable(teardown):
            def call_fixture_func(*args, **kwargs):
                _gl_cover.test_started(_S.cover)
                try:
                    return call(*args, **kwargs)
                finally:
                    _gl_cover.test_finished(_S.cover)

            def _teardown_yield_fixture(*args, **kwargs):
                _gl_cover.test_started(_S.cover)
                try:
                    return teardown(*args, **kwargs)
                finally:
                    _gl_cover.test_finished(_S.cover)

            fx.call_fixture_func = call_fixture_func
            fx._teardown_yield_fixture = _teardown_yield_fixture
            ok = True
    except Exception:
        ok = False
    _FIXTURES.append(ok)
    return ok


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item):
    # The call runs plain; innermost wrapper, so a rerun runs inside the same capture, fixtures
    # and plugins' wrappers as the call did.
    _S.traced = None
    globs = None
    if _S.origin_mode == "trace" and _is_doctest_item(item):
        # doctest clears its globals after a run: a rerun needs them as they were.
        globs = dict(item.dtest.globs)
    _gl_cover.test_started(_S.cover)
    outcome = yield
    _gl_cover.test_finished(_S.cover)
    try:
        if _S.origin_mode == "trace":
            _S.traced = _origin_by_rerun(item, outcome.excinfo, globs)
    except Exception:
        _S.traced = None
    finally:
        globs = None


def _is_doctest_item(item):
    return type(item).__name__ == "DoctestItem" and getattr(item, "dtest", None) is not None


def _origin_by_rerun(item, excinfo, globs):
    """The origin of a failed call's wrong value: the call run again, traced, or None when the
    failure needs none (it raised in the source: its traceback says where) or cannot be rerun."""
    if excinfo is not None:
        exc, tb = excinfo[1], excinfo[2]
    else:  # a unittest.TestCase under pytest: the failure is kept on the item
        kept = getattr(item, "_excinfo", None)
        if not kept:
            return None
        exc, tb = kept[0].value, kept[0].tb
    if _S.timed_out or isinstance(exc, (_GLTimeout, KeyboardInterrupt)) or \
            item.get_closest_marker("xfail") is not None:
        return None
    actual = shown = None
    if _is_doctest_failure(exc):
        first = (getattr(exc, "failures", None) or [exc])[0]
        if not hasattr(first, "got"):
            return None
        shown = first.got.strip()
    else:
        failed_cls = getattr(getattr(pytest, "fail", None), "Exception", ())
        xfail_cls = getattr(getattr(pytest, "xfail", None), "Exception", ())
        if not (isinstance(exc, AssertionError) or (failed_cls and isinstance(exc, failed_cls))) or \
                (xfail_cls and isinstance(exc, xfail_cls)):
            return None
        if _raise_origin(tb) is not None:
            return None
        if isinstance(exc, AssertionError):
            if _S.compare is not None:
                actual = _S.compare[1]
            else:
                values = _unittest_values(tb)
                actual = values[0] if values is not None else None
    run = _rerunner(item, globs)
    if run is None:
        return None
    exc = tb = None
    compare = _S.compare
    try:
        return _gl_origin.rerun_traced(run, _S.source, _short_repr, actual, shown)
    finally:
        _S.compare = compare


def _rerunner(item, globs):
    """How to run the item's call again with the fixture values it has: a test function through
    pytest_pyfunc_call (item.runtest), a unittest.TestCase method on a throw-away result, a
    doctest with its globals restored. Other items are not rerun."""
    if _is_doctest_item(item):
        if globs is None:
            return None

        def run_doctest():
            item.dtest.globs.clear()
            item.dtest.globs.update(globs)
            item.runtest()
        return run_doctest
    unittest = sys.modules.get("unittest")
    case = getattr(item, "_testcase", None) or getattr(item, "instance", None)
    if unittest is not None and isinstance(case, unittest.TestCase):
        # Never item.runtest(): the item is that run's result, a second failure would land on it.
        return lambda: case.run(unittest.TestResult())
    if isinstance(item, pytest.Function):
        return item.runtest
    return None


# ---- failures

def _unittest_values(tb):
    """actual/expected of a failed unittest assert*Equal: its first two arguments."""
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if code.co_name.startswith("assert") and code.co_name.endswith("Equal") and \
                code.co_filename.replace("\\", "/").endswith("unittest/case.py") and \
                code.co_argcount >= 3:
            names = code.co_varnames[1:3]
            try:
                return _short_repr(frame.f_locals[names[0]]), _short_repr(frame.f_locals[names[1]])
            except KeyError:
                return None
        tb = tb.tb_next
    return None


def _doctest_fields(exc):
    failures = list(getattr(exc, "failures", None) or [exc])
    first = failures[0]
    test, example = first.test, first.example
    line = (test.lineno + example.lineno + 1) if test.lineno is not None else example.lineno + 1
    src = example.source.strip()
    where = {"file": os.path.abspath(test.filename or ""), "line": line,
             "function": test.name.split(".")[-1]}
    parts = []
    for failure in failures:
        ex = failure.example
        ln = (failure.test.lineno or 0) + ex.lineno + 1
        text = "line %d:\n>>> %s\n" % (ln, ex.source.rstrip().replace("\n", "\n... "))
        if hasattr(failure, "got"):
            text += "Expected:\n%sGot:\n%s" % (_indent(ex.want), _indent(failure.got))
        else:
            import traceback

            text += "".join(traceback.format_exception_only(*failure.exc_info[:2]))
        parts.append(text)
    fields = {"details": _cap("\n".join(parts), _DETAILS_CAP)}
    if hasattr(first, "got"):
        got, want = first.got.strip(), example.want.strip()
        fields.update(status="failed", kind="assertion",
                      message=_one_line("doctest: %s returned %s, expected %s" % (
                          " ".join(src.split()), _flat(got) or "nothing", _flat(want) or "nothing")),
                      expected=want, actual=got, frames=[where])
        if _S.source and _S.origin_mode == "trace" and _S.traced is not None:
            fields["origin"] = _S.traced
    else:
        import traceback

        etype, evalue, etb = first.exc_info
        fields.update(status="failed", kind="exception",
                      message=_one_line("doctest: %s raised %s" % (
                          " ".join(src.split()),
                          _one_line("".join(traceback.format_exception_only(etype, evalue))))),
                      frames=[where] + [f for f in _frames(etb) if not f["file"].startswith("<")])
        if _S.source:
            origin = _raise_origin(etb)
            if origin is not None:
                fields["origin"] = origin
    return fields


def _indent(text):
    return "".join("    " + line + "\n" for line in (text or "").splitlines()) or "    nothing\n"


def _flat(text):
    return text.replace("\n", "\\n")


def _is_doctest_failure(exc):
    return type(exc).__name__ in ("DocTestFailure", "UnexpectedException", "MultipleDoctestFailures") \
        and (hasattr(exc, "failures") or (hasattr(exc, "test") and hasattr(exc, "example")))


def _failure_fields(excinfo, when):
    exc = excinfo.value
    if _S.timed_out and isinstance(exc, _GLTimeout):
        return {"status": "timeout", "kind": "timeout", "message": "timed out (time limit reached)",
                "frames": _frames(excinfo.tb)}
    if _is_doctest_failure(exc):
        return _doctest_fields(exc)
    failed_cls = getattr(getattr(pytest, "fail", None), "Exception", ())
    is_assert = isinstance(exc, AssertionError) or (failed_cls and isinstance(exc, failed_cls))
    text = excinfo.exconly()
    fields = {"status": "failed" if when == "call" else "error",
              "kind": "assertion" if is_assert else "exception",
              "message": _one_line(text) or type(exc).__name__,
              "frames": _frames(excinfo.tb)}
    rest = text.split("\n", 1)[1].strip("\n") if "\n" in text.strip() else ""
    if rest:
        fields["details"] = _cap(rest, _DETAILS_CAP)
    if isinstance(exc, AssertionError):
        if _S.compare is not None:
            op, left, right = _S.compare
            fields["actual"] = left
            fields["expected"] = right if op == "==" else "%s %s" % (op, right)
        else:
            values = _unittest_values(excinfo.tb)
            if values is not None:
                fields["actual"], fields["expected"] = values
    if _S.source and _S.origin_mode != "off":
        origin = _raise_origin(excinfo.tb)
        if origin is None and when == "call" and is_assert:
            origin = _S.traced
        if origin is not None:
            fields["origin"] = origin
    return fields


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    try:
        rep = outcome.get_result()
        info = {"outcome": rep.outcome, "duration": getattr(rep, "duration", 0.0) or 0.0}
        if hasattr(rep, "wasxfail"):
            info["wasxfail"] = _xfail_reason(rep)
        if rep.skipped and not hasattr(rep, "wasxfail"):
            info["reason"] = _skip_reason(rep)
        if rep.failed:
            if call.excinfo is not None:
                info["fields"] = _failure_fields(call.excinfo, call.when)
            else:  # a report failed without an exception: XPASS(strict), a plugin's verdict
                text = str(rep.longrepr or "failed")
                info["fields"] = {"kind": "assertion", "message": _one_line(text), "frames": []}
                if "\n" in text.strip():
                    info["fields"]["details"] = _cap(text, _DETAILS_CAP)
        _S.phases.setdefault(item.nodeid, {})[call.when] = info
    except Exception:
        pass
    finally:
        _S.compare = None
        if call.when == "call":
            _S.traced = None
    if _S.timed_out:
        item.session.shouldstop = "greenlight: the time limit was reached"


def pytest_runtest_logreport(report):
    info = _S.phases.setdefault(report.nodeid, {}).setdefault(report.when, {})
    info.setdefault("outcome", report.outcome)
    if report.when == "teardown" or report.failed:
        out = (getattr(report, "capstdout", "") or "") + (getattr(report, "capstderr", "") or "")
        _S.phases[report.nodeid]["_output"] = out


def _result(nodeid, location):
    phases = _S.phases.pop(nodeid, {})
    rel, lineno, _ = location
    res = {"ev": "result", "id": nodeid, "name": _name_of(nodeid), "file": _abs(rel),
           "line": lineno + 1 if isinstance(lineno, int) and lineno >= 0 else 1}
    item = _S.items.get(nodeid)
    parent = getattr(getattr(item, "parent", None), "nodeid", None)
    res["parent"] = parent or res["file"]
    setup, call, teardown = phases.get("setup"), phases.get("call"), phases.get("teardown")
    fields = {}
    if setup and setup.get("outcome") == "failed":
        status, outcome = "error", "error"
        fields = dict(setup.get("fields") or {})
    elif setup and setup.get("outcome") == "skipped":
        if "wasxfail" in setup:
            status, outcome, res["reason"] = "skipped", "xfailed", setup["wasxfail"]
        else:
            status, outcome, res["reason"] = "skipped", "skipped", setup.get("reason", "")
        fields = {"message": res["reason"]}
    elif call is not None:
        if call.get("outcome") == "failed":
            fields = dict(call.get("fields") or {})
            status = fields.get("status") or "failed"
            outcome = "xpassed" if str(fields.get("message", "")).startswith("[XPASS(strict)]") else "failed"
            if status == "timeout":
                outcome = "timeout"
        elif call.get("outcome") == "skipped":
            if "wasxfail" in call:
                status, outcome, res["reason"] = "skipped", "xfailed", call["wasxfail"]
                fields = {"message": res["reason"]}
            else:
                status, outcome, res["reason"] = "skipped", "skipped", call.get("reason", "")
                fields = {"message": res["reason"]}
        else:
            status, outcome = "passed", "passed"
            if "wasxfail" in call:
                outcome, res["reason"] = "xpassed", call["wasxfail"]
    else:
        status, outcome = "error", "error"
        fields = {"message": "the test did not run (no call phase)"}
    if teardown and teardown.get("outcome") == "failed" and status not in ("failed", "timeout"):
        tfields = dict(teardown.get("fields") or {})
        if tfields.get("status") == "timeout":
            status, outcome = "timeout", "timeout"
        else:
            status, outcome = "error", "error"
        tfields["message"] = "error in teardown: " + tfields.get("message", "")
        fields = tfields
    fields.pop("status", None)
    res["status"] = status
    res["outcome"] = outcome
    res.update(fields)
    if not res.get("message"):
        res["message"] = ""
    total = sum(float(p.get("duration", 0.0) or 0.0) for k, p in phases.items() if not k.startswith("_"))
    res["duration_ms"] = round(total * 1000.0, 3)
    out = phases.get("_output") or ""
    if out:
        res["output"] = out if len(out) <= _CAP else out[:_CAP] + "\n[output truncated]"
    return res


def pytest_runtest_logfinish(nodeid, location):
    res = _result(nodeid, location)
    _S.done_ids.add(nodeid)
    if res["status"] != "skipped":
        _S.ran += 1
    _emit(res)


# ---------------------------------------------------------------------------------------------
# The end


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if _S.finished:
        return
    _S.finished = True
    _stop_budget()
    config = session.config
    collect_only = bool(getattr(config.option, "collectonly", False))
    if not collect_only:
        if _S.timed_out:
            why = "the time limit was reached"
        else:
            why = str(getattr(session, "shouldfail", "") or getattr(session, "shouldstop", "") or "")
            if not why and getattr(session, "testsfailed", 0) and \
                    any(res["status"] == "error" for _, res in _S.problems):
                why = "errors during collection"
            why = why or "the run was interrupted"
        for nodeid, item in _S.items.items():
            if nodeid in _S.done_ids:
                continue
            if item is None:  # listed from xdist workers' ids
                file = _abs(nodeid.split("::", 1)[0])
                entry = {"name": _name_of(nodeid), "file": file, "line": 1, "parent": file}
            else:
                entry = _entry(item)
            _emit({"ev": "result", "id": nodeid, "name": entry["name"], "parent": entry["parent"],
                   "file": entry["file"], "line": entry["line"], "status": "skipped", "outcome": "notrun",
                   "reason": "not run: " + why, "message": "not run: " + why})
    try:
        code = int(exitstatus)
    except (TypeError, ValueError):
        code = 1
    _gl_cover.finish(_S.cover, _emit)
    _S.cover = None
    _emit({"ev": "done", "ran": _S.ran, "exit": code})


def pytest_unconfigure(config):
    _stop_budget()
")GLPY"
