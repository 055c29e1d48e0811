// TestService: the engine API for running nearby tests, used by the LSP (greenlight.runTests,
// runOnSave) and by the generate->refine pipeline. LSP-agnostic: results carry 1-based lines
// and host paths; the LSP layer converts to 0-based UTF-16 ranges and URIs.
//
// Threading model
// ---------------
// The service owns a fixed pool of worker threads (default: the core count, at least 1).
// start() never blocks on a run: it discovers nothing itself, it only enqueues a job and
// returns a RunHandle at once, so it is safe to call from an event-loop thread.
// A worker then: discovers the tests (reading files through the overlay provider), computes
// the run's fingerprint, answers from the cache when an identical run already finished
// (RunResult::cached = true), else runs the plan in the sandbox.
//  - Runs for different files proceed in parallel, up to the pool size; more wait in FIFO order.
//  - A new start() for the same file cancels the run in flight for that file (its handle
//    completes with cancelled = true) — runOnSave semantics; debouncing is the caller's.
//  - Cancelling (the caller's token, RunHandle::cancel(), or a superseding run) kills the
//    sandbox at once: the run passes its own cancellation fd to sandbox::run.
//  - Callbacks (RunRequest::onTest, RunRequest::onDone) run on the worker thread that runs
//    the job. They must be quick and must not call wait() on their own handle; they may call
//    start() (it only enqueues). onDone is called exactly once per start(), also for
//    cancelled, cached and failed runs, before wait() returns.
// All public members are thread-safe. The destructor cancels everything in flight and joins
// the workers (every pending onDone is still called, with cancelled = true).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/Discovery.h"
#include "core/testing/Runner.h"
#include "core/testing/TestTypes.h"
#include "support/Cancellation.h"

namespace greenlight::core::testing {

struct RunRequest {
  std::string path;                 // the file under test (absolute)
  std::optional<int> line;          // 1-based: narrow to the function at this line
  std::string functionName;         // without a line: narrow to this function (DiscoveryRequest)
  std::vector<std::string> extraTestFiles;  // overlay-only test files (DiscoveryRequest)
  bool extraAreProjectTests = false;         // DiscoveryRequest
  // Run only these tests (names as the runner reports them, TestIds.h selectionForIds); they
  // replace the narrowing by `line`. Empty: what discovery selected.
  std::vector<std::string> selectTests;
  std::string workspaceRoot;        // empty: findWorkspaceRoot(path)
  Config config;                    // resolved settings (copied)
  double timeoutSeconds = 0;        // > 0 overrides config.sandbox.timeLimitSeconds
  bool doctests = true;
  OverlayProvider overlay;          // unsaved texts (called on the worker thread)
  support::CancellationToken cancel;  // the caller's cancellation (e.g. $/cancelRequest)
  // Per finished test, as results arrive (worker thread). Not called for cached runs.
  std::function<void(const TestResult&)> onTest;
  // Once, with the final result (worker thread). RunResult::error is set when the run could
  // not be performed; RunOutcome::noTests when discovery found nothing to run.
  std::function<void(const struct RunOutcome&)> onDone;
};

struct RunOutcome {
  RunResult result;
  bool noTests = false;           // discovery found no tests (CLI exit 3)
  std::optional<TestPlan> plan;   // what was discovered (empty when discovery failed)
};

class RunHandle {
 public:
  std::uint64_t id() const;
  // Blocks until the run ended (result, cancellation or error). Any thread but the worker's.
  const RunOutcome& wait() const;
  bool done() const;
  void cancel() const;  // same as cancelling the request's token

 private:
  friend class TestService;
  struct State;
  std::shared_ptr<State> state_;
};

class TestService {
 public:
  struct Options {
    unsigned workers = 0;          // 0: std::thread::hardware_concurrency()
    std::size_t cacheEntries = 256;
    Executor executor;             // empty: the real sandbox (tests inject a fake)
    std::map<std::string, std::string> toolEnvironment;  // see RunOptions
    std::shared_ptr<WatchdogClock> clock;  // the hang watchdog's (tests); empty: steady clock
  };
  // The least a whole run gets when sandbox.timeLimitSeconds is null.
  static constexpr double kWholeRunSeconds = 300;
  TestService();
  explicit TestService(Options options);
  ~TestService();
  TestService(const TestService&) = delete;
  TestService& operator=(const TestService&) = delete;

  RunHandle start(RunRequest request);
  // Cancels every run in flight or queued for `path` (e.g. the document was closed).
  void cancelFile(const std::string& path);
  void clearCache();
  std::size_t cacheSize() const;

  // Runs synchronously on the calling thread with the same cache (CLI, corpus checks).
  RunOutcome runNow(RunRequest request);

  // Readies the sandbox (a warm interpreter, with sandbox.warmInterpreters) for a run of
  // `request` that is coming, without running it: discovery and staging on the calling thread
  // (a few ms), the spare built in the background. Nothing happens when spares are off, when
  // discovery finds no tests, or with a custom executor.
  void prepare(RunRequest request);

  // The hang bound (RunOptions::hangSeconds): sandbox.timeLimitSeconds' default (10 s) when it
  // is null and no --timeout was given; else 0 (a hard limit only).
  static double hangSeconds(const RunRequest& request);

 private:
  struct Job;
  void workerLoop();
  RunOutcome execute(Job& job);
  // The whole run's time limit of `plan`: --timeout, a configured number, or (null) fitted to
  // the suite: max(kWholeRunSeconds, 3 × the file's last whole run).
  double fittedTimeLimit(const RunRequest& request, const TestPlan& plan) const;
  void finish(Job& job, RunOutcome outcome);

  Options options_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::map<std::string, std::vector<std::shared_ptr<Job>>> active_;  // by file: queued or running
  std::map<std::string, RunResult> cache_;
  std::deque<std::string> cacheOrder_;
  std::vector<std::thread> workers_;
  bool stopping_ = false;
  std::uint64_t nextId_ = 1;
  // The last whole-file run's duration per (file, runner), for the fitted time limit.
  std::map<std::string, double> lastWholeRunSeconds_;
};

}  // namespace greenlight::core::testing
