#!/usr/bin/env python3
"""greenlight on C++ projects configured the ways users configure them (issue 34 items 4 and 5),
against each framework's own report, test by test.

    check_builds.py PROJECT --greenlight BIN [--work DIR] [--skip-bugs] [--skip-generate]

PROJECT is one of:
  gtest-fetchcontent  CMake + GoogleTest through FetchContent (its quickstart's way). The user's
                      build is made as a user's first build would leave it, offline: build/_deps/
                      googletest-src filled from Debian's /usr/src/googletest. greenlight's
                      configure (no network) must reuse it; a copy without that build must say
                      which dependency needs a download and how to allow it.
  doctest-externalproject
                      CMake + doctest downloaded at build time by ExternalProject_Add. The user's
                      build is what a first build leaves, offline: configured, and
                      build/external/doctest/src/doctest_ep filled from Debian's /usr/include/doctest
                      (the project names that directory by path, and its tests include "doctest.h",
                      which Debian's headers cannot answer).
                      greenlight's build (no network) must reuse it; a copy without that build must
                      say which dependency needs a download and how to allow it.
  boost-units         CMake + Boost.Test, the whole binary registered as one CTest test.
  meson-gtest         Meson + GoogleTest (dependency('gtest', main: true)) + plain test()s with
                      args, env, workdir and should_fail, as `meson test` runs them.
  make-doctest        a Makefile project; compile_commands.json from `bear -- make`.
  bazel-execroot      a Bazel workspace (bazel-workspace/) as `bazel build` and a compile-commands
                      extractor leave it, laid out by this script (no Bazel here; absolute links
                      cannot be committed): in a temp dir, the workspace with its bazel-out,
                      bazel-bin, bazel-testlogs, bazel-mathx and (hedron's) external links, and an
                      output base outside it holding execroot/_main (links back to the workspace's
                      src/ and test/), external/doctest (Debian's doctest.h, included as "doctest.h":
                      only `-isystem external/doctest/doctest` answers it) and a generated
                      bazel-out/k8-fastbuild/bin/src/version.h. Its compile_commands.json as
                      Bazel's extractors write it: each entry's directory the execroot, files and
                      include directories relative to it.
  bazel-hedron        the same, its compile_commands.json as hedron's extractor writes it: each
                      entry's directory the workspace, reaching the output base through the
                      workspace's links.

The truth: the project built by its own build (cmake, meson, make; for Bazel, g++ running the
database's own commands), each test program run once with its framework's report (GoogleTest JSON, Boost.Test XML log, doctest XML; meson's testlog.json
for the plain tests). Then `greenlight run FILE --json` on the files of FILES must report exactly
the tests near each with the framework's outcome; each bug of BUGS, written to disk, must fail
exactly its tests with values and a diagnostic in the file it is in; `greenlight generate` on
GENERATE's function (stubbed), with tests/fakes/scripted_model.py answering wrong then right on the
feedback, must pass in round 2.
Exit 0: all agree; 1: a disagreement; 77: cannot run here (a tool or package missing).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_greenlight  # noqa: E402
from check_greenlight import compare, run_greenlight, start_model, VALUES, SKIP  # noqa: E402

PROJECTS = {
    "gtest-fetchcontent": {
        "tools": ["cmake", "ninja"], "needs": "/usr/src/googletest/CMakeLists.txt",
        "files": {"include/interval/interval.hpp": ["*"], "tests/interval_test.cpp": ["declared"]},
        "bugs": [{"id": "merge-gap", "file": "include/interval/interval.hpp",
                  "find": "x.lo <= out.back().hi + 1", "replace": "x.lo <= out.back().hi",
                  "fail": ["interval_test::Merge.JoinsTouching"],
                  # ASSERT_EQ(m.size(), 1u): (actual, expected) as the test writes it
                  "values": {"interval_test::Merge.JoinsTouching": ("1", "3")}}],
    },
    "doctest-externalproject": {
        "tools": ["cmake", "ninja", "g++"], "needs": "/usr/include/doctest/doctest.h",
        "files": {"include/roman/roman.hpp": ["*"], "tests/roman_test.cpp": ["declared"]},
        "bugs": [{"id": "subtractive-forgotten", "file": "include/roman/roman.hpp",
                  "find": "if (i + 1 < s.size() && v < value_of(s[i + 1])) total -= v;\n    else total += v;",
                  "replace": "total += v;",
                  "fail": ["roman_test::round trip"]}],
    },
    "boost-units": {
        "tools": ["cmake", "ninja"], "needs": "/usr/include/boost/test/unit_test.hpp",
        "files": {"include/units/convert.hpp": ["*"], "tests/length_test.cpp": ["declared"],
                  "tests/temperature_test.cpp": ["declared"]},
        "bugs": [{"id": "gas-mark-off-by-one", "file": "include/units/convert.hpp",
                  "find": "/ 14.0 + 0.5) + 1;", "replace": "/ 14.0 + 0.5);",
                  "fail": ["units_test::temperature/gas_marks"],
                  "values": {"units_test::temperature/gas_marks": ("1", "0")}}],
        # a candidate with gas mark 2 at 140 °C first; the right body on the feedback
        "generate": {"file": "include/units/convert.hpp", "function": "gas_mark",
                     "find": "/ 14.0 + 0.5) + 1;", "wrong": "/ 14.0 + 0.5) + 2;", "evidence": "expected 1"},
    },
    "meson-gtest": {
        "tools": ["meson", "ninja"], "needs": "/usr/include/gtest/gtest.h",
        "files": {"include/textwrap/wrap.hpp": ["*"], "src/wrap.cpp": ["*"],
                  "tests/justify_test.cpp": ["declared"], "tests/wrap_test.cpp": ["declared"],
                  "tests/wrap_check.cpp": ["wrap_check", "wrap_check_rejects_zero"]},
        "bugs": [{"id": "justify-extra-right", "file": "include/textwrap/wrap.hpp",
                  "find": "(i - 1 < spaces % gaps ? 1 : 0)", "replace": "(gaps - i < spaces % gaps ? 1 : 0)",
                  "fail": ["wrap_test::Justify.LeftGapsGetTheExtra"],
                  "values": {"wrap_test::Justify.LeftGapsGetTheExtra": ('"a   b  c"', '"a  b   c"')}},
                 {"id": "wrap-breaks-exact-fit", "file": "src/wrap.cpp",
                  "find": "line.size() + 1 + w.size() > width", "replace": "line.size() + 1 + w.size() >= width",
                  "fail": ["wrap_test::Wrap.FillsLinesGreedily", "wrap_test::Wrap.ExactFit", "wrap_check::wrap_check"],
                  "values": {"wrap_test::Wrap.ExactFit": ("1", "2")}}],
    },
    "make-doctest": {
        "tools": ["make", "bear", "ninja"], "needs": "/usr/include/doctest/doctest.h",
        # csv.hpp: the cases of the two test files that include it, not escape_test.cpp's (all
        # three are linked into one program: greenlight keeps a header's own)
        "files": {"include/csv.hpp": ["file:tests/csv_test.cpp", "file:tests/quote_test.cpp"],
                  "include/escape.hpp": ["file:tests/escape_test.cpp"], "src/csv.cpp": ["*"],
                  "tests/csv_test.cpp": ["declared"], "tests/quote_test.cpp": ["declared"]},
        "bugs": [{"id": "quote-inner-not-doubled", "file": "include/csv.hpp",
                  "find": "    if (c == '\"') out += '\"';\n", "replace": "",
                  "fail": ["doctest::inner quotes are doubled", "doctest::join round-trips"]},
                 {"id": "leading-space-unquoted", "file": "include/csv.hpp",
                  "find": "(field.front() == ' ' || field.back() == ' ')", "replace": "(field.back() == ' ')",
                  "fail": ["doctest::leading space needs quotes"]},
                 {"id": "split-drops-last-field", "file": "src/csv.cpp",
                  "find": "  fields.push_back(cur);\n  return fields;", "replace": "  if (!cur.empty()) fields.push_back(cur);\n  return fields;",
                  "fail": ["doctest::empty fields are kept"],
                  "values": {"doctest::empty fields are kept": ("3", "2")}}],
    },
}

BAZEL_FILES = {"src/mathx.h": ["file:test/mathx_test.cc"], "src/clamp.h": ["file:test/clamp_test.cc"],
               "src/mathx.cc": ["*"], "test/mathx_test.cc": ["declared"], "test/clamp_test.cc": ["declared"]}
BAZEL_BUGS = [{"id": "gcd-stops-at-one", "file": "src/mathx.h", "find": "while (b != 0)", "replace": "while (b > 1)",
               "fail": ["doctest::gcd of coprimes is 1"], "values": {"doctest::gcd of coprimes is 1": ("1", "9")}},
              {"id": "clamp-above-to-lo", "file": "src/clamp.h", "find": "v > hi ? hi", "replace": "v > hi ? lo",
               "fail": ["doctest::clamp above"], "values": {"doctest::clamp above": ("10", "0")}},
              {"id": "lcm-without-gcd", "file": "src/mathx.cc", "find": "a / gcd(a, b) * b", "replace": "a * b",
               "fail": ["doctest::lcm"], "values": {"doctest::lcm": ("12", "24")}}]
for variant, name in (("execroot", "bazel-execroot"), ("workspace", "bazel-hedron")):
    PROJECTS[name] = {"tools": ["ninja", "g++"], "needs": "/usr/include/doctest/doctest.h", "bazel": variant,
                      "files": BAZEL_FILES, "bugs": BAZEL_BUGS}


def outcome(t):
    if t["status"] == "skipped" and t.get("outcome") == "xfailed":
        return "xfailed"
    return {"error": "failed", "timeout": "failed"}.get(t["status"], t["status"])


check_greenlight.outcome = outcome


def sh(argv, cwd, **kw):
    return subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)


def must(argv, cwd):
    r = sh(argv, cwd)
    if r.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(argv), r.returncode, r.stdout.decode(errors="replace")[-2000:]))


def rel(root, p):
    if not p:
        return None
    p = p if os.path.isabs(p) else os.path.normpath(os.path.join(root, p))
    return os.path.relpath(os.path.realpath(p), os.path.realpath(root))


def gtest_truth(exe, prefix, root, cwd):
    report = exe + ".json"
    sh([exe, "--gtest_output=json:" + report], cwd)
    out = {}
    for s in json.load(open(report))["testsuites"]:
        for t in s["testsuite"]:
            st = "failed" if t.get("failures") else "skipped" if t.get("result") in ("SKIPPED", "SUPPRESSED") else "passed"
            f = t.get("file")
            if f and not os.path.isabs(f):
                f = os.path.normpath(os.path.join(cwd, f))
            out["%s::%s.%s" % (prefix, s["name"], t["name"])] = (st, rel(root, f))
    return out


def boost_truth(exe, prefix, root, cwd):
    r = sh([exe, "--log_format=XML", "--log_level=all", "--report_level=no"], cwd)
    text = r.stdout.decode(errors="replace")
    doc = ET.fromstring(text[text.index("<TestLog>"):text.rindex("</TestLog>") + len("</TestLog>")])
    out = {}

    def walk(node, path):
        for c in node:
            name = c.get("name")
            full = name if not path else path + "/" + name
            if c.tag == "TestSuite":
                walk(c, full)
            elif c.tag == "TestCase":
                if c.get("skipped") == "yes":
                    st = "skipped"
                else:
                    st = "failed" if any(x.tag in ("Error", "FatalError", "Exception") for x in c) else "passed"
                out["%s::%s" % (prefix, full)] = (st, rel(root, c.get("file")))
    for master in doc:
        walk(master, "")
    # A disabled case names no file in the log: the test file declaring it.
    for i, (st, f) in list(out.items()):
        if f:
            continue
        leaf = i.split("::", 1)[1].split("/")[-1]
        for d, _, files in os.walk(os.path.join(root, "tests")):
            for name in files:
                if re.search(r"BOOST_\w*TEST_CASE\w*\(\s*%s\b" % re.escape(leaf), open(os.path.join(d, name)).read()):
                    out[i] = (st, rel(root, os.path.join(d, name)))
    return out


def doctest_truth(exe, prefix, root, cwd):
    report = exe + ".xml"
    sh([exe, "-r=xml", "-out=" + report], cwd)
    out = {}
    for tc in ET.parse(report).getroot().iter("TestCase"):
        ok = tc.find("OverallResultsAsserts")
        st = "skipped" if tc.get("skipped") == "true" else "passed" if ok is not None and ok.get("test_case_success") == "true" else "failed"
        out["%s::%s" % (prefix, tc.get("name"))] = (st, rel(root, os.path.join(cwd, tc.get("filename"))))
    return out


BAZEL_FLAGS = ["-U_FORTIFY_SOURCE", "-fstack-protector", "-Wall", "-Wunused-but-set-parameter", "-Wno-free-nonheap-object",
               "-fno-omit-frame-pointer", "-std=c++17", "-fPIC",
               "-iquote", ".", "-iquote", "bazel-out/k8-fastbuild/bin",
               "-iquote", "external/doctest", "-iquote", "bazel-out/k8-fastbuild/bin/external/doctest",
               "-isystem", "external/doctest/doctest", "-isystem", "bazel-out/k8-fastbuild/bin/external/doctest/doctest"]


def bazel_layout(root, variant):
    """What `bazel build //...` and a compile-commands extractor leave: the output base (under a
    fake ~/.cache/bazel beside the workspace, never inside it), its execroot, the workspace's links
    and compile_commands.json (`variant`: each entry's directory the execroot, or the workspace)."""
    tmp = os.path.dirname(root)
    base = os.path.join(tmp, "home", ".cache", "bazel", "_bazel_user", "5c2e9f0a7d41b3e86a0f1c9d2b7e4a13")
    execroot = os.path.join(base, "execroot", "_main")
    os.makedirs(os.path.join(execroot, "external"))
    # The execroot links each top-level entry of the workspace; fetched repositories live in
    # the output base's external/, linked from the execroot's.
    for entry in os.listdir(root):
        os.symlink(os.path.join(root, entry), os.path.join(execroot, entry))
    shutil.copytree("/usr/include/doctest", os.path.join(base, "external", "doctest", "doctest"))
    os.symlink(os.path.join(base, "external", "doctest"), os.path.join(execroot, "external", "doctest"))
    out = os.path.join(execroot, "bazel-out", "k8-fastbuild")
    os.makedirs(os.path.join(out, "bin", "src"))
    os.makedirs(os.path.join(out, "testlogs"))
    open(os.path.join(out, "bin", "src", "version.h"), "w").write('#define MATHX_VERSION "1.4.0"\n')
    for link, target in (("bazel-out", os.path.join(execroot, "bazel-out")), ("bazel-bin", os.path.join(out, "bin")),
                         ("bazel-testlogs", os.path.join(out, "testlogs")), ("bazel-mathx", execroot),
                         # hedron's README has users link external/ by hand, as
                         # `ln -s bazel-out/../../../external .`: ".." taken after the link,
                         # into the output base's own external/.
                         ("external", "bazel-mathx/external" if variant == "execroot" else "bazel-out/../../../external")):
        os.symlink(target, os.path.join(root, link))
    directory = execroot if variant == "execroot" else root
    # Bazel's auto-configured toolchain compiles C++ with the C driver (its tool_path gcc), which
    # links no C++ runtime: the hedron variant's database names /usr/bin/gcc as Bazel writes it.
    compiler = "/usr/bin/g++" if variant == "execroot" else "/usr/bin/gcc"
    entries = []
    for src, obj in (("src/mathx.cc", "_objs/mathx/mathx.pic.o"), ("test/mathx_test.cc", "_objs/mathx_test/mathx_test.pic.o"),
                     ("test/clamp_test.cc", "_objs/mathx_test/clamp_test.pic.o")):
        obj = "bazel-out/k8-fastbuild/bin/" + obj
        entries.append({"directory": directory, "file": src,
                        "arguments": [compiler] + BAZEL_FLAGS + ["-MD", "-MF", obj[:-2] + ".d", "-c", src, "-o", obj]})
    json.dump(entries, open(os.path.join(root, "compile_commands.json"), "w"), indent=1)
    return entries


def bazel_truth(root, entries):
    """The test program compiled by g++ from the database's own commands (in each entry's
    directory, objects elsewhere), doctest's main added, run with doctest's XML reporter."""
    tmp = os.path.dirname(root)
    # The fixture is honest only if nothing but the output base answers "doctest.h".
    probe = os.path.join(tmp, "probe.cc")
    open(probe, "w").write('#include "doctest.h"\n')
    if sh(["g++", "-fsyntax-only", probe], tmp).returncode == 0:
        raise RuntimeError('"doctest.h" resolves without the output base: the fixture would not need its directories')
    objs = os.path.join(tmp, "truth")
    os.makedirs(objs)
    main = os.path.join(objs, "main.cc")
    open(main, "w").write('#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include "doctest.h"\n')
    compiled = []
    for i, e in enumerate(entries + [dict(entries[1], file=main)]):
        args, skip = [], False
        for a in e["arguments"]:
            if skip:
                skip = False
            elif a in ("-MD",):
                continue
            elif a in ("-MF", "-o"):
                skip = True
            else:
                args.append(main if a == entries[1]["file"] and e["file"] == main else a)
        obj = os.path.join(objs, "%d.o" % i)
        must(["nice", "-n", "10"] + args + ["-o", obj], e["directory"])
        compiled.append(obj)
    exe = os.path.join(objs, "mathx_test")
    must(["g++"] + compiled + ["-o", exe], tmp)
    return doctest_truth(exe, "doctest", root, entries[1]["directory"])


def user_build_and_truth(name, root):
    """Builds the project the way its user does; returns id -> (outcome, relative file)."""
    if name == "gtest-fetchcontent":
        # What `cmake -S . -B build` leaves after FetchContent downloaded googletest: its sources
        # under build/_deps/googletest-src (copied from Debian here: no network).
        deps = os.path.join(root, "build", "_deps")
        os.makedirs(deps)
        shutil.copytree("/usr/src/googletest", os.path.join(deps, "googletest-src"))
        must(["cmake", "-S", ".", "-B", "build", "-G", "Ninja", "-DFETCHCONTENT_FULLY_DISCONNECTED=ON"], root)
        must(["nice", "-n", "10", "cmake", "--build", "build", "-j2"], root)
        return gtest_truth(os.path.join(root, "build", "interval_test"), "interval_test", root, os.path.join(root, "build"))
    if name == "doctest-externalproject":
        # What a first `cmake -S . -B build && cmake --build build` leaves: configured (ExternalProject
        # does not download at configure time) and doctest's sources where ExternalProject put
        # them (copied from Debian here: no network). The truth: the test program compiled
        # against those sources as the build would, run with doctest's XML reporter.
        must(["cmake", "-S", ".", "-B", "build", "-G", "Ninja"], root)
        shutil.copytree("/usr/include/doctest", os.path.join(root, "build", "external", "doctest", "src", "doctest_ep", "doctest"))
        exe = os.path.join(root, "build", "roman_truth")
        must(["nice", "-n", "10", "g++", "-std=c++17", "-Iinclude", "-Ibuild/external/doctest/src/doctest_ep/doctest",
              "tests/main.cpp", "tests/roman_test.cpp", "-o", exe], root)
        return doctest_truth(exe, "roman_test", root, root)
    if name == "boost-units":
        # Configured from its preset (binaryDir out/dev, UNITS_GAS_MARK=ON): greenlight must take
        # the same preset, or the gas mark tests are not compiled.
        must(["cmake", "--preset", "dev"], root)
        must(["nice", "-n", "10", "cmake", "--build", "out/dev", "-j2"], root)
        return boost_truth(os.path.join(root, "out", "dev", "units_test"), "units_test", root, os.path.join(root, "out", "dev"))
    if name == "meson-gtest":
        must(["meson", "setup", "build"], root)
        must(["nice", "-n", "10", "ninja", "-C", "build", "-j2"], root)
        sh(["meson", "test", "-C", "build", "--no-rebuild"], root)
        truth = {}
        for line in open(os.path.join(root, "build", "meson-logs", "testlog.json")):
            t = json.loads(line)
            if t["name"] == "wrap_test":
                continue
            st = {"OK": "passed", "EXPECTEDFAIL": "passed", "SKIP": "skipped"}.get(t["result"], "failed")
            truth["%s::%s" % (t["name"], t["name"])] = (st, "tests/wrap_check.cpp")
        truth.update(gtest_truth(os.path.join(root, "build", "wrap_test"), "wrap_test", root, os.path.join(root, "build")))
        return truth
    if name == "make-doctest":
        must(["bear", "--", "make", "-j2"], root)
        return doctest_truth(os.path.join(root, "tests", "run_tests"), "doctest", root, root)
    if PROJECTS[name].get("bazel"):
        return bazel_truth(root, bazel_layout(root, PROJECTS[name]["bazel"]))
    raise ValueError(name)


def expected(spec, relpath, truth):
    ids = set()
    for what in spec["files"][relpath]:
        for i, (st, f) in truth.items():
            if what == "*" or (what == "declared" and f == relpath) or what == "file:%s" % f or what == i.split("::", 1)[0]:
                ids.add(i)
    return ids


def check_bugs(spec, root, bin_, env, truth):
    problems, caught = [], 0
    for bug in spec["bugs"]:
        path = os.path.join(root, bug["file"])
        original = open(path).read()
        assert bug["find"] in original, bug
        label = "bug " + bug["id"]
        try:
            open(path, "w").write(original.replace(bug["find"], bug["replace"], 1))
            start = time.time()
            result, code, err = run_greenlight(bin_, root, bug["file"], env)
            took = time.time() - start
        finally:
            open(path, "w").write(original)
        if result is None or result.get("error"):
            problems.append("%s: greenlight run failed (exit %d): %s" % (label, code, (result or {}).get("error") or err[-1500:]))
            continue
        btr = dict(truth)
        for i in bug["fail"]:
            btr[i] = ("failed", truth[i][1])
        _, p = compare(label, result, expected(spec, bug["file"], btr), btr)
        failed = [t for t in result["tests"] if outcome(t) == "failed"]
        for t in failed:
            if not (t.get("expected") or t.get("actual") or VALUES.search(t.get("message", "")) or
                    re.search(r"exit(ed)? (with )?(code|status)", t.get("message", ""))):
                p.append("%s: %s fails without values: %s" % (label, t.get("id", t.get("name")), t.get("message")))
        for i, (want_e, want_a) in bug.get("values", {}).items():
            t = next((t for t in failed if t.get("id") == i), {})
            if (t.get("expected"), t.get("actual")) != (want_e, want_a):
                p.append("%s: %s expected/actual %s/%s, want %s/%s (%s)" % (
                    label, i, t.get("expected"), t.get("actual"), want_e, want_a, t.get("message")))
        in_file = [d for d in result["diagnostics"] if d["file"] == path]
        if not in_file:
            p.append("%s: no diagnostic in %s (diagnostics in %s)" % (label, bug["file"], sorted({d["file"] for d in result["diagnostics"]})))
        if code != 1:
            p.append("%s: exit %d, expected 1" % (label, code))
        problems += p
        caught += not p
        print("  %-28s %d failing, %d diagnostics in the file (%.1f s): %s" % (
            bug["id"], len(failed), len(in_file), took, (in_file[0]["message"] if in_file else "")[:110]))
    return caught, problems


def check_generate(spec, root, bin_, env):
    g = spec.get("generate")
    if not g:
        return []
    path = os.path.join(root, g["file"])
    original = open(path).read()
    lines = original.splitlines(keepends=True)
    first = next(i for i, l in enumerate(lines) if re.search(r"\b%s\s*\(" % g["function"], l) and "{" in l)
    last = next(i for i in range(first + 1, len(lines)) if lines[i].startswith("}"))
    definition = "".join(lines[first:last + 1])
    stubbed = "".join(lines[:first]) + lines[first].rstrip("\n") + "}\n" + "".join(lines[last + 1:])
    wrong = definition.replace(g["find"], g["wrong"])
    assert wrong != definition, g
    problems = []
    open(path, "w").write(stubbed)
    with tempfile.TemporaryDirectory() as tmp:
        fence = lambda code: "Here it is:\n\n```cpp\n" + code + "```\n"
        script = {"rules": [], "default": {"wrong": fence(wrong), "right": fence(definition), "evidence": g["evidence"]}}
        proc, port = start_model(script, tmp)
        try:
            genv = dict(env, GREENLIGHT_PROVIDER="openai", OPENAI_BASE_URL="http://127.0.0.1:%d/v1" % port,
                        OPENAI_API_KEY="sk-test", GREENLIGHT_MODEL="scripted")
            start = time.time()
            r = subprocess.run([bin_, "generate", "%s:%d" % (g["file"], first + 1), "--json", "--apply"],
                               cwd=root, env=genv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1800)
            took = time.time() - start
            try:
                result = json.loads(r.stdout.decode())
            except ValueError:
                result = {}
            after = open(path).read()
            rounds = result.get("rounds") or []
            if r.returncode != 0 or result.get("status") != "passed":
                problems.append("generate %s: exit %d, status %s: %s %s" % (
                    g["function"], r.returncode, result.get("status"), result.get("error"), r.stderr.decode(errors="replace")[-1500:]))
            elif after != original:
                problems.append("generate %s: the file after --apply differs from the original" % g["function"])
            elif len(rounds) != 2:
                problems.append("generate %s: %d rounds, expected 2 (wrong, then right on the feedback)" % (g["function"], len(rounds)))
            else:
                print("  generate %s: passed in round 2 (%d tests; %.1f s)" % (g["function"], result.get("summary", {}).get("passed", 0), took))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            open(path, "w").write(original)
    return problems


OFFLINE = {
    # project: (the file run, what the sentence must say)
    "gtest-fetchcontent": ("tests/interval_test.cpp",
                           ["offline", "googletest", "FetchContent_Declare at CMakeLists.txt:", "build/_deps/googletest-src",
                            "FETCHCONTENT_SOURCE_DIR_GOOGLETEST", '"sandbox": {"network": true}']),
    # ExternalProject downloads during the build: the build says it, not a bare "the build stopped".
    "doctest-externalproject": ("tests/roman_test.cpp",
                                ["could not build", "offline", "it downloads doctest_ep from https://github.com/doctest/",
                                 "ExternalProject_Add at cmake/doctest.cmake:", "build/external/doctest/src/doctest_ep",
                                 '"sandbox": {"network": true}']),
}


def check_offline_sentence(name, root_clean, bin_, env):
    """Without the user's build there is nothing to reuse: the sentence, not a bare failure."""
    run_file, want = OFFLINE[name]
    r = subprocess.run([bin_, "run", run_file, "--json"], cwd=root_clean, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    text = r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")
    try:  # a build's sentence is a test's message: read it unescaped
        result = json.loads(r.stdout.decode("utf-8"))
        text += "\n".join([result.get("error") or ""] + [t.get("message", "") for t in result.get("tests", [])])
    except ValueError:
        pass
    missing = [w for w in want if w not in text]
    if r.returncode == 0 or missing:
        return ["offline: exit %d, the message lacks %s: %s" % (r.returncode, missing, text[-1500:])]
    print("  offline without the user's build: exit %d, names the download and how to allow it" % r.returncode)
    return []


def check_meson_wrap_sentence(work, bin_, env):
    """A subproject wrap not downloaded yet: Meson's offline setup names it and how to get it."""
    root = os.path.join(work, "meson-wrap")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "subprojects"))
    os.makedirs(os.path.join(root, "tests"))
    open(os.path.join(root, "meson.build"), "w").write(
        "project('w', 'cpp')\nfmt = dependency('fmtx', fallback: ['fmtx', 'fmtx_dep'])\n"
        "test('t', executable('t', 'tests/t_test.cpp', dependencies: fmt))\n")
    open(os.path.join(root, "subprojects", "fmtx.wrap"), "w").write(
        "[wrap-file]\ndirectory = fmtx-1.0\nsource_url = https://example.com/fmtx-1.0.tar.gz\n"
        "source_filename = fmtx-1.0.tar.gz\nsource_hash = " + "0" * 64 + "\n")
    open(os.path.join(root, "tests", "t_test.cpp"), "w").write("int main() { return 0; }\n")
    subprocess.run(["chmod", "-R", "go+rX", work], check=False)
    r = subprocess.run([bin_, "run", "tests/t_test.cpp", "--json"], cwd=root, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    text = r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")
    want = ["fmtx (subprojects/fmtx.wrap, https://example.com/fmtx-1.0.tar.gz)", "meson subprojects download"]
    missing = [w for w in want if w not in text]
    if r.returncode == 0 or missing:
        return ["meson wrap offline: exit %d, the message lacks %s: %s" % (r.returncode, missing, text[-1500:])]
    print("  meson setup with a wrap not downloaded: exit %d, names fmtx and `meson subprojects download`" % r.returncode)
    return []


def check_bazel_coverage(root, relpath, result):
    """gcov names a file the compiler read through Bazel's execroot by that path: the run's
    coverage must still be of the project's file, with lines its tests ran."""
    path = os.path.join(root, relpath)
    cov = [c for c in result.get("coverage") or [] if c["file"] == path]
    if len(cov) != 1:
        return ["%s: no coverage of the file (coverage of %s)" % (relpath, [c["file"] for c in result.get("coverage") or []])]
    if not cov[0]["run"]:
        return ["%s: coverage says no line ran (%d lines)" % (relpath, len(cov[0]["lines"]))]
    print("  %-34s coverage: %d/%d lines run" % (relpath, len(cov[0]["run"]), len(cov[0]["lines"])))
    return []


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("project", choices=sorted(PROJECTS))
    ap.add_argument("--greenlight", required=True)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "gl-cxx-builds"))
    ap.add_argument("--skip-bugs", action="store_true")
    ap.add_argument("--skip-generate", action="store_true")
    a = ap.parse_args(argv)
    spec = PROJECTS[a.project]
    for tool in spec["tools"] + ["g++"]:
        if not shutil.which(tool):
            print("SKIP: %s not found (scripts/deps.sh test)" % tool)
            return SKIP
    if not os.path.exists(spec["needs"]):
        print("SKIP: %s not installed (scripts/deps.sh test)" % spec["needs"])
        return SKIP
    work = os.path.abspath(a.work)
    bazel_tmp = None
    if spec.get("bazel"):
        # Outside any repository (the work dir is in greenlight's): the workspace is the project
        # greenlight binds, and the output base beside it is not.
        bazel_tmp = tempfile.mkdtemp(prefix="gl-%s-" % a.project)
        os.chmod(bazel_tmp, 0o755)
        root = os.path.join(bazel_tmp, "mathx")
        shutil.copytree(os.path.join(HERE, "bazel-workspace"), root)
    else:
        root = os.path.join(work, a.project)
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(os.path.join(HERE, a.project), root)
    os.makedirs(work, exist_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8",
           "XDG_CACHE_HOME": os.path.join(work, "cache")}
    bin_ = os.path.abspath(a.greenlight)
    problems = []
    if a.project in OFFLINE:
        clean = os.path.join(work, a.project + "-nobuild")
        shutil.rmtree(clean, ignore_errors=True)
        shutil.copytree(os.path.join(HERE, a.project), clean)
        subprocess.run(["chmod", "-R", "go+rX", work], check=False)
        problems += check_offline_sentence(a.project, clean, bin_, env)
    if a.project == "meson-gtest":
        problems += check_meson_wrap_sentence(work, bin_, env)
    try:
        truth = user_build_and_truth(a.project, root)
    except RuntimeError as e:
        print("FAIL: the project's own build: %s" % e)
        return 1
    subprocess.run(["chmod", "-R", "go+rX", work] + ([bazel_tmp] if bazel_tmp else []), check=False)
    print("%s: greenlight against the framework's own report (%d tests, %d failing)" % (
        a.project, len(truth), sum(1 for s, _ in truth.values() if s == "failed")))
    agree = compared = 0
    for relpath in spec["files"]:
        start = time.time()
        result, code, err = run_greenlight(bin_, root, relpath, env)
        if result is None or result.get("error"):
            problems.append("%s: greenlight run failed (exit %d): %s" % (relpath, code, (result or {}).get("error") or err[-1500:]))
            continue
        exp = expected(spec, relpath, truth)
        n, p = compare(relpath, result, exp, truth)
        agree += n
        compared += len(exp)
        problems += p
        if spec.get("bazel") and not relpath.startswith("test/"):
            problems += check_bazel_coverage(root, relpath, result)
        print("  %-34s %3d/%3d tests agree (%.1f s)" % (relpath, n, len(exp), time.time() - start))
    if not a.skip_bugs:
        caught, p = check_bugs(spec, root, bin_, env, truth)
        problems += p
        print("  bugs caught: %d/%d" % (caught, len(spec["bugs"])))
    if not a.skip_generate:
        problems += check_generate(spec, root, bin_, env)
    for p in problems:
        print("FAIL: " + p)
    print("%s: %d/%d tests agree, %d problems" % (a.project, agree, compared, len(problems)))
    if bazel_tmp and not problems:
        shutil.rmtree(bazel_tmp, ignore_errors=True)
    elif bazel_tmp:
        print("the workspace and output base are kept in " + bazel_tmp)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
