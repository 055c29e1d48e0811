// What a greenlight run measured (issue 35), as JSON on stdout, for coverage_check.js: runs
// PATH through the TestService as the language server and `greenlight run` do, and prints the
// tests' outcomes and RunResult::coverage (until `run --json` carries coverage itself).
//
//   js_coverage_dump PATH [--warm]
//   {"error": "...", "tests": [{"id", "status", "message"}], "coverage": [{"file", "lines": [[l, n], ...]}]}
// --warm: the run goes to a warm spare (js_warm.js / node_warm.js), as on save in an editor.
// Exit 0 when the run happened (whatever its tests did), 2 on usage errors.
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"

namespace t = greenlight::core::testing;
namespace sb = greenlight::sandbox;

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::string(argv[2]) != "--warm")) {
    std::fprintf(stderr, "usage: js_coverage_dump PATH [--warm]\n");
    return 2;
  }
  const bool warm = argc == 3;
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  t::RunRequest r;
  r.path = argv[1];
  r.workspaceRoot = t::findWorkspaceRoot(r.path);
  sb::keepSpares(warm);
  t::RunOutcome o = service.runNow(r);
  if (warm) {
    // The first run asked for a warm spare of its shape: wait for it, then run again on it.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (bool ready = false; !ready && std::chrono::steady_clock::now() < until;) {
      for (const std::string& line : sb::describeSpares()) ready = ready || line.rfind("warm ", 0) == 0;
      if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    service.clearCache();
    o = service.runNow(r);
  }
  nlohmann::json out;
  out["error"] = o.result.error;
  out["warmUsed"] = sb::spareStats().warmUsed;
  out["tests"] = nlohmann::json::array();
  for (const auto& x : o.result.tests)
    out["tests"].push_back({{"id", x.id}, {"status", t::testStatusName(x.status)}, {"message", x.message}});
  out["coverage"] = nlohmann::json::array();
  for (const auto& c : o.result.coverage) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& [line, n] : c.hits) lines.push_back({line, n});
    out["coverage"].push_back({{"file", c.file}, {"lines", lines}});
  }
  std::printf("%s\n", out.dump().c_str());
  sb::keepSpares(false);
  return 0;
}
