// The runners' shared steps: stage, build the sandbox policy for the language, run, fold the
// harness events into results, map paths back to the host. Which adapter runs a plan, and the
// diagnostics at the end: adapters/TestJob.h.
#include "core/testing/Runner.h"
#include "core/testing/Coverage.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "core/testing/Diagnostics.h"
#include "core/testing/OutputParsing.h"
#include "core/testing/PythonBytecode.h"
#include "core/testing/Staging.h"
#include "core/testing/Toolchain.h"
#include "core/testing/harness/Harnesses.h"
#include "core/testing/RunnerSteps.h"
#include "support/Log.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

Executor sandboxExecutor() {
  return [](const sandbox::Policy& policy, int cancelFd) { return sandbox::run(policy, cancelFd); };
}

namespace {

// Roots never bound whole: they would expose the user's home or the machine.
bool bindableWorkspace(const std::string& root) {
  if (root.empty() || root == "/") return false;
  const char* home = std::getenv("HOME");
  if (home && fs::path(root).lexically_normal() == fs::path(home).lexically_normal()) return false;
  return !isSystemPrefix(root) && root != "/tmp";
}

}  // namespace

double timeLimit(const RunOptions& options) {
  return options.timeoutSeconds > 0 ? options.timeoutSeconds : options.config.sandbox.timeLimitSeconds;
}

double programTimeLimit(const RunOptions& options, double lastSeconds) {
  if (options.hangSeconds <= 0) return timeLimit(options);
  return std::min(timeLimit(options), std::max(3 * options.hangSeconds, 3 * lastSeconds));
}

sandbox::Policy basePolicy(const TestPlan& plan, const RunOptions& options, const Staging& staging,
                           const Tool* tool) {
  sandbox::Policy p;
  p.scratchSource = staging.hostRoot();
  p.workdir = "/work/src";
  p.timeLimitSec = timeLimit(options) + 2.0;  // the harness's own budget ends first
  p.cpuLimitSec = p.timeLimitSec;
  p.memoryLimitMb = static_cast<std::size_t>(std::max(16, options.config.sandbox.memoryLimitMB));
  p.processes = std::max(4, options.config.sandbox.processes);
  p.outputLimitBytes = static_cast<std::size_t>(std::max(16, options.config.sandbox.outputLimitKB)) * 1024;
  p.network = options.config.sandbox.network;
  p.allowUnsandboxed = options.config.sandbox.allowUnsandboxed;
  if (bindableWorkspace(plan.workspaceRoot) && fs::is_directory(plan.workspaceRoot))
    p.binds.push_back({plan.workspaceRoot, "", false});
  else if (bindableWorkspace(staging.base()))
    p.binds.push_back({staging.base(), "", false});
  if (tool) {
    for (const auto& prefix : tool->bindPrefixes) {
      if (!sandbox::bindsReach(p.binds, prefix) && fs::exists(prefix)) p.binds.push_back({prefix, "", false});
    }
    p.env.insert(p.env.end(), tool->environment.begin(), tool->environment.end());
    std::string bin = fs::path(tool->invokedAs.empty() ? tool->path : tool->invokedAs).parent_path().string();
    p.env.push_back("PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin");
  }
  return p;
}

StepOutput executeStep(const sandbox::Policy& policyIn, const RunOptions& options,
                       const std::function<void(const nlohmann::json&)>& onEvent) {
  StepOutput out;
  sandbox::Policy policy = policyIn;
  std::string pending[3];
  // Only a step whose events are read can be watched for a hung test (Watchdog.h).
  std::unique_ptr<StepWatchdog> watchdog;
  if (onEvent && options.hangSeconds > 0) {
    policy.cpuWaitNs = std::make_shared<std::atomic<std::int64_t>>(0);
    watchdog = std::make_unique<StepWatchdog>(options.hangSeconds, cpuWaitDiscountedClock(options.clock, policy.cpuWaitNs),
                                              options.cancelFd);
  }
  auto feed = [&](int stream, std::string_view data) {
    std::string& buf = stream == 1 ? out.stdoutText : out.stderrText;
    buf.append(data.data(), data.size());
    if (!onEvent) return;
    std::string& p = pending[stream == 1 ? 1 : 2];
    p.append(data.data(), data.size());
    std::size_t nl;
    while ((nl = p.find('\n')) != std::string::npos) {
      std::string line = p.substr(0, nl);
      p.erase(0, nl + 1);
      if (line.rfind(kEventMarker, 0) == 0) {
        auto j = parseEventLine(line.substr(std::strlen(kEventMarker)));
        if (j.is_discarded()) continue;
        if (watchdog) watchdog->observe(j);
        onEvent(j);
      }
    }
  };
  policy.onOutput = feed;
  Executor exec = options.executor ? options.executor : sandboxExecutor();
  out.verdict = exec(policy, watchdog ? watchdog->cancelFd() : options.cancelFd);
  if (watchdog) {
    out.hung = watchdog->finish();
    if (out.hung && out.verdict.status != sandbox::Status::Ok && out.verdict.status != sandbox::Status::ExitNonzero) {
      // Our kill, not the caller's cancellation: the run timed out on its hung test.
      out.verdict.cancelled = false;
      out.verdict.status = sandbox::Status::Timeout;
    } else {
      out.hung.reset();  // the run ended on its own as the watchdog fired: nothing was stopped
    }
  }
  // Executors that capture instead of streaming (fakes, or a sandbox without streaming).
  if (out.stdoutText.empty() && !out.verdict.stdoutData.empty()) feed(1, out.verdict.stdoutData);
  if (out.stderrText.empty() && !out.verdict.stderrData.empty()) feed(2, out.verdict.stderrData);
  return out;
}

std::optional<Tool> resolveFor(const std::string& name, const TestPlan& plan, const RunOptions& options,
                               std::string* error) {
  ToolRequest req;
  req.name = name;
  req.workspaceRoot = plan.workspaceRoot;
  req.environment = options.toolEnvironment;
  return resolveTool(req, error);
}

std::string secondsText(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, seconds < 10 ? "%.1f s" : "%.0f s", seconds);
  return buf;
}

namespace {

// The tests a stopped run never reached: every collected test without a result (the runner
// reports nothing for them), as `skipped`/`notrun` with `reason` (EVENTS.md) — never failed.
void addNotRun(RunResult& result, const std::optional<HarnessOutcome>& outcome, const PathMap& map,
               const std::string& reason) {
  if (!outcome) return;
  std::set<std::string> ids, names;
  for (const auto& t : result.tests) {
    if (!t.id.empty()) ids.insert(t.id);
    names.insert(t.name);
  }
  for (auto t : outcome->collected) {
    if (!t.id.empty() ? ids.count(t.id) > 0 : names.count(t.name) > 0) continue;
    if (!t.id.empty()) ids.insert(t.id);
    names.insert(t.name);
    map.mapResult(t);
    t.status = TestStatus::Skipped;
    t.outcome = "notrun";
    t.reason = reason;
    t.message = reason;
    result.tests.push_back(std::move(t));
  }
}

}  // namespace

void finishResult(RunResult& result, const std::optional<HarnessOutcome>& outcome, const StepOutput& step,
                  const PathMap& map) {
  // In the sandbox, EAGAIN from fork/clone/thread creation is the process limit (RLIMIT_NPROC):
  // said in the test's own message, since whether the whole run is then classified as
  // process_limit depends on how many tasks are still alive when the payload ends.
  auto namesProcessLimit = [](TestResult& r) {
    if (r.status == TestStatus::Passed || r.message.find("(process limit reached)") != std::string::npos) return;
    const bool eagain = r.message.find("Resource temporarily unavailable") != std::string::npos ||
                        r.message.find("spawn EAGAIN") != std::string::npos;
    if (eagain) r.message += " (process limit reached)";
  };
  if (outcome) {
    for (auto r : outcome->results) {
      map.mapResult(r);
      namesProcessLimit(r);
      result.tests.push_back(std::move(r));
    }
    for (auto w : outcome->warnings) {
      w.file = map.toHost(w.file);
      w.message = map.mapText(std::move(w.message));
      result.warnings.push_back(std::move(w));
    }
    for (auto c : outcome->coverage) {
      c.file = map.toHost(c.file);
      result.coverage.push_back(std::move(c));
    }
  }
  const auto& v = step.verdict;
  std::optional<TestResult> running;
  if (outcome && outcome->running) {
    running = outcome->running;
    map.mapResult(*running);
  }
  auto blame = [&](TestStatus status, FailureKind kind, const std::string& message) {
    TestResult r = running ? *running : TestResult{};
    if (!running) {
      r.name = "(run)";
      r.file = result.file;
      r.line = 0;
    }
    r.status = status;
    r.kind = kind;
    r.message = message;
    result.tests.push_back(std::move(r));
  };
  if (v.cancelled) {
    result.cancelled = true;
    return;
  }
  switch (v.status) {
    case sandbox::Status::SetupError:
      result.error = "sandbox setup failed: " + v.setupError;
      return;
    case sandbox::Status::Timeout:
    case sandbox::Status::CpuLimit:
      if (step.hung) {
        const bool reported = std::any_of(result.tests.begin(), result.tests.end(), [&](const TestResult& t) {
          return step.hung->id.empty() || t.id.empty() ? t.name == step.hung->name : t.id == step.hung->id;
        });
        running = TestResult{};
        running->id = step.hung->id;
        running->name = step.hung->name;
        // node:test's `begin` knows no file before node 22: the file under test then.
        running->file = step.hung->file.empty() ? result.file : map.toHost(step.hung->file);
        running->line = std::max(1, step.hung->line);
        if (!reported)  // its result came in as it was stopped: it was not hung after all
          blame(TestStatus::Timeout, FailureKind::Timeout,
              "timed out: ran " + secondsText(step.hung->seconds) + " with no test finishing (stopped as hung)");
        addNotRun(result, outcome, map, "not run: the run was stopped after " + step.hung->name + " hung");
      } else {
        blame(TestStatus::Timeout, FailureKind::Timeout, "timed out (time limit reached)");
        addNotRun(result, outcome, map, "not run: the run reached its time limit");
      }
      return;
    case sandbox::Status::MemoryLimit:
      blame(TestStatus::Error, FailureKind::MemoryLimit, "memory limit exceeded");
      return;
    case sandbox::Status::SyscallViolation:
      blame(TestStatus::Error, FailureKind::SandboxViolation,
            "sandbox refused the system call " + (v.syscall.empty() ? std::string("(unknown)") : v.syscall));
      return;
    case sandbox::Status::OutputLimit:
      blame(TestStatus::Error, FailureKind::Exception, "output limit exceeded");
      return;
    case sandbox::Status::ProcessLimit:
      blame(TestStatus::Error, FailureKind::Exception, "process limit reached");
      return;
    case sandbox::Status::FileSizeLimit:
      blame(TestStatus::Error, FailureKind::Exception, "file size limit exceeded");
      return;
    case sandbox::Status::Ok:
    case sandbox::Status::ExitNonzero:
    case sandbox::Status::Signaled:
      if (running || (outcome && !outcome->done && result.tests.empty())) {
        std::string tail = step.stderrRest;
        if (tail.size() > 400) tail = tail.substr(tail.size() - 400);
        std::string why = v.status == sandbox::Status::Signaled ? "killed by signal " + std::to_string(v.signal)
                                                                : "exited with code " + std::to_string(v.exitCode);
        blame(TestStatus::Error, FailureKind::Exception,
              "the test process " + why + (tail.empty() ? "" : ": " + tail));
      }
      return;
  }
}

// The warm start for an interpreter command, built once per command: its files (acorn alone
// is ~230 KB) are the embedded texts, the same for every run. Thread-safe.
std::shared_ptr<const sandbox::Policy::WarmStart> warmStart(
    const std::vector<std::string>& argv, std::initializer_list<std::pair<const char*, std::string_view>> files) {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::shared_ptr<const sandbox::Policy::WarmStart>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[argv];
  if (!slot) {
    auto warm = std::make_shared<sandbox::Policy::WarmStart>();
    warm->argv = argv;
    for (const auto& [path, text] : files) warm->files.emplace_back(path, std::string(text));
    slot = std::move(warm);
  }
  return slot;
}

// Runs a harness that streams one JSON event per line: forwards each finished test as it
// arrives, then records the verdict and the output that was not events. Returns the step and
// the folded events for the language-specific finish.
std::pair<StepOutput, HarnessOutcome> runHarness(const sandbox::Policy& p, const RunOptions& options,
                                                 const PathMap& map, RunResult& result) {
  if (options.prepareOnly) {
    sandbox::prepareSpare(p);
    return {};
  }
  auto step = executeStep(p, options, [&](const nlohmann::json& e) {
    if (options.onTestResult && e.value("ev", "") == "result") {
      auto r = resultFromEvent(e);
      map.mapResult(r);
      options.onTestResult(r);
    }
  });
  auto stream = extractEvents(step.stdoutText);
  step.stdoutRest = stream.rest;
  step.stderrRest = extractEvents(step.stderrText).rest;
  result.verdict = step.verdict;
  result.stdoutText = capText(step.stdoutRest, 16384);
  result.stderrText = capText(step.stderrRest, 16384);
  return {std::move(step), foldEvents(stream.events)};
}

std::string runFingerprint(const TestPlan& plan, const RunOptions& options) {
  nlohmann::json j;
  j["language"] = std::string(languageName(plan.language));
  j["source"] = plan.sourceFile;
  j["tests"] = plan.testFiles;
  j["selected"] = plan.selected;
  j["doctests"] = plan.doctestFunctions;
  j["command"] = plan.command;
  j["sameFile"] = plan.sameFileTests;
  j["framework"] = plan.framework;
  j["runner"] = plan.runner;
  j["rootDir"] = plan.rootDir;
  j["runnerArgs"] = plan.runnerArgs;
  j["namePattern"] = plan.namePattern;
  j["withDoctests"] = options.doctests;
  j["coverage"] = coverageEnabled();  // a run measured or not: different results, different builds
  j["timeout"] = timeLimit(options);
  j["hang"] = options.hangSeconds;
  j["sandbox"] = configToJson(options.config)["sandbox"];
  j["python"] = plan.interpreter.empty() ? options.config.pythonInterpreter : plan.interpreter;
  j["node"] = options.config.nodePath;
  j["cxx"] = options.config.cxxCompiler;
  j["cxxFlags"] = options.config.cxxFlags;
  // The toolchain the names resolve to now (a pyenv switch or an upgrade changes results).
  std::string toolName = !plan.interpreter.empty()               ? plan.interpreter
                         : plan.language == Language::Python     ? options.config.pythonInterpreter
                         : plan.language == Language::JavaScript ? options.config.nodePath
                         : plan.language == Language::Cxx ? options.config.cxxCompiler
                                                          : (plan.command.empty() ? "" : plan.command[0]);
  std::string toolError;
  if (auto tool = resolveFor(toolName, plan, options, &toolError)) j["tool"] = tool->path + " " + tool->fingerprint;
  // Texts: every staged file of the plan, read through the overlay (unsaved text counts).
  std::vector<std::string> files = {plan.sourceFile};
  files.insert(files.end(), plan.testFiles.begin(), plan.testFiles.end());
  files.insert(files.end(), plan.supportFiles.begin(), plan.supportFiles.end());
  std::hash<std::string> h;
  for (const auto& f : files) {
    auto text = readSource(f, options.overlay);
    j["texts"].push_back(text ? std::to_string(h(*text)) + ":" + std::to_string(text->size()) : "missing");
  }
  // Sibling files may be imported: fold in their modification times and sizes.
  std::vector<std::string> all = files;
  std::string base = commonDirectory(all);
  std::error_code ec;
  std::size_t n = 0;
  std::string stamp;
  for (fs::directory_iterator it(base, ec), end; !ec && it != end && n < 400; it.increment(ec), ++n) {
    if (!it->is_regular_file(ec)) continue;
    auto t = fs::last_write_time(it->path(), ec).time_since_epoch().count();
    stamp += it->path().filename().string() + ":" + std::to_string(t) + ":" + std::to_string(it->file_size(ec)) + ";";
  }
  j["siblings"] = std::to_string(h(stamp));
  return j.dump();
}

}  // namespace greenlight::core::testing
