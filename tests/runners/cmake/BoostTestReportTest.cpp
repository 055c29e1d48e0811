// Boost.Test's XML log (data/reports/boost-edge.xml and boost-filtered.xml, recorded from
// data/reports/boost_edge.cpp): one result per test case, suites as parents, the values of
// BOOST_CHECK_EQUAL / BOOST_TEST / BOOST_CHECK_CLOSE, exceptions and caught signals, disabled and
// filtered-out cases, and the arguments that select cases.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "core/testing/cmake/FrameworkReports.h"
#include "core/testing/cmake/Project.h"

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

}  // namespace

TEST_CASE("boost xml: every case of the log, with its suite path and parent") {
  auto rs = parseBoostTestXml(report("boost-edge.xml"), "calc");
  REQUIRE(rs.size() == 8);
  const auto& adds = byName(rs, "arith/adds");
  CHECK(adds.id == "calc::arith/adds");
  CHECK(adds.parent == "calc::arith");
  CHECK(adds.result.file == "t.cpp");
  CHECK(adds.result.line == 8);
  CHECK(byName(rs, "tmpl<int>").result.status == TestStatus::Passed);
  CHECK(byName(rs, "tmpl<long>").parent.empty() == false);  // the file: no suite above it
  CHECK(byName(rs, "tmpl<long>").result.durationMs > 0);
}

TEST_CASE("boost xml: BOOST_CHECK_EQUAL's [a != b] is actual then expected") {
  auto rs = parseBoostTestXml(report("boost-edge.xml"), "calc");
  const auto& adds = byName(rs, "arith/adds");
  CHECK(adds.result.status == TestStatus::Failed);
  CHECK(adds.result.kind == FailureKind::Assertion);
  CHECK(adds.result.actual == "5");
  CHECK(adds.result.expected == "4");
  CHECK(adds.result.message == "BOOST_CHECK: add(2, 2) returned 5, expected 4");
  REQUIRE(adds.result.frames.size() == 1);
  CHECK(adds.result.frames[0].line == 8);
}

TEST_CASE("boost xml: the first failure describes the case, every failure is in the details, the output kept") {
  auto rs = parseBoostTestXml(report("boost-edge.xml"), "calc");
  const auto& more = byName(rs, "arith/adds_more");
  CHECK(more.result.message == "BOOST_CHECK: add(2, 3) returned 6, expected 5");
  CHECK(more.details.find("critical check add(2,2) == 4 has failed [5 != 4]") != std::string::npos);
  CHECK(more.result.output.find("hello out") != std::string::npos);
}

TEST_CASE("boost xml: BOOST_CHECK_CLOSE's operands are the values") {
  auto rs = parseBoostTestXml(report("boost-edge.xml"), "calc");
  const auto& close = byName(rs, "closeness");
  CHECK(close.result.status == TestStatus::Failed);
  CHECK(close.result.actual == "1");
  CHECK(close.result.expected == "1.1000000000000001");
}

TEST_CASE("boost xml: an exception and a caught signal are errors, the signal a crash") {
  auto rs = parseBoostTestXml(report("boost-edge.xml"), "calc");
  const auto& thrown = byName(rs, "arith/throws");
  CHECK(thrown.result.status == TestStatus::Error);
  CHECK(thrown.result.kind == FailureKind::Exception);
  CHECK(thrown.result.message == "unexpected exception: std::runtime_error: boom");
  REQUIRE(thrown.result.frames.size() == 1);  // the last checkpoint: the test's entry
  CHECK(thrown.result.frames[0].line == 10);
  const auto& crash = byName(rs, "crash");
  CHECK(crash.result.status == TestStatus::Error);
  CHECK(crash.outcome == "crashed");
  CHECK(crash.result.message.rfind("crashed: memory access violation", 0) == 0);
}

TEST_CASE("boost xml: a disabled case is skipped with Boost's reason") {
  auto rs = parseBoostTestXml(report("boost-edge.xml"), "calc");
  const auto& skipped = byName(rs, "arith/skipme");
  CHECK(skipped.result.status == TestStatus::Skipped);
  CHECK(skipped.reason == "disabled");
}

TEST_CASE("boost xml: a filtered run lists the cases it did not run as skipped") {
  auto rs = parseBoostTestXml(report("boost-filtered.xml"), "calc");
  CHECK(byName(rs, "arith/adds").result.status == TestStatus::Failed);
  CHECK(byName(rs, "tmpl<int>").result.status == TestStatus::Passed);
  CHECK(byName(rs, "arith/throws").result.status == TestStatus::Skipped);
}

TEST_CASE("boost xml: a log cut short leaves the running case unfinished (crashed)") {
  const std::string full = report("boost-edge.xml");
  const std::string cut = full.substr(0, full.find("<TestCase name=\"closeness\"") + 120);
  auto rs = parseBoostTestXml(cut, "calc");
  const auto& last = byName(rs, "closeness");
  CHECK(last.outcome == "crashed");
  CHECK(last.result.status == TestStatus::Error);
}

TEST_CASE("boost: report and selection arguments") {
  CHECK(reportArguments(Framework::BoostTest, "/out/r") ==
        std::vector<std::string>{"--log_format=XML", "--log_level=all", "--report_level=no"});
  CHECK(selectArguments(Framework::BoostTest, {"s/a", "b<int>"}) == std::vector<std::string>{"--run_test=s/a:b<int>"});
  CHECK(frameworkName(Framework::BoostTest) == "boost");
}

TEST_CASE("boost declarations: suite paths, fixtures, templates and data cases") {
  const std::string text = R"(#include <boost/test/unit_test.hpp>
BOOST_AUTO_TEST_SUITE(outer)
BOOST_AUTO_TEST_CASE(a) {}
BOOST_FIXTURE_TEST_SUITE(inner, F)
BOOST_FIXTURE_TEST_CASE(b, F) {}
BOOST_AUTO_TEST_SUITE_END()
BOOST_DATA_TEST_CASE_F(F, d, data::xrange(3), x) {}
BOOST_AUTO_TEST_SUITE_END()
BOOST_AUTO_TEST_CASE_TEMPLATE(t, T, types) {}
)";
  auto ds = scanTestDeclarations(text);
  REQUIRE(ds.size() == 4);
  CHECK(ds[0].name == "outer/a");
  CHECK(ds[1].name == "outer/inner/b");
  CHECK(ds[2].name == "outer/d");
  CHECK(ds[3].name == "t");
  CHECK(ds[3].framework == Framework::BoostTest);
  CHECK(declares(ds[3], "t<int>"));
  CHECK(declares(ds[2], "outer/d/_1"));
  CHECK_FALSE(declares(ds[0], "outer/ab"));
}
