#!/usr/bin/env python3
"""Bench: one test file under pytest, bare and cold vs. greenlight's warm start (hyperfine).

    bench_pytest_warm.py PROJECT FILE [--runs N] [--out DIR]

PROJECT is one of run_project.py's (prepared on the way); FILE is relative to its root.
Three commands, each run with the project's own interpreter and configuration:

  bare   python -m pytest FILE                                   (what a person types)
  cold   python -B -m pytest -p greenlight_pytest FILE            (greenlight's run, no spare)
  warm   the same run handed to an interpreter that booted python_warm.py pytest ahead of it
         (as a sandbox warm spare does): measured from the hand-over to its exit

For `warm`, hyperfine's --prepare starts a holder process that boots the interpreter and
waits until it blocks reading descriptor 1023; the measured command only says "go" through a
FIFO and waits for the holder to report the exit (a shell, two FIFO opens: ~1 ms).
Outside the sandbox: the figures compare interpreters, not sandbox set-up.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def hold(go, done, cwd, argv_json, gl):
    """--prepare: boot a warm interpreter, wait until it waits, then serve one run."""
    argv = json.loads(argv_json)
    if os.fork():
        # The prepare command returns once the interpreter is ready (blocked on fd 1023).
        with open(done + ".ready", "r") as f:
            f.read()
        return 0
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    r, w = os.pipe()
    os.dup2(r, 1023)
    os.close(r)
    flags = [a for a in argv[1:argv.index("-m")]]
    proc = subprocess.Popen([argv[0]] + flags + [os.path.join(gl, "python_warm.py"), "pytest"],
                            pass_fds=(1023,), stdin=devnull, stdout=devnull, stderr=devnull, cwd=cwd)
    os.close(1023)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/syscall" % proc.pid) as f:
                call = f.read().split()
            if call[:2] == ["0", "0x3ff"]:  # read(1023, ...)
                break
        except OSError:
            pass
        time.sleep(0.005)
    with open(done + ".ready", "w") as f:
        f.write("ready")
    env = ["%s=%s" % kv for kv in os.environ.items()]
    payload = b"".join(os.fsencode(x) + b"\0" for x in [str(len(argv)), str(len(env))] + argv + env + [cwd])
    with open(go, "r") as f:
        f.read()
    os.write(w, payload)
    os.close(w)
    code = proc.wait()
    with open(done, "w") as f:
        f.write(str(code))
    os._exit(0)


def main(argv):
    if argv and argv[0] == "_hold":
        return hold(*argv[1:6])
    import run_project

    name, rel = argv[0], argv[1]
    runs = argv[argv.index("--runs") + 1] if "--runs" in argv else "20"
    out = argv[argv.index("--out") + 1] if "--out" in argv else "/tmp/gl-python-projects"
    cfg = run_project.load(name)
    p = run_project.paths(cfg, out)
    if not os.path.exists(p["root"]):
        run_project.prepare(cfg, out)
    import gl_stage

    gl_stage.stage(p["gl"])
    python = run_project.python_of(cfg, p)
    bench = os.path.join(p["base"], "bench")
    os.makedirs(bench, exist_ok=True)
    go, done = os.path.join(bench, "go"), os.path.join(bench, "done")
    for fifo in (go, done, done + ".ready"):
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)
    conf = os.path.join(bench, "config.json")
    with open(conf, "w") as f:
        json.dump({"budget": 600}, f)
    opts = [a for a in cfg.get("args", []) if a.startswith("-")]
    run_argv = [python, "-B", "-m", "pytest", "-p", "greenlight_pytest", "-o", "cache_dir=" + p["cache"]] + opts + [rel]
    env = dict(os.environ, PYTHONPATH=p["gl"], GREENLIGHT_CONFIG=conf, PYTHONDONTWRITEBYTECODE="1")
    bare = "%s -m pytest -q -o cache_dir=%s %s %s" % (python, p["cache"], " ".join(opts), rel)
    cold = " ".join(run_argv)
    prepare = "%s %s _hold %s %s %s '%s' %s" % (sys.executable, os.path.abspath(__file__), go, done, p["root"],
                                              json.dumps(run_argv), p["gl"])
    warm = "sh -c 'echo > %s; cat %s > /dev/null'" % (go, done)
    export = os.path.join(bench, "hyperfine.json")
    # One --prepare per command, in order: bare and cold need none.
    cmd = ["hyperfine", "--warmup", "2", "--runs", runs, "--export-json", export,
           "--prepare", "true", "-n", "bare", bare,
           "--prepare", "true", "-n", "cold", cold,
           "--prepare", prepare, "-n", "warm", warm]
    r = subprocess.run(cmd, cwd=p["root"], env=env)
    if r.returncode != 0:
        return r.returncode
    with open(export) as f:
        results = {x["command"]: x for x in json.load(f)["results"]}
    base = results["bare"]["mean"]
    print("%s %s (%s runs)" % (name, rel, runs))
    for key in ("bare", "cold", "warm"):
        x = results[key]
        print("  %-5s mean %7.1f ms  ±%5.1f  min %7.1f ms   %.2f x bare" % (
            key, x["mean"] * 1000, x["stddev"] * 1000, x["min"] * 1000, x["mean"] / base))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
