// What measuring coverage (issue 35) adds to a warm run of a real project's tests: the tests
// near PATH run through TestService with warm interpreters (sandbox.warmInterpreters, spares
// on, as the language server runs them on save), alternately with coverage (the default) and
// without (GREENLIGHT_COVERAGE=0), one run each in turn, a pause between runs as between edits.
// Prints the median of each side by side and the ratio; also checks that both give the same
// outcomes and that the run with coverage measured PATH. Goal: ratio <= 1.15.
//
//   bench_coverage PATH [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/Coverage.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"
#include "BenchSupport.h"

namespace t = greenlight::core::testing;
namespace core = greenlight::core;
namespace sb = greenlight::sandbox;

namespace {

using benchsupport::median;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_coverage PATH [RUNS]\n");
    return 2;
  }
  const std::string path = std::filesystem::absolute(argv[1]).lexically_normal().string();
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
  const std::string root = t::findWorkspaceRoot(path);
  const auto config = benchsupport::workspaceConfig(root, "bench_coverage");
  if (!config) return 2;
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  sb::keepSpares(true);
  std::map<std::string, t::TestStatus> outcomes[2];
  std::size_t measured = 0;
  auto once = [&](bool coverage) {
    if (coverage) ::unsetenv("GREENLIGHT_COVERAGE");
    else ::setenv("GREENLIGHT_COVERAGE", "0", 1);
    t::RunRequest request;
    request.path = path;
    request.workspaceRoot = root;
    request.config = *config;
    request.config.sandbox.warmInterpreters = true;
    service.clearCache();  // an identical run would be answered from the cache
    auto t0 = std::chrono::steady_clock::now();
    t::RunOutcome outcome = service.runNow(std::move(request));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const t::RunResult& r = outcome.result;
    if (!r.error.empty() || r.tests.empty()) {
      std::fprintf(stderr, "bench_coverage: the run failed: %s\n", r.error.c_str());
      std::exit(1);
    }
    std::map<std::string, t::TestStatus> got;
    for (const auto& test : r.tests) got[test.id.empty() ? test.name : test.id] = test.status;
    auto& want = outcomes[coverage ? 1 : 0];
    if (!want.empty() && want != got) {
      std::fprintf(stderr, "bench_coverage: the outcomes changed between two runs %s coverage\n", coverage ? "with" : "without");
      std::exit(1);
    }
    want = got;
    if (coverage && t::findCoverage(r.coverage, path) != nullptr) ++measured;
    return ms;
  };
  once(true);  // warm-up: the first spare, harness bytecode, page cache
  once(false);
  std::vector<double> with, without;
  for (int i = 0; i < runs; ++i) {
    for (bool coverage : {true, false}) {
      // A pause as between edits: the next warm spare is started meanwhile.
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      (coverage ? with : without).push_back(once(coverage));
    }
  }
  sb::keepSpares(false);
  const double w = median(with), wo = median(without);
  std::printf("%s, warm runs through TestService, medians of %d runs each:\n", std::filesystem::path(path).filename().c_str(), runs);
  std::printf("  with coverage     %7.1f ms\n", w);
  std::printf("  without coverage  %7.1f ms   (GREENLIGHT_COVERAGE=0)\n", wo);
  std::printf("  ratio             %7.3fx   (goal <= 1.15)\n", wo > 0 ? w / wo : 0.0);
  std::printf("  outcomes %s; coverage of the file measured in %zu of %d runs\n",
              outcomes[0] == outcomes[1] ? "identical with and without" : "DIFFER with and without", measured, runs + 1);
  return outcomes[0] == outcomes[1] ? 0 : 1;
}
