#!/usr/bin/env python3
"""greenlight's line coverage of Python code (issue 35) against coverage.py, and its neutrality.

    check_coverage.py PROJECT --greenlight BIN [--out DIR] [--no-agree]

For every source module of the project, `greenlight run MODULE --json`:
1. agree:   its `coverage` entry for the module, line by line, must be coverage.py's for the same
            tests (`python -m coverage run --include=MODULE -m pytest FILES...`, FILES being the
            test files greenlight's results came from): the executable lines (coverage.py's
            statements) and which of them ran. (pytest projects; --no-agree skips it, for code
            that behaves differently under coverage.py's own tracer, which it cannot hide.)
2. neutral: the same run with GREENLIGHT_COVERAGE=0 must give every test the same outcome and
            no `coverage`; with coverage on, the run must have measured the module.

Exit 0: all agree; 1: a disagreement (printed); 77: the project or coverage.py is not here.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_greenlight  # noqa: E402
import run_project  # noqa: E402

SKIP = 77


def greenlight_run(bin_, root, rel, env):
    r = subprocess.run([bin_, "run", rel, "--json"], cwd=root, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=900)
    try:
        return json.loads(r.stdout.decode("utf-8")), r.stderr.decode(errors="replace")
    except ValueError:
        return None, r.stderr.decode(errors="replace") + r.stdout.decode(errors="replace")[-2000:]


def outcomes(result):
    return {(t.get("id") or t["name"]): check_greenlight.outcome_of(t) for t in result["tests"]}


ANALYSE = """
import json, sys
import coverage
cov = coverage.Coverage(data_file=sys.argv[1])
cov.load()
_, statements, _, missing, _ = cov.analysis2(sys.argv[2])
print(json.dumps([sorted(statements), sorted(missing)]))
"""


def reference(python, root, module, files, work):
    """coverage.py's (statements, executed) for `module` over pytest FILES, or None."""
    data = os.path.join(work, ".coverage")
    if os.path.exists(data):
        os.remove(data)
    env = {"COVERAGE_FILE": data}
    run_project.run([python, "-m", "coverage", "run", "--include=" + module, "-m", "pytest", "-q", "-p",
                     "no:cacheprovider"] + files, root, env)
    r = run_project.run([python, "-c", ANALYSE, data, module], root, env)
    if r.returncode != 0:
        return None
    statements, missing = json.loads(r.stdout.decode())
    return set(statements), set(statements) - set(missing)


def check(cfg, a):
    try:
        p = run_project.prepare(cfg, a.out)
    except run_project.Skip as e:
        print("skipped: %s" % e)
        return SKIP
    python = run_project.python_of(cfg, p)
    agree = cfg["runner"] == "pytest" and not a.no_agree
    if agree and run_project.run([python, "-c", "import coverage"], p["root"]).returncode != 0:
        print("skipped: coverage.py is not importable by %s (python3-coverage; scripts/deps.sh installs it)" % python)
        return SKIP
    subprocess.run(["chmod", "-R", "go+rX", p["base"]], check=False)
    os.chmod(a.out, 0o755)
    with open(os.path.join(p["root"], ".greenlight.json"), "w", encoding="utf-8") as f:
        json.dump({"python": {"interpreter": python}}, f)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}
    problems = []
    measured = compared = lines_compared = 0
    for rel in check_greenlight.source_files(p["root"], cfg):
        module = os.path.join(p["root"], rel)
        on, err = greenlight_run(a.greenlight, p["root"], rel, env)
        off, err_off = greenlight_run(a.greenlight, p["root"], rel, dict(env, GREENLIGHT_COVERAGE="0"))
        if on is None or off is None:
            if on is not None or off is not None:
                problems.append("%s: JSON with coverage %s, without %s" % (rel, on is not None, off is not None))
            continue  # no tests near it (exit 3): nothing to measure
        if outcomes(on) != outcomes(off):
            diff = {k: (outcomes(on).get(k), outcomes(off).get(k)) for k in set(outcomes(on)) | set(outcomes(off))
                    if outcomes(on).get(k) != outcomes(off).get(k)}
            problems.append("%s: outcomes differ with coverage (with, without): %s" % (rel, diff))
        if "coverage" in off:
            problems.append("%s: GREENLIGHT_COVERAGE=0 still reported coverage" % rel)
        ran = [t for t in on["tests"] if t["status"] != "skipped"]
        if not ran:
            continue
        entry = next((c for c in on.get("coverage", []) if c["file"] == module), None)
        if entry is None:
            problems.append("%s: %d tests ran, no coverage of it was reported" % (rel, len(ran)))
            continue
        measured += 1
        lines, run = set(entry["lines"]), set(entry["run"])
        if set(entry["not_run"]) != lines - run or on["summary"].get("coverage") != {"lines": len(lines), "run": len(run)}:
            problems.append("%s: lines/run/not_run/summary.coverage do not add up: %s" % (rel, on["summary"].get("coverage")))
        if not agree:
            continue
        files = sorted({os.path.relpath(t["file"], p["root"]) for t in on["tests"] if t.get("file")})
        ref = reference(python, p["root"], module, files, p["base"])
        if ref is None:
            problems.append("%s: coverage.py gave no report" % rel)
            continue
        statements, executed = ref
        compared += 1
        lines_compared += len(statements)
        if lines != statements:
            problems.append("%s: executable lines: greenlight only %s, coverage.py only %s"
                            % (rel, sorted(lines - statements), sorted(statements - lines)))
        if run != executed:
            problems.append("%s: lines run: greenlight only %s, coverage.py only %s (tests of %s)"
                            % (rel, sorted(run - executed), sorted(executed - run), files))
        print("  %-40s %3d/%3d lines run (coverage.py: %d/%d)" % (rel, len(run), len(lines), len(executed), len(statements)))
    print("%s: %d modules measured, %d compared with coverage.py (%d lines)" % (cfg["name"], measured, compared, lines_compared))
    if measured == 0:
        problems.append("no module was measured")
    for line in problems:
        print("DISAGREE: " + line)
    return 1 if problems else 0


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("project")
    ap.add_argument("--greenlight", required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--no-agree", action="store_true")
    a = ap.parse_args(argv)
    a.greenlight = os.path.abspath(a.greenlight)
    cfg = run_project.load(a.project)
    fresh = a.out is None
    if fresh:
        a.out = tempfile.mkdtemp(prefix="gl-coverage-")
        os.chmod(a.out, 0o755)
    try:
        return check(cfg, a)
    finally:
        if fresh:
            import shutil
            shutil.rmtree(a.out, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
