#!/usr/bin/env python3
"""greenlight itself (`greenlight run FILE --json`, `greenlight generate`) on a real project,
against the project's own runner, test id by test id.

    check_greenlight.py PROJECT --greenlight BIN [--out DIR] [--skip-bugs] [--skip-generate]

1. files:    for every test file of the project, `greenlight run FILE --json` must give each test
             the outcome the runner gives it (pytest's JUnit XML for the whole project, or
             unittest's own outcomes), and name every id of that file; for every source module,
             each result greenlight reports must be the runner's too.
2. bugs:     each injected bug of PROJECT/bugs.json (a one-line edit): running the test files of
             the ids the runner fails must show exactly those ids failing, never green; running
             the edited file itself is never green either (and with "from_source": "fails" fails
             those ids: its tests are the tests that load it, not a name match on another module).
3. generate: (pytest projects installed editable) a function of the package is turned into a
             stub; `greenlight generate --apply` with a scripted model that answers the original
             code must pass and write it back: the tests import the candidate through the venv's
             editable install, never the stub on disk.

Exit 0: all agree; 1: a disagreement (printed); 77: the project cannot be set up here.
"""
import argparse
import ast
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_events  # noqa: E402
import run_project  # noqa: E402

SKIP = 77
FAKES = os.path.join(HERE, "..", "..", "fakes", "scripted_model.py")


def outcome_of(test):
    """A greenlight --json test as the runner's word for it."""
    status, outcome = test["status"], test.get("outcome")
    if status == "failed":
        return "failed"
    if status in ("error", "timeout"):
        return "error"
    if status == "skipped":
        return "xfailed" if outcome == "xfailed" else ("notrun" if outcome == "notrun" else "skipped")
    return "passed"


def truth_map(verdict, kind):
    """id -> outcome; pytest ids as JUnit writes them ((classname, name)), unittest ids as is."""
    if kind == "--junit":
        return check_events.junit_outcomes(verdict)
    with open(verdict, encoding="utf-8") as f:
        return dict(json.load(f)["tests"])


def key_of(test_id, kind):
    if kind == "--junit":
        return check_events.mangle(test_id)
    return re.sub(r" \[\d+\]$", "", test_id)


def run_greenlight(bin_, root, rel, env):
    r = subprocess.run([bin_, "run", rel, "--json"], cwd=root, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=900)
    try:
        return json.loads(r.stdout.decode("utf-8")), r.returncode, r.stderr.decode(errors="replace")
    except ValueError:
        return None, r.returncode, r.stderr.decode(errors="replace") + r.stdout.decode(errors="replace")[-2000:]


def file_of(test_id, kind):
    if kind == "--junit":
        return test_id.split("::", 1)[0]
    return None


def test_files(root, cfg):
    """The project's test files (relative), by its runner's patterns."""
    pattern = re.compile(r"^(test_.*|.*_test|check_.*)\.py$")
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("__pycache__", "venv")]
        for name in filenames:
            if pattern.match(name):
                out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(out)


PLAIN_NOTE = "passed when rerun plain"


def instrumented_only(cfg, rel, result, problems):
    """Tests greenlight reported passed only after rerunning them plain (they failed under its
    instrumentation): right only for the ids project.json lists under "instrumented_only" (tests
    written to fail under any plugin); any other means the instrumentation changed an outcome."""
    allowed = set(cfg.get("instrumented_only", []))
    for t in result["tests"]:
        if t["status"] == "passed" and t.get("message", "").startswith(PLAIN_NOTE) and t.get("id") not in allowed:
            problems.append("%s: %s failed only under greenlight's instrumentation (rescued by the plain rerun): %s"
                            % (rel, t.get("id"), t.get("message", "")[:300]))


def check_files(cfg, p, bin_, env, verdict, kind):
    problems = []
    truth = truth_map(verdict, kind)
    checked = 0
    ids_seen = set()
    for rel in test_files(p["root"], cfg):
        result, code, err = run_greenlight(bin_, p["root"], rel, env)
        if result is None:
            problems.append("%s: greenlight printed no JSON (exit %d): %s" % (rel, code, err[-800:]))
            continue
        instrumented_only(cfg, rel, result, problems)
        got = {}
        for t in result["tests"]:
            if "id" not in t:
                problems.append("%s: a result without the runner's id: %s" % (rel, t.get("name")))
                continue
            o = outcome_of(t)
            if o == "notrun":
                # Listed as not run, with its reason: right when the runner did not run it either.
                if key_of(t["id"], kind) in truth:
                    problems.append("%s: %s did not run (%s), the runner ran it" % (rel, t["id"], t.get("message")))
                continue
            got[key_of(t["id"], kind)] = o
        ids_seen.update(got)
        # The runner's ids of this file (pytest: by path; unittest: by module name).
        if kind == "--junit":
            mod = re.sub(r"\.py$", "", rel.replace("/", "."))
            # (a collection error is ("", "dotted.module"))
            want = {k: v for k, v in truth.items() if k[0] == mod or k[0].startswith(mod + ".") or k == ("", mod)}
        else:
            mod = re.sub(r"\.py$", "", rel.replace("/", "."))
            want = {k: v for k, v in truth.items() if k == mod or k.startswith(mod + ".")}
        for k, v in sorted(want.items()):
            if k not in got:
                problems.append("%s: %s: the runner says %s, greenlight did not report it" % (rel, k, v))
            elif got[k] != v:
                problems.append("%s: %s: the runner says %s, greenlight says %s" % (rel, k, v, got[k]))
        for k in sorted(set(got) - set(want)):
            if k in truth and truth[k] != got[k]:
                problems.append("%s: %s: the runner says %s, greenlight says %s" % (rel, k, truth[k], got[k]))
            elif k not in truth:
                problems.append("%s: %s: greenlight reports a test the runner does not have" % (rel, k))
        summary = result["summary"]
        ran = summary["passed"] + summary["failed"] + summary["errors"]
        if ran == 0 and any(v not in ("skipped", "xfailed") for v in want.values()):
            problems.append("%s: no test ran (exit %d)" % (rel, code))
        verdicts = list(want.values()) + [truth[k] for k in got if k in truth and k not in want]
        expected_exit = 1 if any(v in ("failed", "error") for v in verdicts) else (0 if ran else 3)
        if code != expected_exit:
            problems.append("%s: exit %d, expected %d" % (rel, code, expected_exit))
        checked += 1
        print("  %-48s %3d ids %s" % (rel, len(got), "ok" if not problems else ""))
    # Source modules: what greenlight runs for them (their tests, their doctests) must agree too.
    for rel in source_files(p["root"], cfg):
        result, code, err = run_greenlight(bin_, p["root"], rel, env)
        if result is None:
            if code != 3:
                problems.append("%s: greenlight printed no JSON (exit %d): %s" % (rel, code, err[-800:]))
            continue
        instrumented_only(cfg, rel, result, problems)
        n = 0
        for t in result["tests"]:
            if "id" not in t or outcome_of(t) == "notrun":
                continue
            k = key_of(t["id"], kind)
            n += 1
            ids_seen.add(k)
            if k not in truth:
                problems.append("%s: %s: greenlight reports a test the runner does not have" % (rel, k))
            elif truth[k] != outcome_of(t):
                problems.append("%s: %s: the runner says %s, greenlight says %s" % (rel, k, truth[k], outcome_of(t)))
        print("  %-48s %3d ids (its tests and doctests)" % (rel, n))
    print("  %d test files, %d ids checked of the runner's %d" % (checked, len(ids_seen), len(truth)))
    return problems


def source_files(root, cfg):
    tests = set(test_files(root, cfg))
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("__pycache__", "venv", "tests", "test")]
        for name in filenames:
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if name.endswith(".py") and rel not in tests and name not in ("conftest.py", "setup.py", "__init__.py"):
                out.append(rel)
    return sorted(out)


def check_bugs(cfg, p, bin_, env, kind):
    problems = []
    _, bug_list = run_project.load_bugs(cfg["name"])
    for bug in bug_list:
        want = set(key_of(i, kind) for i in bug.get("fails", []))
        files = sorted({file_of(i, kind) or "" for i in bug.get("fails", [])})
        if kind != "--junit":
            # unittest ids: module.Class.test (or a doctest's dotted name): run the test modules.
            files = [f for f in test_files(p["root"], cfg)]
        file, original = run_project.apply(p["root"], bug)
        try:
            got = set()
            for rel in files:
                result, code, err = run_greenlight(bin_, p["root"], rel, env)
                if result is None:
                    problems.append("bug %s: %s: no JSON (exit %d): %s" % (bug["id"], rel, code, err[-400:]))
                    continue
                for t in result["tests"]:
                    if t["status"] in ("failed", "error", "timeout"):
                        got.add(key_of(t["id"], kind))
            if not got:
                problems.append("bug %s: GREEN, nothing failed" % bug["id"])
            elif not want <= got:
                problems.append("bug %s: the runner fails %s, greenlight does not" % (bug["id"], sorted(want - got)[:5]))
            print("  bug %-36s %3d failing %s" % (bug["id"], len(got), "ok" if got and want <= got else "WRONG"))
            # From the edited file itself (what a run on save does): never green. With
            # "from_source": "fails", the tests that load it must fail what the runner fails.
            result, code, err = run_greenlight(bin_, p["root"], bug["file"], env)
            failing = set()
            for t in (result or {}).get("tests", []):
                if t["status"] in ("failed", "error", "timeout"):
                    failing.add(key_of(t["id"], kind))
            if code == 0:
                problems.append("bug %s: greenlight run %s is GREEN" % (bug["id"], bug["file"]))
            elif bug.get("from_source") == "fails" and not want <= failing:
                problems.append("bug %s: greenlight run %s does not fail %s (exit %d%s)" % (
                    bug["id"], bug["file"], sorted(want - failing)[:5], code, (": " + err[-300:]) if err else ""))
            print("  bug %-36s from %s: exit %d, %d failing" % (bug["id"], bug["file"], code, len(failing)))
        finally:
            with open(file, "w", encoding="utf-8") as f:
                f.write(original)
    return problems


def start_model(script, workdir):
    path = os.path.join(workdir, "script.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(script, f)
    port_file = os.path.join(workdir, "port")
    proc = subprocess.Popen([sys.executable, FAKES, "--script", path, "--port", "0", "--port-file", port_file],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return proc, int(open(port_file).read().strip())
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the scripted model did not start")


def check_generate(cfg, p, bin_, env):
    """A stubbed function of the editable-installed package, generated back."""
    spec = cfg.get("generate")
    if not spec:
        return []
    path = os.path.join(p["root"], spec["file"])
    with open(path, encoding="utf-8") as f:
        original = f.read()
    tree = ast.parse(original)
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == spec["function"])
    lines = original.splitlines(keepends=True)
    body_start = fn.body[1].lineno if ast.get_docstring(fn) is not None else fn.body[0].lineno
    indent = re.match(r"\s*", lines[body_start - 1]).group(0)
    stubbed = "".join(lines[:body_start - 1]) + indent + "raise NotImplementedError\n" + "".join(lines[fn.end_lineno:])
    definition = "".join(lines[fn.lineno - 1 - len(fn.decorator_list):fn.end_lineno])
    with open(path, "w", encoding="utf-8") as f:
        f.write(stubbed)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        reply = "Here is the implementation:\n\n```python\n" + definition + "```\n"
        proc, port = start_model({"rules": [], "default": {"text": reply}}, tmp)
        try:
            genv = dict(env, GREENLIGHT_PROVIDER="openai", OPENAI_BASE_URL="http://127.0.0.1:%d/v1" % port,
                        OPENAI_API_KEY="sk-test", GREENLIGHT_MODEL="scripted")
            r = subprocess.run([bin_, "generate", "%s:%d" % (spec["file"], fn.lineno), "--json", "--apply"],
                               cwd=p["root"], env=genv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
            try:
                result = json.loads(r.stdout.decode())
            except ValueError:
                result = {}
            with open(path, encoding="utf-8") as f:
                after = f.read()
            if r.returncode != 0 or result.get("status") != "passed":
                problems.append("generate %s: exit %d, status %s: %s %s" % (
                    spec["function"], r.returncode, result.get("status"), result.get("error"),
                    r.stderr.decode(errors="replace")[-1500:]))
            elif after != original:
                problems.append("generate %s: the file after --apply differs from the original" % spec["function"])
            else:
                s = result.get("summary", {})
                print("  generate %s: passed %d tests through the editable install" % (spec["function"], s.get("passed", 0)))
                if s.get("passed", 0) < spec.get("min_tests", 1):
                    problems.append("generate %s: only %d tests ran" % (spec["function"], s.get("passed", 0)))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
    return problems


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("project")
    ap.add_argument("--greenlight", required=True)
    ap.add_argument("--out", default=None, help="work directory (default: a fresh one under /tmp, removed after)")
    ap.add_argument("--skip-bugs", action="store_true")
    ap.add_argument("--skip-generate", action="store_true")
    a = ap.parse_args(argv)
    a.greenlight = os.path.abspath(a.greenlight)
    cfg = run_project.load(a.project)
    # Under /tmp, not the build tree: when greenlight runs as root the sandbox runs as uid 65534,
    # which must reach the project (a clone may sit under a private directory).
    fresh = a.out is None
    if fresh:
        a.out = tempfile.mkdtemp(prefix="gl-projects-")
        os.chmod(a.out, 0o755)
    try:
        return check(cfg, a)
    finally:
        if fresh:
            import shutil
            shutil.rmtree(a.out, ignore_errors=True)


def check(cfg, a):
    try:
        p = run_project.prepare(cfg, a.out)
    except run_project.Skip as e:
        print("skipped: %s" % e)
        return SKIP
    # The sandbox runs as uid 65534 when greenlight is root: the copy must be readable.
    subprocess.run(["chmod", "-R", "go+rX", p["base"]], check=False)
    os.chmod(os.path.dirname(p["base"]), 0o755)
    os.chmod(a.out, 0o755)
    with open(os.path.join(p["root"], ".greenlight.json"), "w", encoding="utf-8") as f:
        json.dump({"python": {"interpreter": run_project.python_of(cfg, p)}}, f)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}
    verdict, kind = run_project.truth(cfg, a.out)
    print("%s (%s): the runner's verdict in %s" % (cfg["name"], cfg["runner"], verdict))
    problems = check_files(cfg, p, a.greenlight, env, verdict, kind)
    if not a.skip_bugs:
        problems += check_bugs(cfg, p, a.greenlight, env, kind)
    if not a.skip_generate:
        problems += check_generate(cfg, p, a.greenlight, env)
    for line in problems:
        print("DISAGREE: " + line)
    print("%s: %s" % (cfg["name"], "all agree" if not problems else "%d disagreements" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
