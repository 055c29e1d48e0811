// A test run inside a long-lived process (as the language server does it): the tests near
// PATH run through TestService, in blocks of 10 runs with spare sandboxes off and on
// (sandbox::keepSpares), alternating, with a pause between runs as between edits. Prints the
// median of each and the difference: what the spares take off a real test run.
//
//   bench_spares PATH [BLOCKS]    (run by bench-ten-tests.sh on its 10-test Python file)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"

namespace t = greenlight::core::testing;
namespace core = greenlight::core;
namespace sb = greenlight::sandbox;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_spares PATH [BLOCKS]\n");
    return 2;
  }
  const std::string path = std::filesystem::absolute(argv[1]).lexically_normal().string();
  const int blocks = argc > 2 ? std::max(2, std::atoi(argv[2])) : 8;
  const std::string root = t::findWorkspaceRoot(path);
  core::ConfigLayers layers;
  layers.setEnvironment(core::relevantEnvironment());
  std::string error;
  if (!layers.loadWorkspaceFile(root, &error)) {
    std::fprintf(stderr, "bench_spares: %s\n", error.c_str());
    return 2;
  }
  auto config = layers.resolve(&error);
  if (!config) {
    std::fprintf(stderr, "bench_spares: %s\n", error.c_str());
    return 2;
  }
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  auto once = [&] {
    t::RunRequest request;
    request.path = path;
    request.workspaceRoot = root;
    request.config = *config;
    service.clearCache();  // an identical run would be answered from the cache
    auto t0 = std::chrono::steady_clock::now();
    t::RunOutcome outcome = service.runNow(std::move(request));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!outcome.result.error.empty() || outcome.result.tests.empty() || outcome.result.summary.failed > 0) {
      std::fprintf(stderr, "bench_spares: the run failed: %s\n", outcome.result.error.c_str());
      std::exit(1);
    }
    return ms;
  };
  std::vector<double> cold, warm;
  once();  // warm-up: harness bytecode cache, /etc cache, page cache
  for (int b = 0; b < blocks; ++b) {
    const bool spares = b % 2 == 1;
    sb::keepSpares(spares);
    if (spares) once();  // leaves the first spare of this block (not counted)
    for (int i = 0; i < 10; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      (spares ? warm : cold).push_back(once());
    }
  }
  sb::SpareStats stats = sb::spareStats();
  sb::keepSpares(false);
  double c = median(cold), w = median(warm);
  std::printf("in-process test run (TestService): spares off median %.1f ms, on %.1f ms: %.1f ms less (%zu runs each; "
              "spares used %lu)\n",
              c, w, c - w, cold.size(), stats.used);
  return 0;
}
