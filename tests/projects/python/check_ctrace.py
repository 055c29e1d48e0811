#!/usr/bin/env python3
"""python_cover.py's C tracer (python_ctrace.c.inc) against its Python tracer, and in real runs.

    check_ctrace.py --greenlight BIN

1. same:  scenarios run under Cover with the C tracer and with the Python tracer (each in its own
          interpreter) give the same statements and the same lines run, and what the code sees is
          the same: sys.gettrace() answers None, a hook the code sets gets its own events, threads
          started in a test are counted, an import of the covered file is counted, generators,
          closures, lambdas, exceptions, recursion.
2. used:  `greenlight run` of a pytest project, of a unittest project and of a project without a
          runner (the built-in harness) counts with the C tracer (a test asks the runner's Cover
          and fails when it counts in Python), reports the module's coverage, and builds the
          tracer once per interpreter into XDG_CACHE_HOME.

Exit 0: all hold; 1: a difference (printed); 77: no C compiler or Python headers here.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "..", "..", "..", "server", "core", "testing", "harness")
PYTHON = "/usr/bin/python3"
SKIP = 77


def unwrap(path, opener, closer):
    """The file's text without its C++ raw-string wrapper lines (as Harnesses.cpp's unwrap)."""
    lines = open(path, encoding="utf-8").read().splitlines(keepends=True)
    first = next(i for i, l in enumerate(lines) if opener in l)
    last = max(i for i, l in enumerate(lines) if closer in l)
    return "".join(lines[first + 1:last])


def build(work):
    include = subprocess.run([PYTHON, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
                             stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc or not os.path.isfile(os.path.join(include, "Python.h")):
        return None
    source = os.path.join(work, "ctrace.c")
    with open(source, "w", encoding="utf-8") as f:
        f.write(unwrap(os.path.join(HARNESS, "python_ctrace.c.inc"), "*/", "/*"))
    shared = os.path.join(work, "_greenlight_ctrace.so")
    r = subprocess.run([cc, "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-I", include, "-o", shared,
                        source], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        print(r.stdout.decode(errors="replace"))
        raise SystemExit("FAIL: python_ctrace.c does not build warning-free")
    return shared


COVERED = '''\
import sys
TOP = [i * 2 for i in range(3)]


def branchy(x):
    if x > 0:
        return "pos"
    elif x < 0:
        return "neg"
    return "zero"


def gen(n):
    for i in range(n):
        if i % 2:
            yield i
    yield -1


def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def closure(k):
    def inner(v):
        return v + k
    return inner


def raises(flag):
    try:
        if flag:
            raise ValueError("x")
        return 1
    except ValueError:
        return 2
    finally:
        pass


class Box:
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v

    def never(self):
        return -self.v


def threaded():
    return "in thread"


key = lambda v: -v  # noqa: E731


def unused(a):
    b = a + 1
    return b
'''

SCENARIO = '''\
import json, os, sys, threading
sys.path[:0] = [sys.argv[2], sys.argv[3]]
import _greenlight_cover as glc
mode, work = sys.argv[1], sys.argv[3]
covered = os.path.join(work, "covered.py")
cov = glc.Cover([covered], os.path.join(work, "_greenlight_ctrace.so") if mode == "c" else None)
cov.start()
seen = {"c_tracer": cov.c_tracer, "gettrace": [], "own_events": 0, "thread": None}

glc.test_started(cov)  # the import, inside a test window (as a test file's import would be)
import covered as m
seen["gettrace"].append(repr(sys.gettrace()))
m.branchy(1); m.branchy(-1)
list(m.gen(5)); m.fact(6); m.closure(2)(3); m.raises(True); m.raises(False)
m.Box(3).get(); sorted([3, 1, 2], key=m.key)
out = []
t = threading.Thread(target=lambda: out.append(m.threaded())); t.start(); t.join()
seen["thread"] = out
glc.test_finished(cov)

glc.test_started(cov)  # the code's own hook: it sees its events; counting resumes after it
def own(frame, event, arg):
    if frame.f_code.co_filename == covered:
        seen["own_events"] += 1
    return own
sys.settrace(own)
seen["gettrace"].append(sys.gettrace() is own)
m.branchy(0)
sys.settrace(None)
seen["gettrace"].append(repr(sys.gettrace()))
glc.test_finished(cov)

glc.test_started(cov)
m.unused(1)  # counted again after the code's hook was cleared (next window)
glc.test_finished(cov)
m.Box(1).never()  # outside any window: not counted
events = []
glc.finish(cov, events.append)
print(json.dumps({"seen": seen, "events": events}))
'''


def run_scenario(mode, work):
    r = subprocess.run([PYTHON, os.path.join(work, "scenario.py"), mode, os.path.join(work, "gl"), work],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if r.returncode != 0:
        raise SystemExit(f"FAIL: the {mode} scenario exited {r.returncode}: {r.stderr.decode(errors='replace')}")
    return json.loads(r.stdout.decode())


def check_same(work):
    problems = []
    os.makedirs(os.path.join(work, "gl"))
    with open(os.path.join(work, "gl", "_greenlight_cover.py"), "w", encoding="utf-8") as f:
        f.write(unwrap(os.path.join(HARNESS, "python_cover.py"), 'R"GLPY(', ')GLPY"'))
    with open(os.path.join(work, "covered.py"), "w", encoding="utf-8") as f:
        f.write(COVERED)
    with open(os.path.join(work, "scenario.py"), "w", encoding="utf-8") as f:
        f.write(SCENARIO)
    py, c = run_scenario("py", work), run_scenario("c", work)
    if py["seen"]["c_tracer"] or not c["seen"]["c_tracer"]:
        problems.append(f"tracer kinds: python run c_tracer={py['seen']['c_tracer']}, "
                        f"C run c_tracer={c['seen']['c_tracer']}")
    for k in ("gettrace", "own_events", "thread"):
        if py["seen"][k] != c["seen"][k]:
            problems.append(f"what the code sees differs in {k}: python {py['seen'][k]} vs C {c['seen'][k]}")
    if c["seen"]["gettrace"] != ["None", True, "None"] or c["seen"]["own_events"] == 0:
        problems.append(f"under the C tracer the code saw {c['seen']}")

    def lines(result):
        (event,) = result["events"]
        return {line for line, _ in event["lines"]}, {line for line, n in event["lines"] if n > 0}

    (py_all, py_run), (c_all, c_run) = lines(py), lines(c)
    if py_all != c_all:
        problems.append(f"statements differ: only python {sorted(py_all - c_all)}, only C {sorted(c_all - py_all)}")
    if py_run != c_run:
        problems.append(f"lines run differ: only python {sorted(py_run - c_run)}, only C {sorted(c_run - py_run)}")
    text = COVERED.splitlines()
    must_run = {i for i, t in enumerate(text, 1) if t.strip() in (
        'return "in thread"', "b = a + 1", 'raise ValueError("x")', "TOP = [i * 2 for i in range(3)]")}
    # run outside any test, or while the code's own hook replaced the tracer (as coverage.py's)
    must_not = {i for i, t in enumerate(text, 1) if t.strip() in ("return -self.v", 'return "zero"')}
    if not must_run <= c_run or c_run & must_not:
        problems.append(f"C tracer: lines {sorted(must_run - c_run)} not counted, {sorted(c_run & must_not)} counted "
                        "though run outside any test or under the code's own hook")
    print(f"same: {len(c_all)} statements, {len(c_run)} run under both tracers" if not problems else "same: differ")
    return problems


PROJECT_TEST = '''\
{imports}
import calc


def _tracer_kind():
    {probe}
    return "c" if cover is not None and cover.c_tracer else "python"


{test}
'''


def project(root, kind):
    os.makedirs(root)
    with open(os.path.join(root, "calc.py"), "w", encoding="utf-8") as f:
        f.write("def double(x):\n    if x < 0:\n        return 0\n    return 2 * x\n")
    probes = {
        "pytest": "import _greenlight_pytest\n    cover = _greenlight_pytest._S.cover",
        "unittest": "import sys\n    cover = sys.modules['__main__']._COVER[0]",
        "harness": "import sys\n    cover = sys.modules['__main__']._COVER[0].started",
    }
    if kind == "unittest":
        test = ("class TestCalc(unittest.TestCase):\n    def test_double(self):\n"
                "        self.assertEqual(calc.double(2), 4)\n        self.assertEqual(_tracer_kind(), 'c')\n")
        imports = "import unittest"
    else:
        test = "def test_double():\n    assert calc.double(2) == 4\n    assert _tracer_kind() == 'c'\n"
        imports = ""
    with open(os.path.join(root, "test_calc.py"), "w", encoding="utf-8") as f:
        f.write(PROJECT_TEST.format(imports=imports, probe=probes[kind], test=test))
    if kind == "pytest":
        with open(os.path.join(root, "pytest.ini"), "w", encoding="utf-8") as f:
            f.write("[pytest]\n")
    with open(os.path.join(root, ".greenlight.json"), "w", encoding="utf-8") as f:
        json.dump({"python": {"interpreter": PYTHON}}, f)


def check_used(greenlight, work):
    problems = []
    cache = os.path.join(work, "cache")
    for kind in ("pytest", "unittest", "harness"):
        root = os.path.join(work, kind)
        project(root, kind)
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        env.pop("GREENLIGHT_COVERAGE", None)
        r = subprocess.run([greenlight, "run", "calc.py", "--json"], cwd=root, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=600)
        try:
            result = json.loads(r.stdout.decode())
        except ValueError:
            problems.append(f"{kind}: no JSON from greenlight run: {r.stderr.decode(errors='replace')[-800:]}")
            continue
        tests = result.get("tests", [])
        failed = [t for t in tests if t.get("status") != "passed"]
        if not tests or failed:
            problems.append(f"{kind}: expected the test to pass with the C tracer: {json.dumps(tests)[:1200]}")
        cov = result.get("coverage") or []
        if not any(os.path.basename(c.get("file", "")) == "calc.py" for c in cov):
            problems.append(f"{kind}: no coverage of calc.py: {json.dumps(result)[:600]}")
        print(f"used: {kind}: {len(tests)} test(s), {'passed' if not failed and tests else 'FAILED'}")
    built = [f for f in os.listdir(os.path.join(cache, "greenlight")) if f.startswith("python-ctrace-")] \
        if os.path.isdir(os.path.join(cache, "greenlight")) else []
    if len(built) != 1:
        problems.append(f"expected one cached python-ctrace build for one interpreter, found {built}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--greenlight", required=True)
    args = ap.parse_args()
    if sys.version_info >= (3, 12) or not os.path.exists(PYTHON):
        print("SKIP: the C tracer is for CPython 3.8-3.11")
        return SKIP
    work = tempfile.mkdtemp(prefix="gl-ctrace-")
    os.chmod(work, 0o755)
    try:
        if build(work) is None:
            print("SKIP: no C compiler or no Python headers for " + PYTHON)
            return SKIP
        problems = check_same(work) + check_used(os.path.abspath(args.greenlight), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for p in problems:
        print("FAIL: " + p)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
