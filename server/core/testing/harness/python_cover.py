R"GLPY("
"""Which lines of the file under test the run executed (issue 35), shared by greenlight's pytest
plugin, its unittest runner and the built-in harness (staged as /work/.gl/_greenlight_cover.py;
the first and last lines of this file are a C++ raw string's delimiters, dropped by
harness::pythonCover()).

Sent as the EVENTS.md `coverage` event at the end of the process: every line coverage.py would
count as a statement of the file, with how many times it ran (0: never).

Neutral: nothing here changes an outcome.
- 3.12+: sys.monitoring under its own tool id; code objects of other files are DISABLEd at
  their first start, so they cost nothing after it.
- 3.8-3.11: a global trace function that returns None for every frame not of the covered files
  (so other code pays only the call event) and a line counter for theirs, set only while tests
  run and while a covered file is imported (see arm()). In C (python_ctrace.c.inc, built for
  the interpreter by greenlight and named by the config's `cover_tracer`) when it could be built,
  else in Python: the same lines either way, the C one about three times cheaper per call. It
  is invisible to the code it watches: sys.gettrace() answers None while only it is set, so
  code that refuses to run under another tracer, greenlight's own traced rerun of a failed test (python_origin.py) and
  the code's own hooks see what they see without it. A hook the code sets replaces it (lines run
  meanwhile are not counted, as with coverage.py); counting resumes at the next test (arm()).
- Nothing is kept but counts per line: no frame, local or value outlives its event.
- When the project measures with coverage.py itself (pytest-cov's --cov), nothing is traced
  twice: the caller does not start() and no event is sent.
"""
import os
import sys

_TOOL_NAME = "greenlight"


def _statements(path):
    """(statements, first_line_of) as coverage.py counts them: the lines the compiled module's
    code objects have (co_lines / co_lnotab), each line of a multi-line statement mapped to its
    first line, without docstrings. None when the file does not compile."""
    import ast

    try:
        with open(path, "rb") as f:
            text = f.read()
        tree = ast.parse(text, path)
        code = compile(tree, path, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError):
        return None
    first = {}
    docstrings = set()
    excluded = set()
    import re

    pragma = re.compile(r"#\s*(pragma|PRAGMA)[:\s]?\s*(no|NO)\s*(cover|COVER)")
    marked = {i for i, t in enumerate(text.decode("utf-8", "replace").splitlines(), 1) if pragma.search(t)}

    def header_end(node):
        # A compound statement's own lines end where its body begins.
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.AST):
            begins = min([body[0].lineno] + [d.lineno for d in getattr(body[0], "decorator_list", [])])
            return max(node.lineno, begins - 1)
        return getattr(node, "end_lineno", None) or node.lineno

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
                    isinstance(body[0].value.value, str):
                d = body[0]
                # coverage.py (6.5) knows a docstring by its tokens: the string right after a
                # def's or class's indent, or the file's very first token; a module docstring
                # after comments is a statement to it.
                if not isinstance(node, ast.Module) or (d.lineno == 1 and d.col_offset == 0):
                    docstrings.update(range(d.lineno, (d.end_lineno or d.lineno) + 1))
        if isinstance(node, ast.stmt):
            start = node.lineno
            end = header_end(node)
            for line in range(start, end + 1):
                first.setdefault(line, start)
            for d in getattr(node, "decorator_list", None) or []:
                for line in range(d.lineno, (d.end_lineno or d.lineno) + 1):
                    first.setdefault(line, d.lineno)
        # coverage.py's default exclusion: a line marked `pragma: no cover`, with the block it
        # opens when it is a compound statement's (or an except clause's) header.
        if isinstance(node, (ast.stmt, ast.excepthandler)) and node.lineno in marked:
            excluded.update(range(node.lineno, (getattr(node, "end_lineno", None) or node.lineno) + 1))
    lines = set()
    todo = [code]
    while todo:
        c = todo.pop()
        for const in c.co_consts:
            if hasattr(const, "co_code"):
                todo.append(const)
        if hasattr(c, "co_lines"):
            for _, _, line in c.co_lines():
                if line:
                    lines.add(line)
        else:  # 3.8, 3.9
            import dis
            for _, line in dis.findlinestarts(c):
                if line:
                    lines.add(line)
    statements = set()
    for line in lines:
        s = first.get(line, line)
        if s in docstrings or s in excluded or s in marked:
            continue
        statements.add(s)
    return statements, first


def _lines_of(code):
    """The lines a code object reports, without its def line (run by the enclosing code)."""
    lines = {line for _, _, line in code.co_lines() if line} if hasattr(code, "co_lines") else set()
    if code.co_name != "<module>":
        lines.discard(code.co_firstlineno)
    return lines


def _load_c_tracer(path):
    """python_ctrace.c's module, loaded from `path` without entering sys.modules (multi-phase
    init: the module object is ours alone), or None."""
    if not path or not os.path.isfile(path):
        return None
    try:
        import importlib.machinery
        import importlib.util

        name = "_greenlight_ctrace"
        loader = importlib.machinery.ExtensionFileLoader(name, path)
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        return module
    except Exception:
        return None


class Cover:
    """Counts line events of the code objects whose file is one of `files`. Thread-safety: the
    counting runs on whichever thread executes the covered code (dict increments under the GIL);
    start/stop/report on the main thread."""

    def __init__(self, files, c_tracer=None):
        self.files = {os.path.abspath(f) for f in files if f}
        self._c_tracer_path = c_tracer  # python_ctrace.c built for this interpreter, or None
        self.hits = {f: {} for f in self.files}
        self._by_name = {}  # co_filename -> counts dict, or None for files not covered
        self.active = False
        self._saved = None
        self._mode = None
        self._windows = {}  # module code objects of the project running now -> depth
        self._in_test = False
        self._depth = 0  # nested test windows (a fixture set up during a test's call)
        self._user = {}  # co_filename -> a project file
        self.c_tracer = False  # counting in C (python_ctrace.c)
        prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.__file__)}
        self._own_dir = os.path.dirname(os.path.abspath(__file__))  # greenlight's scripts
        self._system = tuple(os.path.join(os.path.abspath(p), "") for p in prefixes if p)

    def _counts_for(self, name):
        try:
            return self._by_name[name]
        except KeyError:
            pass
        counts = None
        if name and not name.startswith("<"):
            full = os.path.abspath(name)
            counts = self.hits.get(full)
            if counts is None:
                try:
                    counts = self.hits.get(os.path.realpath(full))
                except OSError:
                    counts = None
        self._by_name[name] = counts
        return counts

    # ---- 3.8-3.11: sys.settrace

    def _make_tracers(self):
        counts_for = self._counts_for

        windows = self._windows
        window_done = self._window_done
        # Line events cost most where the code loops: once every line of a code object has run,
        # its frames stop reporting lines (f_trace_lines) and its later calls are not traced, so
        # a count above 1 is a lower bound ("ran at least this often"); 0 stays exact.
        left_of = {}   # code -> its lines not run yet
        done = set()   # code objects whose lines all ran

        def line_tracer(counts):
            def local(frame, event, arg):
                if event == "line":
                    n = frame.f_lineno
                    counts[n] = counts.get(n, 0) + 1
                    code = frame.f_code
                    left = left_of.get(code)
                    if left is None:
                        left = left_of[code] = _lines_of(code)
                    if left:
                        left.discard(n)
                        if not left and code not in windows:
                            done.add(code)
                            frame.f_trace_lines = False
                elif event == "return" and frame.f_code in windows:
                    window_done(frame.f_code)
                return local
            return local

        def module_local(frame, event, arg):
            if event == "return":
                window_done(frame.f_code)
            return module_local

        locals_by_file = {}

        def call(frame, event, arg):
            if event != "call":
                return None
            code = frame.f_code
            if code in done:
                return None
            name = code.co_filename
            local = locals_by_file.get(name)
            if local is None:
                counts = counts_for(name)
                if counts is None:
                    return module_local if code in windows else None
                local = locals_by_file[name] = line_tracer(counts)
            return local
        return call

    def _start_settrace(self):
        import threading

        real_gettrace = sys.gettrace
        # The same counting in C when python_ctrace.c was built for this interpreter: a Python
        # trace function costs each Python call of the run a second Python call.
        c = _load_c_tracer(self._c_tracer_path)
        tracer = None
        if c is not None:
            try:
                tracer = c.Tracer(self._counts_for, _lines_of, self._windows, self._window_done)
                self._install = tracer.install
                self.c_tracer = True
            except Exception:
                tracer = None
        if tracer is None:
            tracer = self._make_tracers()
            real_settrace = sys.settrace
            self._install = lambda: real_settrace(tracer)
        real_tgettrace = getattr(threading, "gettrace", None)

        # Only gettrace is replaced, not settrace: a Python function the code calls to set or
        # clear its own hook would itself be seen by that hook (one call too many).
        def gettrace():
            t = real_gettrace()
            return None if t is tracer else t

        def tgettrace():
            t = real_tgettrace()
            return None if t is tracer else t

        for f, like in ((gettrace, real_gettrace), (tgettrace, real_tgettrace)):
            if like is not None:
                f.__name__, f.__qualname__, f.__doc__ = like.__name__, like.__name__, like.__doc__
        self._saved = (sys.settrace, real_gettrace, threading.settrace, real_tgettrace)
        self._tracer = tracer
        sys.gettrace = gettrace
        if real_tgettrace is not None:
            threading.gettrace = tgettrace
        # Threads the code starts are traced from their start.
        self._saved[2](tracer)
        # The import of a covered file (its module-level lines) is traced from the `exec` of its
        # code until its module frame returns: an audit hook, as no import machinery is touched.
        state = self

        def audit(event, args):
            if event == "exec" and state.active and args:
                code = args[0]
                if getattr(code, "co_name", None) == "<module>" and state._user_code(code.co_filename):
                    state._windows[code] = state._windows.get(code, 0) + 1
                    state.arm()

        sys.addaudithook(audit)

    # Windows: tracing costs every Python call a call of the trace function, so it is on only
    # while tests run (arm/disarm around each test, called by the runners) and while the module
    # code of the project's own files runs (their imports, with whatever they call then: a test
    # file's parametrize arguments, a package __init__ that calls into the file), from the
    # `exec` of that code until its module frame returns. pytest's and the libraries' own work
    # between tests (collection, assertion rewriting, reports) is not traced. Frames already running when it is armed are not traced: the runners arm
    # before the test's frames start.

    def arm(self):
        """Tracing on (before a test), unless code set its own hook. Also resumes counting after
        code cleared the hook (its own, greenlight's traced rerun)."""
        if not self.active or self._mode != "settrace":
            return
        if self._saved[1]() is None:
            self._install()

    def disarm(self):
        """Tracing off (after a test); a hook the code set stays."""
        if not self.active or self._mode != "settrace" or self._windows:
            return
        real_settrace, real_gettrace = self._saved[0], self._saved[1]
        if real_gettrace() is self._tracer:
            real_settrace(None)

    def _window_done(self, code):
        n = self._windows.get(code, 0) - 1
        if n > 0:
            self._windows[code] = n
            return
        self._windows.pop(code, None)
        if not self._windows and not self._in_test:
            self.disarm()

    def _user_code(self, filename):
        """A file of the project (not the standard library, an installed package or greenlight's
        own scripts): its module code is traced."""
        try:
            return self._user[filename]
        except KeyError:
            pass
        user = False
        if filename and not filename.startswith("<"):
            full = os.path.abspath(filename)
            user = self._counts_for(filename) is not None or (
                not full.startswith(self._system) and "-packages" + os.sep not in full and
                os.path.dirname(full) != self._own_dir)
        self._user[filename] = user
        return user

    def test_started(self):
        self._depth += 1
        self._in_test = True
        self.arm()

    def test_finished(self):
        self._depth = max(0, self._depth - 1)
        if self._depth == 0:
            self._in_test = False
            self.disarm()

    def _stop_settrace(self):
        import threading

        real_settrace, real_gettrace, real_tsettrace, real_tgettrace = self._saved
        if real_gettrace() is self._tracer:
            real_settrace(None)
        sys.gettrace = real_gettrace
        if real_tgettrace is not None:
            threading.gettrace = real_tgettrace
            if real_tgettrace() is self._tracer:
                real_tsettrace(None)

    # ---- 3.12+: sys.monitoring

    def _start_monitoring(self):
        mon = sys.monitoring
        tool = None
        for candidate in (mon.COVERAGE_ID, 4, 5):
            if mon.get_tool(candidate) is None:
                tool = candidate
                break
        if tool is None:
            return False
        mon.use_tool_id(tool, _TOOL_NAME)
        counts_for = self._counts_for
        events = mon.events

        def on_start(code, offset):
            counts = counts_for(code.co_filename)
            if counts is None:
                return mon.DISABLE
            mon.set_local_events(tool, code, events.LINE)
            return mon.DISABLE

        def on_line(code, line):
            counts = counts_for(code.co_filename)
            if counts is not None:
                counts[line] = counts.get(line, 0) + 1

        mon.register_callback(tool, events.PY_START, on_start)
        mon.register_callback(tool, events.LINE, on_line)
        mon.set_events(tool, events.PY_START)
        self._tool = tool
        return True

    def _stop_monitoring(self):
        mon = sys.monitoring
        mon.set_events(self._tool, 0)
        mon.register_callback(self._tool, mon.events.PY_START, None)
        mon.register_callback(self._tool, mon.events.LINE, None)
        mon.free_tool_id(self._tool)

    # ----

    def start(self):
        if self.active or not self.files:
            return
        if hasattr(sys, "monitoring"):
            if not self._start_monitoring():
                return
            self._mode = "monitoring"
        else:
            self.active = True
            self._start_settrace()
            self._mode = "settrace"
        self.active = True

    def stop(self):
        if not self.active:
            return
        self.active = False
        if self._mode == "monitoring":
            self._stop_monitoring()
        else:
            self._stop_settrace()

    def events(self):
        """The coverage events (EVENTS.md) for the covered files that compile."""
        out = []
        for path in sorted(self.files):
            analysed = _statements(path)
            if analysed is None:
                continue
            statements, first = analysed
            counts = self.hits.get(path, {})
            per = {s: 0 for s in statements}
            for line, n in counts.items():
                s = first.get(line, line)
                if s in per:
                    per[s] += n
            out.append({"ev": "coverage", "file": path, "lines": [[s, per[s]] for s in sorted(per)]})
        return out


def from_config(cfg):
    """A started Cover for the config's `cover` list (absolute paths), or None: coverage off, or
    nothing to cover."""
    files = cfg.get("cover") if isinstance(cfg, dict) else None
    if not isinstance(files, list) or not files:
        return None
    c_tracer = cfg.get("cover_tracer")
    cover = Cover([f for f in files if isinstance(f, str)], c_tracer if isinstance(c_tracer, str) else None)
    try:
        cover.start()
    except Exception:
        return None
    return cover if cover.active else None


def test_started(cover):
    """Before each test (its setup included): counting on; never raises."""
    if cover is None:
        return
    try:
        cover.test_started()
    except Exception:
        pass


def test_finished(cover):
    """After each test (its teardown included): counting off; never raises."""
    if cover is None:
        return
    try:
        cover.test_finished()
    except Exception:
        pass


def finish(cover, emit):
    """Stops `cover` and sends its events through `emit`; never raises."""
    if cover is None:
        return
    try:
        cover.stop()
        for e in cover.events():
            emit(e)
    except Exception:
        pass
")GLPY"
