// unittest, run as `python -m unittest` runs it: a Python project whose tests use unittest
// (TestCase classes, load_tests) and that does not use pytest. greenlight's runner
// (harness/unittest_runner.py, `python -m greenlight_unittest`) is unittest's own TestProgram
// and TextTestRunner with a TestResult that reports per test (EVENTS.md): discovery and the
// load_tests protocol are unittest's, so the doctests a module adds through load_tests run.
//
// The steps of a run are the pytest adapter's: stage in place, the runner and its config into
// /work/.gl, workdir = the project root, run, fold the events.
#include <algorithm>
#include <filesystem>

#include "core/testing/Coverage.h"
#include "core/testing/PyResolve.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"
#include "core/testing/adapters/PlainRerun.h"
#include "core/testing/adapters/PythonRun.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

// tests/test_x.py under `root` -> "tests.test_x".
std::string dottedName(const std::string& file, const std::string& root) {
  fs::path rel = fs::path(file).lexically_relative(root);
  std::string out;
  for (const auto& part : rel.parent_path()) out += part.string() + ".";
  return out + rel.stem().string();
}

class UnittestAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "unittest"; }
  bool handles(Language language) const override { return language == Language::Python; }

  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string*) const override {
    if (!ctx.request.extraTestFiles.empty()) return std::nullopt;
    const std::string root = ctx.workspaceRoot;
    TestPlan plan = builtinDiscovery(ctx);
    const std::vector<std::string> globs = {"test*.py", "*_test.py"};  // unittest discover's default, and ours
    const bool isTestFile = matchesPythonFiles(fs::path(ctx.source).filename().string(), globs);
    if (!isTestFile) {
      // As `python -m unittest` imports them: from the project root, no conftest.py (PyResolve.h).
      PySearch search = pythonSearch(ctx.source, root, ctx.request.overlay, root);
      search.preloadRoot.clear();
      const PyResolver resolver(std::move(search));
      for (const auto& f : pythonTestsLoading(resolver, ctx.source, {root}, globs)) {
        if (std::find(plan.testFiles.begin(), plan.testFiles.end(), f) == plan.testFiles.end()) plan.testFiles.push_back(f);
      }
    }
    std::vector<std::string> files = plan.testFiles;
    if (isTestFile) files = {ctx.source};
    // unittest's project: its tests use unittest, and none is of a kind unittest never runs
    // (module-level test functions, pytest): those go to the built-in harness, which runs both.
    bool unittestTests = false, otherTests = false;
    for (const auto& f : files) {
      auto t = f == ctx.source ? std::optional<std::string>(ctx.text) : readSource(f, ctx.request.overlay);
      if (!t) continue;
      unittestTests = unittestTests || usesUnittest(*t);
      otherTests = otherTests || importsPytest(*t) || definesTestFunctions(*t);
    }
    if (!unittestTests && !otherTests) {
      // The files say nothing either way (a test module that only fails to import): the test
      // files beside them decide.
      std::error_code ec;
      const fs::path dir = fs::path(files.empty() ? ctx.source : files.front()).parent_path();
      int looked = 0;
      for (fs::directory_iterator it(dir, ec), end; !ec && it != end && looked < 20; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!it->is_regular_file(ec) || it->path().extension() != ".py" || !matchesPythonFiles(name, globs)) continue;
        ++looked;
        if (auto t = readSource(it->path().string(), ctx.request.overlay)) {
          unittestTests = unittestTests || usesUnittest(*t);
          otherTests = otherTests || importsPytest(*t) || definesTestFunctions(*t);
        }
      }
    }
    if (!unittestTests || otherTests) return std::nullopt;

    plan.framework = "unittest";
    plan.rootDir = root;
    plan.sourceIsTestFile = isTestFile;
    if (isTestFile) plan.testFiles.clear();
    // unittest runs what the test modules load: the source's doctests only through load_tests.
    plan.sameFileTests = false;
    const bool sourceDoctests = plan.hasDoctests;
    plan.hasDoctests = false;
    plan.staticTests.clear();
    plan.selected.clear();
    plan.doctestFunctions.clear();
    for (const auto& f : files) {
      auto t = f == ctx.source ? std::optional<std::string>(ctx.text) : readSource(f, ctx.request.overlay);
      if (!t) continue;
      auto tests = listTests(*t, f, Language::Python);
      plan.staticTests.insert(plan.staticTests.end(), tests.begin(), tests.end());
    }
    narrowToFunction(plan, ctx);
    // One test module: as `python -m unittest` discovery loads it (its ids, an import failure's
    // included, are the ones the project's own run shows); several: by name.
    if (files.size() == 1) {
      const fs::path rel = fs::path(files.front()).lexically_relative(root);
      plan.runnerArgs = {"discover", "-s", rel.parent_path().empty() ? "." : rel.parent_path().string(), "-t", ".", "-p",
                         rel.filename().string()};
    } else {
      for (const auto& f : files) plan.runnerArgs.push_back(dottedName(f, root));
    }
    const std::size_t base = plan.runnerArgs.size();
    if (plan.function) {
      // Narrowed by unittest's own -k (a substring of the test id): the tests that name or call
      // the function, and its doctests (ids end in ".<function>").
      for (const auto& s : plan.selected) plan.runnerArgs.insert(plan.runnerArgs.end(), {"-k", s});
      if (sourceDoctests) plan.runnerArgs.insert(plan.runnerArgs.end(), {"-k", "." + plan.function->name});
      if (plan.selected.empty() && !sourceDoctests) {
        plan.selectionNote = "no test names or calls " + plan.function->name + ": ran the module's tests";
        plan.runnerArgs.resize(base);
      } else {
        plan.selectionNote = "the tests that name or call " + plan.function->name;
      }
    }
    return plan;
  }

  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    nlohmann::json cfg;
    cfg["source"] = plan.sourceIsTestFile ? "" : plan.sourceFile;
    cfg["budget"] = std::max(1.0, timeLimit(options) - 0.5);
    if (pythonInstrumentationOff()) cfg["origin"] = "raise";
    if (coverageEnabled()) cfg["cover"] = {plan.sourceFile};
    auto setup = preparePythonRun(plan, options, staging,
                                  {{"greenlight_unittest.py", harness::unittestRunner()},
                                   {"_greenlight_origin.py", harness::pythonOrigin()},
                                   {"_greenlight_cover.py", harness::pythonCover()}},
                                  cfg, false, result);
    if (!setup) return result;
    sandbox::Policy& p = setup->policy;
    p.argv = {setup->python, "-B", "-m", "greenlight_unittest"};
    p.argv.insert(p.argv.end(), plan.runnerArgs.begin(), plan.runnerArgs.end());
    PathMap identity;
    auto [step, outcome] = runHarness(p, options, identity, result);
    if (options.prepareOnly) return result;
    finishResult(result, outcome, step, identity);
    rerunFailuresPlain(result, p, {setup->python, "-B", "-m", "unittest"}, plan.runnerArgs, PlainRunner::Unittest,
                       options);
    return result;
  }

  void select(TestPlan& plan, const std::vector<std::string>& names) const override {
    // unittest's own -k: a substring of the test id (module.Class.test).
    auto end = std::find(plan.runnerArgs.begin(), plan.runnerArgs.end(), "-k");
    plan.runnerArgs.erase(end, plan.runnerArgs.end());
    for (const auto& n : names) plan.runnerArgs.insert(plan.runnerArgs.end(), {"-k", n});
    plan.selected = names;
  }
};

}  // namespace

const RunnerAdapter& unittestAdapter() {
  static const UnittestAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
