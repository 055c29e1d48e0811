// C++ CMake projects (issue 27): after a one-function change, greenlight's run of the tests
// near the file against the project's own `cmake --build <dir> --target T` + running the test
// binary, measured side by side, interleaved, on the projects of tests/projects/cxx:
//
//   one       edit on disk, then `cmake --build build --target T` and the test binary (what a
//             developer runs by hand; the project's own build directory, no ccache)
//   all       the same for every test target near the file (greenlight builds and runs those:
//             a header two test programs include is two targets)
//   cli       edit on disk, then `greenlight run FILE --json` (a one-shot process)
//   save      edit on disk, then the run the language server makes on save (TestService in a
//             long-lived process, sandboxes built ahead)
//   refine    the same change as a candidate's text through the overlay (the disk untouched):
//             the run of a refine round, without the model's time
// The last case is a project the bench generates (issue 34): ONE doctest binary of 37 translation
// units that CTest never registers, the changed header included by 12 of them: a run on save must
// rebuild those 12 only, in parallel up to the cores.
// Every edit is new (a no-op statement "(void)N;" with a fresh N in the function's body), so
// neither ninja nor ccache can answer it from an earlier run. Prints the medians and each
// against the baseline (goal: <= 1.5x). Run it on a quiet machine, or read the ratios only.
//
//   bench_cmake GREENLIGHT_BIN [RUNS] [WORK_DIR] [PROJECT]   (RUNS default 5; WORK default
//                                                           /tmp/gl-bench-cmake; PROJECT: that one only)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"
#include "BenchSupport.h"

namespace t = greenlight::core::testing;
namespace core = greenlight::core;
namespace fs = std::filesystem;

namespace {

using benchsupport::median;

struct Case {
  const char* project;
  const char* target;   // the framework's test target
  const char* binary;   // its program, relative to the build directory
  const char* targets;  // every test target near the file (what greenlight builds and runs)
  const char* programs; // running them by hand, from the build directory (sh)
  const char* file;     // the file changed
  const char* anchor;   // a line of the function: "(void)N;" goes after its first '{'
  bool generated = false;  // written by generateProject(), not copied from tests/projects/cxx
};

constexpr int kGeneratedUnits = 36;   // test files (+ main.cpp)
constexpr int kIncludingPart = 12;    // of them include gen/part.hpp, the header changed

const Case kCases[] = {
    {"gtest-textstat", "textstat_tests", "tests/textstat_tests", "textstat_tests wordcount_check",
     "cd tests && ./textstat_tests && ./wordcount_check", "include/textstat/stats.h", "double median(std::vector<T> xs) {"},
    {"gtest-textstat", "textstat_tests", "tests/textstat_tests", "textstat_tests wordcount_check",
     "cd tests && ./textstat_tests && ./wordcount_check", "src/tokenize.cpp", "bool is_stopword(std::string_view word) {"},
    {"catch2-cliopts", "cliopts_tests", "test/cliopts_tests", "cliopts_tests example",
     "(cd test && ./cliopts_tests) && ./example --help && ./example --width 10 alpha beta gamma", "include/cliopts/cliopts.hpp",
     "inline int parse_int(std::string_view text) {"},
    {"doctest-ringbuf", "ringbuf_tests", "tests/ringbuf_tests", "ringbuf_tests ringbuf_selfcheck",
     "cd tests && ./ringbuf_tests && ./ringbuf_selfcheck", "include/ringbuf/ring_buffer.hpp", "bool empty() const {"},
    {"generated-37tu", "gen_tests", "test/gen_tests", "gen_tests", "cd test && ./gen_tests", "include/gen/part.hpp",
     "inline int part_scale(int x) {", true},
};

double seconds(const std::chrono::steady_clock::time_point& t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int sh(const std::string& command) { return std::system(command.c_str()); }

void writeFile(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// A header-only library and ONE doctest test executable of kGeneratedUnits test files + main.cpp,
// no CTest; each test file has three test cases and some templates to chew on, the first
// kIncludingPart of them include gen/part.hpp.
void generateProject(const std::string& root) {
  writeFile(root + "/CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.16)\nproject(gen LANGUAGES CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
            "add_library(gen INTERFACE)\ntarget_include_directories(gen INTERFACE include)\nadd_subdirectory(test)\n");
  std::string sources = "main.cpp";
  for (int i = 0; i < kGeneratedUnits; ++i) sources += " test_" + std::to_string(i) + ".cpp";
  writeFile(root + "/test/CMakeLists.txt", "add_executable(gen_tests " + sources + ")\ntarget_link_libraries(gen_tests PRIVATE gen)\n");
  writeFile(root + "/test/main.cpp", "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n");
  writeFile(root + "/include/gen/core.hpp",
            "#pragma once\n#include <map>\n#include <string>\n#include <vector>\nnamespace gen {\n"
            "template <typename T> std::vector<T> ramp(int n) { std::vector<T> v; for (int i = 0; i < n; ++i) v.push_back(T(i)); return v; }\n"
            "inline std::map<std::string, int> histogram(const std::vector<std::string>& xs) { std::map<std::string, int> m; for (auto& x : xs) ++m[x]; return m; }\n"
            "}\n");
  writeFile(root + "/include/gen/part.hpp",
            "#pragma once\n#include \"gen/core.hpp\"\nnamespace gen {\ninline int part_scale(int x) {\n  return 3 * x;\n}\n}\n");
  for (int i = 0; i < kGeneratedUnits; ++i) {
    const std::string n = std::to_string(i);
    std::string t = "#include <doctest/doctest.h>\n#include <string>\n";
    t += i < kIncludingPart ? "#include \"gen/part.hpp\"\n" : "#include \"gen/core.hpp\"\n";
    t += "TEST_CASE(\"ramp " + n + "\") { auto v = gen::ramp<double>(" + n + " + 3); CHECK(v.size() == " + std::to_string(i + 3) + "u); }\n";
    t += "TEST_CASE(\"histogram " + n + "\") { auto m = gen::histogram({\"a\", \"b\", \"a\"}); CHECK(m[\"a\"] == 2); }\n";
    t += i < kIncludingPart ? "TEST_CASE(\"part " + n + "\") { CHECK(gen::part_scale(" + n + ") == " + std::to_string(3 * i) + "); }\n"
                            : "TEST_CASE(\"strings " + n + "\") { CHECK(std::to_string(" + n + ") == \"" + n + "\"); }\n";
    writeFile(root + "/test/test_" + n + ".cpp", t);
  }
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_cmake GREENLIGHT_BIN [RUNS] [WORK_DIR] [PROJECT]\n");
    return 2;
  }
  const std::string bin = fs::absolute(argv[1]).string();
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const std::string work = argc > 3 ? fs::absolute(argv[3]).string() : "/tmp/gl-bench-cmake";
  const std::string only = argc > 4 ? argv[4] : "";
  const std::string projects = std::string(GL_SOURCE_DIR) + "/tests/projects/cxx";
  fs::create_directories(work);
  ::setenv("XDG_CACHE_HOME", (work + "/cache").c_str(), 1);  // greenlight's private builds
  greenlight::sandbox::keepSpares(true);                     // as the language server does
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  core::Config config;
  int serial = static_cast<int>(::getpid()) * 1000;

  std::printf("medians of %d runs; 'all' = cmake --build of every test target near the file + running them (what\n"
              "greenlight does), 'one' = cmake --build of the framework's target + its binary\n",
              runs);
  std::printf("%-16s %-30s %8s %8s %8s %8s %8s   %s\n", "project", "file", "one", "all", "cli", "save", "refine",
              "greenlight / all (/ one)");
  for (const Case& c : kCases) {
    if (!only.empty() && only != c.project) continue;
    const std::string root = work + "/" + c.project;
    const std::string build = root + "/build";
    if (!fs::exists(build + "/build.ninja")) {
      fs::remove_all(root);
      if (c.generated) generateProject(root);
      else fs::copy(projects + "/" + c.project, root, fs::copy_options::recursive);
      auto t0 = std::chrono::steady_clock::now();
      if (sh("cmake -S " + quote(root) + " -B " + quote(build) + " -G Ninja -DCMAKE_BUILD_TYPE=Debug >/dev/null") != 0 ||
          sh("cmake --build " + quote(build) + " >/dev/null") != 0) {
        std::fprintf(stderr, "bench_cmake: the project's own build of %s failed\n", c.project);
        return 1;
      }
      std::fprintf(stderr, "%s: the project's own cold configure + build: %.1f s\n", c.project, seconds(t0));
    }
    const std::string file = root + "/" + c.file;
    const std::string original = benchsupport::readFile(file);
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
    std::vector<double> baseline, all, cli, save, refine;
    const std::string binaryDir = fs::path(build + "/" + c.binary).parent_path().string();
    const std::string binaryName = fs::path(c.binary).filename().string();
    for (int r = 0; r < runs; ++r) {
      // Each of the five after its own new edit; the order rotates between runs.
      for (int k = 0; k < 5; ++k) {
        const int which = (k + r) % 5;
        const std::string text = benchsupport::editedCxx(original, c.anchor, c.file, "bench_cmake", ++serial);
        if (which != 3) benchsupport::writeFile(file, text);
        if (which == 4) {
          auto t0 = std::chrono::steady_clock::now();
          if (sh("cmake --build " + quote(build) + " --target " + c.targets + " >/dev/null 2>&1 && cd " + quote(build) + " && (" +
                 c.programs + ") >/dev/null 2>&1") != 0) {
            std::fprintf(stderr, "bench_cmake: the baseline (all targets) failed\n");
            return 1;
          }
          all.push_back(seconds(t0));
          continue;
        }
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
            benchsupport::writeFile(file, original);
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
    benchsupport::writeFile(file, original);
    const double one = median(baseline), b = median(all);
    std::printf("%-16s %-30s %7.2fs %7.2fs %7.2fs %7.2fs %7.2fs   cli %.2fx (%.2fx)  save %.2fx (%.2fx)  refine %.2fx (%.2fx)\n",
                c.project, c.file, one, b, median(cli), median(save), median(refine), median(cli) / b, median(cli) / one,
                median(save) / b, median(save) / one, median(refine) / b, median(refine) / one);
    std::fflush(stdout);
    if (c.generated)
      std::printf("%-16s %d translation units, the changed header in %d of them; %u cores\n", "", kGeneratedUnits + 1, kIncludingPart,
                  std::max(1u, std::thread::hardware_concurrency()));
  }
  greenlight::sandbox::keepSpares(false);
  return 0;
}
