// The C++ frameworks' reports, recorded from the projects in tests/projects/cxx (baseline and
// injected bugs, by verify_bugs.py --record) and from the scratch tests in data/reports/*_edge.cpp
// (crashes, exceptions, skips, expected failures).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "core/testing/OutputParsing.h"
#include "core/testing/cmake/FrameworkReports.h"

using namespace greenlight::core::testing;
using namespace greenlight::core::testing::cmake;

namespace {

std::string report(const std::string& name) {
  std::ifstream in(std::string(GL_CMAKE_DATA) + "/reports/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const CaseResult& byName(const std::vector<CaseResult>& rs, const std::string& name) {
  for (const auto& r : rs)
    if (r.result.name == name) return r;
  FAIL("no result named " << name);
  throw;
}

int count(const std::vector<CaseResult>& rs, TestStatus s) {
  int n = 0;
  for (const auto& r : rs) n += r.result.status == s;
  return n;
}

const std::string kGtestSrc = "/tmp/glcxx-projects/gtest-textstat/src/tests/";
const std::string kCatchSrc = "/tmp/glcxx-projects/catch2-cliopts/src/test/";
const std::string kDoctestSrc = "/tmp/glcxx-projects/doctest-ringbuf/src/tests/";

}  // namespace

// ---- GoogleTest

TEST_CASE("gtest json: the passing project, with its skipped and disabled tests") {
  auto rs = parseGtestJson(report("gtest-textstat.baseline.json"), "textstat_tests");
  REQUIRE(rs.size() == 28);
  CHECK(count(rs, TestStatus::Passed) == 26);
  CHECK(count(rs, TestStatus::Skipped) == 2);
  const auto& first = byName(rs, "SplitWords.SeparatesOnPunctuationAndSpace");
  CHECK(first.id == "textstat_tests::SplitWords.SeparatesOnPunctuationAndSpace");
  CHECK(first.parent == "textstat_tests::SplitWords");
  CHECK(first.result.file == kGtestSrc + "tokenize_test.cpp");
  CHECK(first.result.line == 11);
  const auto& skipped = byName(rs, "Corpus.LargeCorpusStatistics");
  CHECK(skipped.outcome == "skipped");
  const auto& disabled = byName(rs, "Corpus.DISABLED_MillionWords");
  CHECK(disabled.result.status == TestStatus::Skipped);
  CHECK(disabled.outcome == "disabled");
  // TEST_P instances keep GoogleTest's own names (CTest shows the parameter instead).
  CHECK(byName(rs, "NearestRank/PercentileTest.ReturnsNearestRank/5").result.line == 29);
}

TEST_CASE("gtest json: EXPECT_EQ of a header function reports Which is as actual and the expected side") {
  auto rs = parseGtestJson(report("gtest-textstat.median-even-count.json"), "textstat_tests");
  const auto& r = byName(rs, "Median.EvenCountAveragesTheMiddlePair");
  CHECK(r.result.status == TestStatus::Failed);
  CHECK(r.result.kind == FailureKind::Assertion);
  CHECK(r.result.actual == "3");
  CHECK(r.result.expected == "2.5");
  CHECK(r.result.message == "textstat::median(std::vector<int>{4, 1, 3, 2}) returned 3, expected 2.5");
  REQUIRE(r.result.frames.size() == 1);
  CHECK(r.result.frames[0].file == kGtestSrc + "stats_test.cpp");
  CHECK(r.result.frames[0].line == 17);
  CHECK(count(rs, TestStatus::Failed) == 1);
}

TEST_CASE("gtest json: DOUBLE_EQ and NEAR failures") {
  auto rs = parseGtestJson(report("gtest-textstat.mean-divides-by-n-minus-1.json"), "textstat_tests");
  CHECK(count(rs, TestStatus::Failed) == 3);
  const auto& mean = byName(rs, "Mean.OfIntegers");
  CHECK(mean.result.actual == "3.3333333333333335");
  CHECK(mean.result.expected == "2.5");
  const auto& near = byName(rs, "Stddev.OfAConstantIsZero");
  CHECK(near.result.status == TestStatus::Failed);
  CHECK(near.result.actual == "3.5");
  CHECK(near.result.message.find("3.5") != std::string::npos);
  CHECK(near.details.find("which exceeds 1e-12") != std::string::npos);
}

TEST_CASE("gtest json: vectors and the parametrized test's extra message") {
  auto rs = parseGtestJson(report("gtest-textstat.leading-apostrophe.json"), "textstat_tests");
  const auto& r = byName(rs, "SplitWords.KeepsInnerApostrophes");
  CHECK(r.result.status == TestStatus::Failed);
  CHECK(r.result.actual.find("\"'quoted\"") != std::string::npos);
  auto p = parseGtestJson(report("gtest-textstat.percentile-rank-zero.json"), "textstat_tests");
  const auto& pr = byName(p, "NearestRank/PercentileTest.ReturnsNearestRank/0");
  CHECK(pr.result.status == TestStatus::Failed);
  CHECK(pr.result.expected == "15");
  CHECK(pr.result.frames.at(0).line == 31);
}

TEST_CASE("gtest json + console: exceptions, several failures, skips with their reason, output") {
  auto rs = gtestResults(report("gtest-edge.json"), report("gtest-edge.out"), "gtest_edge");
  REQUIRE(rs.size() == 12);
  CHECK(byName(rs, "Edge.Passes").result.status == TestStatus::Passed);
  const auto& str = byName(rs, "Edge.StrEq");
  CHECK(str.result.status == TestStatus::Failed);
  CHECK(str.result.actual == "\"abc\"");
  CHECK(str.result.expected == "\"abd\"");
  const auto& boolean = byName(rs, "Edge.BoolFalse");
  CHECK(boolean.result.actual == "false");
  const auto& lt = byName(rs, "Edge.LessThan");
  CHECK(lt.result.actual == "7");
  const auto& thrown = byName(rs, "Edge.Throws");
  CHECK(thrown.result.status == TestStatus::Error);
  CHECK(thrown.result.kind == FailureKind::Exception);
  CHECK(thrown.result.message == "uncaught exception: division by zero thrown in the test body.");
  CHECK(thrown.result.frames.empty());  // "unknown file"
  const auto& two = byName(rs, "Edge.TwoFailures");
  CHECK(two.result.expected == "3");
  CHECK(two.details.find("Which is: \"b\"") != std::string::npos);
  const auto& skip = byName(rs, "Edge.SkippedWithReason");
  CHECK(skip.result.status == TestStatus::Skipped);
  CHECK(skip.reason == "needs a network");
  const auto& printed = byName(rs, "Edge.PrintsThenFails");
  CHECK(printed.result.output.find("some output") != std::string::npos);
  CHECK(printed.result.message == "Failed custom failure");
  const auto& setup = byName(rs, "Fixture.FailsInSetUp");
  CHECK(setup.result.status == TestStatus::Failed);
  CHECK(setup.result.frames.at(0).line == 18);
}

TEST_CASE("gtest console alone: a crash leaves no JSON - the running test is the crashed one") {
  auto c = parseGtestConsole(report("gtest-crash.out"));
  CHECK(c.running == "Edge.Segfault");
  CHECK(c.status.at("Edge.Passes") == "OK");
  CHECK(c.status.at("Edge.StrEq") == "FAILED");
  auto rs = gtestResults("", report("gtest-crash.out"), "gtest_edge", "killed by signal 11");
  const auto& crashed = byName(rs, "Edge.Segfault");
  CHECK(crashed.result.status == TestStatus::Error);
  CHECK(crashed.outcome == "crashed");
  CHECK(crashed.result.message == "killed by signal 11");
  CHECK(crashed.result.output.find("before crash") != std::string::npos);
  const auto& str = byName(rs, "Edge.StrEq");
  CHECK(str.result.status == TestStatus::Failed);
  CHECK(str.result.expected == "\"abd\"");
  CHECK(str.result.frames.at(0).line == 10);
  CHECK(byName(rs, "Edge.SkippedWithReason").reason == "needs a network");
  CHECK(byName(rs, "Edge.Passes").result.status == TestStatus::Passed);
}

// ---- Catch2 v2

TEST_CASE("catch2 xml: the passing project (hidden tests are not run)") {
  auto rs = parseCatch2Xml(report("catch2-cliopts.baseline.xml"), "cliopts_tests");
  REQUIRE(rs.size() == 10);
  CHECK(count(rs, TestStatus::Passed) == 10);
  const auto& r = byName(rs, "long options");
  CHECK(r.id == "cliopts_tests::long options");
  CHECK(r.result.file == kCatchSrc + "options.cpp");
  CHECK(r.result.line == 14);
  CHECK(r.section.empty());
}

TEST_CASE("catch2 xml: a failure in a SECTION keeps its test case and names the section path") {
  auto rs = parseCatch2Xml(report("catch2-cliopts.split-at-last-separator.xml"), "cliopts_tests");
  CHECK(count(rs, TestStatus::Failed) == 1);
  const auto& r = byName(rs, "split_key_value");
  CHECK(r.result.status == TestStatus::Failed);
  CHECK(r.section == "splits at the first separator");
  CHECK(r.result.message.rfind("[splits at the first separator] CHECK", 0) == 0);
  CHECK(r.result.frames.at(0).file == kCatchSrc + "values.cpp");
  CHECK(r.result.frames.at(0).line == 35);
  CHECK(r.details.find("{?} == {?}") != std::string::npos);
}

TEST_CASE("catch2 xml: an exception in a check (CATCH_CONFIG_FAST_COMPILE) carries the thrown text") {
  auto rs = parseCatch2Xml(report("catch2-cliopts.short-value-no-break.xml"), "cliopts_tests");
  const auto& r = byName(rs, "short options");
  CHECK(r.result.status == TestStatus::Error);
  CHECK(r.result.kind == FailureKind::Exception);
  CHECK(r.section == "a value glued to the option");
  CHECK(r.result.message ==
        "[a value glued to the option] CHECK( parser.parse({\"-w42\"}).get_int(\"width\") == 42 ) threw: unknown option: -4");
  auto gen = parseCatch2Xml(report("catch2-cliopts.bool-on.xml"), "cliopts_tests");
  const auto& g = byName(gen, "parse_bool accepts the usual spellings");
  CHECK(g.result.message == "CHECK( parse_bool(spelling) ) threw: not a boolean: 'On' (spelling := \"On\")");
}

TEST_CASE("catch2 xml: expansion -> expected and actual") {
  auto rs = parseCatch2Xml(report("catch2-cliopts.long-option-prefix.xml"), "cliopts_tests");
  CHECK(count(rs, TestStatus::Passed) + count(rs, TestStatus::Failed) + count(rs, TestStatus::Error) == 10);
  auto edge = parseCatch2Xml(report("catch-edge.xml"), "catch_edge");
  const auto& info = byName(edge, "with info");
  CHECK(info.result.status == TestStatus::Failed);
  CHECK(info.result.actual == "6");
  CHECK(info.result.expected == "7");
  CHECK(info.result.message.find("(n := 3)") != std::string::npos);
  const auto& longs = byName(edge, "long strings");
  CHECK(longs.result.actual == "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaatail-of-a-long-string-xxxxxxxxxxxxxxxxxxxxxx\"");
  CHECK(longs.result.expected == "\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"");
  const auto& nested = byName(edge, "nested sections");
  CHECK(nested.section == "outer > inner bad");
  CHECK(nested.result.actual == "3");
  CHECK(nested.result.expected == "4");
  const auto& thrown = byName(edge, "throws outside a check");
  CHECK(thrown.result.status == TestStatus::Error);
  CHECK(thrown.result.message == "unexpected exception: division by zero");
  CHECK(thrown.result.frames.at(0).line == 9);
  CHECK(byName(edge, "may fail").result.status == TestStatus::Skipped);
  CHECK(byName(edge, "may fail").outcome == "xfailed");
  CHECK(byName(edge, "should fail").outcome == "xfailed");
  const auto& printed = byName(edge, "prints");
  CHECK(printed.result.output == "to stdout\nto stderr\n");
}

TEST_CASE("catch2 xml: a signal is reported by Catch2 - a killed binary leaves a truncated document") {
  auto rs = parseCatch2Xml(report("catch-crash.xml"), "catch_edge");
  const auto& seg = byName(rs, "segfault");
  CHECK(seg.result.status == TestStatus::Error);
  CHECK(seg.outcome == "crashed");
  CHECK(seg.result.message == "crashed: SIGSEGV - Segmentation violation signal");
  const std::string full = report("catch2-cliopts.baseline.xml");
  const std::string cut = full.substr(0, full.find("<Section name=\"a value glued to the option\""));
  auto partial = parseCatch2Xml(cut, "cliopts_tests");
  REQUIRE(partial.size() == 2);
  CHECK(partial[0].result.status == TestStatus::Passed);
  CHECK(partial[1].result.name == "short options");
  CHECK(partial[1].outcome == "crashed");
  CHECK(partial[1].result.status == TestStatus::Error);
}

// ---- doctest

TEST_CASE("doctest xml: the passing project, a doctest::skip() case, TEST_SUITE parents") {
  auto rs = parseDoctestXml(report("doctest-ringbuf.baseline.xml"), "ringbuf_tests");
  REQUIRE(rs.size() == 13);
  CHECK(count(rs, TestStatus::Passed) == 12);
  const auto& skipped = byName(rs, "benchmark: ten million pushes");
  CHECK(skipped.result.status == TestStatus::Skipped);
  const auto& r = byName(rs, "push and pop keep FIFO order");
  CHECK(r.parent == "ringbuf_tests::ring_buffer");
  CHECK(r.result.file == kDoctestSrc + "test_ring_buffer.cpp");
  CHECK(r.result.line == 21);
  CHECK(byName(rs, "works with several element types<std::__cxx11::basic_string<char>>").result.status ==
        TestStatus::Passed);
}

TEST_CASE("doctest xml: a SUBCASE failure with its expansion") {
  auto rs = parseDoctestXml(report("doctest-ringbuf.pop-keeps-size.xml"), "ringbuf_tests");
  CHECK(count(rs, TestStatus::Failed) == 1);
  const auto& r = byName(rs, "push and pop keep FIFO order");
  CHECK(r.section == "pop returns the oldest first");
  CHECK(r.result.actual == "3");
  CHECK(r.result.expected == "1");
  CHECK(r.result.message == "[pop returns the oldest first] CHECK: rb.size() returned 3, expected 1");
  CHECK(r.result.frames.at(0).line == 29);
  CHECK(r.details.find("did NOT throw std::out_of_range") != std::string::npos);
  auto avg = parseDoctestXml(report("doctest-ringbuf.average-over-capacity.xml"), "ringbuf_tests");
  const auto& a = byName(avg, "moving average");
  CHECK(a.result.expected == "Approx( 1.5 )");
  CHECK(a.result.actual == "1");
}

TEST_CASE("doctest xml: a crash is reported for the test that was running - the rest did not run") {
  auto rs = parseDoctestXml(report("doctest-ringbuf.storage-not-sized.xml"), "ringbuf_tests");
  const auto& crash = byName(rs, "push and pop keep FIFO order");
  CHECK(crash.result.status == TestStatus::Error);
  CHECK(crash.outcome == "crashed");
  CHECK(crash.result.message == "crashed: SIGFPE - Floating point error signal");
  const auto& thrown = byName(rs, "moving average");
  CHECK(thrown.result.status == TestStatus::Error);
  CHECK(thrown.result.message == "unexpected exception: RingBuffer index out of range");
  CHECK(byName(rs, "a new buffer is empty").result.actual == "0");
  CHECK(rs.size() == 6);  // the tests after the crash are not in the report
}

// doctest::expected_failures(n): doctest 2.4.9 writes the count on OverallResultsAsserts, not on the
// TestCase (doctest's examples/all_features, test_cases_and_suites.cpp). Met as often as expected:
// an expected failure like may_fail/should_fail; more often: a failure.
TEST_CASE("doctest xml: expected_failures on OverallResultsAsserts") {
  const char* xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<doctest binary="t">
  <TestSuite>
    <TestCase name="fails 1 time as it should" filename="t.cpp" line="69">
      <Message type="FATAL ERROR" filename="t.cpp" line="69"><Text/></Message>
      <OverallResultsAsserts successes="0" failures="1" test_case_success="true" expected_failures="1"/>
    </TestCase>
    <TestCase name="fails more times than it should" filename="t.cpp" line="70">
      <Message type="ERROR" filename="t.cpp" line="71"><Text/></Message>
      <Message type="ERROR" filename="t.cpp" line="72"><Text/></Message>
      <OverallResultsAsserts successes="0" failures="2" test_case_success="false" expected_failures="1"/>
    </TestCase>
  </TestSuite>
</doctest>
)";
  auto rs = parseDoctestXml(xml, "t");
  CHECK(byName(rs, "fails 1 time as it should").outcome == "xfailed");
  CHECK(byName(rs, "fails 1 time as it should").result.status == TestStatus::Skipped);
  CHECK(byName(rs, "fails more times than it should").result.status == TestStatus::Failed);
}

TEST_CASE("doctest xml: binary asserts, strings, Approx, nested subcases, may_fail, FAIL_CHECK, output") {
  auto rs = parseDoctestXml(report("doctest-edge.xml"), "doctest_edge");
  const auto& strings = byName(rs, "strings");
  CHECK(strings.result.actual == "abc");
  CHECK(strings.result.expected == "abd");
  CHECK(strings.details.find("CHECK_EQ( s.size(), 4 )") != std::string::npos);
  const auto& require = byName(rs, "require stops");
  CHECK(require.result.message == "REQUIRE: divide(7, 2) returned 3, expected 4");
  const auto& info = byName(rs, "with info");
  CHECK(info.result.message.find("(n := 3)") != std::string::npos);
  const auto& nested = byName(rs, "nested subcases");
  CHECK(nested.section == "outer > inner bad");
  const auto& throws = byName(rs, "check throws");
  CHECK(throws.result.status == TestStatus::Error);
  CHECK(throws.result.message == "CHECK( divide(1, 0) == 0 ) threw: division by zero");
  CHECK(byName(rs, "throws outside a check").result.message == "unexpected exception: division by zero");
  CHECK(byName(rs, "may fail").outcome == "xfailed");
  CHECK(byName(rs, "should fail").outcome == "xfailed");
  CHECK(byName(rs, "message and fail").result.message == "FAIL: custom failure");
  CHECK(byName(rs, "prints").result.output == "to stdout\n");
  CHECK(byName(rs, "skipped").result.status == TestStatus::Skipped);
  auto one = parseDoctestXml(report("doctest-filtered.xml"), "doctest_edge");
  CHECK(count(one, TestStatus::Passed) == 1);
  CHECK(count(one, TestStatus::Skipped) == static_cast<int>(one.size()) - 1);
}

// ---- plain, arguments, events

TEST_CASE("plain CTest tests: the exit code is the result") {
  PlainRun run;
  run.exitCode = 1;
  run.output = "wordcount_check: FAILED: 'rain' is the top word 3 times\n";
  auto r = plainResult("wordcount_check", "wordcount_check", run, "/p/tests/CMakeLists.txt", 12);
  CHECK(r.id == "wordcount_check::wordcount_check");
  CHECK(r.result.status == TestStatus::Failed);
  CHECK(r.result.message == "exited with code 1: wordcount_check: FAILED: 'rain' is the top word 3 times");
  run = PlainRun{};
  CHECK(plainResult("t", "t", run).result.status == TestStatus::Passed);
  run.signal = 11;
  CHECK(plainResult("t", "t", run).outcome == "crashed");
  run = PlainRun{};
  run.exitCode = 77;
  run.skipReturnCode = 77;
  CHECK(plainResult("t", "t", run).result.status == TestStatus::Skipped);
  run = PlainRun{};
  run.willFail = true;
  CHECK(plainResult("t", "t", run).result.status == TestStatus::Failed);
  run.exitCode = 3;
  CHECK(plainResult("t", "t", run).result.status == TestStatus::Passed);
  run = PlainRun{};
  run.timedOut = true;
  CHECK(plainResult("t", "t", run).result.status == TestStatus::Timeout);
}

TEST_CASE("the flags that write each report and select one test") {
  CHECK(reportArguments(Framework::GoogleTest, "/out/r.json") ==
        std::vector<std::string>{"--gtest_output=json:/out/r.json", "--gtest_color=no"});
  CHECK(reportArguments(Framework::Catch2, "") == std::vector<std::string>{"--reporter", "xml", "--durations", "yes"});
  CHECK(reportArguments(Framework::Doctest, "") ==
        std::vector<std::string>{"--reporters=xml", "--duration=true", "--no-colors=true"});
  CHECK(reportArguments(Framework::Plain, "").empty());
  CHECK(selectArguments(Framework::GoogleTest, {"A.b", "C/D.e/0"}) == std::vector<std::string>{"--gtest_filter=A.b:C/D.e/0"});
  CHECK(selectArguments(Framework::GoogleTest, {"A.DISABLED_b"}) ==
        std::vector<std::string>{"--gtest_filter=A.DISABLED_b", "--gtest_also_run_disabled_tests"});
  CHECK(selectArguments(Framework::Catch2, {"a, b [x]", "c*"}) == std::vector<std::string>{"a\\, b \\[x\\],c\\*"});
  CHECK(selectArguments(Framework::Doctest, {"moving stats, min"}) ==
        std::vector<std::string>{"--test-case=moving stats\\, min"});
  CHECK(selectArguments(Framework::Catch2, {}).empty());
  CHECK(catchSpecUnescape("a\\, b \\[x\\]") == "a, b [x]");
  CHECK(catchSpecEscape("~neg") == "\\~neg");
}

TEST_CASE("toResultEvent speaks EVENTS.md and folds back through resultFromEvent") {
  auto rs = parseDoctestXml(report("doctest-ringbuf.pop-keeps-size.xml"), "ringbuf_tests");
  const auto& r = byName(rs, "push and pop keep FIFO order");
  auto e = toResultEvent(r);
  CHECK(e["ev"] == "result");
  CHECK(e["id"] == "ringbuf_tests::push and pop keep FIFO order");
  CHECK(e["parent"] == "ringbuf_tests::ring_buffer");
  CHECK(e["status"] == "failed");
  CHECK(e["kind"] == "assertion");
  CHECK(e["expected"] == "1");
  CHECK(e["frames"][0]["line"] == 29);
  auto back = resultFromEvent(e);
  CHECK(back.status == TestStatus::Failed);
  CHECK(back.expected == "1");
  CHECK(back.actual == "3");
  CHECK(back.frames.at(0).line == 29);
  auto skip = toResultEvent(byName(parseGtestJson(report("gtest-textstat.baseline.json"), "t"), "Corpus.DISABLED_MillionWords"));
  CHECK(skip["status"] == "skipped");
  CHECK(skip["outcome"] == "disabled");
  CHECK_FALSE(skip.contains("kind"));
}
