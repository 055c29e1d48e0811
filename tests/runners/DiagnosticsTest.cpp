#include <catch2/catch.hpp>

#include "core/testing/Diagnostics.h"
#include "core/testing/RunJson.h"

using namespace greenlight::core::testing;

namespace {

const std::string kSrc = "/w/m.py";
const std::string kTest = "/w/test_m.py";

DiagnosticContext context() {
  DiagnosticContext c;
  c.sourceFile = kSrc;
  c.sourceText = "def fib(n):\n    a = 0\n    return 1 / a\n\n\ndef other():\n    pass\n";
  c.texts[kSrc] = c.sourceText;
  c.texts[kTest] = "from m import fib\n\ndef test_fib():\n    assert fib(10) == 55\n";
  return c;
}

TestResult failing(FailureKind kind, std::vector<Frame> frames, std::string message) {
  TestResult t;
  t.name = "test_fib";
  t.file = kTest;
  t.line = 3;
  t.status = kind == FailureKind::Assertion ? TestStatus::Failed : kind == FailureKind::Timeout ? TestStatus::Timeout : TestStatus::Error;
  t.kind = kind;
  t.message = std::move(message);
  t.frames = std::move(frames);
  return t;
}

}  // namespace

TEST_CASE("an exception lands on the raising line in the file under test") {
  RunResult r;
  r.tests.push_back(failing(FailureKind::Exception, {{kTest, 4, 0, "test_fib"}, {kSrc, 3, 0, "fib"}},
                            "ZeroDivisionError: division by zero"));
  auto d = buildDiagnostics(r, context());
  REQUIRE(d.size() == 1);
  CHECK(d[0].file == kSrc);
  CHECK(d[0].line == 3);
  CHECK(d[0].column == 5);
  CHECK(d[0].endColumn == 17);
  CHECK(d[0].code == "runtime-error");
  CHECK(d[0].message == "test_fib: ZeroDivisionError: division by zero");
  REQUIRE(d[0].related.size() == 1);
  CHECK(d[0].related[0].file == kTest);
  CHECK(d[0].related[0].line == 4);
}

TEST_CASE("a failed assertion lands on the assertion and on the function's definition") {
  RunResult r;
  auto t = failing(FailureKind::Assertion, {{kTest, 4, 0, "test_fib"}}, "AssertionError: fib(10) returned 34, expected 55");
  t.expected = "55";
  t.actual = "34";
  t.output = "printed\n";
  r.tests.push_back(t);
  auto d = buildDiagnostics(r, context());
  REQUIRE(d.size() == 2);
  CHECK(d[0].file == kTest);
  CHECK(d[0].line == 4);
  CHECK(d[0].code == "test-failed");
  CHECK(d[0].data["expected"] == "55");
  CHECK(d[0].data["actual"] == "34");
  CHECK(d[0].data["output"] == "printed\n");
  CHECK(d[1].file == kSrc);
  CHECK(d[1].line == 1);
  CHECK(d[1].message == d[0].message);
  REQUIRE(d[1].related.size() == 1);
  CHECK(d[1].related[0].file == kTest);
  CHECK(d[1].related[0].line == 4);
  CHECK(d[1].related[0].message == "assertion here");
}

TEST_CASE("the function at LINE is the one marked when known") {
  RunResult r;
  r.tests.push_back(failing(FailureKind::Assertion, {{kTest, 4, 0, "test_fib"}}, "AssertionError"));
  auto c = context();
  c.function = FunctionAt{"other", 6};
  auto d = buildDiagnostics(r, c);
  REQUIRE(d.size() == 2);
  CHECK(d[1].line == 6);
}

TEST_CASE("timeouts, passing and skipped tests") {
  RunResult r;
  r.tests.push_back(failing(FailureKind::Timeout, {{kTest, 4, 0, "test_fib"}, {kSrc, 2, 0, "fib"}}, "timed out"));
  TestResult ok;
  ok.name = "test_ok";
  r.tests.push_back(ok);
  TestResult skip;
  skip.status = TestStatus::Skipped;
  r.tests.push_back(skip);
  auto d = buildDiagnostics(r, context());
  REQUIRE(d.size() == 1);
  CHECK(d[0].code == "timeout");
  CHECK(d[0].line == 2);
}

TEST_CASE("compile errors are reported where the compiler put them, once") {
  RunResult r;
  r.compilerMessages.push_back({kSrc, 2, 7, "error", "expected ';'"});
  r.compilerMessages.push_back({kSrc, 2, 9, "error", "another on the same line"});
  r.compilerMessages.push_back({kSrc, 3, 1, "warning", "unused"});
  r.compilerMessages.push_back({"/usr/include/x.h", 1, 1, "error", "not ours"});
  r.tests.push_back(failing(FailureKind::Compile, {{kSrc, 2, 7, ""}}, "expected ';'"));
  auto d = buildDiagnostics(r, context());
  REQUIRE(d.size() == 1);
  CHECK(d[0].code == "compile-error");
  CHECK(d[0].column == 7);
}

TEST_CASE("sandbox refusals and memory limits without frames go on the test's line") {
  RunResult r;
  r.tests.push_back(failing(FailureKind::SandboxViolation, {}, "sandbox refused the system call socket"));
  auto d = buildDiagnostics(r, context());
  REQUIRE(d.size() >= 1);
  CHECK(d[0].code == "sandbox-violation");
  CHECK(d[0].file == kTest);
  CHECK(d[0].line == 3);
}

TEST_CASE("run JSON and text shapes") {
  RunResult r;
  r.file = kSrc;
  r.tests.push_back(failing(FailureKind::Exception, {{kSrc, 3, 0, "fib"}}, "ZeroDivisionError: division by zero"));
  TestResult ok;
  ok.name = "test_ok";
  ok.file = kTest;
  r.tests.push_back(ok);
  r.summary = summarize(r.tests);
  r.diagnostics = buildDiagnostics(r, context());
  auto j = runResultToJson(r);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"file", "language", "cached", "tests", "diagnostics", "summary", "sandbox"});
  CHECK(j["tests"][0]["status"] == "error");
  CHECK(j["summary"]["errors"] == 1);
  CHECK(j["summary"]["passed"] == 1);
  CHECK(j["diagnostics"][0]["end_line"] == 3);
  auto text = runResultToText(r);
  CHECK(text.find(kSrc + ":3:5: error: test_fib: ZeroDivisionError: division by zero") == 0);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) == "1 passed, 1 failed\n");
}

TEST_CASE("a tests.command's lines: one diagnostic each, with the line's severity and code") {
  DiagnosticContext c;
  c.sourceFile = "/w/m.rb";
  c.sourceText = "a\nb\nc\nd\n";
  c.language = Language::Command;
  c.texts[c.sourceFile] = c.sourceText;
  RunResult r;
  r.language = Language::Command;
  r.compilerMessages.push_back({c.sourceFile, 2, 1, "error", "boom", "compile-error"});
  r.compilerMessages.push_back({c.sourceFile, 2, 1, "error", "boom", "compile-error"});  // printed twice
  r.compilerMessages.push_back({c.sourceFile, 3, 0, "warning", "careful", "compile-error"});
  r.compilerMessages.push_back({c.sourceFile, 3, 0, "note", "see this", "compile-error"});
  r.compilerMessages.push_back({c.sourceFile, 4, 0, "error", "expected 1, got 2", "test-failed"});
  r.compilerMessages.push_back({"/elsewhere/x.rb", 1, 0, "error", "not a file of the run", "test-failed"});
  TestResult t;
  t.name = "rspec";
  t.file = c.sourceFile;
  t.line = 1;
  t.status = TestStatus::Failed;
  t.kind = FailureKind::Compile;
  t.message = "boom";
  t.frames.push_back({c.sourceFile, 2, 1, ""});
  r.tests.push_back(t);
  auto d = buildDiagnostics(r, c);
  REQUIRE(d.size() == 4);
  CHECK(d[0].line == 2);
  CHECK(d[0].severity == "error");
  CHECK(d[0].code == "compile-error");
  CHECK(d[0].message == "boom");
  CHECK(d[1].severity == "warning");
  CHECK(d[2].severity == "information");
  CHECK(d[3].code == "test-failed");
  CHECK(d[3].message == "expected 1, got 2");
  CHECK(d[3].data.value("test", "") == "rspec");
  auto text = runResultToText([&] {
    RunResult x = r;
    x.diagnostics = d;
    return x;
  }());
  CHECK(text.find("error: error:") == std::string::npos);
  CHECK(text.find("m.rb:2:1: error: boom [compile-error]") != std::string::npos);
}
