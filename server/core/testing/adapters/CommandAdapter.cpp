// `tests.command` from .greenlight.json: any command, run in the sandbox on the staged copy
// ({file} and {dir} point into /work/src); its output read by the generic file:line matcher.
#include <filesystem>

#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

RunResult runCommandPlan(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) {
  if (plan.command.empty()) {
    result.error = "tests.command is empty";
    return result;
  }
  // The command sees the staged copy (unsaved text included): {file}/{dir} point into /work/src.
  std::vector<std::string> argv;
  const std::string hostFile = plan.sourceFile, hostDir = fs::path(plan.sourceFile).parent_path().string();
  const std::string sbFile = staging.toSandbox(hostFile), sbDir = fs::path(sbFile).parent_path().string();
  for (auto a : plan.command) {
    for (auto [from, to] : {std::pair{hostFile, sbFile}, std::pair{hostDir, sbDir}}) {
      for (std::size_t pos = 0; (pos = a.find(from, pos)) != std::string::npos; pos += to.size()) a.replace(pos, from.size(), to);
    }
    argv.push_back(a);
  }
  std::string err;
  std::optional<Tool> tool;
  if (!argv.empty() && argv[0].find('/') == std::string::npos) {
    tool = resolveFor(argv[0], plan, options, &err);
    if (!tool) {
      result.error = "tests.command: " + err;
      return result;
    }
    argv[0] = tool->path;
  }
  sandbox::Policy p = basePolicy(plan, options, staging, tool ? &*tool : nullptr);
  p.argv = argv;
  p.workdir = sbDir;
  p.profile = sandbox::Profile::Auto;
  auto step = executeStep(p, options, nullptr);
  step.stdoutRest = step.stdoutText;
  step.stderrRest = step.stderrText;
  result.verdict = step.verdict;
  result.stdoutText = capText(step.stdoutText, 16384);
  result.stderrText = capText(step.stderrText, 16384);
  const PathMap& map = staging.pathMap();
  TestResult t;
  t.name = fs::path(plan.command[0]).filename().string();
  t.file = plan.sourceFile;
  t.line = 1;
  const auto& v = step.verdict;
  if (v.cancelled) {
    result.cancelled = true;
    return result;
  }
  if (v.status == sandbox::Status::Ok) {
    t.status = TestStatus::Passed;
  } else if (v.status == sandbox::Status::ExitNonzero || v.status == sandbox::Status::Signaled) {
    t.status = TestStatus::Failed;
    t.kind = FailureKind::Assertion;
    auto locs = parseGenericLocations(step.stdoutText + "\n" + step.stderrText);
    for (auto& l : locs) {
      std::string f = l.file;
      if (!f.empty() && f[0] != '/') f = (fs::path(sbDir) / f).lexically_normal().string();
      l.file = map.toHost(f);
      if (!fs::exists(l.file)) continue;
      result.compilerMessages.push_back(l);
    }
    if (!result.compilerMessages.empty()) {
      // The test's message is the first error the command reported (else its first line).
      const CompilerMessage* first = &result.compilerMessages.front();
      for (const auto& m : result.compilerMessages) {
        if (m.severity == "error" || m.severity == "fatal error") {
          first = &m;
          break;
        }
      }
      t.message = first->message;
      if (first->code == "compile-error") t.kind = FailureKind::Compile;
      t.frames.push_back({first->file, first->line, first->column, ""});
    } else {
      t.message = v.status == sandbox::Status::Signaled ? "killed by signal " + std::to_string(v.signal)
                                                          : "exited with code " + std::to_string(v.exitCode);
    }
    t.output = capText(step.stdoutText + step.stderrText, 8192);
  } else {
    std::optional<HarnessOutcome> none;
    HarnessOutcome o;
    o.running = t;
    finishResult(result, o, step, map);
    return result;
  }
  if (options.onTestResult) options.onTestResult(t);
  result.tests.push_back(std::move(t));
  return result;
}


class CommandAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "command"; }
  bool handles(Language language) const override { return language == Language::Command; }
  // Discovery builds command plans itself (a file of any language may use tests.command).
  std::optional<TestPlan> discover(const DiscoveryContext&, std::string*) const override { return std::nullopt; }
  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    std::string error;
    if (!staging.prepare(plan, options.overlay, &error)) {
      result.error = error;
      return result;
    }
    return runCommandPlan(plan, options, staging, std::move(result));
  }
};

}  // namespace

const RunnerAdapter& commandAdapter() {
  static const CommandAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
