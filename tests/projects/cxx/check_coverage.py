#!/usr/bin/env python3
"""C++ line coverage (issue 35) of greenlight's runs against gcov run by hand, line by line.

    check_coverage.py PROJECT --probe BIN [--work DIR] [--gcov gcov-12]

The truth: the project built by its own build with --coverage (CMake: CMAKE_CXX_FLAGS; Meson:
b_coverage; Make: CXXFLAGS), every test run by the project's runner (ctest / meson test / the
test program), then gcov's text
report (`gcov -t` per .gcda, not its JSON: another reader than greenlight's) summed over every
translation unit that compiled or included the file. For each file of FILES, greenlight's run
of that file (coverage_probe: the engine's RunResult::coverage) must report
  - exactly the executable lines gcov reports, and
  - run (count > 0) exactly the lines gcov reports run.
Counts themselves may differ where ctest runs a binary once per test and greenlight once per
binary (static initializers): they are printed, not compared. Then the same run with
GREENLIGHT_COVERAGE=0 must give every test the same outcome and no coverage (neutral).
Exit 0: all agree; 1: a disagreement (printed); 77: cannot run here.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

# Per project: its build, what must be installed, the files whose runs are checked.
PROJECTS = {
    "gtest-textstat": {"build": "cmake", "needs": "/usr/include/gtest/gtest.h",
                       "files": ["src/tokenize.cpp", "include/textstat/stats.h", "include/textstat/tokenize.h"]},
    "catch2-cliopts": {"build": "cmake", "needs": None,
                       "files": ["include/cliopts/cliopts.hpp"]},
    "doctest-ringbuf": {"build": "cmake", "needs": "/usr/include/doctest/doctest.h",
                        "files": ["src/moving_stats.cpp", "include/ringbuf/ring_buffer.hpp"]},
    "meson-gtest": {"build": "meson", "needs": "/usr/include/gtest/gtest.h",
                    "files": ["src/wrap.cpp", "include/textwrap/wrap.hpp"]},
    # The same project configured for clang++ (a CMakePresets.json the private build follows):
    # gcov cannot read clang's data, so no coverage, and the same outcomes as without.
    "doctest-ringbuf-clang": {"build": "cmake", "copy": "doctest-ringbuf", "clang": True,
                              "needs": "/usr/include/doctest/doctest.h",
                              "files": ["src/moving_stats.cpp", "include/ringbuf/ring_buffer.hpp"]},
    # greenlight reads the compile_commands.json `bear -- make` writes; the truth is a second
    # copy made with --coverage in CXXFLAGS and its test program run once.
    "make-doctest": {"build": "make", "needs": "/usr/include/doctest/doctest.h",
                     "files": ["src/csv.cpp"]},
}

LINE = re.compile(r"^\s*([^:]+):\s*(\d+):")


def skip(why):
    print("SKIP: " + why)
    sys.exit(SKIP)


def sh(argv, cwd, env=None):
    r = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def must(argv, cwd, env=None):
    code, out = sh(argv, cwd, env)
    if code != 0:
        print("FAILED: %s (exit %d)\n%s" % (" ".join(argv), code, out[-3000:]))
        sys.exit(1)
    return out


def reference_build(name, spec, src, ref):
    """The project's own build with --coverage, every test run once by its own runner."""
    if os.path.isdir(ref):
        shutil.rmtree(ref)
    if spec["build"] == "cmake":
        must(["cmake", "-S", src, "-B", ref, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug",
              "-DCMAKE_CXX_FLAGS=--coverage", "-DCMAKE_C_FLAGS=--coverage",
              "-DCMAKE_EXE_LINKER_FLAGS=--coverage", "-DCMAKE_SHARED_LINKER_FLAGS=--coverage"], src)
        must(["cmake", "--build", ref, "--parallel", "2"], src)
        for f in glob.glob(os.path.join(ref, "**", "*.gcda"), recursive=True):
            os.remove(f)  # a build step that ran a test binary (gtest_discover_tests)
        sh(["ctest", "--test-dir", ref], src)
    elif spec["build"] == "make":
        shutil.copytree(src, ref)
        must(["bear", "--", "make", "-j2"], src)  # greenlight's compile_commands.json
        must(["make", "-j2", "CXXFLAGS=-std=c++17 -g -O0 -Wall --coverage", "tests/run_tests"], ref)
        sh([os.path.join(ref, "tests", "run_tests")], ref)
    else:
        must(["meson", "setup", ref, "-Db_coverage=true", "-Dbuildtype=debug"], src)
        must(["ninja", "-C", ref], src)
        for f in glob.glob(os.path.join(ref, "**", "*.gcda"), recursive=True):
            os.remove(f)
        sh(["meson", "test", "-C", ref, "--no-rebuild"], src)


def gcov_by_hand(gcov, ref):
    """{abs source: {line: count}} from gcov's text reports (-t: on stdout) of every .gcda, run
    where the compiler ran (relative source names resolve there), summed over TUs."""
    total = {}
    for data in sorted(glob.glob(os.path.join(ref, "**", "*.gcda"), recursive=True)):
        _, report = sh([gcov, "-t", os.path.abspath(data)], ref)
        source, seen = None, set()
        for text in report.splitlines():
            m = LINE.match(text)
            if not m:
                continue
            count, line = m.group(1).strip(), int(m.group(2))
            if line == 0:
                parts = text.split(":", 3)
                if len(parts) == 4 and parts[2] == "Source":
                    source, seen = os.path.normpath(os.path.join(ref, parts[3].strip())), set()
                continue
            # The main listing comes first; a template's instances repeat its lines after it.
            if source is None or line in seen or count == "-":
                continue
            seen.add(line)
            n = 0 if count.startswith("#") or count.startswith("=") else int(count.rstrip("*"))
            total.setdefault(source, {}).setdefault(line, 0)
            total[source][line] += n
    return total


def probe(bin_, path, cache, coverage):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    env.pop("GREENLIGHT_COVERAGE", None)
    if not coverage:
        env["GREENLIGHT_COVERAGE"] = "0"
    code, out = sh([bin_, path], os.path.dirname(path), env)
    lines = [l for l in out.splitlines() if l.startswith("{")]
    if code != 0 or not lines:
        print("FAILED: coverage_probe %s (exit %d)\n%s" % (path, code, out[-3000:]))
        sys.exit(1)
    return json.loads(lines[-1])


def check_clang(a, spec, src, work):
    """A clang++ build: no coverage, every test as without coverage, never an error."""
    problems = []
    for rel in spec["files"]:
        path = os.path.join(src, rel)
        on = probe(a.probe, path, os.path.join(work, "cache"), True)
        off = probe(a.probe, path, os.path.join(work, "cache-off"), False)
        if on["error"] or not on["tests"]:
            problems.append("%s: the clang++ run did not run: %s" % (rel, on["error"]))
        if on["coverage"]:
            problems.append("%s: coverage from a clang++ build: %s" % (rel, [c["file"] for c in on["coverage"]]))
        if on["tests"] != off["tests"]:
            problems.append("%s: outcomes differ with GREENLIGHT_COVERAGE=0: %s vs %s" % (rel, on["tests"], off["tests"]))
        print("  %s (clang++): %d tests, no coverage, the same outcomes with GREENLIGHT_COVERAGE=0" % (rel, len(on["tests"])))
    for p in problems:
        print("DISAGREE: " + p)
    print("%s: %s" % (a.project, "clang++ runs measure nothing and end the same" if not problems else "%d problem(s)" % len(problems)))
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("project", choices=sorted(PROJECTS))
    ap.add_argument("--probe", required=True)
    ap.add_argument("--work", default="/tmp/gl-cxx-coverage")
    ap.add_argument("--gcov", default="gcov-12" if shutil.which("gcov-12") else "gcov")
    a = ap.parse_args()
    a.probe = os.path.abspath(a.probe)
    spec = PROJECTS[a.project]
    tools = ["ninja", "g++", a.gcov] + {"cmake": ["cmake", "ctest"], "meson": ["meson"], "make": ["make", "bear"]}[spec["build"]]
    for t in tools:
        if not shutil.which(t):
            skip("%s is not installed" % t)
    if spec["needs"] and not os.path.exists(spec["needs"]):
        skip("%s is not installed" % spec["needs"])

    work = os.path.abspath(os.path.join(a.work, a.project))
    src = os.path.join(work, a.project)
    ref = os.path.join(work, "reference")
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    shutil.copytree(os.path.join(HERE, spec.get("copy", a.project)), src)
    if spec.get("clang"):
        if not shutil.which("clang++"):
            skip("clang++ is not installed")
        with open(os.path.join(src, "CMakePresets.json"), "w") as f:
            json.dump({"version": 3, "configurePresets": [{"name": "default", "generator": "Ninja", "binaryDir": "${sourceDir}/build",
                                                            "cacheVariables": {"CMAKE_CXX_COMPILER": "clang++", "CMAKE_C_COMPILER": "clang"}}]}, f)
    for d in [a.work, work] + [r for r, _, _ in os.walk(src)]:
        os.chmod(d, 0o755)  # the sandbox's user (uid 65534 under root) reads the project
    for r, _, files in os.walk(src):
        for f in files:
            os.chmod(os.path.join(r, f), 0o644)

    if spec.get("clang"):
        return check_clang(a, spec, src, work)
    reference_build(a.project, spec, src, ref)
    truth = gcov_by_hand(a.gcov, ref)
    if spec["build"] == "make":  # the copy's files stand for the project's
        truth = {src + k[len(ref):] if k.startswith(ref + "/") else k: v for k, v in truth.items()}
    problems = []
    for rel in spec["files"]:
        path = os.path.join(src, rel)
        want = truth.get(path)
        if not want:
            problems.append("%s: gcov by hand reports no lines (the reference build ran nothing of it)" % rel)
            continue
        got_run = probe(a.probe, path, os.path.join(work, "cache"), True)
        if got_run["error"]:
            problems.append("%s: run error: %s" % (rel, got_run["error"]))
            continue
        cov = [c for c in got_run["coverage"] if c["file"] == path]
        if len(cov) != 1:
            problems.append("%s: greenlight reports no coverage of the file (got %s)" % (rel, [c["file"] for c in got_run["coverage"]]))
            continue
        got = {int(l): int(n) for l, n in cov[0]["lines"]}
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        hit_differs = sorted(l for l in set(want) & set(got) if (want[l] > 0) != (got[l] > 0))
        counts_differ = sorted(l for l in set(want) & set(got) if want[l] != got[l])
        run = sum(1 for n in got.values() if n > 0)
        print("  %s: %d executable lines, %d run, %d not run; gcov by hand: %d/%d; counts differ on %d line(s)%s" % (
            rel, len(got), run, len(got) - run, sum(1 for n in want.values() if n > 0), len(want), len(counts_differ),
            "" if not counts_differ else " " + ", ".join("%d: %d vs %d" % (l, got[l], want[l]) for l in counts_differ[:6])))
        if missing:
            problems.append("%s: lines gcov counts that greenlight does not: %s" % (rel, missing))
        if extra:
            problems.append("%s: lines greenlight counts that gcov does not: %s" % (rel, extra))
        if hit_differs:
            problems.append("%s: run/not run differs on lines %s (greenlight %s, gcov %s)" % (
                rel, hit_differs, [got[l] for l in hit_differs], [want[l] for l in hit_differs]))
        if not any(n == 0 for n in want.values()) and rel == spec["files"][0]:
            print("  (%s: every line is run: the not-run side is checked by the other files)" % rel)
        # Neutral: the same outcomes without coverage, and nothing measured.
        got_off = probe(a.probe, path, os.path.join(work, "cache-off"), False)
        if got_off["tests"] != got_run["tests"]:
            diff = {k: (got_run["tests"].get(k), got_off["tests"].get(k))
                    for k in set(got_run["tests"]) | set(got_off["tests"]) if got_run["tests"].get(k) != got_off["tests"].get(k)}
            problems.append("%s: outcomes differ with GREENLIGHT_COVERAGE=0 (with, without): %s" % (rel, diff))
        if got_off["coverage"]:
            problems.append("%s: GREENLIGHT_COVERAGE=0 still measured %s" % (rel, [c["file"] for c in got_off["coverage"]]))
        print("  %s: %d tests, the same outcomes with GREENLIGHT_COVERAGE=0" % (rel, len(got_run["tests"])))
    for p in problems:
        print("DISAGREE: " + p)
    print("%s: %s" % (a.project, "coverage agrees with gcov" if not problems else "%d disagreement(s)" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
