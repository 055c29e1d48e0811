// Splicing a candidate where the target is: normalisation (an echoed comment dropped, re-indented
// into methods, multi-line strings left alone), stub replacement and insertion, edits at the end
// of a file without a newline, CRLF files; and which candidates must never run (rejectCandidate).
#include <catch2/catch.hpp>

#include "core/refine/Splice.h"

using namespace greenlight::core::refine;
using greenlight::core::testing::Language;

namespace {

Target mustFind(const std::string& text, int line, Language lang) {
  auto found = findTarget(text, line, lang);
  INFO("line " << line << ": " << found.error);
  REQUIRE(found.target);
  return *found.target;
}

// The edit applied to the original must give the spliced text (what an editor does with it).
void checkEditConsistent(const std::string& text, const Spliced& s) {
  REQUIRE(s.edit.begin <= s.edit.end);
  REQUIRE(s.edit.end <= text.size());
  CHECK(text.substr(0, s.edit.begin) + s.edit.newText + text.substr(s.edit.end) == s.text);
  // Lines/columns name the same offsets (1-based, byte columns).
  auto offsetOf = [&](int line, int column) {
    std::size_t pos = 0;
    for (int l = 1; l < line; ++l) pos = text.find('\n', pos) + 1;
    return pos + static_cast<std::size_t>(column - 1);
  };
  CHECK(offsetOf(s.edit.line, s.edit.column) == s.edit.begin);
  CHECK(offsetOf(s.edit.endLine, s.edit.endColumn) == s.edit.end);
}

}  // namespace

TEST_CASE("normalise: an echoed copy of the comment is dropped, the code is trimmed", "[refine][splice]") {
  std::string text = "x = 1\n\n# Return the sum of a and b: `add`\n# Both are ints.\n\nprint(x)\n";
  Target t = mustFind(text, 3, Language::Python);
  REQUIRE(t.kind == TargetKind::Insert);
  // Models often repeat the comment, sometimes indented differently; blank lines around go too.
  std::string reply =
      "\n\n  # Return the sum of a and b: `add`\n# Both are ints.\n\ndef add(a, b):\n    return a + b\n\n\n";
  CHECK(normalizeCandidate(reply, t) == "def add(a, b):\n    return a + b");
  // A different first comment line is the model's own comment: kept.
  CHECK(normalizeCandidate("# adds\ndef add(a, b):\n    return a + b", t) == "# adds\ndef add(a, b):\n    return a + b");
  // Only the comment and nothing else is not "an echo followed by code": left as it is.
  CHECK(normalizeCandidate("# Return the sum of a and b: `add`\n# Both are ints.", t) ==
        "# Return the sum of a and b: `add`\n# Both are ints.");
}

TEST_CASE("normalise: code is re-indented into a method, blank lines carry no spaces", "[refine][splice]") {
  std::string text =
      "class Shape:\n"
      "    def __init__(self, w, h):\n"
      "        self.w, self.h = w, h\n"
      "\n"
      "    def area(self):\n"
      "        pass\n";
  Target t = mustFind(text, 5, Language::Python);
  REQUIRE(t.kind == TargetKind::Stub);
  REQUIRE(t.indent == "    ");
  // At column 0 (what models usually send).
  std::string flat = "def area(self):\n    w = self.w\n\n    return w * self.h\n";
  CHECK(normalizeCandidate(flat, t) == "    def area(self):\n        w = self.w\n\n        return w * self.h");
  // Already indented deeper (copied out of a class body with extra indentation).
  std::string deep = "        def area(self):\n            return self.w * self.h\n";
  CHECK(normalizeCandidate(deep, t) == "    def area(self):\n        return self.w * self.h");
  // A model's tabs (8 columns each) become spaces in a space-indented file: mixing them would
  // be a TabError.
  CHECK(normalizeCandidate("\tdef area(self):\n\t\treturn 1\n", t) == "    def area(self):\n            return 1");
  CHECK(normalizeCandidate("    def area(self):\n\treturn 1\n", t) == "    def area(self):\n        return 1");
  // In a tab-indented file, tabs.
  Target tabbed = mustFind("class Shape:\n\tdef area(self):\n\t\tpass\n", 2, Language::Python);
  REQUIRE(tabbed.indent == "\t");
  CHECK(normalizeCandidate("def area(self):\n        return 1\n", tabbed) == "\tdef area(self):\n\t\treturn 1");
  // At the top level, code without common indentation is left exactly as written.
  Target top = mustFind("def area(self):\n    pass\n", 1, Language::Python);
  CHECK(normalizeCandidate("def area(self):\n\treturn 1\n", top) == "def area(self):\n\treturn 1");

  Spliced s = splice(text, t, normalizeCandidate(flat, t));
  CHECK(s.text ==
        "class Shape:\n"
        "    def __init__(self, w, h):\n"
        "        self.w, self.h = w, h\n"
        "\n"
        "    def area(self):\n"
        "        w = self.w\n"
        "\n"
        "        return w * self.h\n");
  CHECK(s.codeFirst == 5);
  CHECK(s.codeLast == 8);
  checkEditConsistent(text, s);
}

TEST_CASE("normalise: multi-line strings keep their own lines", "[refine][splice]") {
  SECTION("python triple-quoted string") {
    std::string text = "class Cli:\n    def usage(self):\n        ...\n";
    Target t = mustFind(text, 2, Language::Python);
    std::string code =
        "def usage(self):\n"
        "    return \"\"\"usage:\n"
        "  tool [options]\n"
        "\"\"\"\n";
    CHECK(normalizeCandidate(code, t) ==
          "    def usage(self):\n"
          "        return \"\"\"usage:\n"
          "  tool [options]\n"
          "\"\"\"");
  }
  SECTION("javascript template literal") {
    std::string text = "class Cli {\n  usage() {}\n}\n";
    Target t = mustFind(text, 2, Language::JavaScript);
    REQUIRE(t.indent == "  ");
    std::string code = "usage() {\n  return `usage:\n    tool [options]\n`;\n}";
    CHECK(normalizeCandidate(code, t) == "  usage() {\n    return `usage:\n    tool [options]\n`;\n  }");
  }
  SECTION("c++ raw string") {
    std::string text = "struct Cli {\n    const char* usage() const {}\n};\n";
    Target t = mustFind(text, 2, Language::Cxx);
    REQUIRE(t.indent == "    ");
    std::string code = "const char* usage() const {\n  return R\"(usage:\ntool)\";\n}";
    CHECK(normalizeCandidate(code, t) == "    const char* usage() const {\n      return R\"(usage:\ntool)\";\n    }");
  }
}

TEST_CASE("splice: a stub is replaced whole, the comment above it stays", "[refine][splice]") {
  std::string text =
      "import re\n"
      "\n"
      "# Lower-case the title, words joined by '-'.\n"
      "def slugify(title):\n"
      "    \"\"\"Docstring.\"\"\"\n"
      "    raise NotImplementedError\n"
      "\n"
      "\n"
      "def other():\n"
      "    return 1\n";
  Target t = mustFind(text, 3, Language::Python);
  REQUIRE(t.kind == TargetKind::Stub);
  CHECK(t.first == 4);
  CHECK(t.last == 6);
  std::string code = normalizeCandidate("def slugify(title):\n    return '-'.join(re.findall(r'\\w+', title.lower()))", t);
  Spliced s = splice(text, t, code);
  CHECK(s.text ==
        "import re\n"
        "\n"
        "# Lower-case the title, words joined by '-'.\n"
        "def slugify(title):\n"
        "    return '-'.join(re.findall(r'\\w+', title.lower()))\n"
        "\n"
        "\n"
        "def other():\n"
        "    return 1\n");
  CHECK(s.edit.line == 4);
  CHECK(s.edit.column == 1);
  CHECK(s.edit.endLine == 6);
  CHECK(s.edit.endColumn == 30);  // after "    raise NotImplementedError", before its newline
  CHECK(s.codeFirst == 4);
  CHECK(s.codeLast == 5);
  checkEditConsistent(text, s);
}

TEST_CASE("splice: a comment-only target inserts after the block and replaces nothing", "[refine][splice]") {
  std::string text = "// Return the larger of a and b: `larger`\n\nconst x = 1;\n";
  Target t = mustFind(text, 1, Language::JavaScript);
  REQUIRE(t.kind == TargetKind::Insert);
  std::string code = normalizeCandidate("function larger(a, b) {\n  return a > b ? a : b;\n}\n", t);
  Spliced s = splice(text, t, code);
  CHECK(s.text == "// Return the larger of a and b: `larger`\nfunction larger(a, b) {\n  return a > b ? a : b;\n}\n\nconst x = 1;\n");
  CHECK(s.edit.begin == s.edit.end);
  CHECK(s.edit.line == 2);
  CHECK(s.edit.column == 1);
  CHECK(s.codeFirst == 2);
  CHECK(s.codeLast == 4);
  checkEditConsistent(text, s);
}

TEST_CASE("splice: edits at the end of a file without a newline", "[refine][splice]") {
  SECTION("comment is the last line") {
    std::string text = "x = 1\n\n# Return the n-th Fibonacci number: `fib`";
    Target t = mustFind(text, 3, Language::Python);
    Spliced s = splice(text, t, normalizeCandidate("def fib(n):\n    return n", t));
    CHECK(s.text == "x = 1\n\n# Return the n-th Fibonacci number: `fib`\ndef fib(n):\n    return n\n");
    CHECK(s.edit.begin == text.size());
    CHECK(s.edit.line == 3);
    CHECK(s.edit.column == static_cast<int>(std::string("# Return the n-th Fibonacci number: `fib`").size()) + 1);
    CHECK(s.codeFirst == 4);
    CHECK(s.codeLast == 5);
    checkEditConsistent(text, s);
  }
  SECTION("stub is the last line: the file still ends without a newline") {
    std::string text = "def f(x):\n    pass";
    Target t = mustFind(text, 1, Language::Python);
    Spliced s = splice(text, t, normalizeCandidate("def f(x):\n    return x * 2\n", t));
    CHECK(s.text == "def f(x):\n    return x * 2");
    checkEditConsistent(text, s);
  }
  SECTION("c++ stub closing brace at the very end") {
    std::string text = "int twice(int x) {}";
    Target t = mustFind(text, 1, Language::Cxx);
    Spliced s = splice(text, t, normalizeCandidate("int twice(int x) {\n  return 2 * x;\n}", t));
    CHECK(s.text == "int twice(int x) {\n  return 2 * x;\n}");
    checkEditConsistent(text, s);
  }
}

TEST_CASE("splice: a CRLF file stays CRLF", "[refine][splice]") {
  SECTION("stub") {
    std::string text = "import os\r\n\r\ndef f(x):\r\n    pass\r\n\r\nprint(f(1))\r\n";
    Target t = mustFind(text, 3, Language::Python);
    REQUIRE(t.kind == TargetKind::Stub);
    CHECK(t.first == 3);
    CHECK(t.last == 4);
    Spliced s = splice(text, t, normalizeCandidate("def f(x):\n    y = x + 1\n    return y\n", t));
    CHECK(s.text == "import os\r\n\r\ndef f(x):\r\n    y = x + 1\r\n    return y\r\n\r\nprint(f(1))\r\n");
    CHECK(s.codeFirst == 3);
    CHECK(s.codeLast == 5);
    checkEditConsistent(text, s);
  }
  SECTION("insert, echoed comment dropped") {
    std::string text = "// Twice x: `twice`\r\n// Any int.\r\n\r\nint y = 0;\r\n";
    Target t = mustFind(text, 1, Language::Cxx);
    REQUIRE(t.kind == TargetKind::Insert);
    std::string code = normalizeCandidate("// Twice x: `twice`\r\n// Any int.\r\nint twice(int x) {\r\n  return 2 * x;\r\n}\r\n", t);
    CHECK(code == "int twice(int x) {\n  return 2 * x;\n}");
    Spliced s = splice(text, t, code);
    CHECK(s.text == "// Twice x: `twice`\r\n// Any int.\r\nint twice(int x) {\r\n  return 2 * x;\r\n}\r\n\r\nint y = 0;\r\n");
    checkEditConsistent(text, s);
  }
  SECTION("insert after a last line without a newline") {
    std::string text = "x = 1\r\n\r\n# Return the n-th Fibonacci number: `fib`";
    Target t = mustFind(text, 3, Language::Python);
    Spliced s = splice(text, t, normalizeCandidate("def fib(n):\n    return n", t));
    CHECK(s.text == "x = 1\r\n\r\n# Return the n-th Fibonacci number: `fib`\r\ndef fib(n):\r\n    return n\r\n");
    CHECK(s.codeFirst == 4);
    CHECK(s.codeLast == 5);
    checkEditConsistent(text, s);
  }
}

TEST_CASE("splice: non-ASCII text before the target keeps byte columns right", "[refine][splice]") {
  std::string text = "# café ☕\n\ndef f():\n    ...\n";
  Target t = mustFind(text, 3, Language::Python);
  Spliced s = splice(text, t, normalizeCandidate("def f():\n    return 'é'", t));
  CHECK(s.text == "# café ☕\n\ndef f():\n    return 'é'\n");
  checkEditConsistent(text, s);
}

TEST_CASE("rejectCandidate: tests redefined, per language", "[refine][splice][reject]") {
  Target py = mustFind("def add(a, b):\n    pass\n", 1, Language::Python);
  CHECK(rejectCandidate("def add(a, b):\n    return a + b", py).empty());
  for (const char* code : {"def add(a, b):\n    return a + b\n\ndef test_add():\n    assert True",
                           "def add(a, b):\n    return a + b\n\nasync def test_later():\n    pass",
                           "import unittest\ndef add(a, b):\n    return a + b\nclass TestAdd(unittest.TestCase):\n    def test_x(self):\n        pass",
                           "def add(a, b):\n    return a + b\nclass AddCase(unittest.TestCase):\n    def test_x(self):\n        pass",
                           "    def add(a, b):\n        return a + b\n    def test_add():\n        pass"}) {
    INFO(code);
    CHECK_THAT(rejectCandidate(code, py), Catch::Contains("defines tests") && Catch::Contains("must not be redefined"));
  }
  // Words in strings and comments are not definitions.
  CHECK(rejectCandidate("def add(a, b):\n    # not def test_x(): here\n    return a + b", py).empty());

  Target js = mustFind("function add(a, b) {}\n", 1, Language::JavaScript);
  CHECK(rejectCandidate("function add(a, b) {\n  return a + b;\n}", js).empty());
  for (const char* code : {"function add(a, b) { return a + b; }\ntest('adds', () => {});",
                           "function add(a, b) { return a + b; }\nit('adds', () => {});",
                           "function add(a, b) { return a + b; }\ndescribe('add', () => {});",
                           "function add(a, b) { return a + b; }\ntest.only('adds', () => {});"}) {
    INFO(code);
    CHECK_THAT(rejectCandidate(code, js), Catch::Contains("defines tests"));
  }
  // Not test definitions: a regex's .test(), a method named test, words in strings/comments.
  for (const char* code : {"function add(a, b) {\n  if (/^\\d+$/.test(String(a))) return a + b;\n  return NaN;\n}",
                           "function add(a, b) {\n  const re = new RegExp('x');\n  return re.test('y') ? 0 : a + b;\n}",
                           "function add(a, b) {\n  // test('x') would be wrong here\n  return a + b + 'it('.length * 0;\n}"}) {
    INFO(code);
    CHECK(rejectCandidate(code, js).empty());
  }

  Target cxx = mustFind("int add(int a, int b) {}\n", 1, Language::Cxx);
  CHECK(rejectCandidate("int add(int a, int b) {\n  return a + b;\n}", cxx).empty());
  for (const char* code : {"int add(int a, int b) { return a + b; }\nint main() { return 0; }",
                           "int add(int a, int b) { return a + b; }\nint main(int argc, char** argv) { return 0; }",
                           "int add(int a, int b) { return a + b; }\nTEST_CASE(\"adds\") {}",
                           "int add(int a, int b) { return a + b; }\nTEST(Add, Works) {}"}) {
    INFO(code);
    CHECK_THAT(rejectCandidate(code, cxx), Catch::Contains("defines tests"));
  }
  CHECK(rejectCandidate("int add(int a, int b) {\n  const char* s = \"int main()\";  // int main() {\n  return a + b + 0 * s[0];\n}", cxx).empty());
}

TEST_CASE("rejectCandidate: C++ main in GNU style, and lines too long to run", "[refine][splice][reject]") {
  Target cxx = mustFind("int add(int a, int b) {}\n", 1, Language::Cxx);
  CHECK_THAT(rejectCandidate("int add(int a, int b) { return a + b; }\nint\nmain (void)\n{\n  return 0;\n}", cxx),
             Catch::Contains("defines tests"));
  CHECK_THAT(rejectCandidate("int add(int a, int b) {\n  return a + b;\n}\nint table[] = {" + std::string(5000, '1') + "};", cxx),
             Catch::Contains("line 4 of the code is 5017 characters long"));
  Target py = mustFind("def add(a, b):\n    pass\n", 1, Language::Python);
  CHECK(rejectCandidate("def add(a, b):\n    return a + b\nT = [" + std::string(4000, '1') + "]", py).empty());
  // Megabytes of hostile text: a clear refusal, no stack overflow on the way.
  CHECK_THAT(rejectCandidate("def test" + std::string(5 << 20, 'a') + "():\n    pass", py), Catch::Contains("characters long"));
  CHECK_THAT(rejectCandidate("def add(a, b):\n" + std::string(1 << 20, '\n') + "    return a + b\n" + std::string(1 << 20, ' ') + "x", py),
             Catch::Contains("characters long"));
  std::string blanks = "def add(a, b):\n    return a + b\n" + std::string(1 << 20, '\n') + "def test_x():\n    pass\n";
  CHECK_THAT(rejectCandidate(blanks, py), Catch::Contains("defines tests"));
}

TEST_CASE("rejectCandidate: the target's function must be defined", "[refine][splice][reject]") {
  Target py = mustFind("def slugify(s):\n    ...\n", 1, Language::Python);
  CHECK_THAT(rejectCandidate("def slug(s):\n    return s", py), Catch::Contains("does not define slugify()"));
  CHECK_THAT(rejectCandidate("print('hello')", py), Catch::Contains("does not define slugify()"));
  CHECK(rejectCandidate("slugify = lambda s: s.lower()", py).empty());
  CHECK(rejectCandidate("import re\n\n@staticmethod\ndef slugify(s):\n    return s", py).empty());
  // The name only in a string or a comment does not define it.
  CHECK_THAT(rejectCandidate("x = 'slugify = 1'  # slugify(s)", py), Catch::Contains("does not define"));

  Target js = mustFind("// Add two numbers: `add`\n\nlet x;\n", 1, Language::JavaScript);
  REQUIRE(js.name == "add");
  CHECK(rejectCandidate("const add = (a, b) => a + b;", js).empty());
  CHECK(rejectCandidate("export function add(a, b) { return a + b; }", js).empty());
  CHECK_THAT(rejectCandidate("function sum(a, b) { return a + b; }", js), Catch::Contains("does not define add()"));

  Target method = mustFind("class Shape:\n    def area(self):\n        pass\n", 2, Language::Python);
  CHECK(method.className == "Shape");
  CHECK(rejectCandidate("def area(self):\n    return 0", method).empty());

  Target member = mustFind("struct Box { int w = 0; int area() const; };\nint Box::area() const {}\n", 2, Language::Cxx);
  REQUIRE(member.name == "area");
  CHECK(rejectCandidate("int Box::area() const {\n  return w * w;\n}", member).empty());
  CHECK_THAT(rejectCandidate("int Box::volume() const {\n  return w;\n}", member), Catch::Contains("does not define area()"));

  // An unnamed insert target (the comment names no function) accepts any code.
  Target unnamed = mustFind("# print a greeting\n\nx = 1\n", 1, Language::Python);
  REQUIRE(unnamed.name.empty());
  CHECK(rejectCandidate("print('hi')", unnamed).empty());
}

TEST_CASE("firstDefinedName names an unnamed insert", "[refine][splice]") {
  CHECK(firstDefinedName("import re\n\ndef slug(s):\n    return s\n", Language::Python) == "slug");
  CHECK(firstDefinedName("function larger(a, b) {\n  return a;\n}\n", Language::JavaScript) == "larger");
  CHECK(firstDefinedName("#include <string>\nint twice(int x) {\n  return 2 * x;\n}\n", Language::Cxx) == "twice");
  CHECK(firstDefinedName("x = 1\n", Language::Python).empty());
}
