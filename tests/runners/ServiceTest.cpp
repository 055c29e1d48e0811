// TestService with a fake executor: parallelism, supersession, cancellation, cache, callbacks.
#include <catch2/catch.hpp>

#include <poll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "TestUtil.h"
#include "core/testing/TestService.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
namespace sb = greenlight::sandbox;

namespace {

const char kPassEvent[] =
    "\n\x1eGL {\"ev\":\"result\",\"name\":\"test_a\",\"file\":\"/work/src/test_m.py\",\"line\":1,\"status\":\"passed\"}\n"
    "\n\x1eGL {\"ev\":\"done\"}\n";

// Waits until `fd` is readable (cancellation) or `ms` pass; returns true when cancelled.
bool waitCancelled(int fd, int ms) {
  if (fd < 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return false;
  }
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, ms) > 0;
}

sb::Verdict passed(const sb::Policy& p) {
  sb::Verdict v;
  v.status = sb::Status::Ok;
  v.exitCode = 0;
  p.onOutput(1, kPassEvent);
  return v;
}

RunRequest request(const std::string& path) {
  RunRequest r;
  r.path = path;
  r.config.pythonInterpreter = "/usr/bin/python3";
  return r;
}

}  // namespace

TEST_CASE("service: identical reruns come from the cache, a changed text does not") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "x = 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  std::atomic<int> calls{0};
  TestService::Options o;
  o.workers = 2;
  o.executor = [&](const sb::Policy& p, int) {
    ++calls;
    return passed(p);
  };
  TestService service(o);
  std::vector<std::string> progress;
  auto r1 = request(src);
  r1.onTest = [&](const TestResult& t) { progress.push_back(t.name); };
  auto ha = service.start(r1);  // wait() refers into the handle's state: keep the handle
  const auto& a = ha.wait();
  CHECK_FALSE(a.result.cached);
  CHECK(a.result.summary.passed == 1);
  CHECK(progress == std::vector<std::string>{"test_a"});
  auto hb = service.start(request(src));
  const auto& b = hb.wait();
  CHECK(b.result.cached);
  CHECK(b.result.summary.passed == 1);
  CHECK(calls == 1);
  auto r3 = request(src);
  r3.overlay = [&](const std::string& p) -> std::optional<std::string> {
    if (p == src) return std::string("x = 2\n");
    return std::nullopt;
  };
  CHECK_FALSE(service.start(r3).wait().result.cached);
  auto r4 = request(src);
  r4.timeoutSeconds = 3;
  CHECK_FALSE(service.start(r4).wait().result.cached);
  CHECK(calls == 3);
  CHECK(service.cacheSize() == 3);
  service.clearCache();
  CHECK_FALSE(service.start(request(src)).wait().result.cached);
}

TEST_CASE("service: a new run for the same file cancels the one in flight") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "x = 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  std::mutex m;
  std::condition_variable cv;
  int entered = 0;
  TestService::Options o;
  o.workers = 2;
  o.executor = [&](const sb::Policy& p, int cancelFd) {
    int me = 0;  // which call this is, taken under the lock: the second run may enter before
                 // the first gets to look (it did once staging became fast)
    {
      std::lock_guard<std::mutex> lock(m);
      me = ++entered;
    }
    cv.notify_all();
    if (me == 1) {
      if (waitCancelled(cancelFd, 20000)) {
        sb::Verdict v;
        v.status = sb::Status::Timeout;
        v.cancelled = true;
        return v;
      }
    }
    return passed(p);
  };
  TestService service(o);
  std::atomic<int> doneCalls{0};
  auto r1 = request(src);
  r1.onDone = [&](const RunOutcome&) { ++doneCalls; };
  auto first = service.start(r1);
  {
    std::unique_lock<std::mutex> lock(m);
    REQUIRE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return entered == 1; }));
  }
  auto r2 = request(src);
  r2.onDone = [&](const RunOutcome&) { ++doneCalls; };
  auto second = service.start(r2);
  CHECK(first.wait().result.cancelled);
  CHECK(first.wait().result.tests.empty());
  CHECK_FALSE(second.wait().result.cancelled);
  CHECK(second.wait().result.summary.passed == 1);
  CHECK(doneCalls == 2);
}

TEST_CASE("service: runs for different files proceed in parallel") {
  TempWorkspace ws;
  auto a = ws.write("a.py", "x = 1\n");
  ws.write("test_a.py", "def test_a():\n    pass\n");
  auto b = ws.write("b.py", "x = 1\n");
  ws.write("test_b.py", "def test_a():\n    pass\n");
  std::mutex m;
  std::condition_variable cv;
  int inFlight = 0, maxInFlight = 0;
  TestService::Options o;
  o.workers = 2;
  o.executor = [&](const sb::Policy& p, int) {
    std::unique_lock<std::mutex> lock(m);
    ++inFlight;
    maxInFlight = std::max(maxInFlight, inFlight);
    cv.notify_all();
    // Each run waits (bounded) for the other to be in flight too.
    cv.wait_for(lock, std::chrono::seconds(20), [&] { return maxInFlight >= 2; });
    --inFlight;
    lock.unlock();
    return passed(p);
  };
  TestService service(o);
  auto ha = service.start(request(a));
  auto hb = service.start(request(b));
  CHECK(ha.wait().result.summary.passed == 1);
  CHECK(hb.wait().result.summary.passed == 1);
  CHECK(maxInFlight == 2);
}

TEST_CASE("service: the caller's token kills the run at once, handles cancel too") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "x = 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  std::atomic<bool> started{false};
  TestService::Options o;
  o.workers = 1;
  o.executor = [&](const sb::Policy& p, int cancelFd) {
    started = true;
    if (waitCancelled(cancelFd, 20000)) {
      sb::Verdict v;
      v.status = sb::Status::Timeout;
      v.cancelled = true;
      return v;
    }
    return passed(p);
  };
  TestService service(o);
  greenlight::support::CancellationSource source;
  auto r = request(src);
  r.cancel = source.token();
  auto h = service.start(r);
  while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  source.cancel();
  CHECK(h.wait().result.cancelled);
  started = false;
  auto h2 = service.start(request(src));
  while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  h2.cancel();
  CHECK(h2.wait().result.cancelled);
  // A cancelled run is not cached.
  CHECK(service.cacheSize() == 0);
}

TEST_CASE("service: no tests and unreadable files are reported, not thrown") {
  TempWorkspace ws;
  auto lonely = ws.write("lonely.py", "x = 1\n");
  TestService::Options o;
  o.workers = 1;
  o.executor = [](const sb::Policy& p, int) { return passed(p); };
  TestService service(o);
  // Keep the handles: wait() returns a reference into the handle's shared state.
  auto ha = service.start(request(lonely));
  const auto& a = ha.wait();
  CHECK(a.noTests);
  CHECK(a.result.error.empty());
  auto hb = service.start(request(ws.root() + "/missing.py"));
  const auto& b = hb.wait();
  CHECK_FALSE(b.noTests);
  CHECK(b.result.error.find("missing.py") != std::string::npos);
}
