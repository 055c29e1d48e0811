// Warm runners equal cold ones: a test file of each JS project run through the TestService as the
// language server runs it on save, cold (no spares), then on a warm spare (js_warm.js: the
// runner's modules loaded ahead, sandbox::keepSpares), twice, with a bug injected into the copy
// on disk so that failures, their messages, values and frames are compared too (restored after).
// Every warm run must report exactly what the cold run reported, and must have been warm.
// jest-ts also changes files AFTER its warm spare built ts-jest's compiler (js_warm.js), the way a
// user saves while the spare waits: a source the test imports (the compiler takes the new text),
// a type error in one, a type it imports only as a type (jest never transforms that file), tsconfig.json
// (the prepared compiler is dropped). Each warm run must equal a cold run of the changed files.
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
#include "core/testing/JsProject.h"
#include "core/testing/adapters/JsRunner.h"
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
    {"jest-ts", "jest", "test/set.spec.ts", "src/set.ts", "out.push({ lo: p.lo, hi: i.lo - 1 })", "out.push({ lo: p.lo, hi: i.lo })"},
    {"vitest-ts", "vitest", "test/template.spec.ts", "src/template.ts", "i = close + 2;", "i = close + 1;"},
    {"mocha-js", "mocha", "test/parse.js", "lib/parse.js", "depth < options.depth", "depth <= options.depth"},
    {"monorepo/packages/core", "vitest", "test/scheduler.test.ts", "src/scheduler.ts", "now - job.lastRun >= job.intervalMs",
     "now - job.lastRun > job.intervalMs"},
};

// A change made after the warm spare was built (jest-ts: ts-jest's compiler prepared ahead).
struct LaterEdit {
  const char* project;
  const char* what;
  const char* file;
  const char* find;
  const char* replace;
};

const LaterEdit kLaterEdits[] = {
    {"jest-ts", "a source the test imports", "src/interval.ts", "if (lo > hi) throw new IntervalError(lo, hi);",
     "if (lo >= hi) throw new IntervalError(lo, hi);"},
    {"jest-ts", "a type error in an imported source", "src/interval.ts", "return i.hi - i.lo + 1;",
     "return i.hi - i.lo + '1';"},
    // Imported only as a type: jest never transforms it, so only js_warm.js gives ts-jest its new text.
    {"jest-ts", "a type the source imports (import type)", "src/types.ts", "[number, number] | number",
     "[string, string] | number"},
    {"jest-ts", "tsconfig.json", "tsconfig.json", "\"@/*\": [\"src/*\"]", "\"@/*\": [\"lib/*\"]"},
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

bool waitForWarmSpare() {
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    for (const std::string& line : greenlight::sandbox::describeSpares())
      if (line.rfind("warm ", 0) == 0) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Waits until a warm spare's js_warm.js whose command line names `root` has finished loading:
// it then blocks in read(1023, ...) (/proc/PID/syscall "0 0x3ff ..."). A change made before that
// is one the preload may have read already, which proves nothing about what it does at the run.
bool waitForWarmLoaded(const std::string& root) {
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  for (;;) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
      const std::string pid = e.path().filename().string();
      if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
      std::string cmdline = slurp("/proc/" + pid + "/cmdline");
      std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
      if (cmdline.find("js_warm.js") == std::string::npos || cmdline.find(root + "/") == std::string::npos) continue;
      if (slurp("/proc/" + pid + "/syscall").rfind("0 0x3ff ", 0) == 0) return true;
    }
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// `path` with `find` replaced; false when `find` is not there.
bool replaceIn(const std::string& path, const std::string& find, const std::string& replace) {
  std::string text = slurp(path);
  const auto at = text.find(find);
  if (at == std::string::npos) return false;
  text.replace(at, find.size(), replace);
  std::ofstream(path, std::ios::trunc) << text;
  return true;
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
      waitForWarmSpare();
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
    for (const LaterEdit& e : kLaterEdits) {
      if (std::string(e.project) != c.project) continue;
      const std::string path = root + "/" + e.file;
      const std::string before = slurp(path);
      Restore undo{path, before};
      sb::keepSpares(false);
      if (!replaceIn(path, e.find, e.replace)) {
        std::printf("FAIL %s: \"%s\" not in %s\n", c.project, e.find, e.file);
        ++failures;
        continue;
      }
      const std::string changed = outcomeText(once());
      std::ofstream(path, std::ios::trunc) << before;
      const std::string unchanged = outcomeText(once());
      if (changed == unchanged) {
        std::printf("FAIL %s: changing %s changes nothing the test can see\n", c.project, e.what);
        ++failures;
        continue;
      }
      sb::keepSpares(true);
      const sb::SpareStats b = sb::spareStats();
      once();  // cold: a warm spare of this shape is built on the files as they were
      const bool ready = waitForWarmSpare() && waitForWarmLoaded(root);
      replaceIn(path, e.find, e.replace);
      const std::string warm = outcomeText(once());
      const sb::SpareStats a = sb::spareStats();
      sb::keepSpares(false);
      const bool wasWarm = ready && a.warmUsed - b.warmUsed == 1 && a.warmFellBack == b.warmFellBack;
      const bool same = warm == changed;
      if (!same) std::printf("--- cold\n%s--- warm\n%s", changed.c_str(), warm.c_str());
      std::printf("%s %s: %s changed after the warm spare was built (%s)\n", same && wasWarm ? "ok  " : "FAIL", c.project,
                  e.what, !same ? "warm differs from cold" : wasWarm ? "warm equals cold" : "the run was not warm, or its preload never finished");
      if (!same || !wasWarm) ++failures;
    }
  }
  if (ran == 0) {
    std::printf("skipped: no project is installed in %s\n", base.c_str());
    return 77;
  }
  return failures ? 1 : 0;
}
