#!/usr/bin/env python3
"""Real Python projects against greenlight's runner-side scripts, test id by test id.

    run_project.py prepare PROJECT [--out DIR]   materialize the project (and its venv)
    run_project.py truth   PROJECT [--out DIR]   the runner's own verdict (JUnit XML / JSON)
    run_project.py check   PROJECT [--out DIR] [--per-file] [--warm]
        greenlight's events (pytest -p greenlight_pytest / python -m greenlight_unittest)
        against the runner's verdict on the whole project and, with --per-file, on each test
        file run on its own; --warm runs greenlight's side through python_warm.py as a warm
        spare would and also requires its output to equal the cold run's
    run_project.py bugs    PROJECT [--out DIR] [--record]
        each injected bug of PROJECT/bugs.json (a one-line edit): greenlight must report
        exactly the listed ids failing (--record: run the runner itself and write the lists)
    run_project.py all     PROJECT ...           prepare, truth, check --per-file, bugs

PROJECT is a directory beside this script holding project.json:
  {"runner": "pytest" | "unittest",
   "args": [...],                   the runner's arguments (after `python -m pytest` / `-m unittest`)
   "install": "editable-venv",      optional: `python3 -m venv --system-site-packages` and
                                    `pip install -e . --no-deps --no-build-isolation` (offline)
   "debian": {"package": "python3-toolz", "version": "0.12.0-1", "copy": ["toolz"]}
                                    optional: the project is that installed Debian package's
                                    files (with its own test suite), copied from dist-packages
                                    at exactly that version (else exit 77: skipped)
  }
and, unless it is a Debian package, the project's files beside it. Everything runs on a copy
under --out (default /tmp/gl-python-projects): the sources here are never written.

Exit status: 0 all agree, 1 a disagreement (each printed), 77 the project cannot be set up
here (a Debian package missing or at another version), 2 usage.
"""
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_events  # noqa: E402
import gl_stage  # noqa: E402

SYSTEM_PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3")
SKIP = 77


class Skip(Exception):
    pass


def load(name):
    with open(os.path.join(HERE, name, "project.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    cfg["name"] = name
    return cfg


def paths(cfg, out):
    base = os.path.join(out, cfg["name"])
    return {"base": base, "root": os.path.join(base, "project"), "venv": os.path.join(base, "venv"),
            "gl": os.path.join(base, "gl"), "cache": os.path.join(base, "pytest_cache")}


def python_of(cfg, p):
    if cfg.get("install") == "editable-venv":
        return os.path.join(p["venv"], "bin", "python")
    return SYSTEM_PYTHON


def run(argv, cwd, env=None, timeout=900):
    full = dict(os.environ)
    for key in ("PYTHONPATH", "GREENLIGHT_CONFIG", "PYTEST_ADDOPTS", "PYTEST_PLUGINS"):
        full.pop(key, None)
    full.update(env or {})
    return subprocess.run(argv, cwd=cwd, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout)


# ---------------------------------------------------------------------------------------------


def prepare(cfg, out):
    p = paths(cfg, out)
    shutil.rmtree(p["base"], ignore_errors=True)
    os.makedirs(p["base"])
    deb = cfg.get("debian")
    if deb:
        got = subprocess.run(["dpkg-query", "-W", "-f=${Version}", deb["package"]],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if got.returncode != 0 or got.stdout.strip() != deb["version"]:
            raise Skip("%s %s is not installed (have: %s); scripts/deps.sh installs it" % (
                deb["package"], deb["version"], got.stdout.strip() or "none"))
        os.makedirs(p["root"])
        site = deb.get("site", "/usr/lib/python3/dist-packages")
        for item in deb["copy"]:
            shutil.copytree(os.path.join(site, item), os.path.join(p["root"], item),
                            ignore=shutil.ignore_patterns("__pycache__"))
        for name, text in (deb.get("files") or {}).items():
            with open(os.path.join(p["root"], name), "w", encoding="utf-8") as f:
                f.write(text)
    else:
        shutil.copytree(os.path.join(HERE, cfg["name"]), p["root"],
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "project.json",
                                                      "bugs.json", ".pytest_cache"))
    if cfg.get("install") == "editable-venv":
        r = run([SYSTEM_PYTHON, "-m", "venv", "--system-site-packages", "--without-pip", p["venv"]], p["base"])
        if r.returncode != 0:
            raise Skip("python3 -m venv failed (python3-venv): %s" % r.stderr.decode(errors="replace"))
        # The system's pip (python3-pip) installs into the venv it runs in; no index, no build
        # isolation: the build backend (setuptools, wheel) is the system's too.
        r = run([python_of(cfg, p), "-m", "pip", "install", "--no-index", "--no-deps",
                 "--no-build-isolation", "--disable-pip-version-check", "-q", "-e", p["root"]], p["base"])
        if r.returncode != 0:
            raise Skip("pip install -e failed (python3-pip, python3-setuptools, python3-wheel): %s"
                       % r.stderr.decode(errors="replace")[-2000:])
    gl_stage.stage(p["gl"])
    return p


def truth(cfg, out, extra=None):
    """The runner's own verdict: (path of the verdict file, its kind)."""
    p = paths(cfg, out)
    python = python_of(cfg, p)
    args = list(extra if extra is not None else cfg.get("args", []))
    if cfg["runner"] == "pytest":
        xml = os.path.join(p["base"], "truth.xml")
        r = run([python, "-m", "pytest", "-o", "cache_dir=" + p["cache"], "--junitxml=" + xml, "-q"] + args,
                p["root"])
        if not os.path.exists(xml):
            raise RuntimeError("pytest wrote no JUnit XML (exit %d):\n%s" % (
                r.returncode, r.stdout.decode(errors="replace")[-3000:]))
        return xml, "--junit"
    verdict = os.path.join(p["base"], "truth.json")
    r = run([python, os.path.join(HERE, "truth_unittest.py"), verdict] + args, p["root"])
    if not os.path.exists(verdict):
        raise RuntimeError("truth_unittest.py failed (exit %d):\n%s" % (
            r.returncode, r.stderr.decode(errors="replace")[-3000:]))
    return verdict, "--unittest"


def greenlight_argv(cfg, p, args, warm=False):
    python = python_of(cfg, p)
    if cfg["runner"] == "pytest":
        argv = [python, "-B", "-m", "pytest", "-p", "greenlight_pytest", "-o", "cache_dir=" + p["cache"]] + args
    else:
        argv = [python, "-B", "-m", "greenlight_unittest"] + args
    return argv


def greenlight(cfg, out, args=None, warm=False, config=None):
    """greenlight's side: the run's stdout (events among the output), stderr, exit status."""
    p = paths(cfg, out)
    args = list(cfg.get("args", []) if args is None else args)
    conf = os.path.join(p["base"], "config.json")
    with open(conf, "w", encoding="utf-8") as f:
        json.dump(config or {"budget": 600}, f)
    env = {"PYTHONPATH": p["gl"], "GREENLIGHT_CONFIG": conf, "PYTHONDONTWRITEBYTECODE": "1"}
    argv = greenlight_argv(cfg, p, args)
    if warm:
        boot = ["pytest"] if cfg["runner"] == "pytest" else []
        argv = [SYSTEM_PYTHON, os.path.join(HERE, "warm_run.py"), "--gl", p["gl"], "--"] + boot + ["--"] + argv
    r = run(argv, p["root"], env)
    return r.stdout, r.stderr, r.returncode


def compare(events_out, verdict, kind, label, restrict=None, only_file=None, instrumented_only=()):
    """check_events over one run; restrict: keep only the verdict's ids of these files;
    instrumented_only: ids that fail under greenlight's runner-side scripts by design (project.json:
    only the binary's plain rerun reports them as the runner does), not problems here."""
    base = os.path.dirname(verdict)
    ev = os.path.join(base, "events-%s.out" % label.replace("/", "_"))
    with open(ev, "wb") as f:
        f.write(events_out)
    args = [ev, kind, verdict, "--json"]
    if only_file is not None:
        args += ["--only-file", only_file]
    if restrict is not None:
        sub = os.path.join(base, "truth-%s%s" % (label.replace("/", "_"), os.path.splitext(verdict)[1]))
        restrict_verdict(verdict, kind, restrict, sub)
        args[2] = sub
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = check_events.main(args)
    report = json.loads(buf.getvalue()) if buf.getvalue().strip().startswith("{") else {"problems": [buf.getvalue()]}
    expected = ["%s: greenlight failed, runner passed" % i for i in instrumented_only]
    if instrumented_only and report.get("problems"):
        report["problems"] = [x for x in report["problems"] if x not in expected]
        if not report["problems"]:
            code = 0
    return code, report


def restrict_verdict(verdict, kind, files, dest):
    """The part of a verdict about the given test files (pytest ids: file::...)."""
    if kind == "--junit":
        import xml.etree.ElementTree as ET

        tree = ET.parse(verdict)
        for suite in tree.iter("testsuite"):
            for tc in list(suite):
                if tc.tag != "testcase":
                    continue
                classname = tc.get("classname") or ""
                name = tc.get("name") or ""
                dotted = (classname + "." + name) if classname else name
                if not any(dotted == f or dotted.startswith(f + ".") for f in files):
                    suite.remove(tc)
        tree.write(dest)
    else:
        with open(verdict, encoding="utf-8") as f:
            data = json.load(f)
        data["tests"] = {k: v for k, v in data["tests"].items()
                         if any(k == f or k.startswith(f + ".") for f in files)}
        with open(dest, "w", encoding="utf-8") as f:
            json.dump(data, f)


def pytest_files(events):
    """The files (relative) of every result in a whole-project run."""
    files = set()
    for e in check_events.read_events_bytes(events):
        if e.get("ev") == "result" and e.get("outcome") != "notrun":
            files.add(e["id"].split("::", 1)[0])
    return sorted(files)


def check(cfg, out, per_file=False, warm=False):
    gl_stage.stage(paths(cfg, out)["gl"])  # the scripts as they are now
    verdict, kind = truth(cfg, out)
    problems = []
    stdout, stderr, code = greenlight(cfg, out)
    rc, report = compare(stdout, verdict, kind, "all", instrumented_only=cfg.get("instrumented_only", ()))
    counted = sum(s["agree"] + s["disagree"] for s in report.get("files", {}).values())
    print("%s: whole run: %d ids, %d files, %d problems (exit %d)" % (
        cfg["name"], counted, len(report.get("files", {})), len(report.get("problems", [])), code))
    problems += ["whole run: " + x for x in report.get("problems", [])]
    if not counted:
        problems.append("whole run: no test ids at all:\n" + stderr.decode(errors="replace")[-2000:])
    if warm:
        wout, werr, wcode = greenlight(cfg, out, warm=True)
        if normalize(wout) != normalize(stdout) or wcode != code:
            problems.append("warm run differs from the cold run (exit %d vs %d):\n%s" % (
                wcode, code, first_difference(normalize(stdout), normalize(wout))))
        else:
            print("%s: warm run equals the cold run" % cfg["name"])
    if per_file and cfg["runner"] == "pytest":
        for rel in pytest_files(stdout):
            fout, ferr, fcode = greenlight(cfg, out, args=file_args(cfg, rel))
            dotted = rel[:-3].replace("/", ".") if rel.endswith(".py") else rel.replace("/", ".")
            rc, report = compare(fout, verdict, kind, rel, restrict=[dotted], only_file=rel,
                                 instrumented_only=cfg.get("instrumented_only", ()))
            n = sum(s["agree"] + s["disagree"] for s in report.get("files", {}).values())
            print("  %-55s %4d ids %s" % (rel, n, "ok" if rc == 0 else "DISAGREE"))
            problems += ["%s alone: %s" % (rel, x) for x in report.get("problems", [])]
    elif per_file:
        with open(verdict, encoding="utf-8") as f:
            truth_ids = json.load(f)["tests"]
        import re

        for module in unittest_modules(stdout, paths(cfg, out)["root"]):
            fout, ferr, fcode = greenlight(cfg, out, args=[module])
            got = {}
            for e in check_events.read_events_bytes(fout):
                if e.get("ev") == "result" and e.get("outcome") != "notrun":
                    ident = re.sub(r" \[\d+\]$", "", e["id"])  # a test a suite holds twice
                    outcome = check_events.event_outcome(e)
                    got[ident] = check_events.combine([got[ident], outcome]) if ident in got else outcome
            allowed = set(cfg.get("instrumented_only", ()))
            mine = ["%s: greenlight %s, unittest %s" % (i, o, truth_ids.get(i)) for i, o in sorted(got.items())
                    if truth_ids.get(i) != o and not (i in allowed and o == "failed" and truth_ids.get(i) == "passed")]
            mine += ["%s: unittest ran it, greenlight did not" % i for i in sorted(truth_ids)
                     if i.startswith(module + ".") and i not in got]
            print("  %-55s %4d ids %s" % (module, len(got), "ok" if not mine else "DISAGREE"))
            problems += ["%s alone: %s" % (module, x) for x in mine]
    return problems


def file_args(cfg, rel):
    """The project's args with the test paths replaced by one file (options kept)."""
    keep = []
    skip_next = False
    for a in cfg.get("args", []):
        if skip_next:
            keep.append(a)
            skip_next = False
            continue
        if a.startswith("-"):
            keep.append(a)
            skip_next = a in ("-p", "-m", "-k", "-o", "--rootdir", "-c")
            continue
    return keep + [rel]


def unittest_modules(events, root):
    """The modules (dotted, relative to the project root) that hold a whole run's tests."""
    mods = set()
    for e in check_events.read_events_bytes(events):
        if e.get("ev") != "result" or e.get("outcome") == "notrun" or e.get("status") == "error":
            continue
        rel = os.path.relpath(e.get("file") or "", root)
        if rel.startswith("..") or not rel.endswith(".py"):
            continue
        dotted = rel[:-3].replace(os.sep, ".")
        if dotted.endswith(".__init__"):
            dotted = dotted[:-len(".__init__")]
        # A TestCase's parent is module.Class; a doctest's is the module it documents, which
        # runs only through the test module whose load_tests adds it.
        if e["id"].startswith(dotted + ".") and str(e.get("parent", "")).startswith(dotted + "."):
            mods.add(dotted)
    return sorted(mods)


def normalize(data):
    """A run's output without what differs between any two runs (durations, addresses)."""
    import re

    text = data.decode("utf-8", "replace")
    text = re.sub(r'"duration_ms": [0-9.e-]+', '"duration_ms": 0', text)
    text = re.sub(r"\bin [0-9.]+s\b", "in Ns", text)
    text = re.sub(r"0x[0-9a-f]{6,}", "0x?", text)
    text = re.sub(r"/tmp/pytest-of-[^/]+/pytest-\d+", "/tmp/pytest-of-U/pytest-N", text)
    return text


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "line %d:\n  cold: %s\n  warm: %s" % (i + 1, x[:300], y[:300])
    return "lengths differ: %d vs %d lines" % (len(la), len(lb))


# ---------------------------------------------------------------------------------------------


def load_bugs(name):
    path = os.path.join(HERE, name, "bugs.json")
    if not os.path.exists(path):
        return path, []
    with open(path, encoding="utf-8") as f:
        return path, json.load(f)


def apply(root, bug):
    path = os.path.join(root, bug["file"])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(bug["find"]) != 1:
        raise RuntimeError("bug %s: %r occurs %d times in %s" % (bug["id"], bug["find"], text.count(bug["find"]), bug["file"]))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(bug["find"], bug["replace"]))
    return path, text


def failing_ids(events_out):
    """The failing ids; "id [2]" (a test a unittest suite holds twice) counts as id."""
    import re

    out = set()
    for e in check_events.read_events_bytes(events_out):
        if e.get("ev") == "result" and e.get("status") in ("failed", "error", "timeout"):
            out.add(re.sub(r" \[\d+\]$", "", e["id"]))
    return out


def truth_failing(verdict, kind):
    if kind == "--junit":
        import xml.etree.ElementTree as ET

        out = set()
        for tc in ET.parse(verdict).iter("testcase"):
            if any(c.tag in ("failure", "error") for c in tc):
                out.add((tc.get("classname") or "", tc.get("name") or ""))
        return out
    with open(verdict, encoding="utf-8") as f:
        return {k for k, v in json.load(f)["tests"].items() if v in ("failed", "error")}


def bugs(cfg, out, record=False):
    path, bug_list = load_bugs(cfg["name"])
    p = paths(cfg, out)
    gl_stage.stage(p["gl"])
    problems = []
    baseline = failing_ids(greenlight(cfg, out)[0])
    for bug in bug_list:
        file, original = apply(p["root"], bug)
        try:
            stdout, stderr, code = greenlight(cfg, out)
            got = failing_ids(stdout) - baseline
            if record:
                verdict, kind = truth(cfg, out)
                truth_set = truth_failing(verdict, kind)
                ids = sorted(i for i in failing_ids(stdout)
                             if (check_events.mangle(i) if kind == "--junit" else i) in truth_set)
                bug["fails"] = sorted(set(ids) - baseline)
                if set(bug["fails"]) != got:
                    problems.append("bug %s: the runner and greenlight disagree on what fails: %s" % (
                        bug["id"], sorted(set(bug["fails"]) ^ got)))
            want = set(bug.get("fails", []))
            if not got:
                problems.append("bug %s: GREEN, nothing failed (exit %d)" % (bug["id"], code))
            elif got != want:
                problems.append("bug %s: greenlight fails %d ids, expected %d: extra %s, missing %s" % (
                    bug["id"], len(got), len(want), sorted(got - want)[:5], sorted(want - got)[:5]))
            print("  bug %-32s %3d failing %s" % (bug["id"], len(got), "ok" if got == want and got else "WRONG"))
        finally:
            with open(file, "w", encoding="utf-8") as f:
                f.write(original)
    if record:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(bug_list, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return problems


def main(argv):
    if len(argv) < 2 or argv[0] not in ("prepare", "truth", "check", "bugs", "all"):
        print(__doc__, file=sys.stderr)
        return 2
    command, name = argv[0], argv[1]
    out = argv[argv.index("--out") + 1] if "--out" in argv else os.environ.get(
        "GL_PYTHON_PROJECTS_OUT", "/tmp/gl-python-projects")
    cfg = load(name)
    t0 = time.monotonic()
    try:
        problems = []
        if command in ("prepare", "all") or not os.path.exists(paths(cfg, out)["root"]):
            prepare(cfg, out)
        if command == "truth":
            print(truth(cfg, out)[0])
        if command in ("check", "all"):
            problems += check(cfg, out, per_file="--per-file" in argv or command == "all",
                              warm="--warm" in argv)
        if command in ("bugs", "all"):
            problems += bugs(cfg, out, record="--record" in argv)
    except Skip as e:
        print("%s: skipped: %s" % (name, e))
        return SKIP
    for p in problems:
        print("PROBLEM " + p)
    print("%s: %s in %.1f s" % (name, "FAILED" if problems else "ok", time.monotonic() - t0))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
