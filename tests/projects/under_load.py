#!/usr/bin/env python3
"""The real project checks with every core busy: greenlight's limits must never turn a healthy
suite red on a loaded machine (issue 33: a suite cut at 30 s while the machine compiled).

    under_load.py --greenlight BIN [--python PROJECT]... [--js-dir DIR --js PROJECT]...
                  [--seconds N]

Starts one spinning process per core (same priority as the checks, each ending by itself after
--seconds at most, and killed when the checks end), then runs
tests/projects/python/check_greenlight.py and tests/projects/js/check_greenlight.js on the
given projects with the default settings (`sandbox.timeLimitSeconds: null`), bug replays and
generation left out: every test file's outcomes must still agree with the project's own runner,
test id by test id. Prints each check's wall time and the load.
Exit 0: all agree; 1: a disagreement; 77: no check could run here (each skipped).
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

SPIN = """
import time
end = time.monotonic() + float(%r)
x = 0
while time.monotonic() < end:
    for _ in range(10000):
        x += 1
"""


def spinners(count, seconds):
    return [subprocess.Popen([sys.executable, "-c", SPIN % seconds], stdin=subprocess.DEVNULL)
            for _ in range(count)]


def run(label, argv, bound):
    start = time.monotonic()
    try:
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=bound)
        code, out = r.returncode, r.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        code, out = 1, (e.stdout or b"").decode(errors="replace") + "\n(check stopped after %d s)" % bound
    took = time.monotonic() - start
    tail = [l for l in out.splitlines() if l.strip()][-12:]
    print("== %s: exit %d in %.1f s" % (label, code, took))
    for l in tail:
        print("   " + l)
    return code


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--greenlight", required=True)
    ap.add_argument("--python", action="append", default=[])
    ap.add_argument("--js", action="append", default=[])
    ap.add_argument("--js-dir", default=None)
    ap.add_argument("--seconds", type=float, default=600, help="the most each spinner runs")
    a = ap.parse_args(argv)
    checks = []
    for p in a.python:
        checks.append(("python: " + p, [sys.executable, os.path.join(HERE, "python", "check_greenlight.py"), p,
                                        "--greenlight", a.greenlight, "--skip-bugs", "--skip-generate"]))
    if a.js:
        node = subprocess.run(["sh", "-c", "command -v node"], stdout=subprocess.PIPE).stdout.decode().strip()
        if not node or not a.js_dir:
            print("node or --js-dir missing: the JavaScript checks are skipped")
        else:
            for p in a.js:
                checks.append(("js: " + p, [node, os.path.join(HERE, "js", "check_greenlight.js"), "--greenlight",
                                            a.greenlight, "--dir", a.js_dir, "--project", p, "--skip-bugs",
                                            "--skip-generate"]))
    cores = os.cpu_count() or 1
    spin = spinners(cores, a.seconds)
    print("%d spinning processes (one per core) for at most %.0f s" % (cores, a.seconds))
    codes = []
    try:
        deadline = time.monotonic() + a.seconds
        for label, cmd in checks:
            left = deadline - time.monotonic()
            if left <= 0:
                print("== %s: not run (the load's %.0f s are over)" % (label, a.seconds))
                codes.append(1)
                continue
            codes.append(run(label, cmd, left))
        load = os.getloadavg()
        print("load average at the end: %.2f %.2f %.2f" % load)
    finally:
        for p in spin:
            p.kill()
        for p in spin:
            p.wait()
    ran = [c for c in codes if c != SKIP]
    if not ran:
        print("under load: every check skipped")
        return SKIP
    bad = [c for c in ran if c != 0]
    print("under load: %d checks, %s" % (len(ran), "all agree" if not bad else "%d disagree" % len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
