// The built-in Python harness (harness/python_harness.py): test_* functions, unittest.TestCase
// classes and docstring examples of the file and the test files beside it, for projects that
// have no test runner of their own (or whose interpreter cannot import it). Files are staged as
// copies under /work/src (Runner.h).
#include <algorithm>
#include <filesystem>

#include "core/testing/Coverage.h"
#include "core/testing/PythonBytecode.h"
#include "core/testing/PythonCoverTracer.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"
#include "core/testing/adapters/PlainRerun.h"
#include "core/testing/adapters/ProjectPython.h"
#include "core/testing/PythonProject.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

RunResult runPythonHarness(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result,
                           const std::string& module) {
  std::string err;
  // Overlay-only tests that import pytest (tests first in a pytest project) need an
  // interpreter that has it: the one discovery chose, else python.interpreter.
  auto tool = resolveFor(plan.interpreter.empty() ? options.config.pythonInterpreter : plan.interpreter, plan, options, &err);
  if (!tool) {
    result.error = "python interpreter: " + err;
    return result;
  }
  nlohmann::json cfg;
  cfg["source"] = plan.sourceIsTestFile ? "" : staging.toSandbox(plan.sourceFile);
  std::vector<std::string> tests;
  if (plan.sourceIsTestFile) tests.push_back(staging.toSandbox(plan.sourceFile));
  for (const auto& t : plan.testFiles) tests.push_back(staging.toSandbox(t));
  cfg["tests"] = tests;
  std::vector<std::string> paths;
  auto addPath = [&](const std::string& p) {
    if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
  };
  addPath(fs::path(staging.toSandbox(plan.sourceFile)).parent_path().string());
  for (const auto& t : tests) addPath(fs::path(t).parent_path().string());
  addPath(kSandboxSrc);
  cfg["paths"] = paths;
  cfg["same_file"] = plan.sameFileTests;
  if (module.find('.') != std::string::npos) cfg["module"] = module;  // imported as part of its package
  if (!options.doctests || !plan.hasDoctests) cfg["doctests"] = "none";
  else if (!plan.doctestFunctions.empty()) cfg["doctests"] = plan.doctestFunctions;
  else cfg["doctests"] = "all";
  cfg["select"] = plan.selected;
  if (coverageEnabled()) cfg["cover"] = {staging.toSandbox(plan.sourceFile)};
  cfg["budget"] = timeLimit(options);
  const bool plain = pythonInstrumentationOff();
  if (plain) cfg["origin"] = "raise";  // no traced rerun of a failed test
  staging.addHarnessFile("_greenlight_cover.py", harness::pythonCover());
  sandbox::Policy p = basePolicy(plan, options, staging, &*tool);
  if (!options.executor) stagePythonCoverTracer(*tool, p, staging, cfg);
  std::string config = staging.addHarnessFile("config.json", cfg.dump());
  // The harness as bytecode when this interpreter compiled it before (PythonBytecode.h); only
  // with the real sandbox: a fake executor sees exactly one step per run.
  const std::string harnessSource(harness::pythonHarness());
  const std::string harnessPath = std::string(kSandboxGl) + "/python_harness.py";
  std::optional<std::string> bytecode;
  if (!options.executor) bytecode = pythonHarnessBytecode(*tool, harnessSource, harnessPath, p);
  std::string harness = bytecode ? staging.addHarnessFile("python_harness.pyc", *bytecode)
                                 : staging.addHarnessFile("python_harness.py", harnessSource);
  const std::string python = tool->invokedAs.empty() ? tool->path : tool->invokedAs;
  p.argv = {python, "-B", harness, config};
  p.profile = sandbox::Profile::Python;
  p.env.insert(p.env.end(), {"PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8",
                             "PYTHONNOUSERSITE=1"});
  if (options.warm && !options.executor && !plain) {
    // The interpreter starts ahead with the same flags and environment and loads the harness
    // from its source (python_warm.py, beside it in /work/.gl before the run).
    p.warm = warmStart({python, "-B", std::string(kSandboxGl) + "/python_warm.py"},
                       {{".gl/python_harness.py", harness::pythonHarness()},
                        {".gl/python_warm.py", harness::pythonWarm()},
                        {".gl/_greenlight_cover.py", harness::pythonCover()}});
  }
  const PathMap& map = staging.pathMap();
  auto [step, outcome] = runHarness(p, options, map, result);
  if (options.prepareOnly) return result;
  finishResult(result, outcome, step, map);
  return result;
}


class PythonHarnessAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "python"; }
  bool handles(Language language) const override { return language == Language::Python; }
  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string*) const override {
    TestPlan plan = builtinDiscovery(ctx);
    // Tests that exist only in the overlay (the comment's examples, tests first) and import
    // pytest run here too (the project runner stages in place, over files that exist): with an
    // interpreter that imports pytest, so `pytest.raises` works.
    for (const auto& f : ctx.request.extraTestFiles) {
      auto text = readSource(f, ctx.request.overlay);
      if (!text || !importsPytest(*text)) continue;
      const PythonChoice python = pythonWith("pytest", ctx);
      if (python.tool) plan.interpreter = python.tool->invokedAs.empty() ? python.tool->path : python.tool->invokedAs;
      break;
    }
    return plan;
  }
  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    // A module inside a package is imported as part of it (relative imports, the package's
    // __init__): the staged tree keeps the package's directories.
    std::string error;
    const std::string module = plan.sourceIsTestFile ? "" : pythonModuleName(plan.sourceFile, plan.workspaceRoot);
    std::string packageParent;
    if (module.find('.') != std::string::npos) {
      fs::path dir = fs::path(plan.sourceFile).parent_path();
      for (std::size_t dots = std::count(module.begin(), module.end(), '.'); dots > 1; --dots) dir = dir.parent_path();
      packageParent = dir.parent_path().string();
    }
    if (!staging.prepare(plan, options.overlay, &error, packageParent)) {
      result.error = error;
      return result;
    }
    result = runPythonHarness(plan, options, staging, std::move(result), module);
    // The harness names tests as pytest would address them: give them the same ids (file
    // relative to the workspace, then the class and function), so the editors and comparisons
    // see one scheme whichever runner ran them.
    for (auto& t : result.tests) {
      if (!t.id.empty() || t.file.empty()) continue;
      std::string rel = fs::path(t.file).lexically_relative(plan.workspaceRoot).string();
      if (rel.empty() || rel.rfind("..", 0) == 0) rel = t.file;
      std::string qualified;
      for (char c : t.name) {
        if (c == '.' && t.name.rfind("doctest:", 0) != 0) qualified += "::";
        else qualified += c;
      }
      t.id = rel + "::" + qualified;
      const auto cls = qualified.rfind("::");
      t.parent = cls == std::string::npos ? rel : rel + "::" + qualified.substr(0, cls);
    }
    return result;
  }
  bool preparable() const override { return true; }
};

}  // namespace

const RunnerAdapter& pythonHarnessAdapter() {
  static const PythonHarnessAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
