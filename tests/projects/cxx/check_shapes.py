#!/usr/bin/env python3
"""greenlight on C++ projects shaped as real ones are, beyond the CTest shapes greenlight was built
for, against the framework's own report, test by test.

    check_shapes.py PROJECT --greenlight BIN [--work DIR] [--skip-bugs] [--skip-generate]

The shapes (issue 34):
  catch2-oldsig    a header-only library, one Catch2 v2 binary registered with the OLD signature
                   add_test(kvconf kvconf_test): a test name, then a target name; the
                   registration's ENVIRONMENT names a sample file one test reads
  doctest-noctest  a header-only library, ONE doctest executable from 8 test files (main.cpp
                   defines DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN) that CTest never hears of, behind
                   option(STRKIT_BUILD_TESTS ... OFF): greenlight must turn it on and say so
  gtest-manyfiles  one GoogleTest binary from 7 test files (TEST_F, TYPED_TEST, TEST_P, a DISABLED_
                   and a GTEST_SKIP), registered as one CTest test running the whole binary

The truth: the project configured with plain cmake (its test option on), built, and each test
binary run once with its framework's report (GoogleTest JSON, Catch2/doctest XML). Then:
1. files:   `greenlight run FILE --json` on the header(s), a library source and every test file
            reports exactly the tests near it (a header: every case of every test target that
            includes it; a test file: the cases it defines, run with the framework's own filter),
            each with the framework's outcome;
2. stray:   a C++ file no target compiles is never compiled alone: exit 3 and a note that says so;
3. bugs:    each bug below, written to disk, is judged against the framework's report of the
            buggy build (which must fail exactly the bug's `fail` list): `greenlight run` on the
            header fails exactly those, with values, exit 1, and a diagnostic in the header;
4. generate (doctest-noctest): parse_int stubbed, a scripted model answering a wrong body first
            and the right one on the feedback: passed in round 2 (check_greenlight.check_generate).
Exit 0: all agree; 1: a disagreement; 77: cannot run here.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_greenlight  # noqa: E402
from check_greenlight import compare, run_greenlight, VALUES, SKIP  # noqa: E402

SHAPES = {
    "catch2-oldsig": {
        "framework": "catch2", "needs": "/usr/include/catch2/catch.hpp", "cmake": [],
        "targets": {"kvconf_test": "test/kvconf_test"},
        # The truth runs as CTest does: with the registration's ENVIRONMENT.
        "env": {"KVCONF_SAMPLE": "test/sample.conf"},
        "files": {
            "include/kvconf/kvconf.hpp": ["kvconf_test"],
            "test/parse_test.cpp": ["declared"], "test/lookup_test.cpp": ["declared"],
            "test/convert_test.cpp": ["declared"], "test/main.cpp": ["kvconf_test"],
        },
        "stray": "test/scratch_test.cpp",
        "bugs": [
            {"id": "value-not-stripped", "file": "include/kvconf/kvconf.hpp",
             "find": "out[key] = strip(std::string_view(line).substr(eq + 1));", "replace": "out[key] = line.substr(eq + 1);",
             "fail": ["kvconf_test::a later key replaces an earlier one", "kvconf_test::parse reads key = value lines",
                      "kvconf_test::parse reads the sample file"]},
            {"id": "to-bool-forgets-on", "file": "include/kvconf/kvconf.hpp",
             "find": 'v == "yes" || v == "on" || v == "1"', "replace": 'v == "yes" || v == "1"',
             "fail": ["kvconf_test::to_bool accepts the usual spellings"]},
        ],
    },
    "doctest-noctest": {
        "framework": "doctest", "needs": "/usr/include/doctest/doctest.h", "cmake": ["-DSTRKIT_BUILD_TESTS=ON"],
        "targets": {"tests": "test/tests"}, "note": "STRKIT_BUILD_TESTS (OFF by default)",
        "files": {
            "include/strkit/strkit.hpp": ["tests"],
            **{"test/test_%s.cpp" % f: ["declared"] for f in ("trim", "split", "join", "case", "affix", "replace", "parse", "pad")},
        },
        "stray": "test/test_unlisted.cpp",
        "bugs": [
            {"id": "split-drops-last", "file": "include/strkit/strkit.hpp",
             "find": "for (std::size_t i = 0; i <= s.size(); ++i) {", "replace": "for (std::size_t i = 0; i < s.size(); ++i) {",
             "fail": ["tests::split at a separator", "tests::split keeps empty pieces", "tests::split of an empty string is one empty piece",
                      "tests::split then join is the identity"]},
            {"id": "pad-left-one-short", "file": "include/strkit/strkit.hpp",
             "find": "return std::string(width - s.size(), fill) + std::string(s);",
             "replace": "return std::string(width - s.size() - 1, fill) + std::string(s);",
             "fail": ["tests::pad_left and pad_right fill to the width"]},
        ],
        "generate": {"file": "include/strkit/strkit.hpp", "function": "parse_int",
                     "wrong": "    negative = t[0] == '+';", "right": "    negative = t[0] == '-';",
                     "evidence": "returned 17,", "min_tests": 1},
    },
    "gtest-manyfiles": {
        "framework": "gtest", "needs": "/usr/include/gtest/gtest.h", "cmake": [],
        "targets": {"geom_tests": "tests/geom_tests"},
        "files": {
            "include/geom/vec.hpp": ["geom_tests"], "include/geom/polygon.hpp": ["geom_tests"], "src/polygon.cpp": ["geom_tests"],
            **{"tests/%s_test.cpp" % f: ["declared"] for f in ("vec", "dot", "length", "polygon", "bbox", "typed", "param")},
        },
        "stray": "tests/scratch_test.cpp",
        "bugs": [
            {"id": "cross-flipped", "file": "include/geom/vec.hpp",
             "find": "return a.x * b.y - a.y * b.x;", "replace": "return a.y * b.x - a.x * b.y;",
             "fail": ["geom_tests::Cross.IsAntisymmetric", "geom_tests::PolygonTest.AreaIgnoresOrientation",
                      "geom_tests::Turns/CrossSign.MatchesTheTurn/0", "geom_tests::Turns/CrossSign.MatchesTheTurn/1"]},
            {"id": "bbox-min-uses-max", "file": "src/polygon.cpp",
             "find": "b.min.y = std::min(b.min.y, q.y);", "replace": "b.min.y = std::max(b.min.y, q.y);",
             "fail": ["geom_tests::BoundingBox.HoldsEveryPoint"]},
        ],
    },
}

STRAY = {
    "catch2": '#include <catch2/catch.hpp>\n#include <kvconf/kvconf.hpp>\nTEST_CASE("scratch") { CHECK(kvconf::strip(" a ") == "a"); }\n',
    "doctest": '#include <doctest/doctest.h>\n#include <strkit/strkit.hpp>\nTEST_CASE("scratch") { CHECK(strkit::trim(" a ") == "a"); }\n',
    "gtest": '#include <gtest/gtest.h>\n#include "geom/vec.hpp"\nTEST(Scratch, Dot) { EXPECT_EQ(geom::dot(geom::Vec2<int>{1, 1}, geom::Vec2<int>{1, 1}), 2); }\n',
}


def outcome(t):
    return {"error": "failed", "timeout": "failed"}.get(t["status"], t["status"])


def build_truth(name, root, build):
    spec = SHAPES[name]
    subprocess.run(["cmake", "-S", root, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug"] + spec["cmake"], check=True,
                   stdout=subprocess.DEVNULL)
    r = subprocess.run(["nice", "-n", "10", "cmake", "--build", build, "-j2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise RuntimeError("the plain build failed:\n" + r.stdout.decode(errors="replace")[-3000:])


def read_truth(name, root, build):
    """id -> (outcome, relative file) from each test binary's own report."""
    spec = SHAPES[name]
    out = {}
    env = dict(os.environ, **{k: os.path.join(root, v) for k, v in spec.get("env", {}).items()})
    rel = lambda p: os.path.relpath(os.path.realpath(p), os.path.realpath(root)) if p else None
    for target, exe_rel in spec["targets"].items():
        exe = os.path.join(build, exe_rel)
        report = exe + ".report"
        if spec["framework"] == "gtest":
            subprocess.run([exe, "--gtest_output=json:" + report], stdout=subprocess.DEVNULL, cwd=os.path.dirname(exe), env=env)
            for s in json.load(open(report))["testsuites"]:
                for t in s["testsuite"]:
                    st = "failed" if t.get("failures") else "skipped" if t.get("result") in ("SKIPPED", "SUPPRESSED") or t.get("status") == "NOTRUN" else "passed"
                    out["%s::%s.%s" % (target, s["name"], t["name"])] = (st, rel(t.get("file")))
        elif spec["framework"] == "catch2":
            subprocess.run([exe, "-r", "xml", "-o", report], stdout=subprocess.DEVNULL, cwd=os.path.dirname(exe), env=env)
            for tc in ET.parse(report).getroot().iter("TestCase"):
                ok = tc.find("OverallResult")
                st = "passed" if ok is not None and ok.get("success") == "true" else "failed"
                out["%s::%s" % (target, tc.get("name"))] = (st, rel(tc.get("filename")))
        else:
            subprocess.run([exe, "-r=xml", "-out=" + report], stdout=subprocess.DEVNULL, cwd=os.path.dirname(exe), env=env)
            for tc in ET.parse(report).getroot().iter("TestCase"):
                ok = tc.find("OverallResultsAsserts")
                st = "skipped" if tc.get("skipped") == "true" else "passed" if ok is not None and ok.get("test_case_success") == "true" else "failed"
                f = tc.get("filename")
                out["%s::%s" % (target, tc.get("name"))] = (st, rel(os.path.join(root, f) if f and not os.path.isabs(f) else f))
    return out


def expected(name, rel, tr):
    ids = set()
    for what in SHAPES[name]["files"][rel]:
        for i, (st, f) in tr.items():
            if (what == "declared" and f == rel) or what == i.split("::", 1)[0]:
                ids.add(i)
    return ids


def check_files(name, root, bin_, env, tr):
    problems, agree, compared = [], 0, 0
    note = SHAPES[name].get("note")
    for rel in SHAPES[name]["files"]:
        start = time.time()
        result, code, err = run_greenlight(bin_, root, rel, env)
        if result is None or result.get("error"):
            problems.append("%s: greenlight run failed (exit %d): %s" % (rel, code, (result or {}).get("error") or err[-1500:]))
            continue
        exp = expected(name, rel, tr)
        n, p = compare(rel, result, exp, tr)
        if note and note not in result.get("selection", ""):
            p.append("%s: the note does not say the private build turned on %s: %r" % (rel, note, result.get("selection")))
        agree += n
        compared += len(exp)
        problems += p
        print("  %-36s %3d/%3d tests agree (%.1f s)%s" % (rel, n, len(exp), time.time() - start,
                                                       "; note: " + result["selection"] if result.get("selection") and rel == list(SHAPES[name]["files"])[0] else ""))
    return agree, compared, problems


def check_stray(name, root, bin_, env):
    rel = SHAPES[name]["stray"]
    path = os.path.join(root, rel)
    with open(path, "w") as f:
        f.write(STRAY[SHAPES[name]["framework"]])
    try:
        result, code, err = run_greenlight(bin_, root, rel, env)
    finally:
        os.remove(path)
    problems = []
    if code != 3 or result is None:
        problems.append("stray %s: exit %d, expected 3 (no target compiles it): %s" % (rel, code, (result or {}).get("error") or err[-800:]))
    elif result["tests"] or "compiles or includes" not in result.get("selection", ""):
        problems.append("stray %s: tests %s, note %r: expected none and a note that no target compiles it" % (
            rel, [t["id"] for t in result["tests"]], result.get("selection")))
    else:
        print("  stray %s: exit 3: %s" % (rel, result["selection"][:150]))
    return problems


def check_bugs(name, root, bin_, env, work):
    problems, caught = [], 0
    for bug in SHAPES[name]["bugs"]:
        path = os.path.join(root, bug["file"])
        original = open(path).read()
        assert bug["find"] in original, bug["id"]
        label = "bug " + bug["id"]
        try:
            open(path, "w").write(original.replace(bug["find"], bug["replace"], 1))
            build = os.path.join(work, name + "-truth")
            build_truth(name, root, build)
            btr = read_truth(name, root, build)
            start = time.time()
            result, code, err = run_greenlight(bin_, root, bug["file"], env)
            took = time.time() - start
        finally:
            open(path, "w").write(original)
        truth_fails = sorted(i for i, (st, _) in btr.items() if st == "failed")
        if truth_fails != sorted(bug["fail"]):
            problems.append("%s: the framework itself fails %s, the fixture says %s" % (label, truth_fails, sorted(bug["fail"])))
            continue
        if result is None or result.get("error"):
            problems.append("%s: greenlight run failed (exit %d): %s" % (label, code, (result or {}).get("error") or err[-1500:]))
            continue
        _, p = compare(label, result, expected(name, bug["file"], btr), btr)
        failed = [t for t in result["tests"] if outcome(t) == "failed"]
        for t in failed:
            if not (t.get("expected") or t.get("actual") or VALUES.search(t.get("message", ""))):
                p.append("%s: %s fails without values: %s" % (label, t["id"], t.get("message")))
        in_file = [d for d in result["diagnostics"] if d["file"] == path]
        if not in_file:
            p.append("%s: no diagnostic in %s (diagnostics in %s)" % (label, bug["file"], sorted({d["file"] for d in result["diagnostics"]})))
        if code != 1:
            p.append("%s: exit %d, expected 1" % (label, code))
        problems += p
        caught += not p
        print("  %-22s %d failing (%.1f s): %s" % (bug["id"], len(failed), took,
                                                 (in_file[0]["message"] if in_file else failed[0].get("message", "") if failed else "")[:120]))
    return caught, problems


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("project", choices=sorted(SHAPES))
    ap.add_argument("--greenlight", required=True)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "gl-cxx-shapes"))
    ap.add_argument("--skip-bugs", action="store_true")
    ap.add_argument("--skip-generate", action="store_true")
    a = ap.parse_args(argv)
    spec = SHAPES[a.project]
    for tool in ("cmake", "ctest", "ninja", "g++"):
        if not shutil.which(tool):
            print("SKIP: %s not found" % tool)
            return SKIP
    if not os.path.exists(spec["needs"]):
        print("SKIP: %s not installed (scripts/deps.sh test)" % spec["needs"])
        return SKIP
    work = os.path.abspath(a.work)
    root = os.path.join(work, a.project)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, a.project), root)
    subprocess.run(["chmod", "-R", "go+rX", work], check=False)
    build = os.path.join(work, a.project + "-truth")
    shutil.rmtree(build, ignore_errors=True)
    build_truth(a.project, root, build)
    tr = read_truth(a.project, root, build)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8",
           "XDG_CACHE_HOME": os.path.join(work, "cache")}
    bin_ = os.path.abspath(a.greenlight)
    print("%s: greenlight against the framework's own report (%d tests, %d skipped)" % (
        a.project, len(tr), sum(1 for s, _ in tr.values() if s == "skipped")))
    agree, compared, problems = check_files(a.project, root, bin_, env, tr)
    problems += check_stray(a.project, root, bin_, env)
    caught = 0
    if not a.skip_bugs:
        caught, p = check_bugs(a.project, root, bin_, env, work)
        problems += p
    if spec.get("generate") and not a.skip_generate:
        check_greenlight.PROJECTS[a.project] = spec
        problems += check_greenlight.check_generate(a.project, root, bin_, env)
    for line in problems:
        print("DISAGREE: " + line)
    print("%s: %d/%d outcomes agree; %d/%d injected bugs caught with values and a diagnostic in the file; %s" % (
        a.project, agree, compared, caught, 0 if a.skip_bugs else len(spec["bugs"]),
        "all agree" if not problems else "%d disagreements" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
