#!/usr/bin/env python3
"""greenlight itself (`greenlight run FILE --json`, `greenlight generate`) on the CMake projects of
this folder, against the frameworks' own reports, test by test.

    check_greenlight.py PROJECT --greenlight BIN [--work DIR] [--skip-bugs] [--skip-generate]

The truth: what the framework binary reported for the project (tests/runners/cmake/data/reports:
GoogleTest JSON, Catch2 XML, doctest XML, recorded by verify_bugs.py --record), every plain CTest
test passing; for an injected bug, the same with exactly the bug's `fail` list failing (the
CTest names verify_bugs.py checks against CTest itself, one process per test).

1. files:    `greenlight run FILE --json` on the headers, a source file and each test file must
             report exactly the tests near the file (every test of the test targets that include
             or compile it; a test file: the test cases it declares), each with the truth's
             outcome.
2. select:   `greenlight run HEADER:LINE` on a function runs exactly the test cases that call it.
3. bugs:     each injected bug (<project>.bugs.json), written to disk: `greenlight run FILE` on the
             file the bug is in must fail exactly the bug's tests (never green), each failure
             with its values (expected/actual, the exception or the signal), and put a
             diagnostic in that file; where the bug's "at" names a line's text (a throw, a
             crash site), a diagnostic on that line.
4. generate: (catch2-cliopts) parse_bool in the header-only library becomes a stub; `greenlight
             generate --apply` with a scripted model (tests/fakes/scripted_model.py) that first
             answers a wrong body, then the right one once the feedback names the failure, must
             pass in the second round and write the original back.

The project is copied to WORK/<project> (default /tmp/gl-cxx-projects) and greenlight's private
build lives in WORK/cache (XDG_CACHE_HOME): the first run configures and builds it (10-40 s),
later runs are incremental. Exit 0: all agree; 1: a disagreement (printed); 77: cannot run here
(cmake, ninja or the framework missing).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPORTS = os.path.join(HERE, "..", "..", "runners", "cmake", "data", "reports")
CTEST = os.path.join(HERE, "..", "..", "runners", "cmake", "data", "fileapi")
FAKES = os.path.join(HERE, "..", "..", "fakes", "scripted_model.py")
SKIP = 77

# Per project: the framework target, its report, the plain CTest tests ({ctest name: target}),
# and which targets each checked file is near ("declared": the test cases the file declares).
PROJECTS = {
    "gtest-textstat": {
        "framework": "gtest", "target": "textstat_tests", "needs": "/usr/include/gtest/gtest.h",
        "plain": {"wordcount_check": "wordcount_check"},
        "files": {
            "include/textstat/stats.h": ["textstat_tests", "wordcount_check"],
            "include/textstat/tokenize.h": ["textstat_tests", "wordcount_check"],
            "src/tokenize.cpp": ["textstat_tests", "wordcount_check"],
            "tests/tokenize_test.cpp": ["declared"],
            "tests/stats_test.cpp": ["declared"],
            "tests/wordcount_check.cpp": ["wordcount_check"],
        },
        "select": {"file": "include/textstat/stats.h", "function": "median",
                   "expect": ["Median.OddCountIsTheMiddleValue", "Median.EvenCountAveragesTheMiddlePair"]},
    },
    "catch2-cliopts": {
        "framework": "catch2", "target": "cliopts_tests", "needs": "/usr/lib/cmake/Catch2/Catch.cmake",
        "plain": {"example_help": "example", "example_wraps": "example"},
        "files": {
            "include/cliopts/cliopts.hpp": ["cliopts_tests", "example"],
            "src/example.cpp": ["example"],
            "test/options.cpp": ["declared"],
            "test/values.cpp": ["declared"],
            "test/main.cpp": ["cliopts_tests"],
        },
        "select": {"file": "include/cliopts/cliopts.hpp", "function": "parse_bool",
                   "expect": ["parse_bool accepts the usual spellings"]},
        "generate": {"file": "include/cliopts/cliopts.hpp", "function": "parse_bool",
                     "wrong": '  if (lower == "true" || lower == "yes" || lower == "1") return true;',
                     "right": '  if (lower == "true" || lower == "yes" || lower == "on" || lower == "1") return true;',
                     "evidence": "not a boolean", "min_tests": 1},
    },
    "doctest-ringbuf": {
        "framework": "doctest", "target": "ringbuf_tests", "needs": "/usr/include/doctest/doctest.h",
        "plain": {"ringbuf_selfcheck": "ringbuf_selfcheck"},
        "files": {
            "include/ringbuf/ring_buffer.hpp": ["ringbuf_tests", "ringbuf_selfcheck"],
            "include/ringbuf/moving_stats.hpp": ["ringbuf_tests", "ringbuf_selfcheck"],
            "src/moving_stats.cpp": ["ringbuf_tests", "ringbuf_selfcheck"],
            "tests/test_ring_buffer.cpp": ["declared"],
            "tests/test_moving_stats.cpp": ["declared"],
            "tests/selfcheck.cpp": ["ringbuf_selfcheck"],
        },
        "select": {"file": "src/moving_stats.cpp", "function": "trend",
                   "expect": ["moving minimum, maximum and trend", "moving stats over an empty window"]},
    },
}


def rel_of(path):
    """A recorded absolute path (/tmp/glcxx-projects/<p>/src/x) or a run's, relative to the project."""
    m = re.search(r"/src/((?:include|src|test|tests|tools)/.*)$", path or "")
    return m.group(1) if m else path


def framework_truth(name, state):
    """{framework test name: (outcome, relative file)} from the recorded report of STATE."""
    cfg = PROJECTS[name]
    out = {}
    if cfg["framework"] == "gtest":
        with open(os.path.join(REPORTS, "%s.%s.json" % (name, state))) as f:
            j = json.load(f)
        for s in j["testsuites"]:
            for t in s["testsuite"]:
                full = s["name"] + "." + t["name"]
                if t.get("failures"):
                    st = "failed"
                elif t.get("status") == "NOTRUN" or t.get("result") in ("SKIPPED", "SUPPRESSED"):
                    st = "skipped"
                else:
                    st = "passed"
                out[full] = (st, rel_of(t.get("file")))
    else:
        root = ET.parse(os.path.join(REPORTS, "%s.%s.xml" % (name, state))).getroot()
        for tc in root.iter("TestCase"):
            if cfg["framework"] == "catch2":
                ok = tc.find("OverallResult")
                st = "passed" if ok is not None and ok.get("success") == "true" else "failed"
            elif tc.get("skipped") == "true":
                st = "skipped"
            else:
                ok = tc.find("OverallResultsAsserts")
                st = "passed" if ok is not None and ok.get("test_case_success") == "true" else "failed"
            out[tc.get("name")] = (st, rel_of(tc.get("filename")))
    return out


def ctest_names(name):
    """CTest name -> greenlight id ("<target>::<framework name>"), from the recorded listing."""
    cfg = PROJECTS[name]
    with open(os.path.join(CTEST, name, "ctest.json")) as f:
        j = json.load(f)
    out = {}
    for t in j["tests"]:
        cmd = t.get("command") or []
        target = os.path.basename(cmd[0]) if cmd else ""
        fw = None
        for a in cmd[1:]:
            if a.startswith("--gtest_filter="):
                fw = a[len("--gtest_filter="):]
            elif a.startswith("--test-case="):
                fw = a[len("--test-case="):].replace("\\,", ",")
        if fw is None and target == cfg["target"] and len(cmd) > 1 and not cmd[1].startswith("-"):
            fw = re.sub(r"\\(.)", r"\1", cmd[1])
        out[t["name"]] = "%s::%s" % (target, fw if fw is not None else t["name"])
    return out


def truth_for(name, state, fails=()):
    """id -> (outcome, relative file or None) for every test of the project."""
    cfg = PROJECTS[name]
    out = {}
    for test, (st, f) in framework_truth(name, "baseline").items():
        out["%s::%s" % (cfg["target"], test)] = (st, f)
    for test, target in cfg["plain"].items():
        out["%s::%s" % (target, test)] = ("passed", None)
    names = ctest_names(name)
    for n in fails:
        out[names[n]] = ("failed", out[names[n]][1])
    return out


def outcome(t):
    s = t["status"]
    return {"error": "failed", "timeout": "failed"}.get(s, s)


def run_greenlight(bin_, root, target, env):
    r = subprocess.run([bin_, "run", target, "--json"], cwd=root, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=1800)
    try:
        return json.loads(r.stdout.decode("utf-8")), r.returncode, r.stderr.decode(errors="replace")
    except ValueError:
        return None, r.returncode, r.stderr.decode(errors="replace") + r.stdout.decode(errors="replace")[-2000:]


def expected_ids(name, rel, truth):
    cfg = PROJECTS[name]
    ids = set()
    for what in cfg["files"][rel]:
        for i, (st, f) in truth.items():
            target = i.split("::", 1)[0]
            if what == "declared" and f == rel:
                ids.add(i)
            elif what == target:
                ids.add(i)
    return ids


def compare(label, result, expected, truth):
    problems = []
    got = {t.get("id"): t for t in result["tests"]}
    for i in sorted(expected - set(got)):
        problems.append("%s: %s missing (the framework says %s)" % (label, i, truth[i][0]))
    for i in sorted(set(got) - expected):
        problems.append("%s: %s reported (%s) but not near the file" % (label, i, got[i]["status"]))
    agree = 0
    for i in sorted(expected & set(got)):
        want, mine = truth[i][0], outcome(got[i])
        if want != mine:
            problems.append("%s: %s is %s, the framework says %s: %s" % (label, i, got[i]["status"], want, got[i].get("message", "")))
        else:
            agree += 1
    return agree, problems


def check_files(name, root, bin_, env):
    truth = truth_for(name, "baseline")
    problems, total = [], 0
    for rel in PROJECTS[name]["files"]:
        start = time.time()
        result, code, err = run_greenlight(bin_, root, rel, env)
        took = time.time() - start
        if result is None or result.get("error"):
            problems.append("%s: greenlight run failed (exit %d): %s" % (rel, code, (result or {}).get("error") or err[-1500:]))
            continue
        expected = expected_ids(name, rel, truth)
        agree, p = compare(rel, result, expected, truth)
        problems += p
        total += agree
        print("  %-36s %2d/%2d tests agree (%.1f s)" % (rel, agree, len(expected), took))
    return total, problems


def check_select(name, root, bin_, env):
    spec = PROJECTS[name].get("select")
    if not spec:
        return []
    with open(os.path.join(root, spec["file"])) as f:
        lines = f.read().splitlines()
    line = next(i + 1 for i, l in enumerate(lines) if re.search(r"\b%s\s*\(" % spec["function"], l) and "{" in l)
    result, code, err = run_greenlight(bin_, root, "%s:%d" % (spec["file"], line), env)
    if result is None or result.get("error"):
        return ["%s:%d: greenlight run failed (exit %d): %s" % (spec["file"], line, code, (result or {}).get("error") or err[-800:])]
    names = sorted(t["name"] for t in result["tests"])
    if names != sorted(spec["expect"]):
        return ["%s:%d (%s): ran %s, expected exactly %s" % (spec["file"], line, spec["function"], names, sorted(spec["expect"]))]
    print("  %s:%d (%s): ran exactly %s (%s)" % (spec["file"], line, spec["function"], names, result.get("selection", "")))
    return []


# What a failure without expected/actual must still show: the exception, the signal, or the
# framework's expansion ("is \"usage: ...\"", "3 == 1", "returned 3").
VALUES = re.compile(r"threw|exception|signal|crash|did not throw|exited with code|returned| is \"| == | equals: |expected", re.I)


def check_bugs(name, root, bin_, env):
    with open(os.path.join(HERE, name + ".bugs.json")) as f:
        bugs = json.load(f)["bugs"]
    problems, caught = [], 0
    for bug in bugs:
        path = os.path.join(root, bug["file"])
        with open(path) as f:
            original = f.read()
        label = "bug %s (%s)" % (bug["id"], bug["file"])
        try:
            with open(path, "w") as f:
                f.write(original.replace(bug["find"], bug["replace"], 1))
            start = time.time()
            result, code, err = run_greenlight(bin_, root, bug["file"], env)
            took = time.time() - start
        finally:
            with open(path, "w") as f:
                f.write(original)
        if result is None or result.get("error"):
            problems.append("%s: greenlight run failed (exit %d): %s" % (label, code, (result or {}).get("error") or err[-1500:]))
            continue
        truth = truth_for(name, "baseline", bug["fail"])
        expected = expected_ids(name, bug["file"], truth)
        _, p = compare(label, result, expected, truth)
        if code != 1:
            p.append("%s: exit %d, expected 1 (a test failed)" % (label, code))
        failed = [t for t in result["tests"] if outcome(t) == "failed"]
        for t in failed:
            if not (t.get("expected") or t.get("actual") or VALUES.search(t.get("message", ""))):
                p.append("%s: %s fails without values: %s" % (label, t["id"], t.get("message")))
        in_file = [d for d in result["diagnostics"] if d["file"] == path]
        if not in_file:
            p.append("%s: no diagnostic in %s (diagnostics in %s)" % (label, bug["file"], sorted({d["file"] for d in result["diagnostics"]})))
        if bug.get("at"):
            # Where the exception or the crash arose (the trace): the line holding this text.
            buggy = original.replace(bug["find"], bug["replace"], 1).splitlines()
            lines = [i + 1 for i, l in enumerate(buggy) if bug["at"] in l]
            if not any(d["line"] in lines for d in in_file):
                p.append("%s: no diagnostic at the line of origin %s (%r); in the file at %s" % (
                    label, lines, bug["at"], sorted(d["line"] for d in in_file)))
        problems += p
        if not p:
            caught += 1
        shown = failed[0] if failed else {}
        print("  %-34s %d failing, %d diagnostics in the file (%.1f s): %s" % (
            bug["id"], len(failed), len(in_file), took, (in_file[0]["message"] if in_file else shown.get("message", ""))[:110]))
    return caught, len(bugs), problems


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


def check_generate(name, root, bin_, env):
    spec = PROJECTS[name].get("generate")
    if not spec:
        return []
    path = os.path.join(root, spec["file"])
    with open(path) as f:
        original = f.read()
    lines = original.splitlines(keepends=True)
    first = next(i for i, l in enumerate(lines) if re.search(r"\b%s\s*\(" % spec["function"], l) and "{" in l)
    last = next(i for i in range(first + 1, len(lines)) if lines[i].startswith("}"))
    definition = "".join(lines[first:last + 1])
    stub = lines[first].rstrip("\n") + "}\n"
    stubbed = "".join(lines[:first]) + stub + "".join(lines[last + 1:])
    wrong = definition.replace(spec["right"], spec["wrong"])
    assert wrong != definition
    problems = []
    with open(path, "w") as f:
        f.write(stubbed)
    with tempfile.TemporaryDirectory() as tmp:
        fence = lambda code: "Here it is:\n\n```cpp\n" + code + "```\n"
        script = {"rules": [], "default": {"wrong": fence(wrong), "right": fence(definition), "evidence": spec["evidence"]}}
        proc, port = start_model(script, tmp)
        try:
            genv = dict(env, GREENLIGHT_PROVIDER="openai", OPENAI_BASE_URL="http://127.0.0.1:%d/v1" % port,
                        OPENAI_API_KEY="sk-test", GREENLIGHT_MODEL="scripted")
            start = time.time()
            r = subprocess.run([bin_, "generate", "%s:%d" % (spec["file"], first + 1), "--json", "--apply"],
                               cwd=root, env=genv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1800)
            took = time.time() - start
            try:
                result = json.loads(r.stdout.decode())
            except ValueError:
                result = {}
            with open(path) as f:
                after = f.read()
            rounds = result.get("rounds") or []
            if r.returncode != 0 or result.get("status") != "passed":
                problems.append("generate %s: exit %d, status %s: %s %s" % (
                    spec["function"], r.returncode, result.get("status"), result.get("error"),
                    r.stderr.decode(errors="replace")[-1500:]))
            elif after != original:
                problems.append("generate %s: the file after --apply differs from the original" % spec["function"])
            elif len(rounds) != 2:
                problems.append("generate %s: %d rounds, expected 2 (wrong, then right on the feedback)" % (spec["function"], len(rounds)))
            else:
                s = result.get("summary", {})
                print("  generate %s: passed in round 2 (%d tests; %.1f s; tests_ms per round %s)" % (
                    spec["function"], s.get("passed", 0), took, [x.get("tests_ms") for x in rounds]))
                if s.get("passed", 0) < spec.get("min_tests", 1):
                    problems.append("generate %s: only %d tests ran" % (spec["function"], s.get("passed", 0)))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
            with open(path, "w") as f:
                f.write(original)
    return problems


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("project", choices=sorted(PROJECTS))
    ap.add_argument("--greenlight", required=True)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "gl-cxx-projects"))
    ap.add_argument("--skip-bugs", action="store_true")
    ap.add_argument("--skip-generate", action="store_true")
    a = ap.parse_args(argv)
    bin_ = os.path.abspath(a.greenlight)
    for tool in ("cmake", "ctest", "ninja", "g++"):
        if not shutil.which(tool):
            print("SKIP: %s not found" % tool)
            return SKIP
    if not os.path.exists(PROJECTS[a.project]["needs"]):
        print("SKIP: %s not installed (scripts/deps.sh test)" % PROJECTS[a.project]["needs"])
        return SKIP
    root = os.path.join(a.work, a.project)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, a.project), root)
    # The sandbox runs as uid 65534 when greenlight is root: the copy must be readable.
    subprocess.run(["chmod", "-R", "go+rX", a.work], check=False)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8",
           "XDG_CACHE_HOME": os.path.join(a.work, "cache")}
    print("%s: greenlight's outcomes against the framework's own report" % a.project)
    agree, problems = check_files(a.project, root, bin_, env)
    problems += check_select(a.project, root, bin_, env)
    caught = total = 0
    if not a.skip_bugs:
        caught, total, p = check_bugs(a.project, root, bin_, env)
        problems += p
    if not a.skip_generate:
        problems += check_generate(a.project, root, bin_, env)
    for line in problems:
        print("DISAGREE: " + line)
    print("%s: %d outcomes agree; %d/%d injected bugs caught with values and a diagnostic in the file; %s" % (
        a.project, agree, caught, total, "all agree" if not problems else "%d disagreements" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
