#!/usr/bin/env python3
"""Runs a command the way a warm spare of greenlight's sandbox does, outside the sandbox: the
interpreter starts first with python_warm.py (preloading), and the run's argv, environment
and working directory come afterwards on descriptor 1023 (sandbox kWarmRunFd), NUL-separated.

    warm_run.py --gl DIR [--delay S] -- [BOOT ARGS...] -- PYTHON [FLAGS] (SCRIPT | -m MODULE) ARGS...

BOOT ARGS go to python_warm.py (`pytest` preloads pytest). The interpreter that boots is the
run's own (argv[0]) with the run's flags. Exit status: the run's. Used by run_project.py --warm
and the pytest bench; the sandbox itself is tested in tests/sandbox/WarmTest.cpp.
"""
import os
import subprocess
import sys
import time


def main(argv):
    gl = argv[argv.index("--gl") + 1]
    delay = float(argv[argv.index("--delay") + 1]) if "--delay" in argv else 0.0
    first = argv.index("--")
    second = argv.index("--", first + 1)
    boot, run = argv[first + 1:second], argv[second + 1:]
    flags = []
    for a in run[1:]:
        if not a.startswith("-") or a == "-m":
            break
        flags.append(a)
    r, w = os.pipe()
    os.dup2(r, 1023)
    os.close(r)
    env = ["%s=%s" % kv for kv in os.environ.items()]
    proc = subprocess.Popen([run[0]] + flags + [os.path.join(gl, "python_warm.py")] + boot, pass_fds=(1023,))
    os.close(1023)
    if delay:
        time.sleep(delay)
    payload = b"".join(os.fsencode(x) + b"\0" for x in [str(len(run)), str(len(env))] + run + env + [os.getcwd()])
    try:
        os.write(w, payload)
        os.close(w)
    except BrokenPipeError:
        proc.wait()
        sys.exit("warm_run: the warm interpreter exited before its run (boot failed)")
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
