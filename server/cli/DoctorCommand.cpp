// `greenlight doctor`: is this machine ready? One line per check, OK / WARN / FAIL, and a hint
// on every line that is not OK:
//   sandbox            the isolation layers this host gives (sandbox::probeIsolation())
//   python, node, g++  the configured tools, resolved as the runners resolve them (path, version)
//   libcurl            loadable at run time (only provider calls need it)
//   provider           which provider the configuration resolves to, and which source won
//   warm interpreters  sandbox.warmInterpreters: a test run cold and one through an
//                      interpreter started ahead, per language, with what the kept one costs
//   provider reachable a 1-token request to it (skipped with --offline)
// Exit 0 when no line is FAIL: the sandbox isolates, at least one language can run, and a
// configured provider answers. No provider at all is a WARN (diagnostics work without an LLM).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "cli/Commands.h"
#include "core/providers/ChatClient.h"
#include "core/providers/CurlLibrary.h"
#include "core/providers/Resolve.h"
#include "core/testing/TestService.h"
#include "core/testing/Toolchain.h"
#include "sandbox/Sandbox.h"
#include "support/Log.h"

namespace greenlight::cli {
namespace {

using namespace core::providers;

const char kDoctorUsage[] =
    "usage: greenlight doctor [--workspace DIR] [--offline]\n"
    "  Checks the sandbox layers, python/node/g++, warm interpreters (a test run cold and one\n"
    "  warm per language), libcurl, the provider the configuration resolves to and whether it\n"
    "  answers (a 1-token request; --offline skips it).\n"
    "  Prints OK/WARN/FAIL per check with a hint on each non-OK line.\n"
    "exit: 0 when nothing FAILs, 1 otherwise, 2 on a usage or configuration error\n";

enum class Level { Ok, Warn, Fail };

struct Report {
  int fails = 0;
  void line(Level level, const std::string& check, const std::string& detail, const std::string& hint = "") {
    const char* tag = level == Level::Ok ? "OK  " : level == Level::Warn ? "WARN" : "FAIL";
    if (level == Level::Fail) ++fails;
    std::printf("%s  %s: %s\n", tag, check.c_str(), detail.c_str());
    if (level != Level::Ok) std::printf("      hint: %s\n", hint.empty() ? "see greenlight --help" : hint.c_str());
    std::fflush(stdout);
  }
};

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
}

void checkSandbox(Report& report, const core::Config& config) {
  const sandbox::Isolation& iso = sandbox::probeIsolation();
  std::vector<std::string> have;
  if (iso.userNs) have.push_back("user");
  if (iso.pidNs) have.push_back("pid");
  if (iso.netNs) have.push_back("net");
  if (iso.mountNs) have.push_back("mount");
  if (iso.ipcNs) have.push_back("ipc");
  if (iso.utsNs) have.push_back("uts");
  std::string detail = have.empty() ? "no namespaces" : join(have) + " namespaces";
  detail += iso.landlockAbi ? "; Landlock ABI " + std::to_string(iso.landlockAbi) : "; no Landlock";
  detail += iso.seccomp ? "; seccomp" : "; no seccomp";
  detail += iso.cgroup ? "; cgroup v2 limits" : "; rlimits (no delegated cgroup)";
  bool namespaces = iso.mountNs && iso.pidNs;
  if (!namespaces) {
    std::string hint =
        "enable unprivileged user namespaces (Debian: sysctl -w kernel.unprivileged_userns_clone=1; "
        "Ubuntu 24.04+: sysctl -w kernel.apparmor_restrict_unprivileged_userns=0) or run as root";
    if (config.sandbox.allowUnsandboxed)
      report.line(Level::Warn, "sandbox", detail + "; code runs UNSANDBOXED (sandbox.allowUnsandboxed)", hint);
    else
      report.line(Level::Fail, "sandbox", detail + "; tests cannot run isolated", hint);
    return;
  }
  if (iso.degraded) {
    std::string hint;
    for (const auto& m : iso.missing) {
      if (m == "landlock") hint += (hint.empty() ? "" : "; ") + std::string("Landlock needs Linux 5.13+ with CONFIG_SECURITY_LANDLOCK and lsm=landlock");
      else if (m == "user_ns") hint += (hint.empty() ? "" : "; ") + std::string("unprivileged user namespaces are off; greenlight uses root's namespaces instead");
      else hint += (hint.empty() ? "" : "; ") + m + " is unavailable";
    }
    report.line(Level::Warn, "sandbox", detail + "; missing: " + join(iso.missing), hint);
    return;
  }
  report.line(Level::Ok, "sandbox", detail);
}

// Returns true when the tool was found.
bool checkTool(Report& report, const std::string& label, const std::string& name, const std::string& setting,
               const std::string& installHint, const std::string& workspace) {
  core::testing::ToolRequest request;
  request.name = name;
  request.queryVersion = true;  // the report shows it
  request.workspaceRoot = workspace;
  std::string error;
  auto tool = core::testing::resolveTool(request, &error);
  if (!tool) {
    report.line(Level::Warn, label, "'" + name + "' not found" + (error.empty() ? "" : " (" + error + ")"),
                installHint + ", or set " + setting + " to its path");
    return false;
  }
  std::string detail = tool->path + " (" + (tool->version.empty() ? "version unknown" : tool->version) + ")";
  if (!tool->via.empty() && tool->via != "path" && tool->via != "absolute") detail += " via " + tool->via;
  report.line(Level::Ok, label, detail);
  return true;
}

// Warm interpreters as the language server keeps them: for Python and node, one test run cold,
// then one through the interpreter the first left started, with what that interpreter costs
// while it waits.
void checkWarm(Report& report, const core::Config& config, bool python, bool node) {
  if (!config.sandbox.warmInterpreters) {
    report.line(Level::Ok, "warm interpreters", "off (sandbox.warmInterpreters): every test run starts its interpreter");
    return;
  }
  if (!python && !node) return;
  char tmpl[] = "/tmp/greenlight-doctor-warm-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) return;
  const std::string dir = tmpl;
  std::filesystem::permissions(dir, std::filesystem::perms(0755));
  std::ofstream(dir + "/.greenlight.json") << "{}\n";
  std::ofstream(dir + "/doctor_check.py") << "def answer():\n    return 42\n\n\ndef test_answer():\n    assert answer() == 42\n";
  std::ofstream(dir + "/doctor_check.js") << "module.exports = {answer: () => 42};\n";
  std::ofstream(dir + "/doctor_check.test.js") << "const test = require('node:test');\nconst assert = require('node:assert');\n"
                                                   "const {answer} = require('./doctor_check.js');\n"
                                                   "test('answer', () => assert.strictEqual(answer(), 42));\n";
  core::testing::TestService::Options options;
  options.workers = 1;
  core::testing::TestService service(options);
  sandbox::keepSpares(true);
  std::vector<std::string> figures;
  bool failed = false;
  for (const auto& [use, file, name] : {std::tuple{python, "doctor_check.py", "python"}, std::tuple{node, "doctor_check.js", "node"}}) {
    if (!use) continue;
    auto once = [&, file = std::string(file)] {
      core::testing::RunRequest request;
      request.path = dir + "/" + file;
      request.workspaceRoot = dir;
      request.config = config;
      service.clearCache();
      auto start = std::chrono::steady_clock::now();
      auto outcome = service.runNow(std::move(request));
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      return std::pair{outcome.result.summary.passed == 1 && outcome.result.error.empty(), ms};
    };
    auto [coldOk, coldMs] = once();
    // The run left a spare whose interpreter is loading: wait for it as the editor's next run would.
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::string kept;
    while (kept.empty() && std::chrono::steady_clock::now() < until) {
      for (const auto& line : sandbox::describeSpares())
        if (line.rfind("warm ", 0) == 0) kept = line;
      if (kept.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // its start-up finishes
    for (const auto& line : sandbox::describeSpares())
      if (line.rfind("warm ", 0) == 0) kept = line;
    const auto before = sandbox::spareStats();
    auto [warmOk, warmMs] = once();
    const bool wentWarm = sandbox::spareStats().warmUsed > before.warmUsed;
    if (!coldOk || !warmOk || !wentWarm) {
      failed = true;
      figures.push_back(std::string(name) + ": " + (!coldOk || !warmOk ? "a test run failed" : "no warm interpreter was ready"));
      continue;
    }
    char text[160];
    std::snprintf(text, sizeof text, "%s %.0f ms warm vs %.0f ms cold", name, warmMs, coldMs);
    std::string kb = kept.substr(kept.rfind(", ") + 2);
    figures.push_back(std::string(text) + " (kept: " + kb + ")");
  }
  sandbox::keepSpares(false);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  const std::string detail = join(figures, "; ") + "; the language server keeps at most one per shape, dropped after " +
                             std::to_string(static_cast<int>(sandbox::kSpareIdleSeconds)) + " s idle";
  if (failed)
    report.line(Level::Warn, "warm interpreters", detail,
                "test runs still work, cold; set sandbox.warmInterpreters to false to skip warm starts");
  else
    report.line(Level::Ok, "warm interpreters", detail);
}

std::string hintFor(ErrorKind kind, const ResolvedProvider& r) {
  switch (kind) {
    case ErrorKind::Auth: return "export " + (r.endpoint.apiKeyEnv.empty() ? std::string("OPENAI_API_KEY") : r.endpoint.apiKeyEnv) + " with a valid key";
    case ErrorKind::NotFound: return "check greenlight.model ('" + r.endpoint.model + "') and greenlight.baseUrl";
    case ErrorKind::Connect: return "start the server or fix greenlight.baseUrl";
    case ErrorKind::Dns: return "check greenlight.baseUrl and the network";
    case ErrorKind::RateLimited:
    case ErrorKind::Server: return "the service is busy or down; try again later";
    case ErrorKind::Timeout:
    case ErrorKind::Stall: return "the server is slow to answer; check it, or raise greenlight.timeoutSeconds";
    case ErrorKind::LibraryMissing: return "install libcurl (Debian/Ubuntu: apt-get install libcurl4)";
    default: return "run 'greenlight chat --log-level debug hello' for details";
  }
}

}  // namespace

int doctorCommand(const Args& args) {
  std::string workspace = ".";
  bool offline = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::fputs(kDoctorUsage, stdout);
      return 0;
    }
    if (args[i] == "--offline") {
      offline = true;
    } else if (args[i] == "--workspace" && i + 1 < args.size()) {
      workspace = args[++i];
    } else {
      std::fprintf(stderr, "greenlight doctor: unknown argument '%s'\n\n%s", args[i].c_str(), kDoctorUsage);
      return 2;
    }
  }
  support::setLogLevel(support::LogLevel::Error);
  Report report;
  std::string error;
  auto config = configForCommandLine(workspace, nlohmann::json::object(), {}, &error);
  if (!config) {
    report.line(Level::Fail, "config", error, "fix " + workspace + "/.greenlight.json or the editor's greenlight settings");
    return 2;
  }

  checkSandbox(report, *config);

  int tools = 0;
  const bool python = checkTool(report, "python", config->pythonInterpreter, "greenlight.python.interpreter",
                                "install python3 (apt-get install python3)", workspace);
  const bool node = checkTool(report, "node", config->nodePath, "greenlight.node.path",
                              "install Node.js 18+ (apt-get install nodejs)", workspace);
  tools += python + node;
  tools += checkTool(report, "g++", config->cxxCompiler, "greenlight.cxx.compiler", "install g++ (apt-get install g++)",
                     workspace);
  if (tools == 0)
    report.line(Level::Fail, "languages", "no interpreter or compiler found: no tests can run",
                "install at least one of python3, node, g++");

  const sandbox::Isolation& iso = sandbox::probeIsolation();
  if (iso.mountNs && iso.pidNs) checkWarm(report, *config, python, node);

  std::string curlError;
  const CurlLibrary* curl = loadCurl(&curlError);
  if (curl) report.line(Level::Ok, "libcurl", curl->version + " (loaded at run time)");
  else report.line(Level::Warn, "libcurl", curlError, "install libcurl (apt-get install libcurl4); only LLM calls need it");

  ResolvedProvider resolved = resolveProvider(*config);
  if (!resolved.found) {
    std::string tried = resolved.tried.empty() ? "" : " (tried " + join(resolved.tried, "; ") + ")";
    report.line(Level::Warn, "provider", "none configured" + tried + "; code generation is off, diagnostics still work",
                resolved.hint);
    report.line(Level::Warn, "provider reachable", "skipped: no provider", resolved.hint);
  } else {
    const Endpoint& ep = resolved.endpoint;
    std::string what = ep.name + " " + (ep.model.empty() ? "(no model)" : ep.model) + " at " + ep.baseUrl +
                       " (source: " + resolved.source + ")";
    if (!resolved.problem.empty()) {
      report.line(Level::Fail, "provider", what + ": " + resolved.problem, resolved.hint);
      report.line(Level::Warn, "provider reachable", "skipped: " + resolved.problem, resolved.hint);
    } else {
      report.line(Level::Ok, "provider", what);
      if (offline) {
        report.line(Level::Warn, "provider reachable", "skipped (--offline)", "run greenlight doctor without --offline");
      } else {
        Endpoint probe = ep;
        probe.maxRetries = 0;
        probe.timeoutSeconds = std::min(20.0, ep.timeoutSeconds);
        ChatRequest request;
        request.messages.push_back({"user", "Reply with OK."});
        request.maxTokens = 1;
        request.stream = false;
        auto start = std::chrono::steady_clock::now();
        ChatClient client;
        ChatResult result = client.complete(probe, request);
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        if (result.ok())
          report.line(Level::Ok, "provider reachable",
                      "a 1-token request answered in " + std::to_string(ms) + " ms" +
                          (result.model.empty() ? "" : " (model " + result.model + ")"));
        else
          report.line(Level::Fail, "provider reachable", result.error.message, hintFor(result.error.kind, resolved));
      }
    }
  }
  return report.fails == 0 ? 0 : 1;
}

}  // namespace greenlight::cli
