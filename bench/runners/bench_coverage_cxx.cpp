// C++ line coverage (issue 35 item 4): greenlight's warm run on save of a CMake project's test
// targets after a one-line edit, with coverage (the private build compiled with --coverage, the
// counts read by gcov) against the same run with GREENLIGHT_COVERAGE=0, side by side.
//
// Each project is copied twice (two private builds: one configured with coverage, one without;
// switching one build between the two would recompile it every time). Runs alternate between
// the two copies; every run follows a new edit ("(void)N;" in the function's body, so neither
// ninja nor ccache can answer it from an earlier run), as a save would. Prints the medians of
// the wall time and the ratio with/without (goal: <= 1.15).
//
//   bench_coverage_cxx [RUNS] [WORK_DIR] [PROJECT]   (RUNS default 7; WORK default /tmp/gl-bench-covcxx)
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

#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"
#include "BenchSupport.h"

namespace t = greenlight::core::testing;
namespace fs = std::filesystem;

namespace {

using benchsupport::median;

struct Case {
  const char* project;
  const char* file;    // the file changed and run
  const char* anchor;  // a line of the function: "(void)N;" goes after its first '{'
};

const Case kCases[] = {
    {"gtest-textstat", "include/textstat/stats.h", "double median(std::vector<T> xs) {"},
    {"gtest-textstat", "src/tokenize.cpp", "bool is_stopword(std::string_view word) {"},
    {"catch2-cliopts", "include/cliopts/cliopts.hpp", "inline int parse_int(std::string_view text) {"},
    {"doctest-ringbuf", "include/ringbuf/ring_buffer.hpp", "bool empty() const {"},
};

// One run of `file` with coverage on or off; its wall seconds, the lines it measured.
struct Timed {
  double seconds = 0;
  std::size_t lines = 0;
};

Timed runOnce(t::TestService& service, const std::string& root, const std::string& file, bool coverage) {
  if (coverage) ::unsetenv("GREENLIGHT_COVERAGE");
  else ::setenv("GREENLIGHT_COVERAGE", "0", 1);
  t::RunRequest r;
  r.path = file;
  r.workspaceRoot = root;
  auto t0 = std::chrono::steady_clock::now();
  auto o = service.runNow(r);
  Timed out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ::unsetenv("GREENLIGHT_COVERAGE");
  if (!o.result.error.empty() || o.result.summary.failed > 0 || o.result.summary.passed == 0) {
    std::fprintf(stderr, "bench_coverage_cxx: the run of %s failed: %s\n", file.c_str(), o.result.error.c_str());
    std::exit(1);
  }
  for (const auto& c : o.result.coverage) out.lines += c.hits.size();
  if (coverage != (out.lines > 0)) {
    std::fprintf(stderr, "bench_coverage_cxx: %s measured %zu lines with coverage %s\n", file.c_str(), out.lines, coverage ? "on" : "off");
    std::exit(1);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const std::string work = argc > 2 ? fs::absolute(argv[2]).string() : "/tmp/gl-bench-covcxx";
  const std::string only = argc > 3 ? argv[3] : "";
  const std::string projects = std::string(GL_SOURCE_DIR) + "/tests/projects/cxx";
  fs::create_directories(work);
  ::setenv("XDG_CACHE_HOME", (work + "/cache").c_str(), 1);
  greenlight::sandbox::keepSpares(true);  // as the language server does
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  int serial = static_cast<int>(::getpid()) * 1000;
  std::printf("medians of %d warm runs on save after a one-line edit (TestService, private build warm)\n", runs);
  std::printf("%-16s %-32s %9s %9s %7s %s\n", "project", "file", "without", "with", "ratio", "lines measured");
  for (const Case& c : kCases) {
    if (!only.empty() && only != c.project) continue;
    std::string roots[2];
    for (int k = 0; k < 2; ++k) {
      roots[k] = work + "/" + c.project + (k ? "-cov" : "-nocov");
      if (!fs::exists(roots[k])) fs::copy(projects + "/" + c.project, roots[k], fs::copy_options::recursive);
      runOnce(service, roots[k], roots[k] + "/" + c.file, k == 1);  // cold: the private build
    }
    std::vector<double> with, without;
    std::size_t lines = 0;
    for (int r = 0; r < runs; ++r) {
      for (int i = 0; i < 2; ++i) {
        const int k = (i + r) % 2;  // alternate which goes first
        const std::string file = roots[k] + "/" + c.file;
        const std::string original = benchsupport::readFile(file);
        benchsupport::writeFile(file, benchsupport::editedCxx(original, c.anchor, c.file, "bench_coverage_cxx", ++serial));
        Timed timed = runOnce(service, roots[k], file, k == 1);
        benchsupport::writeFile(file, original);
        (k ? with : without).push_back(timed.seconds);
        if (k) lines = timed.lines;
      }
    }
    std::printf("%-16s %-32s %8.2fs %8.2fs %6.2fx %zu\n", c.project, c.file, median(without), median(with),
                median(with) / median(without), lines);
    std::fflush(stdout);
  }
  greenlight::sandbox::keepSpares(false);
  return 0;
}
