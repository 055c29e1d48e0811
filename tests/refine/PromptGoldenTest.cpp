// The exact words greenlight says to the model, pinned by golden files in tests/refine/golden/:
// a stub, an insert, a fix and a round-2 conversation. Any change to the prompt text fails here;
// when the change is intended, bump kPromptVersion (Prompt.h) and regenerate the files:
//
//   GREENLIGHT_UPDATE_GOLDEN=1 build-test/tests/refine/test_refine_unit "[golden]"
//
// then review `git diff tests/refine/golden/` like any other change. Also here: the prompt's
// bounds (long files windowed, test files cut with a visible marker) and secrets redacted.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/refine/Prompt.h"

using namespace greenlight::core::refine;
using greenlight::core::testing::Language;

namespace {

Target mustFind(const std::string& text, int line, Language lang) {
  auto found = findTarget(text, line, lang);
  INFO("line " << line << ": " << found.error);
  REQUIRE(found.target);
  return *found.target;
}

std::string render(const PromptInput& in) {
  std::ostringstream out;
  out << "prompt version: " << kPromptVersion << "\n";
  out << "=== system ===\n" << systemPrompt(in.target.language);
  for (const auto& m : buildMessages(in)) {
    out << "=== " << m.role << " ===\n" << m.content;
    if (m.content.empty() || m.content.back() != '\n') out << "\n[no newline at the end]\n";
  }
  return out.str();
}

void checkGolden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(GL_REFINE_GOLDEN_DIR) + "/" + name;
  const char* update = std::getenv("GREENLIGHT_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    WARN("rewrote " << path);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  INFO("golden file " << path << " (regenerate: GREENLIGHT_UPDATE_GOLDEN=1 test_refine_unit \"[golden]\")");
  REQUIRE(in.good());
  std::stringstream expected;
  expected << in.rdbuf();
  // The first line names the prompt version the golden text was written for: a text change
  // without a version bump shows here as a changed text under the same version.
  CHECK(expected.str().substr(0, expected.str().find('\n')) == std::string("prompt version: ") + kPromptVersion);
  CHECK(actual == expected.str());
}

const char* kSlugPy =
    "import re\n"
    "\n"
    "\n"
    "# Lower-case the title and join its words with '-'; punctuation is dropped.\n"
    "def slugify(title):\n"
    "    \"\"\"slugify('Hello, World!') -> 'hello-world'\"\"\"\n"
    "    raise NotImplementedError\n"
    "\n"
    "\n"
    "def unrelated():\n"
    "    return 1\n";

const char* kSlugTest =
    "from slug import slugify\n"
    "\n"
    "\n"
    "def test_basic():\n"
    "    assert slugify('Hello, World!') == 'hello-world'\n"
    "\n"
    "\n"
    "def test_spaces():\n"
    "    assert slugify('  many   spaces ') == 'many-spaces'\n";

PromptInput slugInput() {
  PromptInput in;
  in.target = mustFind(kSlugPy, 5, Language::Python);
  in.filePath = "src/slug.py";
  in.fileText = kSlugPy;
  in.tests = {{"tests/test_slug.py", kSlugTest}};
  in.testNames = {"test_basic", "test_spaces"};
  return in;
}

}  // namespace

TEST_CASE("golden prompt: a Python stub with a test file", "[refine][prompt][golden]") {
  checkGolden("stub-python.txt", render(slugInput()));
}

TEST_CASE("golden prompt: a JavaScript insert after a comment, exported for the tests", "[refine][prompt][golden]") {
  const std::string text =
      "'use strict';\n"
      "\n"
      "// Return the larger of a and b: `larger`\n"
      "// Numbers only; NaN loses.\n"
      "\n"
      "module.exports = { larger };\n";
  PromptInput in;
  in.target = mustFind(text, 3, Language::JavaScript);
  in.filePath = "lib/max.js";
  in.fileText = text;
  in.tests = {{"lib/max.test.js",
               "const test = require('node:test');\nconst assert = require('node:assert');\nconst { larger } = require('./max.js');\n\n"
               "test('picks the larger', () => {\n  assert.strictEqual(larger(2, 5), 5);\n});\n"}};
  in.testNames = {"picks the larger"};
  in.exportHint = "The tests import it as `require('./max.js').larger`.";
  checkGolden("insert-javascript.txt", render(in));
}

TEST_CASE("golden prompt: a C++ fix with the current failure", "[refine][prompt][golden]") {
  const std::string text =
      "#include <vector>\n"
      "\n"
      "// The sum of the even numbers of v.\n"
      "int sumEven(const std::vector<int>& v) {\n"
      "  int s = 0;\n"
      "  for (int x : v) if (x % 2) s += x;\n"
      "  return s;\n"
      "}\n";
  auto found = findFixTarget(text, 6, Language::Cxx);
  REQUIRE(found.target);
  PromptInput in;
  in.target = *found.target;
  in.filePath = "sum.cpp";
  in.fileText = text;
  in.tests = {{"sum_test.cpp", "#include <cassert>\n#include \"sum.cpp\"\n\nint main() {\n  assert(sumEven({1, 2, 3, 4}) == 6);\n}\n"}};
  in.testNames = {"main"};
  in.fix = true;
  in.fixFeedback =
      "0 of 1 tests passed, 1 failed.\n\nFAILED main (sum_test.cpp:4)\n  at sum_test.cpp:5: assert(sumEven({1, 2, 3, 4}) == 6);\n"
      "  Assertion `sumEven({1, 2, 3, 4}) == 6' failed.\n";
  checkGolden("fix-cpp.txt", render(in));
}

TEST_CASE("golden prompt: round 2 carries the candidate and its feedback", "[refine][prompt][golden]") {
  PromptInput in = slugInput();
  in.history.push_back({"def slugify(title):\n    return '-'.join(title.lower().split(' '))",
                        "```python\ndef slugify(title):\n    return '-'.join(title.lower().split(' '))\n```",
                        "1 of 2 tests passed, 1 failed.\n\nFAILED test_basic (tests/test_slug.py:4)\n"
                        "  at tests/test_slug.py:5: assert slugify('Hello, World!') == 'hello-world'\n"
                        "  AssertionError: slugify('Hello, World!') returned 'hello,-world!', expected 'hello-world'\n"
                        "  slugify returned at src/slug.py:6 the value 'hello,-world!' with title='Hello, World!'\n\n"
                        "Passed: test_spaces\n"});
  // A round whose reply held no code shows the reply itself.
  in.history.push_back({"", "I would use a regular expression here.", "The reply held no python code."});
  checkGolden("round2-python.txt", render(in));
}

TEST_CASE("prompt: secrets are redacted in every message", "[refine][prompt]") {
  PromptInput in = slugInput();
  const std::string key = "sk-test-SECRET-abcdef0123";
  in.secrets = {key};
  in.fileText += "# " + key + "\n";
  in.tests[0].text += "# " + key + "\n";
  in.history.push_back({"KEY = '" + key + "'", "", "printed " + key});
  for (const auto& m : buildMessages(in)) {
    INFO(m.role << ": " << m.content);
    CHECK(m.content.find("SECRET") == std::string::npos);
  }
}

TEST_CASE("prompt: long files are windowed around the target, long tests cut visibly", "[refine][prompt]") {
  std::string text;
  for (int i = 1; i <= 1000; ++i) text += "X" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  text += "\n\ndef target_fn(x):\n    pass\n\n";
  for (int i = 1; i <= 1000; ++i) text += "Y" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  PromptInput in;
  in.target = mustFind(text, 1003, Language::Python);
  in.filePath = "big.py";
  in.fileText = text;
  std::string bigTest;
  for (int i = 0; i < 3000; ++i) bigTest += "def test_" + std::to_string(i) + "():\n    assert target_fn(" + std::to_string(i) + ")\n";
  in.tests = {{"test_big.py", bigTest}};
  PromptLimits limits;
  std::string marked = markedFile(in, limits);
  std::size_t lines = static_cast<std::size_t>(std::count(marked.begin(), marked.end(), '\n'));
  CHECK(lines <= limits.fileLines + 2);
  CHECK_THAT(marked, Catch::Contains("X1 = 1\n"));  // the file's head (imports live there)
  CHECK_THAT(marked, Catch::Contains("# >>> greenlight target: replace this definition of target_fn()\ndef target_fn(x):\n    pass\n# <<< end of the target\n"));
  CHECK_THAT(marked, Catch::Contains("lines cut …"));
  CHECK(marked.find("Y1000 = 1000") == std::string::npos);
  auto messages = buildMessages(in, limits);
  REQUIRE(!messages.empty());
  const std::string& first = messages[0].content;
  CHECK_THAT(first, Catch::Contains("def test_0():"));
  CHECK_THAT(first, Catch::Contains("cut …"));
  CHECK(first.size() < limits.testBytesTotal + 60000);
}
