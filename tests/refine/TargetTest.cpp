// Target finding: a table of real-world shapes per language (comment blocks, stubs of every
// kind, decorators, async, nested classes, templates), what each line means, and the sentence a
// non-trigger gets.
#include <catch2/catch.hpp>

#include "core/refine/Target.h"

using namespace greenlight::core::refine;
using greenlight::core::testing::Language;

namespace {

Target mustFind(const std::string& text, int line, Language lang) {
  auto found = findTarget(text, line, lang);
  INFO("line " << line << ": " << found.error);
  REQUIRE(found.target);
  return *found.target;
}

std::string mustFail(const std::string& text, int line, Language lang) {
  auto found = findTarget(text, line, lang);
  REQUIRE_FALSE(found.target);
  REQUIRE_FALSE(found.error.empty());
  return found.error;
}

}  // namespace

TEST_CASE("python: comment block followed by a blank line inserts after the block", "[refine][target]") {
  std::string text =
      "import re\n"
      "\n"
      "# slugify(title): lower-case the title and join its words with '-'.\n"
      "# Punctuation is dropped.\n"
      "\n"
      "def other():\n"
      "    return 1\n";
  for (int line : {3, 4}) {
    Target t = mustFind(text, line, Language::Python);
    CHECK(t.kind == TargetKind::Insert);
    CHECK(t.commentFirst == 3);
    CHECK(t.commentLast == 4);
    CHECK(t.first == 5);
    CHECK(t.last == 4);
    CHECK(t.name == "slugify");
    CHECK(t.comment == "slugify(title): lower-case the title and join its words with '-'.\nPunctuation is dropped.\n");
    CHECK(t.stubText.empty());
  }
}

TEST_CASE("python: a comment at the end of the file inserts after it", "[refine][target]") {
  Target t = mustFind("x = 1\n\n# Return the n-th Fibonacci number: `fib`", 3, Language::Python);
  CHECK(t.kind == TargetKind::Insert);
  CHECK(t.first == 4);
  CHECK(t.name == "fib");
}

TEST_CASE("python: a comment directly above code documents it", "[refine][target]") {
  std::string text = "# the answer\nANSWER = 42\n";
  auto error = mustFail(text, 1, Language::Python);
  CHECK(error.find("documents the code below it (line 2)") != std::string::npos);
}

TEST_CASE("python: stubs of every kind", "[refine][target]") {
  struct Case {
    const char* text;
    int line;
    const char* name;
    int first, last;
  };
  const Case cases[] = {
      {"def f(x):\n    pass\n", 1, "f", 1, 2},
      {"def f(x):\n    ...\n", 2, "f", 1, 2},
      {"def f(x): ...\n", 1, "f", 1, 1},
      {"def f(x):\n    \"\"\"Return x doubled.\n\n    >>> f(2)\n    4\n    \"\"\"\n", 1, "f", 1, 6},
      {"def f(x):\n    '''Docstring only.'''\n\nprint(1)\n", 2, "f", 1, 2},
      {"def f(x):\n    raise NotImplementedError\n", 1, "f", 1, 2},
      {"def f(x):\n    \"\"\"Doc.\"\"\"\n    raise NotImplementedError(\"todo\")\n", 3, "f", 1, 3},
      {"async def fetch(url: str) -> dict[str, int]:\n    ...\n", 1, "fetch", 1, 2},
      {"def f(\n    a,\n    b: int = (1, 2),\n) -> int:\n    pass\n", 3, "f", 1, 5},
      {"@functools.cache\n@other(\n    1,\n)\ndef f(n):\n    pass\n", 1, "f", 1, 6},
      {"@functools.cache\ndef f(n):\n    pass\n", 2, "f", 1, 3},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    Target t = mustFind(c.text, c.line, Language::Python);
    CHECK(t.kind == TargetKind::Stub);
    CHECK(t.name == c.name);
    CHECK(t.first == c.first);
    CHECK(t.last == c.last);
  }
}

TEST_CASE("python: methods in nested classes, with the comment above", "[refine][target]") {
  std::string text =
      "class Outer:\n"
      "    class Shape:\n"
      "        def __init__(self, w, h):\n"
      "            self.w, self.h = w, h\n"
      "\n"
      "        # The area of the rectangle.\n"
      "        def area(self) -> float:\n"
      "            ...\n"
      "\n"
      "        def perimeter(self):\n"
      "            return 2 * (self.w + self.h)\n";
  Target t = mustFind(text, 6, Language::Python);
  CHECK(t.kind == TargetKind::Stub);
  CHECK(t.name == "area");
  CHECK(t.className == "Shape");
  CHECK(t.indent == "        ");
  CHECK(t.first == 7);
  CHECK(t.last == 8);
  CHECK(t.commentFirst == 6);
  CHECK(t.stubText == "        def area(self) -> float:\n            ...\n");
  CHECK(mustFind(text, 7, Language::Python).commentFirst == 6);
  auto error = mustFail(text, 10, Language::Python);
  CHECK(error.find("header of Shape.perimeter(), which already has a body") != std::string::npos);
  CHECK(mustFail(text, 11, Language::Python).find("holds code") != std::string::npos);
  CHECK(mustFail(text, 5, Language::Python).find("blank") != std::string::npos);
}

TEST_CASE("python: not fooled by strings and non-stub bodies", "[refine][target]") {
  std::string text =
      "def f():\n"
      "    s = \"\"\"\n"
      "# not a comment\n"
      "def g(): pass\n"
      "\"\"\"\n"
      "    return s\n";
  CHECK_FALSE(findTarget(text, 3, Language::Python).target);
  CHECK_FALSE(findTarget(text, 4, Language::Python).target);
  // A body that does something is not a stub, even when it ends with pass.
  CHECK_FALSE(findTarget("def f():\n    x = 1\n    pass\n", 1, Language::Python).target);
  CHECK_FALSE(findTarget("def f():\n    return None\n", 1, Language::Python).target);
  // The shebang is not a comment block.
  CHECK_FALSE(findTarget("#!/usr/bin/env python3\nimport os\n", 1, Language::Python).target);
}

TEST_CASE("python: the stub after a comment and blank lines is the target", "[refine][target]") {
  std::string text = "# Count the vowels.\n\n\ndef count_vowels(s):\n    pass\n";
  Target t = mustFind(text, 1, Language::Python);
  CHECK(t.kind == TargetKind::Stub);
  CHECK(t.name == "count_vowels");
  CHECK(t.first == 4);
  CHECK(t.commentFirst == 1);
}

TEST_CASE("javascript: stubs of every kind", "[refine][target]") {
  struct Case {
    const char* text;
    int line;
    const char* name;
    int first, last;
  };
  const Case cases[] = {
      {"function f(a, b) {}\n", 1, "f", 1, 1},
      {"function f(a, b) {\n  throw new Error('not implemented');\n}\n", 2, "f", 1, 3},
      {"export function f(a) {\n}\n", 1, "f", 1, 2},
      {"export default async function load(url) {}\n", 1, "load", 1, 1},
      {"function* gen() {}\n", 1, "gen", 1, 1},
      {"const f = (a, b) => {};\n", 1, "f", 1, 1},
      {"export const f = async (a) => {\n  // TODO\n};\n", 2, "f", 1, 3},
      {"let f = function (x) { throw `no ${x}`; };\n", 1, "f", 1, 1},
      {"const f = x => {}\n", 1, "f", 1, 1},
      {"class Stack {\n  constructor() { this.items = []; }\n  peek() {}\n  static from(xs) {\n    throw new Error('todo');\n  }\n}\n",
       3, "peek", 3, 3},
      {"class Stack {\n  constructor() { this.items = []; }\n  peek() {}\n  static from(xs) {\n    throw new Error('todo');\n  }\n}\n",
       5, "from", 4, 6},
      {"const a = 1\nfunction f(s) {}\n", 2, "f", 2, 2},
  };
  for (const auto& c : cases) {
    INFO(c.text << " @" << c.line);
    Target t = mustFind(c.text, c.line, Language::JavaScript);
    CHECK(t.kind == TargetKind::Stub);
    CHECK(t.name == c.name);
    CHECK(t.first == c.first);
    CHECK(t.last == c.last);
  }
}

TEST_CASE("typescript: typed stubs (generics, return types, annotations, modifiers)", "[refine][target]") {
  struct Case {
    const char* text;
    int line;
    const char* name;
    int first, last;
  };
  const Case cases[] = {
      {"export function truncate(text: string, max: number, ellipsis = '\u2026'): string {\n  throw new Error('todo');\n}\n", 1,
       "truncate", 1, 3},
      {"export function first<T>(xs: readonly T[]): T | undefined {}\n", 1, "first", 1, 1},
      {"declare function d(x: number): void {}\n", 1, "d", 1, 1},
      {"export const add = (a: number, b: number): number => {\n  throw new Error('todo');\n};\n", 2, "add", 1, 3},
      {"export const parse: (s: string) => number = (s) => {};\n", 1, "parse", 1, 1},
      {"export const map = <A, B>(xs: A[], f: (a: A) => B): B[] => {};\n", 1, "map", 1, 1},
      {"export class Stack<T> {\n  private items: T[] = [];\n  public peek(): T | undefined {}\n"
       "  static from<U>(xs: U[]): Stack<U> {\n    throw new Error('todo');\n  }\n}\n",
       3, "peek", 3, 3},
      {"export class Stack<T> {\n  private items: T[] = [];\n  public peek(): T | undefined {}\n"
       "  static from<U>(xs: U[]): Stack<U> {\n    throw new Error('todo');\n  }\n}\n",
       5, "from", 4, 6},
  };
  for (const auto& c : cases) {
    INFO(c.text << " @" << c.line);
    Target t = mustFind(c.text, c.line, Language::JavaScript);
    CHECK(t.kind == TargetKind::Stub);
    CHECK(t.name == c.name);
    CHECK(t.first == c.first);
    CHECK(t.last == c.last);
  }
}

TEST_CASE("javascript: comments, regexes, templates and non-stubs", "[refine][target]") {
  std::string text =
      "const re = /[{]/g;\n"
      "const t = `${1 + {a: 1}.a} }`;\n"
      "\n"
      "/**\n"
      " * capitalize(word): the word with its first letter upper-cased.\n"
      " */\n"
      "\n"
      "function used() { return 1; }\n"
      "// documents used2\n"
      "function used2() { return 2; }\n";
  Target t = mustFind(text, 5, Language::JavaScript);
  CHECK(t.kind == TargetKind::Insert);
  CHECK(t.commentFirst == 4);
  CHECK(t.commentLast == 6);
  CHECK(t.first == 7);
  CHECK(t.name == "capitalize");
  CHECK(t.comment == "capitalize(word): the word with its first letter upper-cased.\n");
  CHECK(mustFail(text, 9, Language::JavaScript).find("documents the code below it") != std::string::npos);
  CHECK(mustFail(text, 8, Language::JavaScript).find("header of used()") != std::string::npos);
  // Calls with callbacks are not definitions.
  CHECK_FALSE(findTarget("describe('x', () => {});\n", 1, Language::JavaScript).target);
  CHECK_FALSE(findTarget("if (x) {}\n", 1, Language::JavaScript).target);
}

TEST_CASE("c++: stubs of every kind", "[refine][target]") {
  struct Case {
    const char* text;
    int line;
    const char* name;
    const char* cls;
    int first, last;
  };
  const Case cases[] = {
      {"int add(int a, int b) {}\n", 1, "add", "", 1, 1},
      {"#include <string>\nstd::string f(const std::string& s) {\n  throw std::logic_error(\"todo\");\n}\n", 3, "f", "", 2, 4},
      {"template <typename T, int N = sizeof(T)>\nT biggest(const T (&xs)[N])\n{\n}\n", 1, "biggest", "", 1, 4},
      {"namespace util {\ninline constexpr long fib(int n) noexcept {}\n}\n", 2, "fib", "", 2, 2},
      {"double Shape::area() const {\n}\n", 1, "area", "Shape", 1, 2},
      {"class Shape {\n public:\n  double area() const {}\n  int w = 0;\n};\n", 3, "area", "Shape", 3, 3},
      {"struct V {\n  bool operator==(const V& o) const {}\n};\n", 2, "operator==", "V", 2, 2},
      {"auto mid(int a, int b) -> int {}\n", 1, "mid", "", 1, 1},
      {"class A {\n  A(int x) : x_(x) {}\n  int x_;\n};\n", 2, "A", "A", 2, 2},
  };
  for (const auto& c : cases) {
    INFO(c.text << " @" << c.line);
    Target t = mustFind(c.text, c.line, Language::Cxx);
    CHECK(t.kind == TargetKind::Stub);
    CHECK(t.name == c.name);
    CHECK(t.className == c.cls);
    CHECK(t.first == c.first);
    CHECK(t.last == c.last);
  }
}

TEST_CASE("c++: not fooled by raw strings, lambdas, macros and control blocks", "[refine][target]") {
  std::string text =
      "const char* s = R\"x(int f() {})x\";\n"
      "int main() {\n"
      "  auto l = [] {};\n"
      "  if (true) {}\n"
      "  return 1'000;\n"
      "}\n"
      "TEST_CASE(\"x\") {}\n";
  CHECK_FALSE(findTarget(text, 1, Language::Cxx).target);
  CHECK_FALSE(findTarget(text, 3, Language::Cxx).target);
  CHECK_FALSE(findTarget(text, 4, Language::Cxx).target);
  CHECK_FALSE(findTarget(text, 7, Language::Cxx).target);
  CHECK(mustFail(text, 2, Language::Cxx).find("header of main()") != std::string::npos);
}

TEST_CASE("c++: a // block followed by a blank line inserts, the comment's name is used", "[refine][target]") {
  std::string text =
      "#include <vector>\n"
      "\n"
      "// Returns the sum of the squares of xs.\n"
      "// Name: sum_squares(xs)\n"
      "\n"
      "int other() { return 0; }\n";
  Target t = mustFind(text, 4, Language::Cxx);
  CHECK(t.kind == TargetKind::Insert);
  CHECK(t.name == "sum_squares");
  CHECK(t.first == 5);
}

TEST_CASE("findStubs lists every stub with its comment", "[refine][target]") {
  std::string text =
      "# Add two numbers.\n"
      "def add(a, b):\n"
      "    pass\n"
      "\n"
      "def done():\n"
      "    return 1\n"
      "\n"
      "class C:\n"
      "    def m(self):\n"
      "        ...\n";
  auto stubs = findStubs(text, Language::Python);
  REQUIRE(stubs.size() == 2);
  CHECK(stubs[0].name == "add");
  CHECK(stubs[0].commentFirst == 1);
  CHECK(stubs[1].name == "m");
  CHECK(stubs[1].className == "C");
}

TEST_CASE("relocateTarget follows edits elsewhere and refuses a changed target", "[refine][target]") {
  std::string text = "# Double x.\ndef double(x):\n    pass\n\nprint(1)\n";
  Target t = mustFind(text, 1, Language::Python);
  // Lines added above: found again, lines shifted.
  auto moved = relocateTarget(t, "import os\nimport sys\n\n" + text);
  REQUIRE(moved);
  CHECK(moved->first == 5);
  CHECK(moved->commentFirst == 4);
  // Typing below the target does not matter.
  CHECK(relocateTarget(t, text + "x = 2\n"));
  // The stub or the comment changed: not found.
  CHECK_FALSE(relocateTarget(t, "# Double x.\ndef double(x):\n    return x\n"));
  CHECK_FALSE(relocateTarget(t, "# Triple x.\ndef double(x):\n    pass\n"));
  // Two identical stubs: the nearest wins.
  auto twice = relocateTarget(t, text + "\n" + text);
  REQUIRE(twice);
  CHECK(twice->first == 2);
}

TEST_CASE("namesInComment finds the names a comment mentions", "[refine][target]") {
  CHECK(namesInComment("slugify(title): lower-case") == std::vector<std::string>{"slugify"});
  CHECK(namesInComment("Write `is_prime` using the sieve") == std::vector<std::string>{"is_prime"});
  CHECK(namesInComment(">>> fib(10)\n55") == std::vector<std::string>{"fib"});
  CHECK(namesInComment("Return the slug (lower case)").empty());
  CHECK(namesInComment("def area(self) then function perim").size() == 2);
}

TEST_CASE("target finding survives megabyte lines and runs of blank lines", "[refine][target]") {
  // std::regex recurses per repeated character: each of these overflowed the stack before the
  // regex subjects were bounded.
  const std::string many(1 << 20, 'a');
  const std::string blanks(1 << 20, ' ');
  std::string py = "def test" + many + "():\n    pass\n" + blanks + "x = 1\n\ndef f(x):\n    pass\n";
  CHECK(findTarget(py, 5, Language::Python).target);
  CHECK_FALSE(findStubs(py, Language::Python).empty());
  std::string pyClass = "class " + many + ":\n    def m(self):\n        pass\n";
  CHECK(findTarget(pyClass, 2, Language::Python).target);
  std::string js = "var a = " + std::string(1 << 20, '1') + ", f = (x) =>\n" + blanks + "{};\nfunction g() {}\n";
  CHECK(findTarget(js, 3, Language::JavaScript).target);
  std::string cxx = "template <typename T> " + many + " f(" + many + ") {}\nint g() {}\n";
  CHECK(findTarget(cxx, 2, Language::Cxx).target);
  std::string comment = "# Return the value `" + many + "` as " + blanks + " name(\n\nx = 1\n";
  auto t = findTarget(comment, 1, Language::Python);
  REQUIRE(t.target);
  CHECK(namesInComment(t.target->comment).size() <= 1);
}
