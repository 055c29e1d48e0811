#!/usr/bin/env python3
"""Checks the real C++ projects and their injected bugs against the projects' own CTest.

For each project (gtest-textstat, catch2-cliopts, doctest-ringbuf): copy it to WORK/<name>/src,
configure a Ninja build in WORK/<name>/build (with a CMake File API query), build, run ctest;
every test must pass (skipped and disabled ones excepted). Then, per bug in <name>.bugs.json:
apply the one-line edit, rebuild, run ctest, and check that exactly the listed tests fail;
revert. Exit 0 when every list is right.

  verify_bugs.py [--work DIR] [--record DIR] [--only NAME] [--bug ID]

--record DIR also writes what the frameworks report (GoogleTest JSON, Catch2 XML, doctest XML
and JUnit, ctest --show-only=json-v1, the File API reply) for the baseline and for each bug: the
recorded fixtures of tests/runners/cmake. Uses -j2 under nice.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = ["gtest-textstat", "catch2-cliopts", "doctest-ringbuf"]
QUERY = {"requests": [{"kind": "codemodel", "version": 2}, {"kind": "cache", "version": 2},
                      {"kind": "toolchains", "version": 1}]}
# The framework binary of each project and how to make it write its report.
REPORTS = {
    "gtest-textstat": ("tests/textstat_tests", [("json", ["--gtest_output=json:{out}"], False)]),
    "catch2-cliopts": ("test/cliopts_tests", [("xml", ["--reporter", "xml", "--durations", "yes"], True)]),
    "doctest-ringbuf": ("tests/ringbuf_tests", [("xml", ["--reporters=xml", "--duration=true"], True),
                                                ("junit.xml", ["--reporters=junit"], True)]),
}


def run(cmd, cwd=None, check=True, capture=True):
    p = subprocess.run(["nice", "-n", "10"] + cmd, cwd=cwd, text=True,
                       stdout=subprocess.PIPE if capture else None, stderr=subprocess.STDOUT if capture else None)
    if check and p.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stdout or ""))
    return p


def ctest_outcomes(build):
    junit = os.path.join(build, "ctest-junit.xml")
    run(["ctest", "--test-dir", build, "--output-junit", junit, "-j2", "--timeout", "60"], check=False)
    out = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        status = case.get("status", "run")
        if case.find("failure") is not None or status == "fail":
            out[case.get("name")] = "failed"
        elif status in ("disabled", "notrun") or case.find("skipped") is not None:
            out[case.get("name")] = "skipped"
        else:
            out[case.get("name")] = "passed"
    return out


def record(name, build, dest, state):
    if not dest:
        return
    os.makedirs(dest, exist_ok=True)
    exe, kinds = REPORTS[name]
    for ext, args, stdout in kinds:
        path = os.path.join(dest, "%s.%s.%s" % (name, state, ext))
        argv = [os.path.join(build, exe)] + [a.format(out=path) for a in args]
        p = subprocess.run(argv, cwd=os.path.dirname(os.path.join(build, exe)), text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if stdout:
            with open(path, "w") as f:
                f.write(p.stdout)
        with open(path + ".exit", "w") as f:
            f.write("%d\n" % p.returncode)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/glcxx-projects")
    ap.add_argument("--record")
    ap.add_argument("--only")
    ap.add_argument("--bug")
    a = ap.parse_args()
    wrong = 0
    for name in PROJECTS:
        if a.only and name != a.only:
            continue
        src = os.path.join(a.work, name, "src")
        build = os.path.join(a.work, name, "build")
        shutil.rmtree(os.path.join(a.work, name), ignore_errors=True)
        shutil.copytree(os.path.join(HERE, name), src)
        qdir = os.path.join(build, ".cmake", "api", "v1", "query", "client-greenlight")
        os.makedirs(qdir)
        with open(os.path.join(qdir, "query.json"), "w") as f:
            json.dump(QUERY, f)
        run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug",
             "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"])
        run(["cmake", "--build", build, "-j2"])
        base = ctest_outcomes(build)
        bad = sorted(t for t, s in base.items() if s == "failed")
        print("%s: %d tests, %d passed, %d skipped, failed: %s" % (
            name, len(base), sum(s == "passed" for s in base.values()), sum(s == "skipped" for s in base.values()), bad or "none"))
        wrong += bool(bad)
        record(name, build, a.record, "baseline")
        if a.record:
            with open(os.path.join(a.record, name + ".ctest.json"), "w") as f:
                f.write(run(["ctest", "--test-dir", build, "--show-only=json-v1"]).stdout)
        with open(os.path.join(HERE, name + ".bugs.json")) as f:
            bugs = json.load(f)["bugs"]
        for bug in bugs:
            if a.bug and bug["id"] != a.bug:
                continue
            path = os.path.join(src, bug["file"])
            with open(path) as f:
                text = f.read()
            if text.count(bug["find"]) != 1:
                print("  %s: the edit's text occurs %d times in %s" % (bug["id"], text.count(bug["find"]), bug["file"]))
                wrong += 1
                continue
            with open(path, "w") as f:
                f.write(text.replace(bug["find"], bug["replace"]))
            built = run(["cmake", "--build", build, "-j2"], check=False)
            got = ctest_outcomes(build) if built.returncode == 0 else {}
            failed = sorted(t for t, s in got.items() if s == "failed" and base.get(t) != "failed")
            changed = sorted(t for t, s in got.items() if s != base.get(t) and s != "failed")
            ok = built.returncode == 0 and failed == sorted(bug["fail"]) and not changed
            print("  %s %s: failed %s%s" % ("ok  " if ok else "WRONG", bug["id"], failed,
                                            "" if not changed else " changed " + str(changed)))
            if not ok:
                print("      expected %s" % sorted(bug["fail"]))
                wrong += 1
            record(name, build, a.record, bug["id"])
            with open(path, "w") as f:
                f.write(text)
        run(["cmake", "--build", build, "-j2"])
    print("verify_bugs: %s" % ("all lists right" if wrong == 0 else "%d wrong" % wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
