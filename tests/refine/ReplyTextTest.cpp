// Cutting replies into code units (ReplyText.h) and the pieces around it: line roles, the line
// lexer, transcripts, diffs. Whole shapes with their expected candidates are in the reply corpus
// (ReplyCorpusTest.cpp).
#include <catch2/catch.hpp>

#include "core/refine/LineLexer.h"
#include "core/refine/LineRoles.h"
#include "core/refine/ReplyCode.h"
#include "core/refine/ReplyText.h"

using namespace greenlight::core::refine;
using greenlight::core::testing::Language;

TEST_CASE("fence tags normalise to the language", "[refine][reply]") {
  CHECK(normalizeLanguage("Python3") == "python");
  CHECK(normalizeLanguage("{.cpp}") == "cpp");
  CHECK(normalizeLanguage("node") == "javascript");
  CHECK(normalizeLanguage("jsx") == "javascript");
  CHECK(normalizeLanguage("tsx") == "typescript");
  CHECK(normalizeLanguage("C++") == "cpp");
  CHECK(normalizeLanguage("h") == "cpp");
  CHECK(normalizeLanguage("hpp") == "cpp");
  CHECK(normalizeLanguage("cxx") == "cpp");
  CHECK(normalizeLanguage("patch") == "diff");
  CHECK(normalizeLanguage("pycon") == "pycon");
}

TEST_CASE("reasoning sections are dropped, also when only the closing tag is there", "[refine][reply]") {
  CHECK(stripReasoning("a<thinking>b</thinking>c<reasoning>d</reasoning>e") == "ace");
  CHECK(stripReasoning("let me think...\n</think>\nanswer") == "\nanswer");
  CHECK(stripReasoning("<think>never finished") == "");
}

TEST_CASE("blocks in other languages and shell sessions are not code units", "[refine][reply]") {
  auto units = replyUnits("```bash\npip install x\n```\n```json\n{\"a\": 1}\n```\n```\n$ python3 m.py\n```\n"
                          "```python\ndef f():\n    return 1\n```\n",
                          Language::Python);
  REQUIRE(units.units.size() == 1);
  CHECK(units.fencedBlocks == 4);
  CHECK(units.units[0].code == "def f():\n    return 1\n");
  // A JavaScript target takes js and ts blocks, not the Python one.
  auto js = replyUnits("```python\nx = 1\n```\n```ts\nexport const one = () => 1;\n```\n", Language::JavaScript);
  REQUIRE(js.units.size() == 1);
  CHECK(js.units[0].tag == "typescript");
}

TEST_CASE("an inline code span with triple backticks is not a fence", "[refine][reply]") {
  auto units = replyUnits("Use ```x``` like this.\n\n```python\ndef g():\n    pass\n```", Language::Python);
  REQUIRE(units.units.size() == 1);
  CHECK(units.units[0].code == "def g():\n    pass\n");
}

TEST_CASE("an unclosed fence (a reply cut at max tokens) takes the rest", "[refine][reply]") {
  auto units = replyUnits("```python\ndef f():\n    return 2\n", Language::Python);
  REQUIRE(units.units.size() == 1);
  CHECK(units.units[0].code == "def f():\n    return 2\n");
}

TEST_CASE("unfenced code: runs end at top-level prose, never inside a string", "[refine][reply]") {
  // The docstring's prose and >>> lines are inside the string; "Output:" after it is prose.
  auto units = replyUnits(
      "def f(x):\n    \"\"\"Double it.\n\nThis line is prose at column 0 inside the string.\n    >>> f(2)\n    4\n"
      "    \"\"\"\n    return 2 * x\n\nOutput:\n4\n",
      Language::Python);
  REQUIRE(units.units.size() == 1);
  CHECK(units.units[0].code ==
        "def f(x):\n    \"\"\"Double it.\n\nThis line is prose at column 0 inside the string.\n    >>> f(2)\n    4\n"
        "    \"\"\"\n    return 2 * x\n");
  // Two runs with prose between.
  auto two = replyUnits("function a() {\n  return 1;\n}\nAnd then another one here:\nfunction b() { return 2; }\n",
                        Language::JavaScript);
  REQUIRE(two.units.size() == 2);
  CHECK(two.units[1].code == "function b() { return 2; }\n");
}

TEST_CASE("line roles: prose that starts like code stays prose", "[refine][reply]") {
  CHECK(lineRole("Explanation:", Language::Python) == LineRole::Prose);
  CHECK(lineRole("Note: the function returns a list.", Language::Python) == LineRole::Prose);
  CHECK(lineRole("import this module first", Language::Python) == LineRole::Prose);
  CHECK(lineRole("from the docs, import x", Language::Python) == LineRole::Prose);
  CHECK(lineRole("return the sum.", Language::Python) == LineRole::Prose);
  CHECK(lineRole("for example:", Language::Python) == LineRole::Code);  // a `for` header would end so too
  CHECK(lineRole("count: int = 0", Language::Python) == LineRole::Code);
  CHECK(lineRole("from typing import List", Language::Python) == LineRole::Strong);
  CHECK(lineRole("@functools.cache", Language::Python) == LineRole::Strong);
  CHECK(lineRole("## Python3 code to solve the problem", Language::Python) == LineRole::Neutral);
  CHECK(lineRole("## Python3 code to solve the problem", Language::Cxx) == LineRole::Prose);
  CHECK(lineRole("#include <vector>", Language::Cxx) == LineRole::Strong);
  CHECK(lineRole("std::vector<int> evens(const std::vector<int>& v) {", Language::Cxx) == LineRole::Strong);
  CHECK(lineRole("Here is the function:", Language::Cxx) == LineRole::Prose);
  CHECK(lineRole("const add = (a, b) => a + b;", Language::JavaScript) == LineRole::Strong);
  CHECK(lineRole("console.log(add(1, 2));", Language::JavaScript) == LineRole::Code);
  CHECK(lineRole("Here is how it works", Language::JavaScript) == LineRole::Prose);
}

TEST_CASE("the line lexer follows strings, comments and brackets across lines", "[refine][reply]") {
  LineLexer py(Language::Python);
  py.feed("x = \"\"\"start");
  CHECK(py.inString());
  py.feed("it's inside");
  CHECK(py.inString());
  py.feed("end\"\"\" + f(");
  CHECK_FALSE(py.inString());
  CHECK(py.depth() == 1);
  py.feed(")");
  CHECK(py.atTopLevel());
  LineLexer js(Language::JavaScript);
  js.feed("const s = `a ${b + `c ${d}`}");
  CHECK(js.inString());
  js.feed("` // a comment, not a template");
  CHECK(js.atTopLevel());
  LineLexer cc(Language::Cxx);
  cc.feed("auto s = R\"x(a \" quote");
  CHECK(cc.inString());
  cc.feed(")x\"; int n = 1'000; /*");
  CHECK_FALSE(cc.atTopLevel());
  cc.feed("*/ int m;");
  CHECK(cc.atTopLevel());
}

TEST_CASE("a transcript becomes the statements typed", "[refine][reply]") {
  CHECK(transcriptCode(">>> def f(x):\n...     return x\n...\n>>> f(1)\n1\n") == "def f(x):\n    return x\n\nf(1)\n");
}

TEST_CASE("unified diffs apply by context, near the line they name", "[refine][reply]") {
  const std::string file = "a\nb\nc\nd\ne\n";
  auto applied = applyUnifiedDiff(file, "--- a/x\n+++ b/x\n@@ -3,2 +3,2 @@\n c\n-d\n+D\n");
  REQUIRE(applied);
  CHECK(*applied == "a\nb\nc\nD\ne\n");
  // Wrong line numbers: found by context anyway.
  auto moved = applyUnifiedDiff(file, "@@ -1,2 +1,2 @@\n d\n-e\n+E\n");
  REQUIRE(moved);
  CHECK(*moved == "a\nb\nc\nd\nE\n");
  CHECK_FALSE(applyUnifiedDiff(file, "@@ -1,1 +1,1 @@\n-zzz\n+y\n"));
}

TEST_CASE("a huge reply is cut without blowing up", "[refine][reply]") {
  std::string reply = "Some prose to start.\n\n```python\n";
  for (int i = 0; i < 20000; ++i) reply += "def f" + std::to_string(i) + "(x):\n    return x + " + std::to_string(i) + "\n\n";
  reply += "```\n";
  auto units = replyUnits(reply, Language::Python);
  REQUIRE(units.units.size() == 1);
  CHECK(units.units[0].code.size() > 400000);
  std::string prose;
  for (int i = 0; i < 100000; ++i) prose += "It's a long explanation line number " + std::to_string(i) + ".\n";
  CHECK(replyUnits(prose, Language::Python).units.empty());
}

TEST_CASE("a huge block is cut in chunks: the target, its helper and the includes still come", "[refine][reply]") {
  // Over the chunking threshold: an include at the top, the helper in the middle, the target last.
  std::string block = "#include <vector>\n#include <algorithm>\n\n";
  for (int i = 0; i < 6000; ++i) block += "static int filler" + std::to_string(i) + "(int x) {\n  return x + " + std::to_string(i) + ";\n}\n\n";
  block += "static int helper(int x) {\n  return x * 3;\n}\n\n";
  for (int i = 0; i < 6000; ++i) block += "static int more" + std::to_string(i) + "(int x) {\n  return x - " + std::to_string(i) + ";\n}\n\n";
  block += "int target(const std::vector<int>& v) {\n  return helper(*std::max_element(v.begin(), v.end()));\n}\n";
  REQUIRE(block.size() > 300 * 1024);
  const std::string file = "#include <vector>\n\nint target(const std::vector<int>& v) {}\n";
  auto lookup = findTarget(file, 3, Language::Cxx);
  REQUIRE(lookup.target);
  auto taken = codeFromReply("```cpp\n" + block + "```\n", *lookup.target, file);
  CHECK(taken.code ==
        "static int helper(int x) {\n  return x * 3;\n}\n\nint target(const std::vector<int>& v) {\n"
        "  return helper(*std::max_element(v.begin(), v.end()));\n}\n");
  CHECK(taken.imports == std::vector<std::string>{"#include <vector>", "#include <algorithm>"});
  CHECK(taken.note.empty());  // one block, as asked
}
