// Examples in the comment become tests when no nearby test exists: the `>>> call` / `expected`
// form and the `call == expected` form, in each language, written as a test file the runner
// finds beside the source (only as an overlay).
#include <catch2/catch.hpp>

#include "core/refine/CommentExamples.h"

using namespace greenlight::core::refine;
using greenlight::core::testing::Language;

namespace {

Target mustFind(const std::string& text, int line, Language lang) {
  auto found = findTarget(text, line, lang);
  INFO("line " << line << ": " << found.error);
  REQUIRE(found.target);
  return *found.target;
}

}  // namespace

TEST_CASE("comment examples: the >>> form, with the comment line of each call", "[refine][examples]") {
  std::string text =
      "import math\n"
      "\n"
      "# Return x doubled: `double`\n"
      "# >>> double(2)\n"
      "# 4\n"
      "# >>> double(-1.5)\n"
      "# -3.0\n"
      "# >>> double(\n"  // a call without an expected value on the next line is not an example
      "# >>> double('ab')\n"
      "# 'abab'\n"
      "\n"
      "x = 1\n";
  Target t = mustFind(text, 3, Language::Python);
  auto ex = examplesInComment(t);
  REQUIRE(ex.size() == 3);
  CHECK(ex[0].call == "double(2)");
  CHECK(ex[0].expected == "4");
  CHECK(ex[0].line == 4);
  CHECK(ex[1].call == "double(-1.5)");
  CHECK(ex[1].expected == "-3.0");
  CHECK(ex[1].line == 6);
  CHECK(ex[2].call == "double('ab')");
  CHECK(ex[2].expected == "'abab'");
  CHECK(ex[2].line == 9);

  auto tests = synthesizeTests(t, "/ws/dbl.py", text);
  REQUIRE(tests);
  CHECK(tests->path == "/ws/test_dbl_greenlight_examples.py");
  CHECK(tests->names == std::vector<std::string>{"test_comment_example_1", "test_comment_example_2", "test_comment_example_3"});
  CHECK_THAT(tests->text, Catch::Contains("from dbl import double\n"));
  CHECK_THAT(tests->text, Catch::Contains("def test_comment_example_1():  # line 4\n    assert double(2) == 4\n"));
  CHECK_THAT(tests->text, Catch::Contains("def test_comment_example_3():  # line 9\n    assert double('ab') == 'abab'\n"));
}

TEST_CASE("comment examples: the == form in Python, JavaScript and C++", "[refine][examples]") {
  SECTION("python, in a stub's comment") {
    std::string text = "# Greatest common divisor.\n# gcd(12, 18) == 6\n# gcd(7, 5) == 1\ndef gcd(a, b):\n    pass\n";
    Target t = mustFind(text, 4, Language::Python);
    auto ex = examplesInComment(t);
    REQUIRE(ex.size() == 2);
    CHECK(ex[0].call == "gcd(12, 18)");
    CHECK(ex[0].expected == "6");
    CHECK(ex[1].line == 3);
    auto tests = synthesizeTests(t, "/ws/m.py", text);
    REQUIRE(tests);
    CHECK_THAT(tests->text, Catch::Contains("assert gcd(7, 5) == 1\n"));
  }
  SECTION("javascript, CommonJS: === and a trailing semicolon") {
    std::string text = "// Sum of an array: `total`\n// total([1, 2, 3]) === 6;\n// total([]) == 0\n\nmodule.exports = {};\n";
    Target t = mustFind(text, 1, Language::JavaScript);
    auto ex = examplesInComment(t);
    REQUIRE(ex.size() == 2);
    CHECK(ex[0].call == "total([1, 2, 3])");
    CHECK(ex[0].expected == "6");
    CHECK(ex[1].expected == "0");
    auto tests = synthesizeTests(t, "/ws/sum.js", text);
    REQUIRE(tests);
    CHECK(tests->path == "/ws/sum.greenlight-examples.test.js");
    CHECK_THAT(tests->text, Catch::Contains("const { total } = require('./sum.js');"));
    CHECK_THAT(tests->text, Catch::Contains("assert.deepStrictEqual(total([1, 2, 3]), 6);"));
    CHECK(tests->names == std::vector<std::string>{"comment example 1", "comment example 2"});
    CHECK_THAT(tests->exportHint, Catch::Contains("module.exports.total = total"));
  }
  SECTION("javascript, ES module: the test is .mjs and imports it") {
    std::string text = "export const x = 1;\n\n// Sum of an array: `total`\n// total([1, 2]) === 3\n";
    Target t = mustFind(text, 3, Language::JavaScript);
    auto tests = synthesizeTests(t, "/ws/sum.js", text);
    REQUIRE(tests);
    CHECK(tests->path == "/ws/sum.greenlight-examples.test.mjs");
    CHECK_THAT(tests->text, Catch::Contains("import { total } from './sum.js';"));
    CHECK_THAT(tests->exportHint, Catch::Contains("export function total"));
  }
  SECTION("c++, one main with an assert per example") {
    std::string text = "/* Twice x: `twice`\n   twice(2) == 4\n   twice(-3) == -6 */\n\nint unused;\n";
    Target t = mustFind(text, 1, Language::Cxx);
    auto ex = examplesInComment(t);
    REQUIRE(ex.size() == 2);
    CHECK(ex[1].call == "twice(-3)");
    CHECK(ex[1].expected == "-6");
    auto tests = synthesizeTests(t, "/ws/m.hpp", text);
    REQUIRE(tests);
    CHECK(tests->path == "/ws/m_greenlight_examples_test.cpp");
    CHECK_THAT(tests->text, Catch::Contains("#include \"m.hpp\""));
    CHECK_THAT(tests->text, Catch::Contains("assert(twice(2) == 4);  // line 2"));
    CHECK_THAT(tests->text, Catch::Contains("assert(twice(-3) == -6);  // line 3"));
    CHECK(tests->names == std::vector<std::string>{"main"});
  }
}

TEST_CASE("comment examples: none, or no name to call", "[refine][examples]") {
  Target plain = mustFind("# Return the answer: `answer`\n\nx = 1\n", 1, Language::Python);
  CHECK(examplesInComment(plain).empty());
  CHECK_FALSE(synthesizeTests(plain, "/ws/m.py", ""));
  // The name comes from the first example's call when the comment names nothing else.
  Target unnamed = mustFind("# >>> shout('a')\n# 'A'\n\nx = 1\n", 1, Language::Python);
  auto tests = synthesizeTests(unnamed, "/ws/m.py", "");
  REQUIRE(tests);
  CHECK_THAT(tests->text, Catch::Contains("from m import shout\n"));
  // Prose that merely mentions equality is not an example.
  Target prose = mustFind("# Return true when a == b for all items: `same`\n\nx = 1\n", 1, Language::Python);
  CHECK(examplesInComment(prose).empty());
}

TEST_CASE("comment examples: long lines and long files are handled, not crashed on", "[refine][examples]") {
  std::string text = "// Sum: `total`\n// total([" + std::string(1 << 20, '1') + "]) === 1\n// total([]) === 0\n\n" +
                     std::string(1 << 20, '\n') + "export const x = 1;\n";
  Target t = mustFind(text, 1, Language::JavaScript);
  auto ex = examplesInComment(t);
  REQUIRE(ex.size() == 1);  // the megabyte example is skipped, not cut short
  CHECK(ex[0].call == "total([])");
  auto tests = synthesizeTests(t, "/ws/sum.js", text);
  REQUIRE(tests);
  CHECK(tests->path == "/ws/sum.greenlight-examples.test.mjs");  // the export far below was seen
}
