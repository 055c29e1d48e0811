// runPlan with a fake executor: the policy it builds and how canned output becomes results.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "TestUtil.h"
#include "core/testing/Runner.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
namespace sb = greenlight::sandbox;

namespace {

TestPlan planFor(const std::string& path) {
  DiscoveryRequest r;
  r.path = path;
  std::string err;
  auto p = discoverTests(r, &err);
  REQUIRE(p);
  return *p;
}

}  // namespace

TEST_CASE("python: policy, unsaved text staged, events mapped back to host paths") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  auto test = ws.write("test_m.py", "from m import f\n\ndef test_f():\n    assert f() == 2\n");
  sb::Policy seen;
  std::string stagedSource;
  RunOptions opt;
  opt.config.pythonInterpreter = "/usr/bin/python3";
  opt.overlay = [&](const std::string& p) -> std::optional<std::string> {
    if (p == src) return std::string("def f():\n    return 3\n");
    return std::nullopt;
  };
  std::vector<std::string> progress;
  opt.onTestResult = [&](const TestResult& t) { progress.push_back(t.name + ":" + t.file); };
  opt.executor = [&](const sb::Policy& p, int) {
    seen = p;
    std::ifstream in(p.scratchSource + "/src/m.py");
    std::stringstream ss;
    ss << in.rdbuf();
    stagedSource = ss.str();
    sb::Verdict v;
    v.status = sb::Status::Ok;
    v.exitCode = 0;
    std::string ev = "\n\x1eGL " +
                     nlohmann::json({{"ev", "result"}, {"name", "test_f"}, {"file", "/work/src/test_m.py"}, {"line", 3},
                                     {"status", "failed"}, {"kind", "assertion"},
                                     {"message", "AssertionError: f() returned 3, expected 2"},
                                     {"frames", {{{"file", "/work/src/test_m.py"}, {"line", 4}}}}})
                         .dump() +
                     "\n\n\x1eGL {\"ev\":\"done\"}\n";
    if (p.onOutput) p.onOutput(1, ev);
    return v;
  };
  auto r = runPlan(planFor(src), opt);
  CHECK(r.error.empty());
  CHECK(stagedSource == "def f():\n    return 3\n");
  CHECK(seen.argv.at(0) == "/usr/bin/python3");
  CHECK(seen.workdir == "/work/src");
  CHECK(seen.profile == sb::Profile::Python);
  CHECK(std::any_of(seen.binds.begin(), seen.binds.end(), [&](const sb::Bind& b) { return b.hostPath == ws.root() && !b.writable; }));
  REQUIRE(r.tests.size() == 1);
  CHECK(r.tests[0].file == test);
  CHECK(r.tests[0].frames.at(0).file == test);
  CHECK(progress == std::vector<std::string>{"test_f:" + test});
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].file == test);
  CHECK(r.diagnostics[0].line == 4);
  CHECK(r.diagnostics[1].file == src);
  CHECK(r.diagnostics[1].line == 1);
  CHECK(r.summary.failed == 1);
}

TEST_CASE("verdicts blame the running test: timeout, memory, refusal, setup error, cancel") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  auto check = [&](sb::Status status, TestStatus want, const std::string& code) {
    RunOptions opt;
    opt.config.pythonInterpreter = "/usr/bin/python3";
    opt.executor = [&](const sb::Policy& p, int) {
      sb::Verdict v;
      v.status = status;
      v.syscall = "socket";
      v.setupError = "mount: EPERM";
      v.cancelled = false;
      p.onOutput(1, "\n\x1eGL {\"ev\":\"start\",\"name\":\"test_a\",\"file\":\"/work/src/test_m.py\",\"line\":1}\n");
      return v;
    };
    auto r = runPlan(planFor(src), opt);
    if (status == sb::Status::SetupError) {
      CHECK(r.error.find("mount: EPERM") != std::string::npos);
      return;
    }
    REQUIRE(r.tests.size() == 1);
    CHECK(r.tests[0].name == "test_a");
    CHECK(r.tests[0].status == want);
    REQUIRE(!r.diagnostics.empty());
    CHECK(r.diagnostics[0].code == code);
    if (status == sb::Status::SyscallViolation) CHECK(r.tests[0].message.find("socket") != std::string::npos);
  };
  check(sb::Status::Timeout, TestStatus::Timeout, "timeout");
  check(sb::Status::MemoryLimit, TestStatus::Error, "memory-limit");
  check(sb::Status::SyscallViolation, TestStatus::Error, "sandbox-violation");
  check(sb::Status::SetupError, TestStatus::Error, "");

  RunOptions opt;
  opt.config.pythonInterpreter = "/usr/bin/python3";
  opt.executor = [](const sb::Policy&, int) {
    sb::Verdict v;
    v.status = sb::Status::Timeout;
    v.cancelled = true;
    return v;
  };
  auto r = runPlan(planFor(src), opt);
  CHECK(r.cancelled);
  CHECK(r.tests.empty());
}

TEST_CASE("a missing interpreter is a run error naming it") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "x = 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  RunOptions opt;
  opt.config.pythonInterpreter = "no-such-python-xyz";
  opt.executor = [](const sb::Policy&, int) { return sb::Verdict{}; };
  auto r = runPlan(planFor(src), opt);
  CHECK(r.error.find("no-such-python-xyz") != std::string::npos);
}

TEST_CASE("fingerprints change with the text and the settings") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "x = 1\n");
  ws.write("test_m.py", "def test_a():\n    pass\n");
  auto plan = planFor(src);
  RunOptions a;
  auto k1 = runFingerprint(plan, a);
  CHECK(k1 == runFingerprint(plan, a));
  RunOptions b;
  b.overlay = [&](const std::string& p) -> std::optional<std::string> {
    if (p == src) return std::string("x = 2\n");
    return std::nullopt;
  };
  CHECK(k1 != runFingerprint(plan, b));
  RunOptions c;
  c.config.sandbox.memoryLimitMB = 100;
  CHECK(k1 != runFingerprint(plan, c));
}
