// The hang watchdog: stops a run whose test is HUNG, never a run that is merely long.
//
// With `sandbox.timeLimitSeconds: null` (DESIGN.md "Configuration") a run has two bounds:
//  - per test: a test that has run `hangSeconds` (10 s) while no test finished is hung. The
//    clock of the longest-running test restarts whenever any test finishes: a run that keeps
//    finishing tests is alive, however long it is, also when a runner runs tests side by side
//    (vitest's workers, node:test's files) and one slow test overlaps many quick ones. Why
//    finishing and not starting: a parallel runner keeps STARTING tests beside a hung one, and
//    a test that starts is no evidence that anything completes. Between tests (collection,
//    imports, a jest file being transformed) no test is running and nothing is hung: that time
//    only counts against the whole-run bound, so a slow collection on a busy machine never
//    turns a suite red.
//    Time the run spent waiting for a CPU (the machine's load) is not counted
//    (cpuWaitDiscountedClock).
//  - the whole run: the sandbox's wall-clock limit (max(300 s, 3 × the file's last run);
//    TestService::fittedTimeLimit).
// The watchdog sees a run through the harness events (harness/EVENTS.md: `start`, `result`,
// `loaded`, and the node harness's synchronous `begin`/`end`) as they stream in. A runner that
// reports a test's start only asynchronously (vitest's workers batch their task updates) may
// not get it out before a synchronous spin: then only the whole-run bound applies. A runner whose progress is not visible live (a C++ test
// program, a CTest test, `tests.command`) has no `start` events and is bounded per program
// instead (RunnerSteps.h programTimeLimit).
//
// HangWatchdog is the rule alone over times given by the caller (tests drive it with made-up
// times); StepWatchdog applies it to one sandboxed step, on its own thread.
//
// Thread-safety: HangWatchdog is a plain value (not synchronised). StepWatchdog's observe()
// may be called from any thread (the sandbox's supervising thread calls it); the rest from the
// thread that owns it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace greenlight::core::testing {

// Monotonic seconds; a fake in tests.
class WatchdogClock {
 public:
  virtual ~WatchdogClock() = default;
  virtual double now() = 0;
};
// The process's steady clock.
std::shared_ptr<WatchdogClock> steadyWatchdogClock();
// `base` minus the time the run waited for a CPU (sandbox Policy::cpuWaitNs, kept by the
// sandbox's supervisor): on a loaded machine a test that computes for 8 s of CPU may take 13 s
// of wall time, and it is not hung. A spinning test still reaches the bound on its own CPU
// time; a blocked one (deadlock, a read that never returns) waits for no CPU and reaches it
// on the wall clock.
std::shared_ptr<WatchdogClock> cpuWaitDiscountedClock(std::shared_ptr<WatchdogClock> base,
                                                      std::shared_ptr<const std::atomic<std::int64_t>> waitNs);

// A test the watchdog found hung: who, and how long it ran with no test finishing.
struct HungTest {
  std::string id, name, file;  // as the events said (sandbox paths)
  int line = 0;
  double seconds = 0;
};

class HangWatchdog {
 public:
  explicit HangWatchdog(double hangSeconds) : hangSeconds_(hangSeconds) {}
  // One harness event (EVENTS.md) seen at `now`.
  void observe(const nlohmann::json& event, double now);
  // The hung test at `now`, if any: the longest-running test when it has run hangSeconds
  // since it started or since the last test finished, whichever is later.
  std::optional<HungTest> hung(double now) const;
  // Seconds until hung() could first answer (infinity while no test runs).
  double secondsUntilHang(double now) const;

 private:
  struct Running {
    std::string id, name, file;
    int line = 0;
    double since = 0;
  };
  const Running* oldest() const;
  double hangSeconds_;
  double lastFinish_ = 0;
  std::vector<Running> running_;  // in start order
};

// Runs HangWatchdog beside one sandboxed step: hand cancelFd() to the executor instead of the
// caller's; it becomes readable when the caller cancels (forwarded) or when a test hangs.
class StepWatchdog {
 public:
  // `callerCancelFd` may be -1. The thread starts at once.
  StepWatchdog(double hangSeconds, std::shared_ptr<WatchdogClock> clock, int callerCancelFd);
  ~StepWatchdog();
  StepWatchdog(const StepWatchdog&) = delete;
  StepWatchdog& operator=(const StepWatchdog&) = delete;

  int cancelFd() const { return stopFd_; }
  void observe(const nlohmann::json& event);
  // Stops the thread; then what it found (empty when it never fired or the caller cancelled).
  std::optional<HungTest> finish();

 private:
  void loop();
  std::shared_ptr<WatchdogClock> clock_;
  int callerCancelFd_;
  int stopFd_ = -1;  // eventfd: readable = kill the sandbox
  int wakeFd_ = -1;  // eventfd: readable = finish() was called
  std::mutex mutex_;
  HangWatchdog dog_;
  std::optional<HungTest> fired_;
  std::thread thread_;
};

}  // namespace greenlight::core::testing
