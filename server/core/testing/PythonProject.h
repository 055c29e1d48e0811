// What a Python project's layout and configuration say about how its tests run, read from files
// (no process): which runner it uses, pytest's rootdir and options, the module name a file is
// imported under. (Which test files load a module: PyResolve.h. What a run of the project's
// runner starts from: adapters/PythonRun.h.)
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>


namespace greenlight::core::testing {

struct PythonProject {
  // pytest's rootdir: the directory of the nearest configuration (pytest.ini, .pytest.ini,
  // pyproject.toml with [tool.pytest.ini_options], tox.ini with [pytest], setup.cfg with
  // [tool:pytest]) from the file up to the workspace root; else the workspace root.
  std::string rootDir;
  std::string configFile;          // the file that configures pytest, "" when none
  bool pytestConfigured = false;   // a configuration section for pytest exists
  bool hasConftest = false;        // a conftest.py between the rootdir and the file (or its tests)
  std::vector<std::string> conftests;  // those conftest.py files, outermost first
  std::vector<std::string> testPaths;  // `testpaths`, absolute
  std::vector<std::string> pythonFiles = {"test_*.py", "*_test.py"};  // `python_files`
  std::vector<std::string> pythonPath;  // `pythonpath` (pytest >= 7), absolute
  bool doctestModules = false;     // `--doctest-modules` in addopts
};

PythonProject pythonProject(const std::string& file, const std::string& workspaceRoot);

// The name `path` is imported under: its package chain (directories with __init__.py, and
// namespace packages below a `src/` or the root), e.g. "pkg.number" for src/pkg/number.py.
std::string pythonModuleName(const std::string& path, const std::string& root);

// Whether a file name matches pytest's python_files globs ("test_*.py").
bool matchesPythonFiles(const std::string& fileName, const std::vector<std::string>& globs);

// Whether the text imports pytest, uses unittest (TestCase, load_tests), defines module-level
// test functions (which unittest never runs: pytest's style).
bool importsPytest(const std::string& text);
bool usesUnittest(const std::string& text);
bool definesTestFunctions(const std::string& text);

// When greenlight runs as root the sandbox runs as uid 65534: "" when that uid can list and enter
// the project directory `dir` itself, else a sentence saying so. Its parents do not matter: the
// sandbox binds the project from root's side before it drops to that uid, and private parents
// are empty stand-ins inside (sandbox/PrivateParents.cpp).
std::string sandboxUserCannotRead(const std::string& dir);

}  // namespace greenlight::core::testing
