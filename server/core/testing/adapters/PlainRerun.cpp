// Failed tests rerun as the user's own command runs them (PlainRerun.h). Only failing runs pay:
// one cold runner process for their failed tests. Reading the plain verdict needs no plugin:
// pytest's `-rA` summary says "PASSED <node id>" per passing test, unittest's `-v` report
// "name (id) ... ok" (Python 3.11+) or "name (module.Class) ... ok" (older), with -b so a test's
// own prints cannot split that line.
#include "core/testing/adapters/PlainRerun.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <set>
#include <string_view>

#include "core/testing/RunnerSteps.h"

namespace greenlight::core::testing {

namespace {

// More failures than this are a broken candidate, not an instrumentation artefact: not rerun.
constexpr std::size_t kMaxPlainReruns = 40;
constexpr double kPlainRerunStartSeconds = 15;

std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    out.push_back(line);
    start = nl + 1;
  }
  return out;
}

// `ids` that pytest's summary says PASSED and never FAILED or ERROR (a test whose call passed and
// whose teardown broke has both a PASSED and an ERROR line).
std::set<std::string> pytestPassed(std::string_view stdoutText, const std::set<std::string>& ids) {
  std::set<std::string> passed, broken;
  constexpr std::string_view kPassed = "PASSED ";
  const auto lines = linesOf(stdoutText);
  for (std::string_view line : lines)
    if (line.substr(0, kPassed.size()) == kPassed) passed.emplace(line.substr(kPassed.size()));
  for (std::string_view line : lines) {
    for (std::string_view word : {std::string_view("FAILED "), std::string_view("ERROR ")}) {
      if (line.substr(0, word.size()) != word) continue;
      const std::string_view rest = line.substr(word.size());
      for (const auto& id : ids)
        if (rest.substr(0, id.size()) == id && (rest.size() == id.size() || rest[id.size()] == ' ')) broken.insert(id);
    }
  }
  for (const auto& id : broken) passed.erase(id);
  return passed;
}

std::set<std::string> unittestPassed(std::string_view stderrText) {
  std::set<std::string> passed;
  constexpr std::string_view kOk = " ... ok";
  for (std::string_view line : linesOf(stderrText)) {
    if (line.size() < kOk.size() || line.substr(line.size() - kOk.size()) != kOk) continue;
    line.remove_suffix(kOk.size());
    const std::size_t open = line.rfind(" (");
    if (open == std::string_view::npos || line.back() != ')') continue;
    const std::string name(line.substr(0, open));
    const std::string inParens(line.substr(open + 2, line.size() - open - 3));
    // 3.11+: the whole id; before: the class, the method's name beside it.
    const bool whole = inParens.size() > name.size() + 1 &&
                       inParens.compare(inParens.size() - name.size() - 1, std::string::npos, "." + name) == 0;
    passed.insert(whole ? inParens : inParens + "." + name);
  }
  return passed;
}

// Whether the plain runner can address the test by its id: any pytest node id; a unittest id
// "module.Class.method" (a doctest that load_tests adds has no name unittest can load).
bool addressable(const TestResult& t, PlainRunner runner) {
  if (t.id.empty()) return false;
  if (runner == PlainRunner::Pytest) return true;
  const std::size_t dot = t.id.rfind('.');
  return dot != std::string::npos && t.parent == t.id.substr(0, dot) && t.name.find('.') != std::string::npos;
}

}  // namespace

bool pythonInstrumentationOff() {
  const char* v = std::getenv("GREENLIGHT_PLAIN");
  return v != nullptr && *v != '\0' && std::string_view(v) != "0";
}

void rerunFailuresPlain(RunResult& result, const sandbox::Policy& policy, const std::vector<std::string>& plainArgv,
                        const std::vector<std::string>& selection, PlainRunner runner, const RunOptions& options) {
  if (result.cancelled || !result.error.empty() || pythonInstrumentationOff()) return;
  if (const char* v = std::getenv("GREENLIGHT_PLAIN_RERUN"); v != nullptr && std::string_view(v) == "0") return;
  std::vector<std::size_t> failed;
  std::set<std::string> ids;
  double failedMs = 0, allMs = 0;
  for (std::size_t i = 0; i < result.tests.size(); ++i) {
    const TestResult& t = result.tests[i];
    allMs += t.durationMs;
    if (t.status != TestStatus::Failed && t.status != TestStatus::Error) continue;
    if (!addressable(t, runner)) continue;
    failed.push_back(i);
    ids.insert(t.id);
    failedMs += t.durationMs;
  }
  if (failed.empty() || failed.size() > kMaxPlainReruns) return;
  RunOptions quiet = options;
  quiet.onTestResult = nullptr;
  // One cold run of the user's command (no warm interpreter) with `args`, bounded by the runner's
  // start plus a few times what its tests took: a plain run that hangs where the instrumented one
  // failed costs that much, never the whole time limit again (and confirms nothing).
  auto plainPassed = [&](const std::vector<std::string>& args, double tookMs, const std::set<std::string>& wanted) {
    sandbox::Policy p = policy;
    p.warm = nullptr;
    p.timeLimitSec = std::min(p.timeLimitSec, kPlainRerunStartSeconds + 3 * tookMs / 1000.0);
    p.argv = plainArgv;
    p.argv.insert(p.argv.end(), args.begin(), args.end());
    // After the arguments: unittest reads `discover` only as its first one.
    if (runner == PlainRunner::Pytest) p.argv.push_back("-rA");
    else p.argv.insert(p.argv.end(), {"-v", "-b"});
    const StepOutput step = executeStep(p, quiet, {});
    return runner == PlainRunner::Pytest ? pytestPassed(step.stdoutText, wanted) : unittestPassed(step.stderrText);
  };
  // First the failed tests alone: a real failure (the common case) costs one short run.
  std::set<std::string> passed = plainPassed(std::vector<std::string>(ids.begin(), ids.end()), failedMs, ids);
  for (auto it = passed.begin(); it != passed.end();) it = ids.count(*it) ? std::next(it) : passed.erase(it);
  if (passed.empty()) return;
  // Passing alone may only mean the test depends on the ones run before it: the run's whole
  // selection, plain, must pass it too.
  const std::set<std::string> inContext = plainPassed(selection, allMs, passed);
  for (std::size_t i : failed) {
    TestResult& t = result.tests[i];
    if (passed.count(t.id) == 0 || inContext.count(t.id) == 0) continue;
    const std::string instrumented = t.message;
    t.status = TestStatus::Passed;
    t.kind = FailureKind::None;
    t.message = "passed when rerun plain; failed only under greenlight's instrumentation: " + instrumented;
    t.expected.clear();
    t.actual.clear();
    t.frames.clear();
    t.origin.reset();
    result.warnings.push_back({t.file, t.line, "instrumented-only",
                               t.id + " failed only under greenlight's instrumentation (" + instrumented +
                                   ") and passed when rerun plain: reported passed"});
  }
}

}  // namespace greenlight::core::testing
