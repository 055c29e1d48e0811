#!/usr/bin/env python3
"""What the line of origin costs: `greenlight run SOURCE --json` on a real project's source
module (the path where a failing test is traced for its line of origin) against the same run
with GREENLIGHT_PLAIN=1 (no traced rerun, no plain rerun of failures), interleaved, once with
every test passing and once with an injected bug of the project's bugs.json failing some; and
with GREENLIGHT_PLAIN_RERUN=0 (traced, failures not confirmed by a plain rerun), which tells the
tracing's cost from the confirmation's (one cold runner process, failing runs only).
Prints the medians and the ratio traced/plain. Goal: tracing <= 1.3x (issue 33; it was 2.4x when
every test's call was traced).

    bench/runners/bench_origin.py BUILD [--runs N] [--project debian-toolz]
        [--source toolz/itertoolz.py] [--bug count-off-by-one] [--baseline OTHER_GREENLIGHT]

--baseline: a second binary (e.g. a build of an older commit) timed the same way, traced.
Exit 77 when the project cannot be set up here.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = os.path.join(HERE, "..", "..", "tests", "projects", "python")
sys.path.insert(0, PROJECTS)

import run_project  # noqa: E402


def timed(argv, cwd, env):
    t0 = time.monotonic()
    r = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    elapsed = time.monotonic() - t0
    try:
        summary = json.loads(r.stdout.decode())["summary"]
    except (ValueError, KeyError):
        summary = {"error": r.stderr.decode(errors="replace")[-300:]}
    return elapsed, summary


def block(label, variants, root, source, runs):
    times = {name: [] for name, _, _ in variants}
    summaries = {}
    for _ in range(runs):
        for name, argv, env in variants:
            elapsed, summary = timed(argv + ["run", source, "--json"], root, env)
            times[name].append(elapsed)
            summaries[name] = summary
            if summary.get("passed", 0) + summary.get("failed", 0) == 0:
                raise SystemExit("%s: greenlight run %s ran no test: %s" % (name, source, summary))
    print("%s:" % label)
    medians = {}
    for name, _, _ in variants:
        medians[name] = statistics.median(times[name])
        s = summaries[name]
        print("  %-9s median %6.2f s  (min %.2f, max %.2f; %s)" % (
            name, medians[name], min(times[name]), max(times[name]),
            ", ".join("%s %s" % (k, v) for k, v in sorted(s.items()))))
    print("  traced/plain: %.2fx (without the plain rerun of failures: %.2fx)" % (
        medians["traced"] / medians["plain"], medians["no-rerun"] / medians["plain"]))
    if "baseline" in medians:
        print("  baseline/plain: %.2fx" % (medians["baseline"] / medians["plain"]))


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--project", default="debian-toolz")
    ap.add_argument("--source", default="toolz/itertoolz.py")
    ap.add_argument("--bug", default="count-off-by-one")
    ap.add_argument("--baseline", default=None)
    a = ap.parse_args(argv)
    greenlight = os.path.abspath(os.path.join(a.build, "greenlight"))
    cfg = run_project.load(a.project)
    out = tempfile.mkdtemp(prefix="gl-bench-origin-")
    os.chmod(out, 0o755)
    try:
        try:
            p = run_project.prepare(cfg, out)
        except run_project.Skip as e:
            print("SKIP: %s" % e)
            return 77
        subprocess.run(["chmod", "-R", "go+rX", out], check=False)
        with open(os.path.join(p["root"], ".greenlight.json"), "w", encoding="utf-8") as f:
            json.dump({"python": {"interpreter": run_project.python_of(cfg, p)}}, f)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
               "LANG": "C.UTF-8"}
        variants = [("traced", [greenlight], env),
                    ("no-rerun", [greenlight], dict(env, GREENLIGHT_PLAIN_RERUN="0")),
                    ("plain", [greenlight], dict(env, GREENLIGHT_PLAIN="1"))]
        if a.baseline:
            variants.append(("baseline", [os.path.abspath(a.baseline)], env))
        print("%s: greenlight run %s, %d interleaved runs each" % (a.project, a.source, a.runs))
        block("all passing", variants, p["root"], a.source, a.runs)
        _, bugs = run_project.load_bugs(a.project)
        bug = next(b for b in bugs if b["id"] == a.bug)
        run_project.apply(p["root"], bug)
        block("bug %s (%d tests fail)" % (bug["id"], len(bug["fails"])), variants, p["root"], a.source, a.runs)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
