// pytest, run by pytest itself: a project that uses pytest (configured in pytest.ini,
// pyproject.toml, tox.ini or setup.cfg; a conftest.py; or test files that import pytest) and
// whose interpreter (the project's venv first) can import it. greenlight's plugin
// (harness/pytest_plugin.py, loaded with -p from /work/.gl, never written into the project)
// reports per test: node id, file:line, outcome, skip/xfail reason, pytest's own assertion
// introspection, the user's frames and the line of origin. Everything else is pytest's: rootdir,
// conftest.py files, fixtures, parametrize, marks, plugins, addopts, testpaths,
// --doctest-modules.
//
// The steps of a run: stage in place (Staging::prepareInPlace: the project read-only at its own
// path, unsaved texts bind-mounted over theirs) → the plugin and its config into /work/.gl → the
// sandbox policy (workdir = rootdir, the overlay binds, caches in /tmp) → run, streaming the
// plugin's events → fold them (OutputParsing) → finishResult (verdicts blamed on the running test).
#include <algorithm>
#include <filesystem>

#include "core/testing/Coverage.h"
#include "core/testing/PyResolve.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"
#include "core/testing/adapters/PlainRerun.h"
#include "core/testing/adapters/ProjectPython.h"
#include "core/testing/adapters/PythonRun.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

std::string relativeTo(const std::string& path, const std::string& root) {
  std::string rel = fs::path(path).lexically_relative(root).string();
  return rel.empty() ? path : rel;
}

// A built-in name ("TestA.test_b", "test_c") as a node id in `file`.
std::string nodeIdOf(const std::string& file, const std::string& name, const std::string& root) {
  std::string id = relativeTo(file, root) + "::";
  for (char c : name) {
    if (c == '.') id += "::";
    else id += c;
  }
  return id;
}

class PytestAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "pytest"; }
  bool handles(Language language) const override { return language == Language::Python; }

  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string* error) const override {
    // Tests written from a comment's examples exist only in the editor: the built-in harness.
    if (!ctx.request.extraTestFiles.empty()) return std::nullopt;
    const PythonProject project = pythonProject(ctx.source, ctx.workspaceRoot);
    TestPlan plan = builtinDiscovery(ctx);
    const std::string fileName = fs::path(ctx.source).filename().string();
    const bool isTestFile = matchesPythonFiles(fileName, project.pythonFiles);
    // Which runner: pytest's configuration, a conftest.py, or tests that import pytest.
    bool usesPytest = project.pytestConfigured || project.hasConftest;
    if (!usesPytest) {
      if (isTestFile) usesPytest = importsPytest(ctx.text);
      for (const auto& f : plan.testFiles) {
        if (usesPytest) break;
        if (auto t = readSource(f, ctx.request.overlay)) usesPytest = importsPytest(*t);
      }
    }
    if (!usesPytest) return std::nullopt;
    // The interpreter the user's own `pytest` would use. None that imports pytest is the user's
    // to fix (exit 2, saying what was tried): the built-in harness would only report the import
    // error as a failed test.
    const PythonChoice python = pythonWith("pytest", ctx);
    if (!python.tool) {
      const std::string why = project.pytestConfigured ? fs::path(project.configFile).filename().string() + " configures pytest"
                              : project.hasConftest   ? "it has a conftest.py"
                                                      : "its tests import pytest";
      *error = ctx.source + ": " + noPythonWithMessage("pytest", why, python);
      return std::nullopt;
    }
    plan.interpreter = python.tool->invokedAs.empty() ? python.tool->path : python.tool->invokedAs;

    plan.framework = "pytest";
    plan.rootDir = project.rootDir;
    plan.supportFiles = project.conftests;
    if (!project.configFile.empty()) plan.supportFiles.push_back(project.configFile);
    // The test files: the built-in candidates (test_m.py beside, tests/test_m.py) that load the
    // module, and those that import it, by the project's own patterns.
    plan.sourceIsTestFile = isTestFile;
    if (isTestFile) {
      plan.testFiles.clear();
    } else {
      std::vector<std::string> dirs = project.testPaths.empty() ? std::vector<std::string>{project.rootDir} : project.testPaths;
      // As pytest imports them: from its rootdir, with its pythonpath and conftest.py files (PyResolve.h).
      const PyResolver resolver(pythonSearch(ctx.source, ctx.workspaceRoot, ctx.request.overlay, project.rootDir));
      for (const auto& f : pythonTestsLoading(resolver, ctx.source, dirs, project.pythonFiles)) {
        if (std::find(plan.testFiles.begin(), plan.testFiles.end(), f) == plan.testFiles.end()) plan.testFiles.push_back(f);
      }
      // pytest collects only files that match its patterns (explicit paths aside).
      plan.testFiles.erase(std::remove_if(plan.testFiles.begin(), plan.testFiles.end(),
                                          [&](const std::string& f) {
                                            return !matchesPythonFiles(fs::path(f).filename().string(), project.pythonFiles);
                                          }),
                           plan.testFiles.end());
      // The source's own test functions are not pytest's (its name does not match).
      plan.sameFileTests = false;
      // Its doctests are, with --doctest-modules.
      plan.hasDoctests = plan.hasDoctests && project.doctestModules;
    }
    // The static tests again, over the final test files (ids and narrowing).
    plan.staticTests.clear();
    plan.selected.clear();
    plan.doctestFunctions.clear();
    std::vector<std::string> texts = plan.testFiles;
    if (plan.sourceIsTestFile) texts.insert(texts.begin(), ctx.source);
    for (const auto& f : texts) {
      auto t = f == ctx.source ? std::optional<std::string>(ctx.text) : readSource(f, ctx.request.overlay);
      if (!t) continue;
      auto tests = listTests(*t, f, Language::Python);
      plan.staticTests.insert(plan.staticTests.end(), tests.begin(), tests.end());
    }
    narrowToFunction(plan, ctx);
    // What pytest is asked to run.
    if (plan.function && !plan.selected.empty()) {
      for (const auto& st : plan.staticTests) {
        if (std::find(plan.selected.begin(), plan.selected.end(), st.name) != plan.selected.end())
          plan.runnerArgs.push_back(nodeIdOf(st.file, st.name, project.rootDir));
      }
      plan.selectionNote = "the tests that name or call " + plan.function->name;
    } else {
      if (plan.function)
        plan.selectionNote = "no test names or calls " + plan.function->name + ": ran the module's tests";
      plan.selected.clear();
      if (plan.sourceIsTestFile) plan.runnerArgs.push_back(relativeTo(ctx.source, project.rootDir));
      for (const auto& f : plan.testFiles) plan.runnerArgs.push_back(relativeTo(f, project.rootDir));
    }
    if (plan.hasDoctests && !plan.sourceIsTestFile) plan.runnerArgs.push_back(relativeTo(ctx.source, project.rootDir));
    return plan;
  }

  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    // A warm interpreter's spare has its binds before the run comes: the overlay copies stay put.
    const bool plain = pythonInstrumentationOff();
    const bool warm = options.warm && !options.executor && !plain;
    nlohmann::json cfg;
    cfg["source"] = plan.sourceIsTestFile ? "" : plan.sourceFile;
    if (plain) cfg["origin"] = "raise";
    cfg["budget"] = std::max(1.0, timeLimit(options) - 0.5);
    if (coverageEnabled()) cfg["cover"] = {plan.sourceFile};
    if (plan.hasDoctests && !plan.sourceIsTestFile) {
      // The source is passed for its doctests only; narrowed, to the function's.
      cfg["doctests_of"] = {{"file", plan.sourceFile}, {"functions", plan.doctestFunctions}};
    }
    auto setup = preparePythonRun(plan, options, staging,
                                  {{"_greenlight_pytest.py", harness::pytestPlugin()},
                                   {"greenlight_pytest.py", harness::pytestPluginEntry()},
                                   {"_greenlight_origin.py", harness::pythonOrigin()},
                                   {"_greenlight_cover.py", harness::pythonCover()}},
                                  cfg, warm, result);
    if (!setup) return result;
    sandbox::Policy& p = setup->policy;
    const std::string& python = setup->python;
    p.argv = {python, "-B", "-m", "pytest", "-p", "greenlight_pytest", "-o", "cache_dir=/tmp/.pytest_cache",
              "--rootdir=" + plan.rootDir, "--color=no"};
    p.argv.insert(p.argv.end(), plan.runnerArgs.begin(), plan.runnerArgs.end());
    p.env.insert(p.env.end(), {"PY_COLORS=0", "COVERAGE_FILE=/tmp/.coverage"});
    if (warm) {
      // pytest, its plugins and greenlight's started ahead (python_warm.py's pytest mode); never
      // the project's files, whose text differs from run to run.
      p.warm = warmStart({python, "-B", std::string(kSandboxGl) + "/python_warm.py", "pytest"},
                         {{".gl/python_warm.py", harness::pythonWarm()},
                          {".gl/_greenlight_pytest.py", harness::pytestPlugin()},
                          {".gl/_greenlight_origin.py", harness::pythonOrigin()},
                          {".gl/_greenlight_cover.py", harness::pythonCover()},
                          {".gl/greenlight_pytest.py", harness::pytestPluginEntry()}});
    }
    PathMap identity;
    auto [step, outcome] = runHarness(p, options, identity, result);
    if (options.prepareOnly) return result;
    finishResult(result, outcome, step, identity);
    if (result.tests.empty() && result.error.empty() && !result.cancelled && step.verdict.status == sandbox::Status::ExitNonzero &&
        step.verdict.exitCode != 5) {
      // pytest could not start the session (a usage error, an internal error): say what it said.
      std::string tail = step.stderrRest.empty() ? step.stdoutRest : step.stderrRest;
      if (tail.size() > 600) tail = tail.substr(tail.size() - 600);
      result.error = "pytest exited with code " + std::to_string(step.verdict.exitCode) + (tail.empty() ? "" : ": " + tail);
    }
    rerunFailuresPlain(result, p,
                       {python, "-B", "-m", "pytest", "-o", "cache_dir=/tmp/.pytest_cache", "--rootdir=" + plan.rootDir,
                        "--color=no"},
                       plan.runnerArgs, PlainRunner::Pytest, options);
    return result;
  }

  void select(TestPlan& plan, const std::vector<std::string>& names) const override {
    std::vector<std::string> ids;
    for (const auto& st : plan.staticTests) {
      // a test by its name, or every method of a class named alone
      const bool hit = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
        return st.name == n || st.name.rfind(n + ".", 0) == 0;
      });
      if (hit) ids.push_back(nodeIdOf(st.file, st.name, plan.rootDir));
    }
    if (ids.empty()) return;  // nothing known by those names: the plan as discovered
    plan.selected = names;
    plan.runnerArgs = ids;
    plan.hasDoctests = false;
  }
  bool preparable() const override { return true; }
};

}  // namespace

const RunnerAdapter& pytestAdapter() {
  static const PytestAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
