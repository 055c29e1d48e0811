R"GLPY("
# greenlight's warm start for Python: the interpreter a warm spare starts before its run comes
# (sandbox Policy::WarmStart). Embedded like python_harness.py; written beside it in /work/.gl.
#
#   python -B /work/.gl/python_warm.py           preloads the harness (python_harness.py)
#   python -B /work/.gl/python_warm.py pytest    preloads pytest, its plugins (pytest's own and
#                                                those installed in the interpreter: entry points,
#                                                never the project's files) and greenlight's
#                                                plugin (_greenlight_pytest)
#
# Before the run: site has run (the interpreter started normally, with the run's environment
# and flags). The harness is compiled and executed as a module that is not yet __main__ (its
# own imports stay: a cold run makes them first thing too); everything else preloaded (the
# modules the harness imports lazily: doctest, unittest, inspect, ...; pytest and its plugins)
# is imported and then taken out of sys.modules again, into a stash. The stash gives a module
# back only when the run imports it, and only when a cold import would give the same thing:
#
# - A finder first on sys.meta_path serves a stashed module M when it is asked for M (an
#   import statement, importlib, the harness's _std), and then puts back, with M, every module
#   M's import brought in during the preload (recorded then: the import statements and finder
#   calls made while M's body ran), exactly as a cold `import M` would add them.
# - Only when each of them would be found where it was found before (the finders after this
#   one, with the sys.path of the moment, name the same file and loader: a project file named
#   inspect.py shadows the stdlib's as in a cold run; pytest's rewriting hook, ahead of it,
#   takes the modules it rewrites) and none of them has been imported otherwise in the
#   meantime (a module object of another generation). Else the import runs cold.
# - A package gets back as attributes exactly the submodules a cold import would have bound:
#   those its own import brought in; the others are bound when they are served. (A package
#   that kept the preload's submodule attributes, or a submodule served into a package
#   imported cold, is how `collections.abc` went missing: the run imported `collections`
#   cold, the stash then restored `collections.abc` from the preload without binding it to
#   the run's `collections`, and `import collections.abc` in sqlite3, via freezegun, found
#   the submodule in sys.modules and bound nothing.)
#
# Then it blocks reading fd 1023 (sandbox kWarmRunFd: the last one RLIMIT_NOFILE allows, so
# every other descriptor has the number it has in a cold start).
#
# At the run: fd 1023 carries "<argc>\0<envc>\0", argv, envp and the workdir (each
# NUL-terminated), then EOF. The environment becomes exactly envp, the working directory the
# workdir, sys.argv what `python [flags] script args` or `python [flags] -m module args` gives,
# and then the harness's main() runs as __main__ would, or the script, or the module as -m
# runs it (sys.path[0] the working directory). Nothing here survives into another run: the
# interpreter serves one run and exits with it.
#
# It ends as the interpreter's exit would, minus the teardown of every module (see
# _exit_like_python).
def _gl_warm():
    import os
    import sys

    finish = _exit_like_python  # before the module's names are cleared below
    record, stash_class, preload = _Recorder, _Stash, _preload_pytest
    sock = 1023
    main = sys.modules["__main__"]
    g = main.__dict__
    boot_file = g.get("__file__")
    mode = sys.argv[1] if len(sys.argv) > 1 else "harness"
    for name in [k for k in g if k not in ("__builtins__", "__loader__", "__spec__")]:
        del g[name]
    harness = os.path.join(os.path.dirname(boot_file), "python_harness.py")
    if mode == "harness":
        with open(harness, "rb") as f:
            code = compile(f.read(), harness, "exec", dont_inherit=True)
        g.update(__name__="__gl_warm__", __doc__=None, __file__=harness, __cached__=None, __package__=None)
        exec(code, g)

    before = dict(sys.modules)
    recorder = record()
    recorder.start()
    try:
        if mode == "harness":
            std = g["_std"]
            for name in ("traceback", "inspect", "ast", "unittest", "doctest"):
                try:
                    std(name)
                except Exception:
                    pass
        elif mode == "pytest":
            preload(os.path.dirname(boot_file))
    finally:
        recorder.stop()
    stash = stash_class(before, recorder.edges)
    stash.install()

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
    try:
        sys.orig_argv = list(argv)
    except AttributeError:
        pass
    i = 1
    module = None
    while i < len(argv) and argv[i].startswith("-"):
        if argv[i] in ("-W", "-X") and i + 1 < len(argv):
            i += 2  # a flag and its value (the interpreter was started with the same ones)
            continue
        if argv[i] == "-m" and i + 1 < len(argv):
            module = argv[i + 1]
            i += 1
            break
        if argv[i].startswith("-m") and len(argv[i]) > 2:
            module = argv[i][2:]
            break
        i += 1
    if module is not None:
        # As `python -m MODULE args`: sys.path[0] the working directory (unless -P), argv[0]
        # the module's file (runpy sets it), the module run in a fresh __main__.
        import runpy

        out_fd = g.get("_OUT_FD")
        if isinstance(out_fd, int):
            os.close(out_fd)
        g.update(__name__="__gl_warm_done__")
        if getattr(sys.flags, "safe_path", False):
            if sys.path and sys.path[0] == os.path.dirname(boot_file):
                del sys.path[0]
        else:
            sys.path[0] = os.getcwd()
        sys.argv = [argv[i]] + argv[i + 1:]
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as e:
            code = e.code
        finish(code)
    script = argv[i] if i < len(argv) else ""
    sys.argv = argv[i:]
    if mode != "harness" or os.path.basename(script).split(".")[0] != "python_harness":
        # Not the harness it preloaded: run the script as a cold interpreter would, without the
        # harness's own descriptor and with the script's directory first on sys.path; a plain
        # source file in this __main__ (as the interpreter runs it: no runpy, which a cold run
        # does not import), anything else (a directory, a zip, bytecode) through runpy.
        out_fd = g.get("_OUT_FD")
        if isinstance(out_fd, int):
            os.close(out_fd)
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        try:
            if script.endswith(".py") and os.path.isfile(script):
                with open(script, "rb") as f:
                    source = f.read()
                loader = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", script)
                for name in [k for k in g if k != "__builtins__"]:
                    del g[name]
                g.update(__name__="__main__", __doc__=None, __package__=None, __loader__=loader,
                         __spec__=None, __file__=script, __cached__=None)
                try:
                    exec(compile(source, script, "exec", dont_inherit=True), g)
                except (SystemExit, KeyboardInterrupt):
                    raise
                except BaseException as e:
                    # Reported as the interpreter reports it: the traceback from the script on.
                    tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
                    sys.excepthook(type(e), e.with_traceback(tb), tb)
                    finish(1)
            else:
                import runpy

                g.update(__name__="__gl_warm_done__")
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


def _preload_pytest(gl_dir):
    """pytest, every plugin module pytest itself may load, the standard modules it imports on
    demand, the installed third-party plugins (entry points whose module lies in a
    site-packages / dist-packages directory: never a project's file, an editable install's
    included) and greenlight's plugin. Each is only served if the run imports it."""
    import importlib
    import os
    import sys

    def load(name):
        try:
            importlib.import_module(name)
        except BaseException:
            pass

    load("pytest")
    try:
        from _pytest.config import builtin_plugins, essential_plugins
        names = sorted(set(builtin_plugins) | set(essential_plugins))
    except Exception:
        names = []
    for name in names:
        load("_pytest." + name)
    for name in ("doctest", "unittest", "unittest.mock", "pdb", "difflib", "pprint", "decimal",
                 "fractions", "tomllib", "zipfile", "importlib.metadata", "tempfile", "shutil",
                 "glob", "csv", "xml.etree.ElementTree", "json", "argparse", "dataclasses",
                 "asyncio", "iniconfig", "packaging.version", "exceptiongroup", "tomli"):
        load(name)
    try:
        from importlib.metadata import entry_points

        eps = entry_points()
        group = eps.select(group="pytest11") if hasattr(eps, "select") else eps.get("pytest11", [])
        for ep in group:
            module = ep.value.split(":", 1)[0].strip()
            top = module.split(".", 1)[0]
            spec = importlib.util.find_spec(top)
            origin = getattr(spec, "origin", None) or ""
            locations = list(getattr(spec, "submodule_search_locations", None) or [])
            paths = [origin] + locations
            if paths and all(("/site-packages/" in p or "/dist-packages/" in p) for p in paths if p):
                load(module)
    except BaseException:
        pass
    if os.path.exists(os.path.join(gl_dir, "_greenlight_pytest.py")) and gl_dir in sys.path:
        load("_greenlight_pytest")


class _Recorder:
    """During the preload: which modules each module's import brought in. An import made while
    the body of module M runs (its own statements, or a function it calls) belongs to M."""

    def __init__(self):
        import sys

        self.edges = {}
        self._saved = None
        self._sys = sys
        self._busy = False

    def start(self):
        import builtins

        self._saved = builtins.__import__
        original = self._saved
        recorder = self

        def traced(name, globals=None, locals=None, fromlist=(), level=0):
            module = original(name, globals, locals, fromlist, level)
            if not recorder._busy:
                recorder._busy = True
                try:
                    recorder._note_import(name, globals, fromlist, level)
                except Exception:
                    pass
                finally:
                    recorder._busy = False
            return module

        builtins.__import__ = traced
        self._sys.meta_path.insert(0, self)

    def stop(self):
        import builtins

        builtins.__import__ = self._saved
        if self in self._sys.meta_path:
            self._sys.meta_path.remove(self)

    @staticmethod
    def _dict_of(obj):
        """The dict a module or class really has (the C slot, not an attribute lookup)."""
        import sys

        module_type = type(sys)
        try:
            if isinstance(obj, module_type):
                return module_type.__dict__["__dict__"].__get__(obj, module_type)
            if isinstance(obj, type):
                return type.__dict__["__dict__"].__get__(obj, type)
        except Exception:
            pass
        return {}

    def _importer(self):
        modules = self._sys.modules
        frame = self._sys._getframe(2)
        while frame is not None:
            code = frame.f_code
            if code.co_name in ("create_module", "exec_module") and \
                    code.co_filename.startswith("<frozen importlib._bootstrap"):
                # An extension module's initialisation (its C code imports with no frame of
                # its own); a Python module's body is a <module> frame further in.
                loc = frame.f_locals
                spec = loc.get("spec")
                name = getattr(spec, "name", None) if spec is not None else \
                    getattr(loc.get("module"), "__name__", None)
                if isinstance(name, str):
                    return name
            if code.co_name == "<module>":
                name = frame.f_globals.get("__name__")
                mod = modules.get(name) if isinstance(name, str) else None
                if mod is not None and self._dict_of(mod) is frame.f_globals:
                    return name
            frame = frame.f_back
        return None

    def _add(self, importer, names):
        if importer is None:
            return
        self.edges.setdefault(importer, set()).update(n for n in names if n != importer)

    def _note_import(self, name, globals, fromlist, level):
        if level:
            package = (globals or {}).get("__package__")
            if package is None:
                modname = (globals or {}).get("__name__", "")
                package = modname if "__path__" in (globals or {}) else modname.rpartition(".")[0]
            base = package.rsplit(".", level - 1)[0] if level > 1 else package
            absname = "%s.%s" % (base, name) if name else base
        else:
            absname = name
        parts = absname.split(".")
        names = [".".join(parts[:i + 1]) for i in range(len(parts))]
        for item in fromlist or ():
            sub = "%s.%s" % (absname, item)
            if sub in self._sys.modules:
                names.append(sub)
        self._add(self._importer(), names)

    def find_spec(self, name, path=None, target=None):
        # importlib.import_module and imports from C reach the finders without __import__.
        if not self._busy:
            self._busy = True
            try:
                self._add(self._importer(), [name])
            finally:
                self._busy = False
        return None


class _Stash:
    """The preloaded modules, out of sys.modules until the run imports them (see the top)."""

    def _own(self, obj, name):
        """An attribute a module (or class) holds in its own dict: never through __getattr__
        (PEP 562) or a __dict__ property (apipkg's lazy modules), which import."""
        return self._dict_of(obj).get(name)

    def __init__(self, before, edges):
        import sys

        self.modules = {}
        for key, mod in list(sys.modules.items()):
            if key not in before or before[key] is not mod:
                self.modules[key] = sys.modules.pop(key)
        self.order = {key: i for i, key in enumerate(self.modules)}
        # Each stashed module's direct dependencies: what its import brought in, its package,
        # and its aliases (sys.modules keys another module set to it).
        self.deps = {}
        for key in self.modules:
            deps = set(n for n in edges.get(key, ()) if n in self.modules)
            parent = key.rpartition(".")[0]
            if parent in self.modules:
                deps.add(parent)
            self.deps[key] = deps
        # Keys no import asked for: put into sys.modules by a module's own code (typing.io,
        # an alias such as py.path for _pytest._py.path). They come back with their package,
        # else with the module they stand for; no finder knows them.
        self.manual = set()
        for key, mod in self.modules.items():
            spec = self._own(mod, "__spec__")
            if spec is not None and getattr(spec, "name", None) == key:
                continue  # a module in its own right: found and served by its name
            owner = self._own(mod, "__name__")
            creator = key.rpartition(".")[0]
            if creator not in self.deps:
                creator = owner if isinstance(owner, str) and owner != key and owner in self.deps else None
            if creator is not None:
                self.deps[creator].add(key)
                self.manual.add(key)
        # Submodule attributes a cold import of the package would not have bound.
        self.rebind = {}
        for key, mod in self.modules.items():
            parent, _, attr = key.rpartition(".")
            if not parent or key in self.manual:
                continue
            pmod = self.modules.get(parent) or sys.modules.get(parent)
            if pmod is None or self._own(pmod, attr) is not mod:
                continue
            if key in edges.get(parent, ()):
                continue  # the package's own import brought it in: part of the package
            try:
                delattr(pmod, attr)
            except Exception:
                continue
            self.rebind[key] = (parent, attr)
        self._closures = {}
        self._spec_class = sys.modules["_frozen_importlib"].ModuleSpec  # importing here could recurse
        self._busy = False

    def install(self):
        import sys

        sys.meta_path.insert(0, self)

    def _closure(self, name):
        found = self._closures.get(name)
        if found is None:
            seen = {name}
            todo = [name]
            while todo:
                for dep in self.deps.get(todo.pop(), ()):
                    if dep not in seen:
                        seen.add(dep)
                        todo.append(dep)
            found = sorted(seen, key=lambda k: self.order.get(k, 0))
            self._closures[name] = found
        return found

    def _found_alike(self, key):
        """Would the other finders, now, find `key` where the preload found it?"""
        import sys

        mod = self.modules[key]
        spec = self._own(mod, "__spec__")
        if spec is None or getattr(spec, "name", None) != key:
            return False
        parent = key.rpartition(".")[0]
        path = None
        if parent:
            pmod = sys.modules.get(parent) or self.modules.get(parent)
            path = self._own(pmod, "__path__")
            if path is None:
                return False
        for finder in sys.meta_path:
            if finder is self:
                continue
            find = getattr(finder, "find_spec", None)
            if find is None:
                continue
            try:
                found = find(key, path)
            except Exception:
                return False
            if found is not None:
                return found.origin == spec.origin and type(found.loader) is type(spec.loader)
        return False

    def find_spec(self, name, path=None, target=None):
        if name not in self.modules or self._busy:
            return None
        self._busy = True
        try:
            return self._serve(name)
        finally:
            self._busy = False

    def _serve(self, name):
        import sys

        for key in self._closure(name):
            current = sys.modules.get(key)
            if current is not None:
                if current is not self.modules.get(key, current):
                    return None  # another generation of a module it was built on
                continue
            if key not in self.modules:
                return None
            if key in self.manual:
                if key == name:
                    return None  # only ever comes back with the module that made it
                continue
            if not self._found_alike(key):
                return None
        original = self._own(self.modules[name], "__spec__")
        spec = self._spec_class(name, self, origin=original.origin,
                          is_package=original.submodule_search_locations is not None)
        if original.submodule_search_locations is not None:
            spec.submodule_search_locations = list(original.submodule_search_locations)
        spec.has_location = original.has_location
        return spec

    def create_module(self, spec):
        return None  # a placeholder: exec_module puts the stashed module in its place

    def exec_module(self, module):
        import sys

        name = module.__spec__.name
        restored = []
        for key in self._closure(name):
            if key != name and key not in sys.modules and key in self.modules:
                sys.modules[key] = self.modules.pop(key)
                restored.append(key)
        # The import system takes what sys.modules holds under the name once this returns.
        sys.modules[name] = self.modules.pop(name)
        restored.append(name)
        for key in restored:
            where = self.rebind.pop(key, None)
            if where is not None:
                parent = sys.modules.get(where[0])
                if parent is not None:
                    try:
                        setattr(parent, where[1], sys.modules[key])
                    except Exception:
                        pass
        if not self.modules and self in sys.meta_path:
            sys.meta_path.remove(self)


# Methods find no module globals once _gl_warm clears __main__'s: shared through the class.
_Stash._dict_of = staticmethod(_Recorder._dict_of)


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
