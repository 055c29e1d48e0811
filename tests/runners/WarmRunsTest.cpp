// Warm interpreters through the TestService, as the language server runs tests: each run gets
// an interpreter of its own, so nothing one run did reaches the next (a module-level counter,
// a file written in /tmp, an environment variable or interpreter state set at run time), and
// a warm run reports exactly what a cold run of the same files reports.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "TestTime.h"
#include "RunHelpers.h"
#include "TestUtil.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"

namespace t = greenlight::core::testing;
namespace sb = greenlight::sandbox;

namespace {

struct Files {
  const char* source;
  const char* state;
  const char* test;
  std::string sourceName, stateName, testName;
};

const Files kPython{
    "def f():\n    return 1\n",
    "count = 0\n",
    "import os\nimport sys\n\nimport state\nfrom calc import f\n\n\n"
    "def test_fresh():\n"
    "    assert not os.path.exists('/tmp/gl-leak-mark'), 'a file from an earlier run'\n"
    "    assert 'GL_LEAK' not in os.environ, 'an environment variable from an earlier run'\n"
    "    assert not hasattr(sys, 'gl_leak'), 'interpreter state from an earlier run'\n"
    "    state.count += 1\n"
    "    assert state.count == 1, state.count\n"
    "    open('/tmp/gl-leak-mark', 'w').write('x')\n"
    "    os.environ['GL_LEAK'] = '1'\n"
    "    sys.gl_leak = True\n"
    "    assert f() == 1\n\n\n"
    "def test_wrong():\n"
    "    assert f() == 2\n",
    "calc.py", "state.py", "test_calc.py"};

const Files kNode{
    "function f() {\n  return 1;\n}\nmodule.exports = {f};\n",
    "module.exports = {count: 0};\n",
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst fs = require('fs');\n"
    "const state = require('./state.js');\nconst {f} = require('./calc.js');\n\n"
    "test('fresh', () => {\n"
    "  assert.ok(!fs.existsSync('/tmp/gl-leak-mark'), 'a file from an earlier run');\n"
    "  assert.strictEqual(process.env.GL_LEAK, undefined);\n"
    "  assert.strictEqual(globalThis.glLeak, undefined);\n"
    "  state.count += 1;\n"
    "  assert.strictEqual(state.count, 1);\n"
    "  fs.writeFileSync('/tmp/gl-leak-mark', 'x');\n"
    "  process.env.GL_LEAK = '1';\n"
    "  globalThis.glLeak = true;\n"
    "  assert.strictEqual(f(), 1);\n"
    "});\n\n"
    "test('wrong', () => {\n  assert.strictEqual(f(), 2);\n});\n",
    "calc.js", "state.js", "calc.test.js"};

// What a run reports, without timings: tests (name, status, message, line, actual/expected)
// and diagnostics (place, code, message).
std::string outcomeText(const t::RunOutcome& o) {
  std::string s = o.result.error;
  for (const auto& x : o.result.tests)
    s += "test " + x.name + " " + std::string(t::testStatusName(x.status)) + " " + x.file + ":" +
         std::to_string(x.line) + " " + x.message + " [" + x.actual + "|" + x.expected + "]\n";
  for (const auto& d : o.result.diagnostics)
    s += "diag " + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.code + " " +
         d.message + "\n";
  return s;
}

void checkNoLeaks(const Files& files) {
  greenlight::test::TempWorkspace ws;
  const std::string source = ws.write(files.sourceName, files.source);
  ws.write(files.stateName, files.state);
  ws.write(files.testName, files.test);
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  auto once = [&] {
    t::RunRequest r;
    r.path = source;
    r.workspaceRoot = ws.root();
    service.clearCache();
    return service.runNow(r);
  };

  sb::keepSpares(false);
  const t::RunOutcome cold = once();
  const std::string expected = outcomeText(cold);
  INFO("cold:\n" << expected);
  REQUIRE(cold.result.summary.passed == 1);
  REQUIRE(cold.result.summary.failed == 1);

  sb::keepSpares(true);
  const sb::SpareStats before = sb::spareStats();
  once();  // cold: asks for a warm spare of this shape
  for (int i = 0; i < 4; ++i) {
    // Until the builder has made the next warm spare ready (bounded): each run below takes one.
    auto until = std::chrono::steady_clock::now() + gltest::scaled(std::chrono::seconds(30));
    auto warmReady = [] {
      for (const std::string& line : sb::describeSpares())
        if (line.rfind("warm ", 0) == 0) return true;
      return false;
    };
    while (!warmReady() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const t::RunOutcome warm = once();
    INFO("run " << i << ":\n" << outcomeText(warm));
    CHECK(outcomeText(warm) == expected);
  }
  const sb::SpareStats after = sb::spareStats();
  sb::keepSpares(false);
  CHECK(after.warmUsed - before.warmUsed >= 4);
  CHECK(after.warmFellBack == before.warmFellBack);
}

}  // namespace

TEST_CASE("warm Python runs share nothing and report what cold runs report", "[warm]") {
  checkNoLeaks(kPython);
}

TEST_CASE("warm node runs share nothing and report what cold runs report", "[warm]") {
  checkNoLeaks(kNode);
}

// The warm start used to put back everything it preloaded (doctest, inspect, ... and what they
// import) on the harness's first use of doctest, with setdefault: a run that had imported
// `collections` itself got the preload's `collections.abc` back into sys.modules, never bound
// to its own `collections`, and `import freezegun` (through sqlite3's `import collections.abc`)
// failed with "module 'collections' has no attribute 'abc'" only when warm. Here: the module
// under test imports collections and has a doctest (run before the test file is imported),
// the test file imports freezegun and decorates a test with it.
TEST_CASE("a warm Python run imports what a cold run imports (collections.abc through freezegun)", "[warm]") {
  greenlight::test::TempWorkspace ws;
  const std::string source = ws.write("tally.py",
                                      "import collections\n\n\n"
                                      "def tally(xs):\n"
                                      "    \"\"\"\n"
                                      "    >>> tally('aab')['a']\n"
                                      "    2\n"
                                      "    \"\"\"\n"
                                      "    return collections.Counter(xs)\n");
  ws.write("test_tally.py",
           "import datetime\n\n"
           "import freezegun\n\n"
           "from tally import tally\n\n\n"
           "def test_tally():\n"
           "    assert tally('ab')['a'] == 1\n\n\n"
           "@freezegun.freeze_time('2020-02-02')\n"
           "def test_frozen():\n"
           "    assert datetime.date.today() == datetime.date(2020, 2, 2)\n");
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  auto once = [&] {
    t::RunRequest r;
    r.path = source;
    r.workspaceRoot = ws.root();
    r.config.pythonInterpreter = "/usr/bin/python3";  // Debian's, with python3-freezegun (deps.sh)
    service.clearCache();
    return service.runNow(r);
  };
  sb::keepSpares(false);
  const t::RunOutcome cold = once();
  const std::string expected = outcomeText(cold);
  INFO("cold:\n" << expected);
  REQUIRE(cold.result.summary.failed == 0);
  REQUIRE(cold.result.summary.passed >= 2);  // the doctest and test_tally at least

  sb::keepSpares(true);
  const sb::SpareStats before = sb::spareStats();
  once();  // cold: asks for a warm spare of this shape
  for (int i = 0; i < 2; ++i) {
    auto until = std::chrono::steady_clock::now() + gltest::scaled(std::chrono::seconds(30));
    auto warmReady = [] {
      for (const std::string& line : sb::describeSpares())
        if (line.rfind("warm ", 0) == 0) return true;
      return false;
    };
    while (!warmReady() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const t::RunOutcome warm = once();
    INFO("warm run " << i << ":\n" << outcomeText(warm));
    CHECK(outcomeText(warm) == expected);
  }
  const sb::SpareStats after = sb::spareStats();
  sb::keepSpares(false);
  CHECK(after.warmUsed - before.warmUsed >= 2);
}

// pytest projects run by pytest in place (the overlay bind-mounted over the file): a warm spare
// has pytest and its plugins loaded and its binds made before the run comes, and the run must
// report exactly what a cold run reports, the unsaved text included.
TEST_CASE("a warm pytest run reports what a cold one reports, with the unsaved text", "[warm]") {
  greenlight::test::TempWorkspace ws;
  ::chmod(ws.root().c_str(), 0755);  // as root, the sandbox's uid 65534 enters the project
  ws.write("pytest.ini", "[pytest]\naddopts = -ra\n");
  ws.write("conftest.py", "import pytest\n\n\n@pytest.fixture\ndef base():\n    return 10\n");
  const std::string source = ws.write("calc.py", "def add(a, b):\n    return a + b\n");
  ws.write("test_calc.py",
           "import datetime\n\nimport freezegun\nimport pytest\n\nfrom calc import add\n\n\n"
           "@pytest.mark.parametrize('a,b,want', [(1, 2, 3), (2, 2, 5)], ids=['ok', 'bad'])\n"
           "def test_add(a, b, want):\n    assert add(a, b) == want\n\n\n"
           "def test_fixture(base):\n    assert add(base, 1) == 11\n\n\n"
           "@pytest.mark.xfail(reason='not yet')\ndef test_xfail():\n    assert add(1, 1) == 3\n\n\n"
           "@freezegun.freeze_time('2020-02-02')\ndef test_frozen():\n    assert datetime.date.today().year == 2020\n");
  // Unsaved text: the editor's add() subtracts; the file on disk adds.
  const std::string unsaved = "def add(a, b):\n    return a - b\n";
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  auto once = [&] {
    t::RunRequest r;
    r.path = source;
    r.workspaceRoot = ws.root();
    r.config.pythonInterpreter = "/usr/bin/python3";  // Debian's, with python3-pytest (deps.sh)
    r.overlay = [&](const std::string& p) -> std::optional<std::string> {
      if (p == source) return unsaved;
      return std::nullopt;
    };
    service.clearCache();
    return service.runNow(r);
  };
  sb::keepSpares(false);
  const t::RunOutcome cold = once();
  const std::string expected = outcomeText(cold);
  INFO("cold:\n" << expected);
  REQUIRE(cold.plan);
  REQUIRE(cold.plan->runner == "pytest");
  // The unsaved text ran: 1-2 and 2-2 and 10-1 are all wrong.
  CHECK(cold.result.summary.failed == 3);
  CHECK(cold.result.summary.passed == 1);   // test_frozen
  CHECK(cold.result.summary.skipped == 1);  // xfailed
  auto* bad = greenlight::test::find(cold.result, "test_add[bad]");
  REQUIRE(bad);
  CHECK(bad->id == "test_calc.py::test_add[bad]");

  sb::keepSpares(true);
  const sb::SpareStats before = sb::spareStats();
  once();  // cold: asks for a warm spare of this shape
  for (int i = 0; i < 2; ++i) {
    auto until = std::chrono::steady_clock::now() + gltest::scaled(std::chrono::seconds(30));
    auto warmReady = [] {
      for (const std::string& line : sb::describeSpares())
        if (line.rfind("warm ", 0) == 0) return true;
      return false;
    };
    while (!warmReady() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const t::RunOutcome warm = once();
    INFO("warm run " << i << ":\n" << outcomeText(warm));
    CHECK(outcomeText(warm) == expected);
  }
  const sb::SpareStats after = sb::spareStats();
  sb::keepSpares(false);
  CHECK(after.warmUsed - before.warmUsed >= 2);
  CHECK(after.warmFellBack == before.warmFellBack);
}
