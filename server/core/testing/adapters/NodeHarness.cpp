// The built-in node harness (harness/node_harness.js + node:test): test files beside the source
// (m.test.js, __tests__/, test/) run under node:test with their asserts recording values, for
// projects without jest, vitest or mocha. Files are staged as copies under /work/src.
#include <algorithm>
#include <filesystem>

#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"
#include "core/testing/adapters/JsRunner.h"
#include "core/testing/harness/Harnesses.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

RunResult runNodeHarness(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) {
  std::string err;
  auto tool = resolveFor(options.config.nodePath, plan, options, &err);
  if (!tool) {
    result.error = "node: " + err;
    return result;
  }
  nlohmann::json cfg;
  cfg["source"] = staging.toSandbox(plan.sourceFile);
  std::vector<std::string> tests;
  if (plan.sourceIsTestFile) tests.push_back(staging.toSandbox(plan.sourceFile));
  for (const auto& t : plan.testFiles) tests.push_back(staging.toSandbox(t));
  cfg["tests"] = tests;
  cfg["select"] = plan.selected;
  cfg["budget"] = timeLimit(options);
  // Line coverage of the file under test (issue 35), measured by js_coverage.js in the harness.
  staging.addHarnessFile("js_coverage.js", harness::jsCoverage());
  if (jsCoverageOn() && !plan.sourceFile.empty()) cfg["cover"] = nlohmann::json::array({staging.toSandbox(plan.sourceFile)});
  std::string harness = staging.addHarnessFile("node_harness.js", harness::nodeHarness());
  std::string reporter = staging.addHarnessFile("node_reporter.mjs", harness::nodeReporter());
  // Beside the harness, which requires them to rewrite the test files' asserts.
  staging.addHarnessFile("node_rewrite.js", harness::nodeRewriter());
  staging.addHarnessFile("acorn.js", harness::acornParser());
  std::string config = staging.addHarnessFile("config.json", cfg.dump());
  // TypeScript without a runner of the project's: greenlight's hook (amaro strips the types).
  bool typescript = isTypeScriptPath(plan.sourceFile);
  for (const auto& t : plan.testFiles) typescript = typescript || isTypeScriptPath(t);
  std::string tsImport;
  if (typescript) {
    tsImport = "--import=" + staging.addHarnessFile("ts_hook.mjs", harness::tsHook());
    staging.addHarnessFile("amaro.js", harness::amaroTransformer());
  }
  sandbox::Policy p = basePolicy(plan, options, staging, &*tool);
  p.argv = {tool->path, nodeHeapFlag(p.memoryLimitMb), "--test-reporter=" + reporter, "--test-reporter-destination=stdout"};
  if (typescript) p.argv.push_back(tsImport);
  if (!plan.selected.empty()) {
    std::string pattern = "^(";
    for (std::size_t i = 0; i < plan.selected.size(); ++i) {
      if (i) pattern += "|";
      pattern += std::regex_replace(plan.selected[i], support::regex(R"([\$\.\^\*\+\?\(\)\[\]\{\}\|\\/])"), "\\$&");
    }
    pattern += ")$";
    p.argv.push_back("--test-name-pattern=" + pattern);
  }
  p.argv.push_back(harness);
  p.argv.push_back(config);
  p.profile = sandbox::Profile::Node;
  // Bare requires of packages from the workspace's node_modules directories.
  std::string nodePath;
  std::error_code ec;
  for (fs::path dir = fs::path(plan.sourceFile).parent_path();; dir = dir.parent_path()) {
    if (fs::is_directory(dir / "node_modules", ec)) nodePath += (nodePath.empty() ? "" : ":") + (dir / "node_modules").string();
    if (dir.string() == plan.workspaceRoot || dir == dir.parent_path()) break;
  }
  if (!nodePath.empty()) p.env.push_back("NODE_PATH=" + nodePath);
  p.env.push_back("NODE_OPTIONS=");
  p.env.push_back("NO_COLOR=1");
  // A warm spare counts coverage from its start (node_warm.js; js_coverage.js says why).
  if (jsCoverageOn()) p.env.push_back("GL_COVERAGE=1");
  // node reads --test-name-pattern when node:test loads, so a run with a selection is not one
  // an interpreter started ahead could serve: it runs cold.
  if (options.warm && !options.executor && plan.selected.empty()) {
    if (typescript) {
      p.warm = warmStart({p.argv[0], p.argv[1], p.argv[2], p.argv[3], tsImport, std::string(kSandboxGl) + "/node_warm.js"},
                         {{".gl/node_rewrite.js", harness::nodeRewriter()},
                          {".gl/acorn.js", harness::acornParser()},
                          {".gl/node_reporter.mjs", harness::nodeReporter()},
                          {".gl/node_warm.js", harness::nodeWarm()},
                          {".gl/js_coverage.js", harness::jsCoverage()},
                          {".gl/ts_hook.mjs", harness::tsHook()},
                          {".gl/amaro.js", harness::amaroTransformer()}});
    } else {
      p.warm = warmStart({p.argv[0], p.argv[1], p.argv[2], p.argv[3], std::string(kSandboxGl) + "/node_warm.js"},
                         {{".gl/node_rewrite.js", harness::nodeRewriter()},
                          {".gl/acorn.js", harness::acornParser()},
                          {".gl/node_reporter.mjs", harness::nodeReporter()},
                          {".gl/node_warm.js", harness::nodeWarm()},
                          {".gl/js_coverage.js", harness::jsCoverage()}});
    }
  }
  const PathMap& map = staging.pathMap();
  auto [step, outcome] = runHarness(p, options, map, result);
  if (options.prepareOnly) return result;
  // A SyntaxError while loading a file is a compile error at its location.
  for (auto& r : outcome.results) {
    if (r.kind == FailureKind::Exception && r.message.rfind("SyntaxError", 0) == 0) r.kind = FailureKind::Compile;
  }
  finishResult(result, outcome, step, map);
  return result;
}


class NodeHarnessAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "node"; }
  bool handles(Language language) const override { return language == Language::JavaScript; }
  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string*) const override {
    TestPlan plan = builtinDiscovery(ctx);
    // The local modules the tests import (a test file in test/ importing ../src/m.ts): staged
    // beside them. Relative to the nearest package.json (aliases), else the workspace.
    std::string root = ctx.workspaceRoot;
    std::error_code ec;
    for (fs::path d = fs::path(ctx.source).parent_path(); d.string().size() >= ctx.workspaceRoot.size(); d = d.parent_path()) {
      if (fs::is_regular_file(d / "package.json", ec)) {
        root = d.string();
        break;
      }
      if (d == d.parent_path()) break;
    }
    std::vector<std::string> files = plan.testFiles;
    files.push_back(ctx.source);
    for (const auto& f : jsImportClosure(files, root, ctx.request.overlay, 200)) {
      if (f != ctx.source && std::find(plan.testFiles.begin(), plan.testFiles.end(), f) == plan.testFiles.end())
        plan.supportFiles.push_back(f);
    }
    return plan;
  }
  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    std::string error;
    if (!staging.prepare(plan, options.overlay, &error)) {
      result.error = error;
      return result;
    }
    return runNodeHarness(plan, options, staging, std::move(result));
  }
  bool preparable() const override { return true; }
};

}  // namespace

const RunnerAdapter& nodeHarnessAdapter() {
  static const NodeHarnessAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
