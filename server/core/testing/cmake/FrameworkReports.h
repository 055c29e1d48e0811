// What a C++ test binary reports, per test: GoogleTest's JSON (+ its console output), Catch2 v2's
// XML reporter, doctest's XML reporter, and a plain CTest test's exit code, read into results
// with the frameworks' own values (GoogleTest "Which is", Catch2/doctest expansions) as
// expected/actual, and the command-line arguments that make each framework write its report
// and run ONE test by name.
//
// The flags (see reportArguments / selectArguments):
//   GoogleTest  --gtest_output=json:<file> --gtest_color=no --gtest_also_run_disabled_tests
//               (only with a filter naming DISABLED_ tests; CTest passes it on every test)
//               one test: --gtest_filter=<Suite.Name>  (several: joined with ':')
//               The JSON is written at exit only: a crash leaves none, and the console output
//               (stdout: "[ RUN      ] X" ... "[       OK ] X") says which test was running.
//   Catch2 v2   --reporter xml --durations yes   (the XML goes to stdout; the tests' own stdout
//               and stderr are captured per test into the XML; -o <file> writes it to a file)
//               one test: the name as a test spec, with \ , [ ] * escaped by '\'
//   Catch2 v3   --reporter xml::out=<file> --durations yes; same spec syntax. NOT verified here:
//               Debian 12 ships no Catch2 v3. The parser accepts v3's root <Catch2TestRun> and its
//               <Skip> element by the v3 documentation's schema.
//   doctest     --reporters=xml --duration=true --no-colors=true  (XML to stdout; what a test prints
//               appears as stray text inside its <TestCase>, kept as its output)
//               one test: --test-case=<name> with ',' escaped by '\' (doctest's filters are
//               case-insensitive wildcards: '*' and '?' in a name match more than that name).
//               doctest lists every test case it did not run as skipped="true": after a filtered
//               run, keep only the names selected.
//   Boost.Test  --log_format=XML --log_level=all --report_level=no  (the XML log to stdout; what a
//               test prints appears as text inside its <TestCase>, kept as its output)
//               one test: --run_test=<suite/case> (several: joined with ':'). Like doctest, a
//               filtered run lists every test case it did not run as skipped (reason "disabled"):
//               keep only the names selected. Names are paths below the master suite:
//               "suite/case", "case<int>" (BOOST_AUTO_TEST_CASE_TEMPLATE), "case/_0" (data cases).
//   plain       no flags: the exit code is the result (0 passed; CTest's SKIP_RETURN_CODE skips).
//
// Ids: "<target>::<test name>" where the test name is the framework's own (GoogleTest
// "Suite.Name", "Inst/Suite.Name/0"; Catch2/doctest: the test case name; plain: the CTest name).
// One result per test case: a Catch2 SECTION / doctest SUBCASE failure stays in its test case
// (CTest, the frameworks and the ids count test cases), and its path is in `section` and in the
// message ("[values > with an equals sign] REQUIRE: ...").
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/testing/TestTypes.h"

namespace greenlight::core::testing::cmake {

enum class Framework { Plain, GoogleTest, Catch2, Doctest, BoostTest };
// "plain", "gtest", "catch2", "doctest", "boost".
std::string_view frameworkName(Framework framework);

// One test as its framework reported it.
struct CaseResult {
  // name: the framework's test name; file/line: where the test is defined; status, kind, message
  // (one line), expected/actual (the framework's rendering), frames (the failing check last),
  // durationMs, output (capped at 8 KB).
  TestResult result;
  std::string id;       // "<target>::<name>"
  std::string parent;   // "<target>::<suite>" (GoogleTest suite, doctest TEST_SUITE) or the file
  std::string outcome;  // the framework's word when status says less: "disabled", "skipped",
                        // "xfailed" (Catch2 [!mayfail]/[!shouldfail], doctest may_fail/should_fail),
                        // "crashed" (the process died in this test), "error"
  std::string reason;   // why skipped: GTEST_SKIP's message, "DISABLED_", "doctest::skip"
  std::string details;  // every failure of the test, one block each (≤ 4 KB)
  std::string section;  // Catch2 SECTION / doctest SUBCASE path of the first failure, " > " joined
};

// The EVENTS.md "result" event for `r`: {"ev":"result","id","name","parent","file","line",
// "status","outcome"?,"reason"?,"kind"?,"message"?,"details"?,"expected"?,"actual"?,"frames"?,
// "duration_ms","output"?}.
nlohmann::json toResultEvent(const CaseResult& r);

// Arguments that make a test binary of `framework` write its machine-readable report.
// `reportPath` is used by GoogleTest only (the others write to stdout).
std::vector<std::string> reportArguments(Framework framework, const std::string& reportPath);
// Arguments that run only the tests `names` (framework names, as in the results); none: all.
std::vector<std::string> selectArguments(Framework framework, const std::vector<std::string>& names);
// A name as one Catch2 test spec (\ , [ ] * " escaped; a leading ~ too).
std::string catchSpecEscape(std::string_view name);
// Undoes catch_discover_tests' escaping of , [ ] (and '\' itself).
std::string catchSpecUnescape(std::string_view spec);

// ---- GoogleTest

std::vector<CaseResult> parseGtestJson(std::string_view json, std::string_view target);

struct GtestConsole {
  std::vector<std::string> started;              // "[ RUN      ]" order
  std::map<std::string, std::string> status;     // name -> "OK" | "FAILED" | "SKIPPED"
  std::map<std::string, std::string> output;     // name -> the lines between RUN and its end
  std::map<std::string, std::string> skipReason; // GTEST_SKIP() << "..." text
  std::map<std::string, std::string> failures;   // name -> "file:line: Failure\n..." blocks
  std::string running;  // started and never ended: the process died in it ("" when none)
};
GtestConsole parseGtestConsole(std::string_view stdoutText);

// The JSON report (may be empty: the binary crashed) merged with the console output of the same
// run: outputs and skip reasons from the console; without JSON every test the console shows is a
// result, and the one that was running is an error with outcome "crashed" and `crashMessage`
// ("killed by signal 11") as its message.
std::vector<CaseResult> gtestResults(std::string_view json, std::string_view console, std::string_view target,
                                     std::string_view crashMessage = "the test binary died");

// ---- Catch2 (v2 XML; v3's by its documented schema, unverified)

// A truncated document (the binary was killed) is read as far as it goes: a test case without its
// OverallResult is an error with outcome "crashed".
std::vector<CaseResult> parseCatch2Xml(std::string_view xml, std::string_view target);

// ---- doctest

// Test cases with skipped="true" are results with status skipped (doctest::skip, or not selected
// by the filter: the caller drops the names it did not select). Truncated documents as Catch2.
std::vector<CaseResult> parseDoctestXml(std::string_view xml, std::string_view target);

// ---- Boost.Test

// The XML log (--log_format=XML --log_level=all). A check's values come from its "[a != b]"
// (BOOST_CHECK_EQUAL, BOOST_TEST): actual the left, expected the right, as the tests write them
// (BOOST_CHECK_EQUAL(f(x), 4)); BOOST_CHECK_CLOSE's "between a{..} and b{..}" likewise. Suites are
// the parents. Truncated documents as Catch2.
std::vector<CaseResult> parseBoostTestXml(std::string_view xml, std::string_view target);

// ---- plain CTest tests

struct PlainRun {
  int exitCode = 0;  // when signal == 0
  int signal = 0;    // killed by this signal
  bool timedOut = false;
  int skipReturnCode = -1;  // CTest's SKIP_RETURN_CODE property; -1 none
  bool willFail = false;    // CTest's WILL_FAIL: a non-zero exit passes
  double durationMs = 0;
  std::string output;  // stdout + stderr
};
// `name` is the CTest test name; file/line: where add_test is (or the program's main).
CaseResult plainResult(std::string_view target, std::string_view name, const PlainRun& run, std::string file = {},
                       int line = 0);

}  // namespace greenlight::core::testing::cmake
