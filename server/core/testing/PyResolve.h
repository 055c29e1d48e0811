// Python's import system read statically: which files a Python file loads when it runs, given the
// directories on sys.path. It decides which test files are the tests of a source file (the tests
// that load it, at any depth: Discovery.cpp, adapters/Pytest.cpp, adapters/Unittest.cpp), so that a test file
// named after a module (tests/test_util.py) never stands in for the tests of another module of
// the same name (pkg_b/util.py) that it does not load.
//
// What is read as Python reads it:
//   import a.b.c [as x]          a/__init__.py, a/b/__init__.py, a/b/c.py (or c/__init__.py)
//   from a.b import c, d         a's and b's __init__, and c, d where they are submodules
//   from . import m / from ..p import m / from .m import f   relative to the importing file
//   namespace packages           directories without __init__.py
//   importlib.import_module("a.b"), __import__("a")          with a literal name
//   sys.path.insert(0, EXPR) / sys.path.append(EXPR) / site.addsitedir(EXPR), where EXPR is a
//     string, __file__, os.path.{dirname,abspath,realpath,normpath,join}, Path(...), .parent,
//     .parents[N], .resolve(), / and names assigned from those earlier in the file
// The sys.path a project's tests see (pythonSearch): the runner's working directory (pytest's
// rootdir, unittest's top), pytest's `pythonpath`, conftest.py's sys.path edits, src/, an
// editable install's .pth paths and finder mapping in the project's venv, and per file the
// directory pytest's default import mode (prepend) inserts: the first ancestor without __init__.py.
//
// What cannot be read (a module name computed at run time, exec of a file, runpy): the file is
// `dynamic`, and whether it loads a module is Unsure, never No.
//
// Thread-safety: parsePythonImports and pythonSearch are pure; a PyResolver caches what it read
// and is meant for one discovery on one thread.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/testing/Discovery.h"

namespace greenlight::core::testing {

struct PyImportedName {
  std::string name;  // as written after `import` ("*" for a star import)
  std::string as;    // the name it is bound to ("" when not renamed)
};

struct PyImport {
  std::string module;                 // "a.b"; "" for `from . import x`
  int level = 0;                      // leading dots of a relative import
  bool from = false;                  // `from M import names`
  std::vector<PyImportedName> names;  // for `from` imports
  int line = 0;                       // 1-based
};

struct PyImports {
  std::vector<PyImport> imports;
  // A module loaded by a name computed at run time (import_module(name), exec(open(...)), runpy).
  bool dynamic = false;
  // Directories the file puts on sys.path, absolute, in the order it does.
  std::vector<std::string> sysPath;
};

// The imports of a Python text, every logical line (inside functions and try blocks too; strings
// and comments skipped). `file` is where the text lives (for __file__); relative paths in sys.path
// edits are taken from `cwd` (the runner's working directory).
PyImports parsePythonImports(const std::string& text, const std::string& file, const std::string& cwd);

// The directory pytest's prepend import mode puts on sys.path for `file`: its first ancestor
// directory that has no __init__.py.
std::string pythonBaseDir(const std::string& file);

struct PySearch {
  std::vector<std::string> roots;     // sys.path's project entries, in order
  std::string cwd;                    // the runner's working directory (relative sys.path edits)
  // pytest's rootdir when pytest runs the tests: the conftest.py files from it down to a test
  // file's directory are imported before the test file. "" for unittest and the built-in harness.
  std::string preloadRoot;
  OverlayProvider overlay;            // unsaved texts
};

// The sys.path the tests of `source` run with (see the top of this file). `rootDir` is the
// runner's working directory; "" reads pytest's configuration (PythonProject) for it.
PySearch pythonSearch(const std::string& source, const std::string& workspaceRoot, const OverlayProvider& overlay,
                      const std::string& rootDir = "");

enum class PyLoads { Yes, No, Unsure };

struct PyLoadVerdict {
  PyLoads loads = PyLoads::No;
  std::string why;  // Unsure: why it cannot be told; No: the project module of that name it loads, when one
};

class PyResolver {
 public:
  explicit PyResolver(PySearch search);

  // The files the module `module` is, searched in `roots`: the packages' __init__.py on the way
  // and the module's own file (a package: its __init__.py, if any); nullopt when not found (the
  // standard library, an installed package). `packageDir` gets the directory when it is a package.
  std::optional<std::vector<std::string>> resolveModule(const std::string& module, const std::vector<std::string>& roots,
                                                        std::string* packageDir = nullptr) const;
  // The files one import statement of `fromFile` loads (the submodules it names included); nullopt
  // when it is not the project's.
  std::optional<std::vector<std::string>> resolve(const PyImport& imp, const std::string& fromFile) const;

  // Whether running `testFile` (after the preloads) loads `target`: the closure of the imports
  // over the project's files. Unsure when a file on the way imports dynamically, when the test
  // imports none of the project's modules (it may reach it through fixtures), or past the bound.
  // `withPreloads` false leaves conftest.py out: a conftest that imports the package would make
  // every test a test of every module.
  PyLoadVerdict loads(const std::string& testFile, const std::string& target, bool withPreloads = true) const;

  // The sys.path `file` runs with: its own edits, its prepend base directory, then the roots.
  std::vector<std::string> rootsFor(const std::string& file) const;

 private:
  struct Resolved {
    std::vector<std::string> files;
    std::string packageDir;
  };
  const PyImports& parsed(const std::string& file) const;
  // The files of the module an import statement names (its packages' __init__ included) and,
  // when that module is a package, its directory; false when it is not the project's.
  bool resolveParts(const PyImport& imp, const std::string& fromFile, std::vector<std::string>* moduleFiles,
                    std::string* packageDir) const;
  PySearch search_;
  mutable std::map<std::string, PyImports> parsed_;
  mutable std::map<std::string, std::optional<Resolved>> modules_;  // module + roots -> where it is
  // Files whose import closure is known not to load noReachTarget_ (loads() walks each once).
  mutable std::string noReachTarget_;
  mutable std::set<std::string> noReach_;
};

// The test files under `dirs` whose names match `globs` that load `target` (PyResolver::loads,
// without conftest.py): importing it, a package whose __init__.py imports it, or a module that
// does, at any depth. A module that only other modules import is tested by their tests, and an
// edit to it must run them: a run of only its direct importers can be green on a bug the others
// catch. Sorted; at most `cap` files are read. The filesystem root is never walked.
std::vector<std::string> pythonTestsLoading(const PyResolver& resolver, const std::string& target,
                                              const std::vector<std::string>& dirs, const std::vector<std::string>& globs,
                                              std::size_t cap = 2000);

// Keeps the test files named after `source` that load it (or may: Unsure); one that loads only
// other modules is dropped, and `note` says which and what it loads instead.
std::vector<std::string> pythonNamedTestsLoading(const PyResolver& resolver, const std::string& source,
                                                 const std::vector<std::string>& named, std::string* note);

}  // namespace greenlight::core::testing
