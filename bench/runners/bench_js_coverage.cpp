// What measuring line coverage (issue 35) adds to a warm run on save of a JS/TS project's source
// file: the TestService with warm spares (js_warm.js), runs with coverage (the default) and
// without (GREENLIGHT_COVERAGE=0) alternating, each on a spare that has finished loading the
// runner (saves are seconds apart), after an edit (a comment line appended; the file is restored
// at the end). Goal: with coverage at most 1.15x without.
//
//   BUILD/bench/runners/bench_js_coverage [--runs N] FILE...
//   (FILE: a source file of an installed project, e.g. tests/projects/js/install.sh --into DIR,
//    then DIR/jest-ts/src/set.ts DIR/vitest-ts/src/template.ts)
// Prints, per file, the median wall-clock time of each mode, the ratio, and how many runs were
// warm; a run whose coverage (or its absence) is not what the mode asks for is reported.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"
#include "BenchSupport.h"

namespace t = greenlight::core::testing;
namespace sb = greenlight::sandbox;

namespace {

using benchsupport::median;

// Waits until `count` warm spares are there and have finished loading the runner: their resident
// memory unchanged for half a second (a spare is listed as soon as its interpreter starts; a run
// handed to it earlier waits for the rest of the load, which is not the run on save this
// measures: saves are seconds apart). At most 60 s.
void waitForSettledSpares(int count) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string last;
  int same = 0;
  while (std::chrono::steady_clock::now() < until) {
    std::string warm;
    int n = 0;
    for (const std::string& line : sb::describeSpares()) {
      if (line.rfind("warm ", 0) != 0) continue;
      warm += line.substr(line.rfind(", ") + 2) + ";";  // "N MB resident"
      ++n;
    }
    same = n >= count && warm == last ? same + 1 : 0;
    last = warm;
    if (same >= 5) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 10;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else files.push_back(a);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: bench_js_coverage [--runs N] FILE...\n");
    return 2;
  }
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  sb::keepSpares(true);
  for (const std::string& file : files) {
    t::RunRequest r;
    r.path = file;
    r.workspaceRoot = t::findWorkspaceRoot(file);
    const std::string original = benchsupport::readFile(file);
    // The file as it was, however this scope is left.
    struct Restore {
      const std::string& file;
      const std::string& text;
      ~Restore() { benchsupport::writeFile(file, text); }
    } restore{file, original};
    int edits = 0;
    std::vector<double> times[2];
    int warm[2] = {0, 0}, wrong[2] = {0, 0};
    // With and without coverage are two spare shapes (GL_COVERAGE=1 in the environment: a warm
    // spare loads the runner eagerly compiled, then counts), both kept ready. One cold run of each asks for its spare and
    // is not timed; then the modes alternate run by run, in the order with, without, without,
    // with, ..., so that both see the machine alike.
    auto setMode = [](int mode) {
      if (mode == 0) unsetenv("GREENLIGHT_COVERAGE");
      else setenv("GREENLIGHT_COVERAGE", "0", 1);
    };
    for (int mode : {0, 1}) {
      setMode(mode);
      service.clearCache();
      service.runNow(r);
    }
    for (int i = 0; i < 2 * runs; ++i) {
      const int mode = (i % 4 == 0 || i % 4 == 3) ? 0 : 1;
      setMode(mode);
      waitForSettledSpares(2);
      // Then the save: the file differs from what the spare's runner saw when it loaded (ts-jest
      // compiles it again, as on a real save). A comment line at its end: no test sees it.
      const char* nl = original.empty() || original.back() == '\n' ? "" : "\n";
      benchsupport::writeFile(file, original + nl + "// greenlight bench edit " + std::to_string(++edits) + "\n");
      service.clearCache();
      const unsigned long before = sb::spareStats().warmUsed;
      const auto t0 = std::chrono::steady_clock::now();
      const t::RunOutcome o = service.runNow(r);
      times[mode].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      warm[mode] += sb::spareStats().warmUsed > before;
      if (o.result.coverage.empty() != (mode == 1)) ++wrong[mode];
    }
    runs = static_cast<int>(times[0].size());
    unsetenv("GREENLIGHT_COVERAGE");
    const double with = median(times[0]), without = median(times[1]);
    std::printf("%s: warm run on save, medians of %d runs each\n", file.c_str(), runs);
    std::printf("  without coverage %8.1f ms  (%d/%d warm)\n", without, warm[1], runs);
    std::printf("  with coverage    %8.1f ms  (%d/%d warm)  ratio %.3f (goal <= 1.15)\n", with, warm[0], runs,
                without > 0 ? with / without : 0.0);
    if (wrong[0] || wrong[1])
      std::printf("  NOTE: %d run(s) with coverage measured nothing, %d without measured something\n", wrong[0], wrong[1]);
    std::fflush(stdout);
  }
  sb::keepSpares(false);
  return 0;
}
