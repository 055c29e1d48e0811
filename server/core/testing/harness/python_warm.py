R"GLPY("
# greenlight's warm start for Python: the interpreter a warm spare starts before its run comes
# (sandbox Policy::WarmStart). Embedded like python_harness.py; written beside it in /work/.gl.
#
# Before the run: site has run (the interpreter started normally, with the run's environment
# and flags), the harness is compiled and executed as a module that is not yet __main__, and
# the standard modules the harness imports lazily (doctest with unittest and pdb, inspect,
# traceback, ast) are imported and then taken out of sys.modules again: they come back, all at
# once, on the harness's first _std() call, so a run that would not import them sees the
# sys.modules a cold run sees. Then it blocks reading fd 1023 (sandbox kWarmRunFd: the last
# one RLIMIT_NOFILE allows, so every other descriptor has the number it has in a cold start).
#
# At the run: fd 1023 carries "<argc>\0<envc>\0", argv, envp and the workdir (each
# NUL-terminated), then EOF. The environment becomes exactly envp, the working directory the
# workdir, sys.argv what `python [flags] script args` gives, and the harness's main() runs as
# __main__ would. Nothing here survives into another run: the interpreter serves one run and
# exits with it.
#
# It ends as the interpreter's exit would, minus the teardown of every module (see
# _exit_like_python).
def _gl_warm():
    import os
    import sys

    finish = _exit_like_python  # before the module's names are cleared below
    sock = 1023
    main = sys.modules["__main__"]
    g = main.__dict__
    boot_file = g.get("__file__")
    for name in [k for k in g if k not in ("__builtins__", "__loader__", "__spec__")]:
        del g[name]
    harness = os.path.join(os.path.dirname(boot_file), "python_harness.py")
    with open(harness, "rb") as f:
        code = compile(f.read(), harness, "exec", dont_inherit=True)
    g.update(__name__="__gl_warm__", __doc__=None, __file__=harness, __cached__=None, __package__=None)
    exec(code, g)

    before = set(sys.modules)
    std = g["_std"]
    for name in ("traceback", "inspect", "ast", "unittest", "doctest"):
        try:
            std(name)
        except Exception:
            pass
    stash = {k: sys.modules.pop(k) for k in list(sys.modules) if k not in before}
    # Compiled under the harness's file name: the harness hides its own frames by that name.
    exec(compile(
        "def _std(name, _std=_std, _stash=_GL_STASH):\n"
        "    if _stash:\n"
        "        for key, mod in _stash.items():\n"
        "            sys.modules.setdefault(key, mod)\n"
        "        _stash.clear()\n"
        "    return _std(name)\n", harness, "exec", dont_inherit=True), dict(g, _GL_STASH=stash), g)
    g.pop("_GL_STASH", None)

    chunks = []
    while True:
        chunk = os.read(sock, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(sock)
    parts = b"".join(chunks).split(b"\0")
    argc, envc = int(parts[0]), int(parts[1])
    argv = [os.fsdecode(p) for p in parts[2:2 + argc]]
    env = parts[2 + argc:2 + argc + envc]
    workdir = os.fsdecode(parts[2 + argc + envc])

    os.environ.clear()
    for kv in env:
        key, _, value = kv.partition(b"=")
        os.environ[os.fsdecode(key)] = os.fsdecode(value)
    os.chdir(workdir)
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 1
    script = argv[i] if i < len(argv) else ""
    sys.argv = argv[i:]
    if os.path.basename(script).split(".")[0] != "python_harness":
        # Not the harness it preloaded: run the script as a cold interpreter would.
        # Not the harness it preloaded: run the script as a cold interpreter would, without the
        # harness's own descriptor and with the script's directory first on sys.path.
        import runpy

        out_fd = g.get("_OUT_FD")
        if isinstance(out_fd, int):
            os.close(out_fd)
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        g.update(__name__="__gl_warm_done__")
        try:
            runpy.run_path(script, run_name="__main__")
            code = 0
        except SystemExit as e:
            code = e.code
        finish(code)
    g.update(__name__="__main__", __file__=script)
    try:
        g["main"]()
        code = 0
    except SystemExit as e:
        code = e.code
    finish(code)


def _exit_like_python(code):
    """Ends the process as the interpreter's own exit would, observably: non-daemon threads are
    waited for, atexit functions run, stdout and stderr are flushed, SystemExit's code becomes
    the status. What it skips is tearing down every module and object one by one (~10 ms with
    doctest, unittest and pdb loaded): __del__ methods of objects still alive at exit do not
    run, as they are not guaranteed to by the language either."""
    import os
    import sys

    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()
    import atexit

    atexit._run_exitfuncs()
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code & 0xFF
    else:
        try:
            print(code, file=sys.stderr)
        except Exception:
            pass
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            status = 120 if status == 0 else status
    os._exit(status)


_gl_warm()
")GLPY"
