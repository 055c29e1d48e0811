// gcov's JSON (gcov --json-format --stdout: one document per .gcda) -> FileCoverage
// (native/Gcov.h): a header's lines summed over the translation units that include it, template
// instances of one line summed, relative names made absolute against the document's working
// directory, unwanted files and malformed documents left out; which gcov reads which compiler.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "core/testing/native/Gcov.h"

using namespace greenlight::core::testing;
using namespace greenlight::core::testing::native;

namespace {

// Recorded from gcov-12 on two TUs (a.cpp, m.cpp) that both include h.hpp; the linker kept
// a.cpp's copy of twice() (m.cpp's reports 0 for it), and m.cpp instantiates a template twice
// on line 8 of h.hpp.
const char kTwoUnits[] =
    R"({"gcc_version": "12.2.0", "files": [{"lines": [{"branches": [], "count": 1, "line_number": 2, "unexecuted_block": false, "function_name": "_Z1av"}], "functions": [], "file": "../a.cpp"}, {"lines": [{"branches": [], "count": 2, "line_number": 1, "unexecuted_block": false, "function_name": "_Z5twicei"}, {"branches": [], "count": 2, "line_number": 2, "unexecuted_block": false, "function_name": "_Z5twicei"}, {"branches": [], "count": 0, "line_number": 3, "unexecuted_block": true, "function_name": "_Z5twicei"}, {"branches": [], "count": 2, "line_number": 4, "unexecuted_block": false, "function_name": "_Z5twicei"}], "functions": [], "file": "../h.hpp"}], "format_version": "1", "current_working_directory": "/p/b", "data_file": "a.gcda"})"
    "\n"
    R"({"gcc_version": "12.2.0", "files": [{"lines": [{"branches": [], "count": 1, "line_number": 3, "function_name": "main"}], "functions": [], "file": "/p/m.cpp"}, {"lines": [{"count": 0, "line_number": 1, "function_name": "_Z5twicei"}, {"count": 0, "line_number": 2, "function_name": "_Z5twicei"}, {"count": 0, "line_number": 3, "function_name": "_Z5twicei"}, {"count": 0, "line_number": 4, "function_name": "_Z5twicei"}, {"count": 3, "line_number": 8, "function_name": "_Z2idIiET_S0_"}, {"count": 4, "line_number": 8, "function_name": "_Z2idIlET_S0_"}, {"count": 0, "line_number": 9, "function_name": "_Z2idIlET_S0_"}], "functions": [], "file": "../h.hpp"}], "format_version": "1", "current_working_directory": "/p/b", "data_file": "m.gcda"})"
    "\n";

auto only(const std::string& file) {
  return [file](const std::string& f) { return f == file; };
}

}  // namespace

TEST_CASE("gcov json: a header's lines are summed over the translation units that include it") {
  auto c = parseGcovJson(kTwoUnits, only("/p/h.hpp"));
  REQUIRE(c.size() == 1);
  CHECK(c[0].file == "/p/h.hpp");
  const std::map<int, long> want = {{1, 2}, {2, 2}, {3, 0}, {4, 2}, {8, 7}, {9, 0}};
  CHECK(c[0].hits == want);
}

TEST_CASE("gcov json: relative and absolute source names, other files left out") {
  auto a = parseGcovJson(kTwoUnits, only("/p/a.cpp"));
  REQUIRE(a.size() == 1);
  CHECK(a[0].hits == std::map<int, long>{{2, 1}});
  auto m = parseGcovJson(kTwoUnits, only("/p/m.cpp"));
  REQUIRE(m.size() == 1);
  CHECK(m[0].hits == std::map<int, long>{{3, 1}});
  CHECK(parseGcovJson(kTwoUnits, only("/p/b/../h.hpp")).empty());  // the predicate sees normalized names
  CHECK(parseGcovJson(kTwoUnits, [](const std::string&) { return true; }).size() == 3);
}

TEST_CASE("gcov json: malformed documents and lines are skipped, the rest still read") {
  std::string text = std::string("not json\n{\"files\": 3}\n\n") +
                     R"({"files": [{"file": "/x.cpp", "lines": [{"line_number": 0, "count": 5}, {"line_number": "2", "count": 1}, {"line_number": 3}, {"line_number": 4, "count": -2}, {"line_number": 5, "count": 1}]}]})" +
                     "\n" + kTwoUnits;
  auto x = parseGcovJson(text, only("/x.cpp"));
  REQUIRE(x.size() == 1);
  CHECK(x[0].hits == std::map<int, long>{{4, 0}, {5, 1}});
  CHECK(parseGcovJson(text, only("/p/h.hpp")).size() == 1);
  CHECK(parseGcovJson("", only("/x.cpp")).empty());
}

TEST_CASE("gcov json: which gcov reads a compiler's data") {
  CHECK(gcovFor("Clang", "14.0.6").empty());
  CHECK(gcovFor("", "Debian clang version 14.0.6").empty());
  CHECK(gcovForCommand("clang++").empty());
  CHECK(gcovForCommand("/usr/lib/llvm-14/bin/clang").empty());
  CHECK(gcovForCommand("nvcc").empty());
  if (std::system("test -x /usr/bin/gcov-12") == 0) {
    CHECK(gcovFor("GNU", "12.2.0") == "gcov-12");
    CHECK(gcovForCommand("g++-12") == "gcov-12");
  }
}

TEST_CASE("gcov: GREENLIGHT_COVERAGE=0 turns coverage off") {
  const char* before = std::getenv("GREENLIGHT_COVERAGE");
  const std::string saved = before ? before : "";
  ::setenv("GREENLIGHT_COVERAGE", "0", 1);
  CHECK_FALSE(coverageEnabled());
  ::setenv("GREENLIGHT_COVERAGE", "1", 1);
  CHECK(coverageEnabled());
  ::unsetenv("GREENLIGHT_COVERAGE");
  CHECK(coverageEnabled());
  if (before) ::setenv("GREENLIGHT_COVERAGE", saved.c_str(), 1);
}
