// C++ CMake projects (issue 27): after a one-function change, greenlight's run of the tests
// near the file against the project's own `cmake --build <dir> --target T` + running the test
// binary, measured side by side, interleaved, on the projects of tests/projects/cxx:
//
//   baseline  edit on disk, then `cmake --build build --target T` and the test binary (what a
//             developer runs by hand; the project's own build directory, no ccache)
//   cli       edit on disk, then `greenlight run FILE --json` (a one-shot process)
//   save      edit on disk, then the run the language server makes on save (TestService in a
//             long-lived process, sandboxes built ahead)
//   refine    the same change as a candidate's text through the overlay (the disk untouched):
//             the run of a refine round, without the model's time
// Every edit is new (a no-op statement "(void)N;" with a fresh N in the function's body), so
// neither ninja nor ccache can answer it from an earlier run. Prints the medians and each
// against the baseline (goal: <= 1.5x). Run it on a quiet machine, or read the ratios only.
//
//   bench_cmake GREENLIGHT_BIN [RUNS] [WORK_DIR]     (RUNS default 5; WORK default /tmp/gl-bench-cmake)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"

namespace t = greenlight::core::testing;
namespace core = greenlight::core;
namespace fs = std::filesystem;

namespace {

struct Case {
  const char* project;
  const char* target;  // the test target
  const char* binary;  // relative to the build directory
  const char* file;    // the file changed
  const char* anchor;  // a line of the function: "(void)N;" goes after its first '{'
};

const Case kCases[] = {
    {"gtest-textstat", "textstat_tests", "tests/textstat_tests", "include/textstat/stats.h", "double median(std::vector<T> xs) {"},
    {"gtest-textstat", "textstat_tests", "tests/textstat_tests", "src/tokenize.cpp", "bool is_stopword(std::string_view word) {"},
    {"catch2-cliopts", "cliopts_tests", "test/cliopts_tests", "include/cliopts/cliopts.hpp", "inline int parse_int(std::string_view text) {"},
    {"doctest-ringbuf", "ringbuf_tests", "tests/ringbuf_tests", "include/ringbuf/ring_buffer.hpp", "bool empty() const {"},
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string read(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const std::string& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// `original` with "(void)N;" after the first '{' of the anchor line.
std::string edited(const std::string& original, const Case& c, int n) {
  auto at = original.find(c.anchor);
  if (at == std::string::npos) {
    std::fprintf(stderr, "bench_cmake: '%s' not found in %s\n", c.anchor, c.file);
    std::exit(2);
  }
  auto brace = original.find('{', at);
  return original.substr(0, brace + 1) + " (void)" + std::to_string(n) + ";" + original.substr(brace + 1);
}

double seconds(const std::chrono::steady_clock::time_point& t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int sh(const std::string& command) { return std::system(command.c_str()); }

std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_cmake GREENLIGHT_BIN [RUNS] [WORK_DIR]\n");
    return 2;
  }
  const std::string bin = fs::absolute(argv[1]).string();
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const std::string work = argc > 3 ? fs::absolute(argv[3]).string() : "/tmp/gl-bench-cmake";
  const std::string projects = std::string(GL_SOURCE_DIR) + "/tests/projects/cxx";
  fs::create_directories(work);
  ::setenv("XDG_CACHE_HOME", (work + "/cache").c_str(), 1);  // greenlight's private builds
  greenlight::sandbox::keepSpares(true);                     // as the language server does
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  core::Config config;
  int serial = static_cast<int>(::getpid()) * 1000;

  std::printf("%-16s %-30s %9s %9s %9s %9s   %s\n", "project", "file", "baseline", "cli", "save", "refine",
              ("each / baseline (medians of " + std::to_string(runs) + ")").c_str());
  for (const Case& c : kCases) {
    const std::string root = work + "/" + c.project;
    const std::string build = root + "/build";
    if (!fs::exists(build + "/build.ninja")) {
      fs::remove_all(root);
      fs::copy(projects + "/" + c.project, root, fs::copy_options::recursive);
      auto t0 = std::chrono::steady_clock::now();
      if (sh("cmake -S " + quote(root) + " -B " + quote(build) + " -G Ninja -DCMAKE_BUILD_TYPE=Debug >/dev/null") != 0 ||
          sh("cmake --build " + quote(build) + " >/dev/null") != 0) {
        std::fprintf(stderr, "bench_cmake: the project's own build of %s failed\n", c.project);
        return 1;
      }
      std::fprintf(stderr, "%s: the project's own cold configure + build: %.1f s\n", c.project, seconds(t0));
    }
    const std::string file = root + "/" + c.file;
    const std::string original = read(file);
    t::RunRequest base;
    base.path = file;
    base.workspaceRoot = root;
    base.config = config;
    {
      auto t0 = std::chrono::steady_clock::now();
      auto o = service.runNow(base);  // greenlight's private build, cold the first time
      if (!o.result.error.empty() || o.result.summary.passed == 0) {
        std::fprintf(stderr, "bench_cmake: greenlight's first run of %s failed: %s\n", c.file, o.result.error.c_str());
        return 1;
      }
      std::fprintf(stderr, "%s: greenlight's first run (its private build): %.1f s, %d tests\n", c.file, seconds(t0),
                   o.result.summary.passed + o.result.summary.skipped);
    }
    std::vector<double> baseline, cli, save, refine;
    const std::string binaryDir = fs::path(build + "/" + c.binary).parent_path().string();
    const std::string binaryName = fs::path(c.binary).filename().string();
    for (int r = 0; r < runs; ++r) {
      // Each of the four after its own new edit; the order rotates between runs.
      for (int k = 0; k < 4; ++k) {
        const int which = (k + r) % 4;
        const std::string text = edited(original, c, ++serial);
        if (which != 3) write(file, text);
        auto t0 = std::chrono::steady_clock::now();
        if (which == 0) {
          if (sh("cmake --build " + quote(build) + " --target " + c.target + " >/dev/null 2>&1 && cd " + quote(binaryDir) + " && ./" +
                 binaryName + " >/dev/null 2>&1") != 0) {
            std::fprintf(stderr, "bench_cmake: the baseline failed\n");
            return 1;
          }
          baseline.push_back(seconds(t0));
        } else if (which == 1) {
          if (sh("cd " + quote(root) + " && " + quote(bin) + " run " + quote(c.file) + " --json >/dev/null 2>&1") != 0) {
            std::fprintf(stderr, "bench_cmake: greenlight run failed\n");
            return 1;
          }
          cli.push_back(seconds(t0));
        } else {
          t::RunRequest req = base;
          if (which == 3) {
            write(file, original);
            auto candidate = std::make_shared<const std::string>(text);
            req.overlay = [candidate, file](const std::string& p) -> std::optional<std::string> {
              if (p == file) return *candidate;
              return std::nullopt;
            };
            t0 = std::chrono::steady_clock::now();
          }
          auto o = service.runNow(req);
          if (!o.result.error.empty() || o.result.summary.failed > 0 || o.result.summary.passed == 0) {
            std::fprintf(stderr, "bench_cmake: greenlight's run failed: %s\n", o.result.error.c_str());
            return 1;
          }
          (which == 2 ? save : refine).push_back(seconds(t0));
        }
      }
    }
    write(file, original);
    const double b = median(baseline);
    std::printf("%-16s %-30s %8.2fs %8.2fs %8.2fs %8.2fs   cli %.2fx  save %.2fx  refine %.2fx\n", c.project, c.file, b,
                median(cli), median(save), median(refine), median(cli) / b, median(save) / b, median(refine) / b);
    std::fflush(stdout);
  }
  greenlight::sandbox::keepSpares(false);
  return 0;
}
