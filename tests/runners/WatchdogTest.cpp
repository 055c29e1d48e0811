// The hang watchdog (core/testing/Watchdog.h): the rule over made-up times, and runPlan with a
// fake executor and a fake clock (no test here waits on real time for its outcome).
#include <catch2/catch.hpp>

#include <poll.h>

#include <atomic>
#include <string>

#include "TestTime.h"
#include "TestUtil.h"
#include "core/testing/Runner.h"
#include "core/testing/TestService.h"
#include "core/testing/Watchdog.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
using nlohmann::json;
namespace sb = greenlight::sandbox;

namespace {

json start(const std::string& name) { return {{"ev", "start"}, {"id", "t::" + name}, {"name", name}, {"file", "/p/t.py"}, {"line", 3}}; }
json finished(const std::string& name) { return {{"ev", "result"}, {"id", "t::" + name}, {"name", name}, {"status", "passed"}}; }

class FakeClock final : public WatchdogClock {
 public:
  double now() override { return t.load(); }
  void advance(double s) { t.store(t.load() + s); }
  std::atomic<double> t{1000};
};

std::string eventLine(const json& e) { return "\n\x1eGL " + e.dump() + "\n"; }
json with(json e, const json& more) {
  e.update(more);
  return e;
}

// Waits (a bound, not what is checked) until the step's cancel fd says "stop".
bool stopped(int fd, std::chrono::milliseconds bound) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, static_cast<int>(bound.count())) > 0;
}

TestPlan planFor(const std::string& path) {
  DiscoveryRequest r;
  r.path = path;
  std::string err;
  auto p = discoverTests(r, &err);
  REQUIRE(p);
  return *p;
}

}  // namespace

TEST_CASE("watchdog: a long suite that keeps finishing tests is never hung") {
  HangWatchdog dog(10);
  double now = 0;
  // 600 tests of 5 s each: 50 minutes, far past any whole-file limit of old.
  for (int i = 0; i < 600; ++i) {
    const std::string name = "test_" + std::to_string(i);
    dog.observe(start(name), now);
    now += 5;
    CHECK_FALSE(dog.hung(now));
    dog.observe(finished(name), now);
  }
  CHECK_FALSE(dog.hung(now + 1000));  // between tests nothing is running: nothing is hung
}

TEST_CASE("watchdog: a test running the bound with no test finishing is hung, and named") {
  HangWatchdog dog(10);
  dog.observe(start("test_a"), 0);
  dog.observe(finished("test_a"), 1);
  dog.observe(start("test_b"), 1);
  CHECK_FALSE(dog.hung(10.9));
  CHECK(dog.secondsUntilHang(5) == Approx(6));
  auto h = dog.hung(11);
  REQUIRE(h);
  CHECK(h->name == "test_b");
  CHECK(h->id == "t::test_b");
  CHECK(h->file == "/p/t.py");
  CHECK(h->line == 3);
  CHECK(h->seconds == Approx(10));
}

TEST_CASE("watchdog: time spent waiting for a CPU is not the test's: a loaded machine hangs nothing") {
  auto wall = std::make_shared<FakeClock>();
  auto waited = std::make_shared<std::atomic<std::int64_t>>(0);
  auto clock = cpuWaitDiscountedClock(wall, waited);
  HangWatchdog dog(10);
  dog.observe(start("test_primes"), clock->now());
  // 13 s of wall time, 5 s of it waiting for a CPU: 8 s of the test's own.
  wall->advance(13);
  waited->store(5'000'000'000);
  CHECK_FALSE(dog.hung(clock->now()));
  // It keeps computing with the CPU to itself: at 10 s of its own time it is hung.
  wall->advance(1.9);
  CHECK_FALSE(dog.hung(clock->now()));
  wall->advance(0.2);
  auto h = dog.hung(clock->now());
  REQUIRE(h);
  CHECK(h->name == "test_primes");
  CHECK(h->seconds == Approx(10.1));
}

TEST_CASE("watchdog: side by side, a slow test lives while others finish, the oldest is blamed") {
  HangWatchdog dog(10);
  dog.observe(start("slow"), 0);
  double now = 0;
  for (int i = 0; i < 10; ++i) {  // 30 s of quick tests beside it
    dog.observe(start("q" + std::to_string(i)), now);
    now += 3;
    dog.observe(finished("q" + std::to_string(i)), now);
    CHECK_FALSE(dog.hung(now));
  }
  // Tests keep STARTING but none finishes: that is no progress.
  dog.observe(start("late"), now + 5);
  CHECK_FALSE(dog.hung(now + 9.9));
  auto h = dog.hung(now + 10);
  REQUIRE(h);
  CHECK(h->name == "slow");
}

TEST_CASE("watchdog: a pseudo-test ended by `loaded`, a result without a start, no events at all") {
  HangWatchdog dog(10);
  CHECK_FALSE(dog.hung(1e6));  // collection, imports: not a test, only the whole-run bound
  dog.observe({{"ev", "start"}, {"name", "m.py (import)"}, {"file", "/w/m.py"}, {"line", 1}}, 0);
  dog.observe({{"ev", "loaded"}, {"name", "m.py (import)"}}, 2);
  CHECK_FALSE(dog.hung(100));
  dog.observe({{"ev", "start"}, {"name", "test_x"}}, 100);
  dog.observe({{"ev", "result"}, {"name", "skipped_one"}, {"status", "skipped"}}, 108);  // progress
  CHECK_FALSE(dog.hung(117));
  REQUIRE(dog.hung(118));
  CHECK(dog.hung(118)->name == "test_x");
  // The node harness's synchronous begin/end (node:test's own events are asynchronous).
  dog.observe({{"ev", "result"}, {"name", "test_x"}, {"status", "passed"}}, 118);
  dog.observe({{"ev", "begin"}, {"name", "suite > spins"}}, 120);
  dog.observe({{"ev", "begin"}, {"name", "suite > spins > inner"}}, 121);
  dog.observe({{"ev", "end"}, {"name", "suite > spins > inner"}}, 122);
  CHECK_FALSE(dog.hung(131.9));
  REQUIRE(dog.hung(132));
  CHECK(dog.hung(132)->name == "suite > spins");
  HangWatchdog off(0);
  off.observe(start("test_a"), 0);
  CHECK_FALSE(off.hung(1e9));
}

TEST_CASE("a hung test stops the run: named as a timeout, the tests it kept from running not run") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n\ndef test_b():\n    pass\n\ndef test_c():\n    pass\n");
  auto clock = std::make_shared<FakeClock>();
  RunOptions opt;
  opt.config.pythonInterpreter = "/usr/bin/python3";
  opt.timeoutSeconds = 300;
  opt.hangSeconds = 10;
  opt.clock = clock;
  bool killed = false;
  opt.executor = [&](const sb::Policy& p, int cancelFd) {
    auto test = [](const std::string& n) {
      return json{{"id", "test_m.py::" + n}, {"name", n}, {"file", "/work/src/test_m.py"}, {"line", 1}};
    };
    p.onOutput(1, eventLine({{"ev", "collected"}, {"tests", {test("test_a"), test("test_b"), test("test_c")}}}));
    p.onOutput(1, eventLine(with(test("test_a"), {{"ev", "start"}})));
    clock->advance(4);
    p.onOutput(1, eventLine(with(test("test_a"), {{"ev", "result"}, {"status", "passed"}})));
    p.onOutput(1, eventLine(with(test("test_b"), {{"ev", "start"}})));
    clock->advance(12);
    killed = stopped(cancelFd, gltest::scaled(std::chrono::seconds(30)));
    sb::Verdict v;  // what the sandbox says of a run killed through its cancel fd
    v.status = killed ? sb::Status::Timeout : sb::Status::Ok;
    v.cancelled = killed;
    return v;
  };
  auto r = runPlan(planFor(src), opt);
  REQUIRE(killed);
  CHECK_FALSE(r.cancelled);
  REQUIRE(r.tests.size() == 3);
  CHECK(r.tests[0].name == "test_a");
  CHECK(r.tests[0].status == TestStatus::Passed);
  CHECK(r.tests[1].name == "test_b");
  CHECK(r.tests[1].status == TestStatus::Timeout);
  CHECK(r.tests[1].kind == FailureKind::Timeout);
  CHECK(r.tests[1].message == "timed out: ran 12 s with no test finishing (stopped as hung)");
  CHECK(r.tests[1].file == ws.root() + "/test_m.py");
  CHECK(r.tests[2].name == "test_c");
  CHECK(r.tests[2].status == TestStatus::Skipped);
  CHECK(r.tests[2].outcome == "notrun");
  CHECK(r.tests[2].reason == "not run: the run was stopped after test_b hung");
  CHECK(r.tests[2].file == ws.root() + "/test_m.py");
  CHECK(summaryLine(r.summary) == "1 passed, 1 failed, 1 skipped");
  REQUIRE(!r.diagnostics.empty());
  CHECK(r.diagnostics[0].code == "timeout");
}

TEST_CASE("a run that keeps finishing tests runs to its end and the caller's cancel still cancels") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  auto clock = std::make_shared<FakeClock>();
  RunOptions opt;
  opt.config.pythonInterpreter = "/usr/bin/python3";
  opt.timeoutSeconds = 300;
  opt.hangSeconds = 10;
  opt.clock = clock;
  int stops = 0;
  opt.executor = [&](const sb::Policy& p, int cancelFd) {
    // 12 tests of 8 s (96 s: past the old 30 s whole-file limit), each given the time for the
    // watchdog's thread to look (a bound on the wait, not what is checked).
    for (int i = 0; i < 12; ++i) {
      const json t{{"name", "test_" + std::to_string(i)}, {"file", "/work/src/test_m.py"}, {"line", 1}};
      p.onOutput(1, eventLine(with(t, {{"ev", "start"}})));
      clock->advance(8);
      p.onOutput(1, eventLine(with(t, {{"ev", "result"}, {"status", "passed"}})));
      if (stopped(cancelFd, std::chrono::milliseconds(300))) ++stops;
    }
    p.onOutput(1, eventLine({{"ev", "done"}}));
    sb::Verdict v;
    v.status = sb::Status::Ok;
    v.exitCode = 0;
    return v;
  };
  auto r = runPlan(planFor(src), opt);
  CHECK(stops == 0);
  CHECK(r.summary.passed == 12);
  CHECK(r.summary.failed + r.summary.errors == 0);

  // The caller's cancellation goes through the watchdog's fd and stays a cancellation.
  int pipeFds[2];
  REQUIRE(::pipe(pipeFds) == 0);
  opt.cancelFd = pipeFds[0];
  opt.executor = [&](const sb::Policy& p, int cancelFd) {
    p.onOutput(1, eventLine({{"ev", "start"}, {"name", "test_a"}, {"file", "/work/src/test_m.py"}, {"line", 1}}));
    REQUIRE(::write(pipeFds[1], "x", 1) == 1);
    sb::Verdict v;
    v.status = sb::Status::Timeout;
    v.cancelled = stopped(cancelFd, gltest::scaled(std::chrono::seconds(30)));
    return v;
  };
  auto c = runPlan(planFor(src), opt);
  CHECK(c.cancelled);
  CHECK(c.tests.empty());
  ::close(pipeFds[0]);
  ::close(pipeFds[1]);
}

TEST_CASE("the time limit: null fits the suite with a hang bound, a number or --timeout is a hard limit") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "x = 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  std::vector<double> limits;
  double wallMs = 0;
  TestService::Options o;
  o.workers = 1;
  o.executor = [&](const sb::Policy& p, int) {
    limits.push_back(p.timeLimitSec);
    p.onOutput(1, eventLine({{"ev", "result"}, {"name", "test_a"}, {"file", "/work/src/test_m.py"}, {"line", 1}, {"status", "passed"}}));
    sb::Verdict v;
    v.status = sb::Status::Ok;
    v.exitCode = 0;
    v.wallMs = wallMs;
    return v;
  };
  TestService service(o);
  auto run = [&](double timeout = 0) {
    RunRequest r;
    r.path = src;
    r.config.pythonInterpreter = "/usr/bin/python3";
    r.timeoutSeconds = timeout;
    service.clearCache();
    return service.runNow(std::move(r));
  };
  wallMs = 200000;  // the suite took 200 s
  run();
  wallMs = 1000;
  run();
  run();
  run(7);
  // The whole run: at least 300 s, then 3 × the file's last run (+2 s: the harness's own budget
  // ends first); --timeout is what it says.
  CHECK(limits == std::vector<double>{302, 602, 302, 9});

  greenlight::core::Config config;
  RunRequest req;
  req.config = config;
  CHECK(TestService::hangSeconds(req) == 10);
  req.timeoutSeconds = 5;
  CHECK(TestService::hangSeconds(req) == 0);
  req.timeoutSeconds = 0;
  req.config.sandbox.timeLimitAuto = false;
  req.config.sandbox.timeLimitSeconds = 42;
  CHECK(TestService::hangSeconds(req) == 0);
}
