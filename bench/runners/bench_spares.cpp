// A test run inside a long-lived process (as the language server does it): the tests near
// PATH run through TestService in three modes, in interleaved blocks of 10 runs with a pause
// between runs as between edits:
//   cold    spares off: every run builds its sandbox and starts its interpreter
//   spares  sandboxes built ahead (sandbox::keepSpares), interpreter started per run
//   warm    sandboxes with the interpreter already started (sandbox.warmInterpreters)
// and, interleaved with them, BARE: the same tests run by the bare interpreter outside any
// sandbox (a command line). Prints the median of each and the ratios against bare.
//
//   bench_spares PATH [BLOCKS] [-- BARE COMMAND...]
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"
#include "BenchSupport.h"

extern char** environ;

namespace t = greenlight::core::testing;
namespace core = greenlight::core;
namespace sb = greenlight::sandbox;

namespace {

using benchsupport::median;

// Runs argv with output to /dev/null; milliseconds, or -1 when it failed.
double runBare(const std::vector<std::string>& args, const std::string& cwd) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 0x1 /*O_WRONLY*/, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 0x1, 0);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  ::waitpid(pid, &status, 0);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ms : -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_spares PATH [BLOCKS] [-- BARE COMMAND...]\n");
    return 2;
  }
  const std::string path = std::filesystem::absolute(argv[1]).lexically_normal().string();
  int blocks = 4;
  std::vector<std::string> bare;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) {
      bare.assign(argv + i + 1, argv + argc);
      break;
    }
    blocks = std::max(1, std::atoi(argv[i]));
  }
  const std::string root = t::findWorkspaceRoot(path);
  const auto config = benchsupport::workspaceConfig(root, "bench_spares");
  if (!config) return 2;
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  auto once = [&](bool warm) {
    t::RunRequest request;
    request.path = path;
    request.workspaceRoot = root;
    request.config = *config;
    request.config.sandbox.warmInterpreters = warm;
    service.clearCache();  // an identical run would be answered from the cache
    auto t0 = std::chrono::steady_clock::now();
    t::RunOutcome outcome = service.runNow(std::move(request));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (std::getenv("BENCH_VERBOSE")) std::fprintf(stderr, "total %.1f sandbox wall %.1f cpu %.1f\n", ms, outcome.result.verdict ? outcome.result.verdict->wallMs : 0.0, outcome.result.verdict ? outcome.result.verdict->cpuMs : 0.0);
    if (!outcome.result.error.empty() || outcome.result.tests.empty() || outcome.result.summary.failed > 0) {
      std::fprintf(stderr, "bench_spares: the run failed: %s\n", outcome.result.error.c_str());
      std::exit(1);
    }
    return ms;
  };
  const char* names[] = {"cold", "spares", "warm"};
  std::vector<double> times[3], bareTimes;
  const std::string dir = std::filesystem::path(path).parent_path().string();
  once(false);  // warm-up: harness bytecode cache, /etc cache, page cache
  if (!bare.empty() && runBare(bare, dir) < 0) {
    std::fprintf(stderr, "bench_spares: the bare command failed\n");
    return 1;
  }
  for (int b = 0; b < blocks; ++b) {
    for (int mode = 0; mode < 3; ++mode) {
      sb::keepSpares(mode > 0);
      if (mode > 0) once(mode == 2);  // leaves the first spare of this block (not counted)
      for (int i = 0; i < 10; ++i) {
        // A pause as between edits: the spare is rebuilt (and its interpreter loaded) meanwhile.
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        times[mode].push_back(once(mode == 2));
        if (!bare.empty() && mode == 2) bareTimes.push_back(runBare(bare, dir));
      }
    }
  }
  sb::SpareStats stats = sb::spareStats();
  sb::keepSpares(false);
  const double bareMedian = median(bareTimes);
  std::printf("%s through TestService, medians of %zu runs each:\n", std::filesystem::path(path).filename().c_str(),
              times[0].size());
  for (int mode = 0; mode < 3; ++mode) {
    std::printf("  %-7s %7.1f ms", names[mode], median(times[mode]));
    if (bareMedian > 0) std::printf("   %.2fx bare", median(times[mode]) / bareMedian);
    std::printf("\n");
  }
  if (bareMedian > 0) std::printf("  bare    %7.1f ms   (%s outside any sandbox)\n", bareMedian, bare[0].c_str());
  std::printf("  spares used %lu, warm used %lu (built %lu), warm runs that fell back cold %lu\n", stats.used,
              stats.warmUsed, stats.warmBuilt, stats.warmFellBack);
  return 0;
}
