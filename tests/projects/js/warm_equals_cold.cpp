// Warm runners equal cold ones: a test file of each JS project run through the TestService as the
// language server runs it on save, cold (no spares), then on a warm spare (js_warm.js: the
// runner's modules loaded ahead, sandbox::keepSpares), twice, with a bug injected into the copy
// on disk so that failures, their messages, values and frames are compared too (restored after).
// Every warm run must report exactly what the cold run reported, and must have been warm.
// (A run with unsaved text binds a fresh copy over the file: a sandbox of another shape, which
// no spare made ahead fits; such runs start cold.)
//
//   warm_equals_cold DIR [--expect PROJECT]...
//   (DIR: the installed copies, tests/projects/js/install.sh --into; an expected project that is
//   not installed is a failure, not a skip: the lane installed it, so a green run must have run it)
// Exit 0: equal; 1: a difference or an expected project missing (printed); 77: nothing installed.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "core/testing/adapters/JsProject.h"
#include "sandbox/Sandbox.h"

namespace t = greenlight::core::testing;
namespace sb = greenlight::sandbox;
namespace fs = std::filesystem;

namespace {

struct Case {
  const char* project;  // under DIR
  const char* runnerPackage;
  const char* testFile;
  const char* bugFile;
  const char* find;
  const char* replace;
};

const Case kCases[] = {
    {"jest-js", "jest", "__tests__/money.test.js", "src/money.js", "(i < extra ? 1 : 0)", "(i <= extra ? 1 : 0)"},
    {"vitest-ts", "vitest", "test/template.spec.ts", "src/template.ts", "i = close + 2;", "i = close + 1;"},
    {"mocha-js", "mocha", "test/parse.js", "lib/parse.js", "depth < options.depth", "depth <= options.depth"},
    {"monorepo/packages/core", "vitest", "test/scheduler.test.ts", "src/scheduler.ts", "now - job.lastRun >= job.intervalMs",
     "now - job.lastRun > job.intervalMs"},
};

std::string outcomeText(const t::RunOutcome& o) {
  std::ostringstream s;
  s << o.result.error << "\n";
  for (const auto& x : o.result.tests) {
    s << "test " << x.id << " " << t::testStatusName(x.status) << " " << x.file << ":" << x.line << " " << x.message
      << " [" << x.actual << "|" << x.expected << "]";
    for (const auto& f : x.frames) s << " " << f.file << ":" << f.line << ":" << f.column;
    s << "\n";
  }
  for (const auto& d : o.result.diagnostics)
    s << "diag " << d.file << ":" << d.line << ":" << d.column << " " << d.code << " " << d.message << "\n";
  return s.str();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> expected;
  for (int i = 2; i + 1 < argc && std::string(argv[i]) == "--expect"; i += 2) expected.push_back(argv[i + 1]);
  if (argc < 2 || argc != 2 + 2 * static_cast<int>(expected.size())) {
    std::fprintf(stderr, "usage: warm_equals_cold DIR [--expect PROJECT]...\n");
    return 2;
  }
  for (const auto& e : expected) {
    if (std::none_of(std::begin(kCases), std::end(kCases), [&](const Case& c) { return e == c.project; })) {
      std::fprintf(stderr, "warm_equals_cold: --expect %s names no case\n", e.c_str());
      return 2;
    }
  }
  const std::string base = fs::absolute(argv[1]).lexically_normal().string();
  int failures = 0, ran = 0;
  for (const Case& c : kCases) {
    const std::string root = base + "/" + c.project;
    if (!t::findJsRunner(c.runnerPackage, root)) {
      const bool mustRun = std::find(expected.begin(), expected.end(), c.project) != expected.end();
      std::printf("%s %s: %s is not installed in %s\n", mustRun ? "FAIL" : "SKIP", c.project, c.runnerPackage,
                  base.c_str());
      failures += mustRun;
      continue;
    }
    ++ran;
    const std::string bugPath = root + "/" + c.bugFile;
    std::string text = slurp(bugPath);
    const auto at = text.find(c.find);
    if (at == std::string::npos) {
      std::printf("FAIL %s: \"%s\" not in %s\n", c.project, c.find, c.bugFile);
      ++failures;
      continue;
    }
    const std::string original = text;
    text.replace(at, std::string(c.find).size(), c.replace);
    struct Restore {
      std::string path, text;
      ~Restore() { std::ofstream(path, std::ios::trunc) << text; }
    } restore{bugPath, original};
    std::ofstream(bugPath, std::ios::trunc) << text;
    t::TestService::Options options;
    options.workers = 1;
    t::TestService service(options);
    auto once = [&] {
      t::RunRequest r;
      r.path = root + "/" + c.testFile;
      r.workspaceRoot = t::findWorkspaceRoot(r.path);
      service.clearCache();
      return service.runNow(r);
    };
    sb::keepSpares(false);
    const t::RunOutcome cold = once();
    const std::string expected = outcomeText(cold);
    if (cold.result.summary.failed == 0 || cold.result.summary.passed == 0) {
      std::printf("FAIL %s: the cold run should have passes and failures:\n%s", c.project, expected.c_str());
      ++failures;
      continue;
    }
    sb::keepSpares(true);
    const sb::SpareStats before = sb::spareStats();
    once();  // cold again: asks for a warm spare of this shape
    bool equal = true;
    for (int i = 0; i < 2; ++i) {
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      auto warmReady = [] {
        for (const std::string& line : sb::describeSpares())
          if (line.rfind("warm ", 0) == 0) return true;
        return false;
      };
      while (!warmReady() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      const t::RunOutcome warm = once();
      if (outcomeText(warm) != expected) {
        equal = false;
        std::printf("FAIL %s: warm run %d differs from cold\n--- cold\n%s--- warm\n%s", c.project, i, expected.c_str(),
                    outcomeText(warm).c_str());
      }
    }
    const sb::SpareStats after = sb::spareStats();
    sb::keepSpares(false);
    const unsigned long warmRuns = after.warmUsed - before.warmUsed;
    if (warmRuns < 2 || after.warmFellBack != before.warmFellBack) {
      equal = false;
      std::printf("FAIL %s: %lu of 2 runs were warm (%lu fell back cold)\n", c.project, warmRuns,
                  after.warmFellBack - before.warmFellBack);
    }
    std::printf("%s %s: %s (%d passed, %d failed, cold and warm)\n", equal ? "ok  " : "FAIL", c.project, c.testFile,
                cold.result.summary.passed, cold.result.summary.failed);
    if (!equal) ++failures;
  }
  if (ran == 0) {
    std::printf("skipped: no project is installed in %s\n", base.c_str());
    return 77;
  }
  return failures ? 1 : 0;
}
