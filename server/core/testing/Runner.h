// The tools every adapter runs a TestPlan with (adapters/TestJob.h hands a plan to its adapter:
// runTests); what a run is and returns (RunOptions, RunResult in TestTypes.h).
//
// What the sandbox sees:
//  - /work (writable tmpfs) seeded with a scratch copy of what the run needs: under /work/src
//    the source and test files with their relative layout (plus the other files of the same
//    language under their common directory, capped), taking UNSAVED editor text from the
//    overlay; under /work/.gl the harness and its config.
//  - the workspace root read-only at its own path (never "/" or $HOME itself), and the
//    interpreter's/compiler's installation prefixes (Toolchain::bindPrefixes) read-only.
//  - C++ only: a private host directory at /out (the compiled test binary).
// Paths reported inside the sandbox (/work/src/...) are mapped back to host paths; files are
// copied verbatim, so line numbers are exact.
//
// Thread-safety: a run (TestJob.h runTests) is reentrant; run as many at once as you have workers. Callbacks in
// RunOptions are called on the calling thread (the sandbox's supervising thread).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/config/Config.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestTypes.h"
#include "core/testing/Watchdog.h"
#include "sandbox/Sandbox.h"

namespace greenlight::core::testing {

// How a sandboxed step runs; tests substitute a fake. Default: sandbox::run.
using Executor = std::function<sandbox::Verdict(const sandbox::Policy&, int cancelFd)>;
Executor sandboxExecutor();

struct RunOptions {
  Config config;
  OverlayProvider overlay;        // unsaved text by path; may be empty
  double timeoutSeconds = 0;      // > 0 overrides config.sandbox.timeLimitSeconds
  // > 0: the hang bound (Watchdog.h): a test that runs this long while no test finishes is
  // stopped as hung, named, and the tests it kept from running are reported not run.
  // TestService sets it when sandbox.timeLimitSeconds is null; 0: only the time limit.
  double hangSeconds = 0;
  std::shared_ptr<WatchdogClock> clock;  // the hang watchdog's clock; empty: the steady clock
  int cancelFd = -1;              // CancellationToken::fd(): readable -> kill the sandbox now
  bool doctests = true;           // Python: run docstring examples
  // Called once per finished test as soon as its result is known (paths already mapped).
  std::function<void(const TestResult&)> onTestResult;
  Executor executor;              // empty: sandboxExecutor()
  // Python and node runs offer the sandbox a warm start (sandbox Policy::WarmStart: an
  // interpreter started ahead in a spare, used only while sandbox::keepSpares is on).
  // Results are the same either way. Ignored with a custom executor.
  bool warm = false;
  // Builds the run's sandbox policy and asks for a spare of its shape (warm when `warm`), then
  // returns without running anything: a caller that knows a run is coming (the refine loop,
  // before the model answers) takes the start-up off that run.
  bool prepareOnly = false;
  // Environment used to resolve the toolchain (PATH, PYENV_*, VIRTUAL_ENV, NVM_DIR); empty
  // keys fall back to the process environment.
  std::map<std::string, std::string> toolEnvironment;
};

// The fingerprint of everything that decides a run's outcome: texts of the files it stages,
// the plan, the settings that reach the sandbox and the resolved toolchain. Equal keys mean an
// identical rerun (TestService's cache).
std::string runFingerprint(const TestPlan& plan, const RunOptions& options);

}  // namespace greenlight::core::testing
