// runPlan: stage, build the sandbox policy for the language, run, fold the harness events into
// results, map paths back to the host, and turn failures into diagnostics.
#include "core/testing/Runner.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <regex>
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
      bool covered = false;
      for (const auto& b : p.binds) covered = covered || prefix == b.hostPath || prefix.rfind(b.hostPath + "/", 0) == 0;
      if (!covered && fs::exists(prefix)) p.binds.push_back({prefix, "", false});
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
        auto j = nlohmann::json::parse(line.substr(std::strlen(kEventMarker)), nullptr, false);
        if (!j.is_discarded()) onEvent(j);
      }
    }
  };
  policy.onOutput = feed;
  Executor exec = options.executor ? options.executor : sandboxExecutor();
  out.verdict = exec(policy, options.cancelFd);
  // Executors that capture instead of streaming (fakes, or a sandbox without streaming).
  if (out.stdoutText.empty() && !out.verdict.stdoutData.empty()) feed(1, out.verdict.stdoutData);
  if (out.stderrText.empty() && !out.verdict.stderrData.empty()) feed(2, out.verdict.stderrData);
  return out;
}

namespace {

std::optional<Tool> resolveFor(const std::string& name, const TestPlan& plan, const RunOptions& options,
                               std::string* error) {
  ToolRequest req;
  req.name = name;
  req.workspaceRoot = plan.workspaceRoot;
  req.environment = options.toolEnvironment;
  return resolveTool(req, error);
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
      blame(TestStatus::Timeout, FailureKind::Timeout, "timed out (time limit reached)");
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

namespace {


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

RunResult runPython(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) {
  std::string err;
  auto tool = resolveFor(options.config.pythonInterpreter, plan, options, &err);
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
  if (!options.doctests || !plan.hasDoctests) cfg["doctests"] = "none";
  else if (!plan.doctestFunctions.empty()) cfg["doctests"] = plan.doctestFunctions;
  else cfg["doctests"] = "all";
  cfg["select"] = plan.selected;
  cfg["budget"] = timeLimit(options);
  std::string config = staging.addHarnessFile("config.json", cfg.dump());
  sandbox::Policy p = basePolicy(plan, options, staging, &*tool);
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
  if (options.warm && !options.executor) {
    // The interpreter starts ahead with the same flags and environment and loads the harness
    // from its source (python_warm.py, beside it in /work/.gl before the run).
    p.warm = warmStart({python, "-B", std::string(kSandboxGl) + "/python_warm.py"},
                       {{".gl/python_harness.py", harness::pythonHarness()}, {".gl/python_warm.py", harness::pythonWarm()}});
  }
  const PathMap& map = staging.pathMap();
  auto [step, outcome] = runHarness(p, options, map, result);
  if (options.prepareOnly) return result;
  finishResult(result, outcome, step, map);
  return result;
}

RunResult runNode(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) {
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
  std::string harness = staging.addHarnessFile("node_harness.js", harness::nodeHarness());
  std::string reporter = staging.addHarnessFile("node_reporter.mjs", harness::nodeReporter());
  // Beside the harness, which requires them to rewrite the test files' asserts.
  staging.addHarnessFile("node_rewrite.js", harness::nodeRewriter());
  staging.addHarnessFile("acorn.js", harness::acornParser());
  std::string config = staging.addHarnessFile("config.json", cfg.dump());
  sandbox::Policy p = basePolicy(plan, options, staging, &*tool);
  p.argv = {tool->path, "--test-reporter=" + reporter, "--test-reporter-destination=stdout"};
  if (!plan.selected.empty()) {
    std::string pattern = "^(";
    for (std::size_t i = 0; i < plan.selected.size(); ++i) {
      if (i) pattern += "|";
      pattern += std::regex_replace(plan.selected[i], std::regex(R"([\$\.\^\*\+\?\(\)\[\]\{\}\|\\/])"), "\\$&");
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
  // node reads --test-name-pattern when node:test loads, so a run with a selection is not one
  // an interpreter started ahead could serve: it runs cold.
  if (options.warm && !options.executor && plan.selected.empty()) {
    p.warm = warmStart({p.argv[0], p.argv[1], p.argv[2], std::string(kSandboxGl) + "/node_warm.js"},
                       {{".gl/node_rewrite.js", harness::nodeRewriter()},
                        {".gl/acorn.js", harness::acornParser()},
                        {".gl/node_reporter.mjs", harness::nodeReporter()},
                        {".gl/node_warm.js", harness::nodeWarm()}});
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

RunResult runCommand(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) {
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

}  // namespace

RunResult runPlan(const TestPlan& plan, const RunOptions& options) {
  RunResult result;
  result.file = plan.sourceFile;
  result.language = plan.language;
  result.files.push_back(plan.sourceFile);
  for (const auto& t : plan.testFiles) result.files.push_back(t);
  // Only the interpreters' runs can be prepared (a C++ run's first step is its compile).
  if (options.prepareOnly && plan.language != Language::Python && plan.language != Language::JavaScript) return result;
  Staging staging;
  std::string err;
  if (!staging.prepare(plan, options.overlay, &err)) {
    result.error = err;
    return result;
  }
  switch (plan.language) {
    case Language::Python: result = runPython(plan, options, staging, std::move(result)); break;
    case Language::JavaScript: result = runNode(plan, options, staging, std::move(result)); break;
    case Language::Cxx: result = runCxx(plan, options, staging, std::move(result)); break;
    case Language::Command: result = runCommand(plan, options, staging, std::move(result)); break;
  }
  if (options.prepareOnly) return result;
  result.summary = summarize(result.tests);
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
  j["withDoctests"] = options.doctests;
  j["timeout"] = timeLimit(options);
  j["sandbox"] = configToJson(options.config)["sandbox"];
  j["python"] = options.config.pythonInterpreter;
  j["node"] = options.config.nodePath;
  j["cxx"] = options.config.cxxCompiler;
  j["cxxFlags"] = options.config.cxxFlags;
  // The toolchain the names resolve to now (a pyenv switch or an upgrade changes results).
  std::string toolName = plan.language == Language::Python ? options.config.pythonInterpreter
                         : plan.language == Language::JavaScript ? options.config.nodePath
                         : plan.language == Language::Cxx ? options.config.cxxCompiler
                                                          : (plan.command.empty() ? "" : plan.command[0]);
  std::string toolError;
  if (auto tool = resolveFor(toolName, plan, options, &toolError)) j["tool"] = tool->path + " " + tool->fingerprint;
  // Texts: every staged file of the plan, read through the overlay (unsaved text counts).
  std::vector<std::string> files = {plan.sourceFile};
  files.insert(files.end(), plan.testFiles.begin(), plan.testFiles.end());
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
