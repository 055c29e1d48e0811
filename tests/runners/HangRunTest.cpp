// The hang watchdog on real runs through the sandbox: a hung test is stopped, named, and the
// tests it kept from running are reported not run, never failed. The hang bound is small here
// (1.5 s, scaled); the quick tests beside it take milliseconds.
#include <catch2/catch.hpp>

#include <filesystem>

#include "RunHelpers.h"
#include "TestTime.h"
#include "TestUtil.h"
#include "core/testing/Runner.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
using greenlight::test::find;
using greenlight::test::describe;

namespace {

// The tests near `path`, run with a time limit for the whole run and a hang bound (0: none).
RunResult runWithin(const std::string& path, double timeoutSeconds, double hangSeconds) {
  DiscoveryRequest dr;
  dr.path = path;
  std::string err;
  auto plan = discoverTests(dr, &err);
  REQUIRE(plan);
  RunOptions opt;
  opt.timeoutSeconds = timeoutSeconds;
  opt.hangSeconds = hangSeconds;
  return runPlan(*plan, opt);
}

// The whole run's limit far beyond the hang bound.
RunResult runHanging(const std::string& path) { return runWithin(path, 120, 1.5 * gltest::timeScale()); }

}  // namespace

TEST_CASE("hang watchdog: unittest, the hung test named, the rest not run") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def spin():\n    while True:\n        pass\n");
  ws.write("test_m.py",
           "import unittest\nfrom m import spin\n\n"
           "class T(unittest.TestCase):\n"
           "    def test_a(self):\n        self.assertEqual(1, 1)\n\n"
           "    def test_b(self):\n        spin()\n\n"
           "    def test_c(self):\n        self.assertEqual(2, 2)\n\n"
           "    def test_d(self):\n        self.assertEqual(3, 3)\n");
  // The project runner's sandbox runs as uid 65534 under root: it must enter the workspace.
  std::filesystem::permissions(ws.root(), std::filesystem::perms::others_read | std::filesystem::perms::others_exec,
                               std::filesystem::perm_options::add);
  auto r = runHanging(src);
  INFO(describe(r));
  REQUIRE(r.error.empty());
  CHECK_FALSE(r.cancelled);
  const TestResult* a = nullptr;
  const TestResult* b = nullptr;
  std::vector<const TestResult*> notRun;
  for (const auto& t : r.tests) {
    if (t.name.find("test_a") != std::string::npos) a = &t;
    if (t.name.find("test_b") != std::string::npos) b = &t;
    if (t.outcome == "notrun") notRun.push_back(&t);
  }
  REQUIRE(a);
  CHECK(a->status == TestStatus::Passed);
  REQUIRE(b);
  CHECK(b->status == TestStatus::Timeout);
  CHECK(b->message.find("with no test finishing (stopped as hung)") != std::string::npos);
  REQUIRE(notRun.size() == 2);
  for (const auto* t : notRun) {
    CHECK(t->status == TestStatus::Skipped);
    CHECK(t->reason == "not run: the run was stopped after " + b->name + " hung");
  }
  CHECK(r.summary.failed == 0);
  CHECK(r.summary.errors == 1);
  CHECK(r.summary.skipped == 2);
}

TEST_CASE("hang watchdog: the built-in harnesses name the hung test (Python, node)") {
  TempWorkspace ws;
  auto py = ws.write("m.py", "def spin():\n    while True:\n        pass\n");
  ws.write("test_m.py", "from m import spin\n\ndef test_ok():\n    assert 1 == 1\n\ndef test_spin():\n    spin()\n");
  auto r = runHanging(py);
  INFO(describe(r));
  auto* ok = find(r, "test_ok");
  REQUIRE(ok);
  CHECK(ok->status == TestStatus::Passed);
  auto* spin = find(r, "test_spin");
  REQUIRE(spin);
  CHECK(spin->status == TestStatus::Timeout);
  CHECK(spin->message.find("with no test finishing") != std::string::npos);

  auto js = ws.write("s.js", "function spin() {\n  for (;;) {}\n}\nmodule.exports = { spin };\n");
  ws.write("s.test.js",
           "const test = require('node:test');\nconst assert = require('node:assert');\nconst { spin } = require('./s');\n"
           "test('ok', () => { assert.strictEqual(1, 1); });\n"
           "test('spins', () => { spin(); });\n");
  r = runHanging(js);
  INFO(describe(r));
  auto* spins = find(r, "spins");
  REQUIRE(spins);
  CHECK(spins->status == TestStatus::Timeout);
  CHECK(spins->message.find("with no test finishing") != std::string::npos);
}

TEST_CASE("coverage that makes a run run out of time: the run without it decides and says so") {
  TempWorkspace ws;
  // value() is slow only while coverage watches it (a Python line tracer on its frame, the C
  // one handed to new threads through threading.settrace, or a sys.monitoring tool on 3.12+):
  // a suite healthy as the project runs it, too slow with us.
  auto src = ws.write("m.py",
                      "import sys\nimport threading\nimport time\n\n\n"
                      "def _watched():\n"
                      "    if sys._getframe(1).f_trace is not None or getattr(threading, '_trace_hook', None):\n"
                      "        return True\n"
                      "    mon = getattr(sys, 'monitoring', None)\n"
                      "    return bool(mon) and any(mon.get_tool(i) for i in range(6))\n\n\n"
                      "def value():\n"
                      "    if _watched():\n        time.sleep(600)\n"
                      "    return 1\n");
  ws.write("test_m.py", "from m import value\n\n\ndef test_value():\n    assert value() == 1\n\n\ndef test_other():\n    assert 2 == 2\n");
  const double limit = 4 * gltest::timeScale();
  auto r = runWithin(src, limit, 0);
  INFO(describe(r));
  REQUIRE(r.error.empty());
  CHECK(r.summary.passed == 2);
  CHECK(r.summary.failed + r.summary.errors == 0);
  CHECK(r.verdict);
  CHECK(r.verdict->status == greenlight::sandbox::Status::Ok);
  CHECK(r.coverage.empty());
  CHECK_THAT(r.coverageNote, Catch::Contains("coverage not measured: with it, ") && Catch::Contains("without it"));

  // A test that runs out of time without coverage too is still a timeout.
  ws.write("m.py", "import time\n\n\ndef value():\n    time.sleep(600)\n    return 1\n");
  auto slow = runWithin(src, limit, 0);
  INFO(describe(slow));
  const TestResult* v = find(slow, "test_value");
  REQUIRE(v);
  CHECK(v->status == TestStatus::Timeout);
  CHECK_FALSE(slow.coverageNote.empty());
}
