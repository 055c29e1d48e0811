// The coverage of a target (core/testing/Coverage.h): events folded and summed, a line range's
// executable / run / not-run lines, merging, the function's range, the JSON and the words.
#include <catch2/catch.hpp>

#include "core/testing/Coverage.h"
#include "core/testing/OutputParsing.h"

using namespace greenlight::core::testing;
using nlohmann::json;

namespace {

std::vector<FileCoverage> folded(const std::vector<json>& events) { return foldEvents(events).coverage; }

}  // namespace

TEST_CASE("coverage: events of several processes are summed per line, malformed pairs are dropped") {
  auto cov = folded({json::parse(R"({"ev":"coverage","file":"/w/m.py","lines":[[1,1],[3,0],[4,2]]})"),
                     json::parse(R"({"ev":"coverage","file":"/w/m.py","lines":[[3,1],[4,1],["x",1],[0,5],[7]]})"),
                     json::parse(R"({"ev":"coverage","file":"/w/o.py","lines":[[2,0]]})")});
  REQUIRE(cov.size() == 2);
  CHECK(cov[0].file == "/w/m.py");
  CHECK(cov[0].hits == std::map<int, long>{{1, 1}, {3, 1}, {4, 3}});
  CHECK(cov[1].hits == std::map<int, long>{{2, 0}});
}

TEST_CASE("coverage: a target's lines, run and not run, within its range only") {
  std::vector<FileCoverage> cov{{"/w/m.py", {{1, 1}, {4, 1}, {5, 3}, {6, 0}, {8, 0}, {12, 1}}}};
  auto t = targetCoverage(cov, "/w/m.py", 4, 8);
  REQUIRE(t);
  CHECK(t->lines == std::vector<int>{4, 5, 6, 8});
  CHECK(t->run == std::vector<int>{4, 5});
  CHECK(t->notRun == std::vector<int>{6, 8});
  CHECK(t->percent() == 50);
  CHECK_FALSE(t->complete());
  CHECK(linesRunText(*t, "new lines") == "2/4 new lines run");
  CHECK(targetCoverageToJson(*t).dump() == R"({"lines":[4,5,6,8],"run":[4,5],"not_run":[6,8]})");
  // The whole file (last 0).
  auto whole = targetCoverage(cov, "/w/./m.py");
  REQUIRE(whole);
  CHECK(whole->lines.size() == 6);
  CHECK(whole->percent() == 66);  // 4 of 6, rounded down
}

TEST_CASE("coverage: an unmeasured file is not '0 % covered', a range with no code is complete") {
  std::vector<FileCoverage> cov{{"/w/m.py", {{1, 1}}}};
  CHECK_FALSE(targetCoverage(cov, "/w/other.py", 1, 10));
  CHECK_FALSE(targetCoverage({}, "/w/m.py"));
  auto empty = targetCoverage(cov, "/w/m.py", 5, 9);
  REQUIRE(empty);
  CHECK(empty->lines.empty());
  CHECK(empty->complete());
  CHECK(empty->percent() == 100);
}

TEST_CASE("coverage: merging sums counts and adds files") {
  std::vector<FileCoverage> into{{"/a.py", {{1, 1}, {2, 0}}}};
  mergeCoverage(into, {{"/a.py", {{2, 2}, {3, 0}}}, {"/b.py", {{1, 0}}}});
  REQUIRE(into.size() == 2);
  CHECK(into[0].hits == std::map<int, long>{{1, 1}, {2, 2}, {3, 0}});
  CHECK(into[1].file == "/b.py");
}

TEST_CASE("coverage: the lines of the function at a definition (Python by indentation, C-like by braces)") {
  const std::string py =
      "import os\n"           // 1
      "\n"                    // 2
      "def f(a,\n"            // 3
      "      b):\n"           // 4
      "    if a:\n"           // 5
      "        return 1\n"    // 6
      "\n"                    // 7
      "    # done\n"          // 8
      "    return b\n"        // 9
      "\n"                    // 10
      "x = f(1, 2)\n";        // 11
  CHECK(functionLines(py, 3, Language::Python) == std::pair<int, int>{3, 9});
  const std::string cxx = "int g(int a) {\n  if (a) {\n    return 1;\n  }\n  return 0;\n}\nint h() { return 2; }\n";
  CHECK(functionLines(cxx, 1, Language::Cxx) == std::pair<int, int>{1, 6});
  CHECK(functionLines(cxx, 7, Language::Cxx) == std::pair<int, int>{7, 7});
  CHECK(functionLines(cxx, 99, Language::Cxx).second == 0);
}
