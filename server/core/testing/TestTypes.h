// Value types shared by discovery, the runners, the diagnostics mapping and the TestService.
//
// Every line and column here is 1-based (the CLI/JSON convention of DESIGN.md); the LSP layer
// converts to 0-based UTF-16 positions. Every file path is an absolute HOST path: the runners
// map paths seen inside the sandbox (/work/...) back before a result leaves them.
//
// Thread-safety: plain values.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sandbox/Sandbox.h"

namespace greenlight::core::testing {

enum class Language { Python, JavaScript, Cxx, Command };
// "python", "javascript", "cpp", "command".
std::string_view languageName(Language language);
// .ts .tsx .mts .cts (TypeScript runs as Language::JavaScript).
bool isTypeScriptPath(std::string_view path);
// What `run --json` says a file is: languageName(), but "typescript" for a TypeScript file.
std::string_view languageNameOf(Language language, std::string_view file);

enum class TestStatus { Passed, Failed, Error, Timeout, Skipped };
// "passed", "failed", "error", "timeout", "skipped".
std::string_view testStatusName(TestStatus status);

// Why a test did not pass; decides the diagnostic code.
enum class FailureKind {
  None,
  Assertion,         // test-failed
  Exception,         // runtime-error (uncaught exception, crash, non-zero exit)
  Timeout,           // timeout
  Compile,           // compile-error (gcc/clang error, Python SyntaxError, JS SyntaxError)
  SandboxViolation,  // sandbox-violation (seccomp refusal; Frame-less)
  MemoryLimit,       // memory-limit
};
// The DESIGN.md diagnostic code: "test-failed", "runtime-error", ...; "" for None.
std::string_view failureCode(FailureKind kind);

struct Frame {
  std::string file;      // host path (or a non-workspace path such as /usr/lib/python3.11/..)
  int line = 0;          // 1-based; 0 unknown
  int column = 0;        // 1-based; 0 unknown
  std::string function;  // may be empty
};

// Where a wrong value came from (Python): the `return` (or `raise`) that ended the last call of a
// function of the file under test before the failing assertion, and that call's locals there.
struct ValueOrigin {
  std::string function;  // "slugify", "Shape.area"
  std::string file;      // host path
  int line = 0;          // the return / raise line, 1-based
  int defLine = 0;       // the function's definition line
  std::string kind;      // "return" | "raise"
  std::string value;     // repr of what it returned (bounded); "" for a raise
  std::vector<std::pair<std::string, std::string>> locals;  // name, bounded repr; in definition order
};

struct TestResult {
  std::string name;      // "test_fib", "TestMath.test_add", "doctest:fib", "adds > nested", "main"
  std::string file;      // where the test is defined (host path)
  int line = 0;          // the test's definition line
  // The runner's stable id (harness/EVENTS.md: pytest's node id, `module.Class.test`,
  // `file::describe > test`, `target::Suite.Name`); "" from runners that have none.
  std::string id;
  std::string parent;    // the enclosing group's id (class, describe, file); may be ""
  TestStatus status = TestStatus::Passed;
  // The runner's own word when it says more than `status`: "xfailed", "xpassed", "todo",
  // "pending", "disabled"; else "".
  std::string outcome;
  std::string reason;    // why it was skipped or xfailed
  FailureKind kind = FailureKind::None;
  std::string message;   // one line: "AssertionError: fib(10) returned 34, expected 55"
  std::string details;   // a bounded multi-line excerpt when the failure says more (a diff, "Lists differ")
  std::string expected, actual;  // rendered operands when the language can tell; else empty
  std::vector<Frame> frames;     // outermost first; the last one is where it failed
  double durationMs = 0;
  std::string output;            // what the test printed (capped)
  std::optional<ValueOrigin> origin;  // a failed assertion's wrong value, traced (Python)
};

// One gcc/clang (or generic file:line[:col]) message.
struct CompilerMessage {
  std::string file;  // host path
  int line = 0, column = 0;
  std::string severity;  // "error", "warning", "note", "fatal error"
  std::string message;
  std::string code = {};  // tests.command lines: the diagnostic code; "" reads as compile-error
};

struct RelatedInfo {
  std::string file;
  int line = 0, column = 0;
  std::string message;
};

// Something the run noticed that is not a test result (docstring examples that cannot parse).
struct RunWarning {
  std::string file;  // host path
  int line = 0;
  std::string code;  // "doctest-invalid"
  std::string message;
};

// The "diagnostics" member of `greenlight run --json` (DESIGN.md), 1-based, end exclusive of
// nothing: end_column points one past the last character (like gcc's ranges).
struct Diagnostic {
  std::string file;
  int line = 1, column = 1, endLine = 1, endColumn = 1;
  std::string severity = "error";
  std::string code;  // test-failed | runtime-error | timeout | compile-error | sandbox-violation | memory-limit
  std::string message;
  std::vector<RelatedInfo> related;
  // What greenlight.fix needs: {"test", "status", "expected", "actual", "output", "frames"}.
  nlohmann::json data = nlohmann::json::object();
};

struct Summary {
  int passed = 0, failed = 0, errors = 0, skipped = 0;
};

// Which lines of one file the run executed (EVENTS.md "coverage"): every line the language
// counts as executable, with how often it ran (0: executable, never ran). Lines not in `hits`
// are not code (blank, comments, a bare `else:`/`}`). Counts from several processes are summed.
struct FileCoverage {
  std::string file;           // host path
  std::map<int, long> hits;   // 1-based line -> times run
};

// The result of one run: what `greenlight run --json` prints.
struct RunResult {
  std::string file;  // the file under test
  Language language = Language::Python;
  bool cached = false;
  bool cancelled = false;
  std::vector<TestResult> tests;
  std::vector<CompilerMessage> compilerMessages;
  std::vector<RunWarning> warnings;
  std::vector<Diagnostic> diagnostics;
  Summary summary;
  // What the run executed of the files it was asked to cover (the file under test); empty when
  // the runner could not measure it.
  std::vector<FileCoverage> coverage;
  // The verdict of the sandbox run that executed the tests (for C++: the test binary's run, or
  // the compiler's when compiling failed). Empty before anything ran.
  std::optional<sandbox::Verdict> verdict;
  // Output outside any test (harness noise, compiler output), capped.
  std::string stdoutText, stderrText;
  // The run could not be performed (no interpreter, unreadable file...): the CLI exits 2.
  std::string error;
  // How a FILE:LINE run chose its tests, in words (TestPlan::selectionNote); "" when it ran all.
  std::string selectionNote;
  // What decided the test files beyond their imports, in words (TestPlan::discoveryNote).
  std::string discoveryNote;
  // Why coverage was not measured although it is on, in words ("" when it was, or is off).
  std::string coverageNote;
  // Files whose diagnostics this run owns (source + test files): a new run replaces them all,
  // so the LSP publishes an empty list for those of them without diagnostics.
  std::vector<std::string> files;
};

Summary summarize(const std::vector<TestResult>& tests);

// "N passed, M failed" (errors count as failed), then ", K skipped" when any was: the last line
// of `greenlight run` (DESIGN.md).
std::string summaryLine(const Summary& summary);
// Whether any test ran (passed, failed or errored): a run of nothing but skips ran nothing.
inline bool anyTestRan(const Summary& s) { return s.passed + s.failed + s.errors > 0; }

}  // namespace greenlight::core::testing
