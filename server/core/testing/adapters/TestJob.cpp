#include "core/testing/adapters/TestJob.h"

#include <filesystem>
#include <utility>

#include "core/testing/Coverage.h"
#include "core/testing/Diagnostics.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/Staging.h"
#include "core/testing/adapters/Adapter.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

// Step 1: the request as every adapter's discovery starts from it.
struct Resolved {
  std::string source;  // absolute, normalised
  std::string root;    // the project root: absolute, normalised, no trailing '/'
  std::string text;
};

std::optional<Resolved> resolve(const DiscoveryRequest& request, std::string* error) {
  std::error_code ec;
  Resolved r;
  r.source = fs::absolute(request.path, ec).lexically_normal().string();
  auto text = readSource(r.source, request.overlay);
  if (!text) {
    *error = r.source + ": cannot read the file";
    return std::nullopt;
  }
  r.text = std::move(*text);
  r.root = request.workspaceRoot.empty() ? findWorkspaceRoot(r.source)
                                         : fs::absolute(request.workspaceRoot, ec).lexically_normal().string();
  while (r.root.size() > 1 && r.root.back() == '/') r.root.pop_back();
  // An editor opened at / is no project: the file's own project (or directory) is.
  if (isFilesystemRoot(r.root)) r.root = findWorkspaceRoot(r.source);
  return r;
}

std::string substitute(std::string arg, const std::string& file, const std::string& dir) {
  for (auto [key, value] : {std::pair<std::string, std::string>{"{file}", file}, {"{dir}", dir}}) {
    for (std::size_t pos = 0; (pos = arg.find(key, pos)) != std::string::npos; pos += value.size())
      arg.replace(pos, key.size(), value);
  }
  return arg;
}

bool hasTestsCommand(const DiscoveryRequest& request) {
  return request.config && request.config->testsCommand && !request.config->testsCommand->empty();
}

// `tests.command` from the config, {file} and {dir} substituted: the plan of the command adapter.
PlannedTests commandPlan(const DiscoveryRequest& request, const Resolved& r) {
  PlannedTests out;
  TestPlan& plan = out.plan;
  plan.sourceFile = r.source;
  plan.workspaceRoot = r.root;
  plan.language = Language::Command;
  plan.framework = "command";
  plan.runner = "command";
  const std::string dir = fs::path(r.source).parent_path().string();
  for (const auto& a : *request.config->testsCommand) plan.command.push_back(substitute(a, plan.sourceFile, dir));
  out.adapter = adapterNamed(plan.runner);
  return out;
}

// Out of time (the time limit, or a test the hang watchdog stopped) with coverage on, in a
// language whose coverage runs inside the test process.
bool coverageMadeItTooSlow(const TestPlan& plan, const RunResult& result) {
  if (!coverageEnabled() || result.cancelled || (plan.language != Language::Python && plan.language != Language::JavaScript))
    return false;
  if (result.verdict && result.verdict->status == sandbox::Status::Timeout) return true;
  for (const auto& t : result.tests)
    if (t.status == TestStatus::Timeout) return true;
  return false;
}

// What stopped a run that coverage made too slow, in words.
std::string whyTooSlow(const RunResult& result, const RunOptions& options) {
  for (const auto& t : result.tests) {
    if (t.status == TestStatus::Timeout && !t.message.empty()) return t.name + " " + t.message;
  }
  return "the run reached its time limit (" + secondsText(timeLimit(options)) + ")";
}

// Step 6: the summary, the notes and the diagnostics of a run the adapter finished.
RunResult finishRun(const TestPlan& plan, const Staging& staging, RunResult result) {
  result.summary = summarize(result.tests);
  result.selectionNote = plan.selectionNote;
  result.discoveryNote = plan.discoveryNote;
  // Functions under test: the one at LINE, else none (buildDiagnostics finds callees itself).
  DiagnosticContext ctx;
  ctx.sourceFile = plan.sourceFile;
  ctx.sourceText = staging.stagedTexts().empty() ? "" : staging.stagedTexts().front().second;
  ctx.language = plan.language;
  if (plan.function) ctx.function = plan.function;
  for (const auto& [f, t] : staging.stagedTexts()) ctx.texts[f] = t;
  result.diagnostics = buildDiagnostics(result, ctx);
  return result;
}

}  // namespace

std::optional<PlannedTests> planTests(const DiscoveryRequest& request, std::string* error) {
  auto resolved = resolve(request, error);
  if (!resolved) return std::nullopt;
  const auto language = languageForPath(resolved->source);
  if (!language) {
    if (hasTestsCommand(request)) return commandPlan(request, *resolved);
    *error = resolved->source + ": no built-in test runner for '" + fs::path(resolved->source).extension().string() +
             "' files; set \"tests.command\" in .greenlight.json";
    return std::nullopt;
  }
  const DiscoveryContext ctx{request, resolved->source, resolved->root, *language, resolved->text};
  for (const RunnerAdapter* adapter : adapters()) {
    if (!adapter->handles(*language)) continue;
    std::string why;
    auto plan = adapter->discover(ctx, &why);
    if (!plan && !why.empty()) {
      *error = why;
      return std::nullopt;
    }
    if (!plan) continue;
    if (plan->empty() && hasTestsCommand(request)) return commandPlan(request, *resolved);
    plan->runner = std::string(adapter->name());
    return PlannedTests{std::move(*plan), adapter};
  }
  if (hasTestsCommand(request)) return commandPlan(request, *resolved);
  *error = resolved->source + ": no test runner for this file";
  return std::nullopt;
}

std::optional<TestPlan> discoverTests(const DiscoveryRequest& request, std::string* error) {
  auto planned = planTests(request, error);
  if (!planned) return std::nullopt;
  return std::move(planned->plan);
}

void selectTests(PlannedTests& planned, const std::vector<std::string>& names) {
  if (planned.adapter) planned.adapter->select(planned.plan, names);
  else planned.plan.selected = names;
}

RunResult runTests(const PlannedTests& planned, const RunOptions& options) {
  const TestPlan& plan = planned.plan;
  RunResult result;
  result.file = plan.sourceFile;
  result.language = plan.language;
  result.files.push_back(plan.sourceFile);
  for (const auto& t : plan.testFiles) result.files.push_back(t);
  if (!planned.adapter) {
    result.error = "no test runner named '" + plan.runner + "'";
    return result;
  }
  if (options.prepareOnly && !planned.adapter->preparable()) return result;
  Staging staging;
  const RunResult asked = result;
  result = planned.adapter->run(plan, options, staging, result);
  if (options.prepareOnly) return result;
  if (!coverageMadeItTooSlow(plan, result)) return finishRun(plan, staging, std::move(result));
  // Python's tracer and V8's precise counts slow CPU-bound suites (a real library's 901 tests:
  // 21 s without, cut at the 30 s limit with): the run without them decides, as the project's
  // own runner would. Compiled code's gcov counters cost a few percent and a rebuild to drop.
  const std::string why = whyTooSlow(result, options);
  CoverageOff off;
  Staging again;
  result = planned.adapter->run(plan, options, again, asked);
  result.coverageNote = "coverage not measured: with it, " + why + "; the results are of a run without it";
  return finishRun(plan, again, std::move(result));
}

RunResult runPlan(const TestPlan& plan, const RunOptions& options) {
  return runTests(PlannedTests{plan, adapterNamed(plan.runner.empty() ? defaultRunner(plan.language) : plan.runner)},
                  options);
}

std::string_view defaultRunner(Language language) {
  switch (language) {
    case Language::Python: return "python";
    case Language::JavaScript: return "node";
    case Language::Cxx: return "cxx";
    case Language::Command: return "command";
  }
  return "command";
}

}  // namespace greenlight::core::testing
