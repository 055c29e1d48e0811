// `greenlight run PATH[:LINE] [--json] [--timeout S]`: discover the tests near PATH (or the
// function at LINE), run them in the sandbox, print gcc-style lines and "N passed, N failed".
// Exit: 0 all passed, 1 a test failed, 2 usage/config error, 3 no tests found.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <tuple>

#include "cli/Commands.h"
#include "core/config/Config.h"
#include "core/testing/Coverage.h"
#include "core/testing/Discovery.h"
#include "core/testing/RunJson.h"
#include "core/testing/TestService.h"

namespace greenlight::cli {
namespace {

namespace fs = std::filesystem;
namespace t = core::testing;

const char kRunUsage[] =
    "usage: greenlight run PATH[:LINE] [--json] [--timeout S]\n"
    "\n"
    "Runs the tests near PATH (or near the function at LINE) in the sandbox.\n"
    "  --json        print one JSON object (tests, diagnostics, summary, sandbox verdict)\n"
    "  --timeout S   wall-clock limit for the tests in seconds (default: sandbox.timeLimitSeconds)\n"
    "Settings come from .greenlight.json at the workspace root (nearest .git or\n"
    ".greenlight.json upward). Exit: 0 all passed, 1 a test failed, 2 usage or config\n"
    "error, 3 no tests found.\n";

int usage(const std::string& message) {
  if (!message.empty()) std::fprintf(stderr, "greenlight run: %s\n", message.c_str());
  std::fputs(kRunUsage, stderr);
  return 2;
}

}  // namespace

int runCommand(const Args& args) {
  std::string target;
  bool json = false;
  double timeout = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kRunUsage, stdout);
      return 0;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--timeout" || a.rfind("--timeout=", 0) == 0) {
      std::string v;
      if (a == "--timeout") {
        if (i + 1 >= args.size()) return usage("--timeout needs a value in seconds");
        v = args[++i];
      } else {
        v = a.substr(10);
      }
      char* end = nullptr;
      timeout = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(timeout > 0) || timeout > 86400)
        return usage("--timeout: '" + v + "' is not a positive number of seconds");
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return usage("unknown option " + a);
    } else if (target.empty()) {
      target = a;
    } else {
      return usage("unexpected argument '" + a + "' (one PATH[:LINE] only)");
    }
  }
  if (target.empty()) return usage("missing PATH");

  std::string path = target;
  std::optional<int> line;
  std::error_code ec;
  auto colon = target.rfind(':');
  if (colon != std::string::npos && colon + 1 < target.size() &&
      target.find_first_not_of("0123456789", colon + 1) == std::string::npos && !fs::exists(target, ec)) {
    path = target.substr(0, colon);
    long n = std::strtol(target.c_str() + colon + 1, nullptr, 10);
    if (n < 1 || n > 100000000) return usage("line must be a positive number in '" + target + "'");
    line = static_cast<int>(n);
  }
  if (!fs::is_regular_file(path, ec)) {
    std::fprintf(stderr, "greenlight run: %s: no such file\n", path.c_str());
    return 2;
  }
  path = fs::absolute(path, ec).lexically_normal().string();

  const std::string root = t::findWorkspaceRoot(path);
  core::ConfigLayers layers;
  layers.setEnvironment(core::relevantEnvironment());
  std::string error;
  if (!layers.loadWorkspaceFile(root, &error)) {
    std::fprintf(stderr, "greenlight run: %s\n", error.c_str());
    return 2;
  }
  auto config = layers.resolve(&error);
  if (!config) {
    std::fprintf(stderr, "greenlight run: %s\n", error.c_str());
    return 2;
  }

  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  t::RunRequest request;
  request.path = path;
  request.line = line;
  request.workspaceRoot = root;
  request.config = *config;
  request.timeoutSeconds = timeout;
  t::RunOutcome outcome = service.runNow(std::move(request));
  const t::RunResult& result = outcome.result;

  if (!result.error.empty()) {
    std::fprintf(stderr, "greenlight run: %s\n", result.error.c_str());
    if (json) std::cout << t::runResultToJson(result).dump() << std::endl;
    return 2;
  }
  // Coverage is judged on the function at LINE (the text the run used), else the whole file.
  int coverFirst = 1, coverLast = 0;
  if (line) {
    const std::string text = t::readSource(path, nullptr).value_or("");
    if (auto fn = t::functionAtLine(text, *line, result.language))
      std::tie(coverFirst, coverLast) = t::functionLines(text, fn->line, result.language);
  }
  if (json) {
    std::cout << t::runResultToJson(result, coverFirst, coverLast).dump() << std::endl;
  } else {
    if (outcome.noTests)
      std::fprintf(stderr, "greenlight run: no tests found near %s%s\n", path.c_str(),
                   result.selectionNote.empty() ? "" : (": " + result.selectionNote).c_str());
    if (!result.discoveryNote.empty()) std::fprintf(stderr, "greenlight run: %s\n", result.discoveryNote.c_str());
    if (!result.coverageNote.empty()) std::fprintf(stderr, "greenlight run: %s\n", result.coverageNote.c_str());
    if (!outcome.noTests && !result.selectionNote.empty())
      std::fprintf(stderr, "greenlight run: ran %s\n", result.selectionNote.c_str());
    // Before the results: their last line is the summary (DESIGN.md "Nearby tests").
    if (auto cov = t::targetCoverage(result.coverage, path, coverFirst, coverLast); cov && !cov->lines.empty()) {
      std::string notRun;
      for (int l : cov->notRun) notRun += (notRun.empty() ? "" : ", ") + std::to_string(l);
      std::fprintf(stderr, "greenlight run: %s%s\n", t::linesRunText(*cov).c_str(),
                   notRun.empty() ? "" : ("; no test runs line " + notRun).c_str());
      std::fflush(stderr);
    }
    std::cout << t::runResultToText(result) << std::flush;
  }
  if (outcome.noTests) return 3;
  // A run in which no test ran is never green (DESIGN.md "Nearby tests").
  if (!t::anyTestRan(result.summary)) {
    if (!json) {
      std::string why = result.tests.empty() ? "the runner reported no test"
                                             : std::to_string(result.summary.skipped) + (result.summary.skipped == 1 ? " test was" : " tests were") + " skipped";
      for (const auto& test : result.tests) {
        if (test.status == t::TestStatus::Skipped && !test.message.empty()) {
          why += " (" + test.name + ": " + test.message + ")";
          break;
        }
      }
      std::fprintf(stderr, "greenlight run: no test ran: %s\n", why.c_str());
    }
    return 3;
  }
  return result.summary.failed + result.summary.errors > 0 ? 1 : 0;
}

}  // namespace greenlight::cli
