// What a Python project's layout and configuration say about how its tests run, read from files
// (no process): which runner it uses, pytest's rootdir and options, the module name a file is
// imported under. (Which test files load a module: PyResolve.h.) Plus one process, cached: whether the
// project's interpreter can import a module (pytest), asked in the sandbox.
//
// Thread-safety: pure functions, except interpreterImports(), whose cache is locked.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"

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

// Whether `tool` (the project's interpreter) can import `module`, asked once per interpreter
// and workspace in the sandbox (a few tens of ms), then cached for the process.
bool interpreterImports(const Tool& tool, const std::string& module, const std::string& workspaceRoot,
                        const Config& config);

// What a project's Python runner (pytest, unittest) starts from: the project's files in place with
// the overlay copies bound over them (`stableOverlay` for a warm spare), the project's
// interpreter, greenlight's harness files and config.json in /work/.gl, and a policy whose
// workdir is the runner's root with the harness on PYTHONPATH. Its argv is left to the caller.
struct PythonRunSetup {
  sandbox::Policy policy;
  std::string python;  // the interpreter as the argv names it
};
// nullopt, with result.error saying why, when the root cannot be read by the sandbox's user, the
// staging fails or there is no interpreter.
std::optional<PythonRunSetup> preparePythonRun(const TestPlan& plan, const RunOptions& options, Staging& staging,
                                               const std::vector<std::pair<std::string, std::string_view>>& harnessFiles,
                                               const nlohmann::json& config, bool stableOverlay, RunResult& result);

}  // namespace greenlight::core::testing
