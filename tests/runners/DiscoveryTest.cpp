#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "TestUtil.h"
#include "core/testing/Discovery.h"
#include "core/testing/PyResolve.h"
#include "core/testing/PythonProject.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;

namespace {

TestPlan discover(const std::string& path, std::optional<int> line = std::nullopt, const greenlight::core::Config* cfg = nullptr,
                  OverlayProvider overlay = {}) {
  DiscoveryRequest r;
  r.path = path;
  r.line = line;
  r.config = cfg;
  r.overlay = std::move(overlay);
  std::string err;
  auto plan = discoverTests(r, &err);
  INFO(err);
  REQUIRE(plan);
  return *plan;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST_CASE("languageForPath") {
  CHECK(languageForPath("/a/b.py") == Language::Python);
  CHECK(languageForPath("/a/b.mjs") == Language::JavaScript);
  CHECK(languageForPath("/a/b.hpp") == Language::Cxx);
  CHECK_FALSE(languageForPath("/a/b.rb"));
}

TEST_CASE("workspace root: nearest .greenlight.json or .git, else the file's dir") {
  TempWorkspace ws;
  auto f = ws.write("a/b/m.py", "x = 1\n");
  CHECK(findWorkspaceRoot(f) == ws.root());
  ws.write("a/.git/HEAD", "ref\n");
  CHECK(findWorkspaceRoot(f) == ws.root() + "/a");
  CHECK(findWorkspaceRoot(f, ws.root() + "/a/b") == ws.root() + "/a/b");
}

TEST_CASE("Python: test files beside, in tests/ and in parents up to the root") {
  TempWorkspace ws;
  auto src = ws.write("pkg/m.py", "def f():\n    return 1\n");
  ws.write("pkg/test_m.py", "from m import f\ndef test_f():\n    assert f() == 1\n");
  ws.write("pkg/m_test.py", "def test_other():\n    pass\n");
  ws.write("tests/test_m.py", "def test_up():\n    pass\n");
  ws.write("pkg/test_other.py", "def test_no():\n    pass\n");
  auto plan = discover(src);
  CHECK(plan.language == Language::Python);
  CHECK(plan.workspaceRoot == ws.root());
  CHECK(has(plan.testFiles, ws.path("pkg/test_m.py")));
  CHECK(has(plan.testFiles, ws.path("pkg/m_test.py")));
  CHECK(has(plan.testFiles, ws.path("tests/test_m.py")));
  CHECK(plan.testFiles.size() == 3);
  CHECK_FALSE(plan.sameFileTests);
  CHECK_FALSE(plan.hasDoctests);
  CHECK_FALSE(plan.empty());
}

TEST_CASE("Python: the walk stops at the workspace root") {
  TempWorkspace ws;
  ws.write("test_m.py", "def test_outside():\n    pass\n");
  ws.write("inner/.greenlight.json", "{}\n");
  auto src = ws.write("inner/m.py", "x = 1\n");
  auto plan = discover(src);
  CHECK(plan.workspaceRoot == ws.root() + "/inner");
  CHECK(plan.testFiles.empty());
  CHECK(plan.empty());
}

TEST_CASE("Python: same-file tests and doctests") {
  TempWorkspace ws;
  auto src = ws.write("m.py",
                      "def f(x):\n    \"\"\"\n    >>> f(1)\n    2\n    \"\"\"\n    return x + 1\n\n"
                      "def test_f():\n    assert f(1) == 2\n\nimport unittest\nclass T(unittest.TestCase):\n"
                      "    def test_g(self):\n        pass\n");
  auto plan = discover(src);
  CHECK(plan.sameFileTests);
  CHECK(plan.hasDoctests);
  REQUIRE(plan.staticTests.size() == 2);
  CHECK(plan.staticTests[0].name == "test_f");
  CHECK(plan.staticTests[1].name == "T.test_g");
}

TEST_CASE("narrowing to the function at LINE by name or call") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def fib(n):\n    return n\n\nX = 1\n\ndef is_prime(n):\n    return True\n");
  ws.write("test_m.py",
           "from m import fib, is_prime\n\ndef test_fib():\n    assert fib(1) == 1\n\n"
           "def test_primes():\n    assert is_prime(2)\n\ndef test_mixed():\n    assert fib(2) == 1\n");
  auto plan = discover(src, 7);
  REQUIRE(plan.function);
  CHECK(plan.function->name == "is_prime");
  CHECK(plan.function->line == 6);
  CHECK(plan.selected == std::vector<std::string>{"test_primes"});
  plan = discover(src, 2);
  CHECK(plan.selected == std::vector<std::string>{"test_fib", "test_mixed"});
  // A line outside any function: every nearby test.
  plan = discover(src, 4);
  CHECK_FALSE(plan.function);
  CHECK(plan.selected.empty());
}

TEST_CASE("functionAtLine for JavaScript and C++") {
  std::string js = "const a = 1;\nfunction add(x, y) {\n  return x + y;\n}\nconst mul = (x, y) => {\n  return x * y;\n};\n";
  auto f = functionAtLine(js, 3, Language::JavaScript);
  REQUIRE(f);
  CHECK(f->name == "add");
  f = functionAtLine(js, 6, Language::JavaScript);
  REQUIRE(f);
  CHECK(f->name == "mul");
  CHECK(f->line == 5);
  std::string cpp = "#include <vector>\nusing namespace std;\nint count_up(vector<int> v){\n  for (int x : v) {\n    if (x) return 1;\n  }\n  return 0;\n}\n";
  f = functionAtLine(cpp, 5, Language::Cxx);
  REQUIRE(f);
  CHECK(f->name == "count_up");
  CHECK(f->line == 3);
}

TEST_CASE("JavaScript and C++ test file patterns") {
  TempWorkspace ws;
  auto js = ws.write("src/m.js", "module.exports = {};\n");
  // Named after it and loading it (a namesake that loads nothing is not its test: issue 33).
  ws.write("src/m.test.js", "const m = require('./m');\n");
  ws.write("src/__tests__/m.test.js", "const m = require('../m.js');\n");
  ws.write("test/m.spec.js", "import * as m from '../src/m';\n");
  ws.write("test/m.test.js", "");
  auto plan = discover(js);
  CHECK(plan.testFiles.size() == 3);
  CHECK(plan.discoveryNote.find("test/m.test.js is named after m.js but does not load src/m.js") != std::string::npos);
  auto cpp = ws.write("cpp/m.cpp", "int f() { return 1; }\n");
  ws.write("cpp/m_test.cpp", "#include <catch2/catch.hpp>\nTEST_CASE(\"f works\") {}\n");
  ws.write("cpp/tests/test_m.cpp", "int main() {}\n");
  plan = discover(cpp);
  CHECK(plan.testFiles.size() == 2);
  CHECK(plan.framework == "catch2");
  REQUIRE(plan.staticTests.size() == 1);
  CHECK(plan.staticTests[0].name == "f works");
}

TEST_CASE("a test file is run on its own") {
  TempWorkspace ws;
  auto t = ws.write("test_m.py", "def test_a():\n    pass\n");
  auto plan = discover(t);
  CHECK(plan.sourceIsTestFile);
  CHECK(plan.testFiles.empty());
  CHECK_FALSE(plan.empty());
}

TEST_CASE("the overlay's unsaved text is what discovery reads") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "x = 1\n");
  auto plan = discover(src, std::nullopt, nullptr, [&](const std::string& p) -> std::optional<std::string> {
    if (p == src) return std::string("def test_new():\n    pass\n");
    return std::nullopt;
  });
  CHECK(plan.sameFileTests);
}

TEST_CASE("other languages use tests.command, with {file} and {dir}") {
  TempWorkspace ws;
  auto src = ws.write("lib/m.rb", "puts 1\n");
  greenlight::core::Config cfg;
  DiscoveryRequest r;
  r.path = src;
  r.config = &cfg;
  std::string err;
  CHECK_FALSE(discoverTests(r, &err));
  CHECK(err.find("tests.command") != std::string::npos);
  cfg.testsCommand = std::vector<std::string>{"ruby", "{file}", "--dir={dir}"};
  auto plan = discover(src, std::nullopt, &cfg);
  CHECK(plan.language == Language::Command);
  CHECK(plan.command == std::vector<std::string>{"ruby", src, "--dir=" + ws.root() + "/lib"});
}

TEST_CASE("an unreadable file is an error naming it") {
  DiscoveryRequest r;
  r.path = "/nonexistent/x.py";
  std::string err;
  CHECK_FALSE(discoverTests(r, &err));
  CHECK(err.find("/nonexistent/x.py") != std::string::npos);
}

// A regex over a whole file used to recurse once per character of a run that `\s*` spans: a
// test file with 400,000 blank lines overflowed the stack (the server died on opening it), and
// `(^|\n)\s*` restarted at every newline (quadratic). support::regex and line-local blanks.
TEST_CASE("discovery reads a file with a 400,000-line run of blanks and a megabyte line") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  const std::string blanks(400000, '\n');
  const std::string wide(1 << 20, ' ');
  ws.write("test_m.py", "from m import f\n" + blanks + wide + "\nimport pytest\ndef test_f():\n    assert f() == 1\n");
  auto plan = discover(src);
  CHECK(has(plan.testFiles, ws.path("test_m.py")));
  auto tests = listTests(*readFile(ws.path("test_m.py")), ws.path("test_m.py"), Language::Python);
  REQUIRE(tests.size() == 1);
  CHECK(tests[0].name == "test_f");
  CHECK(tests[0].line == 400004);
  CHECK(importsPytest(*readFile(ws.path("test_m.py"))));
}

TEST_CASE("the filesystem root is never walked for tests") {
  CHECK(isFilesystemRoot("/"));
  CHECK(isFilesystemRoot("//"));
  CHECK_FALSE(isFilesystemRoot("/tmp"));
  CHECK_FALSE(isFilesystemRoot(""));
  // The walk that finds test files importing a module finds this machine's under /usr/lib (its
  // Python's tests import os), and none from /: / is not walked.
  std::string osPy;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/usr/lib", ec), end; !ec && it != end && osPy.empty(); it.increment(ec)) {
    if (it->path().filename().string().rfind("python3.", 0) == 0 && std::filesystem::is_regular_file(it->path() / "os.py"))
      osPy = (it->path() / "os.py").string();
  }
  if (osPy.empty()) {
    WARN("no /usr/lib/python3.*/os.py: the walk of / is not checked");
  } else {
    PySearch search;
    search.roots = {std::filesystem::path(osPy).parent_path().string()};
    const PyResolver resolver(search);
    REQUIRE_FALSE(pythonTestsLoading(resolver, osPy, {"/usr/lib"}, {"test_*.py"}).empty());
    CHECK(pythonTestsLoading(resolver, osPy, {"/"}, {"test_*.py"}).empty());
  }
  // A file saved at / (unsaved text, as an editor has it): only its own directory's candidates,
  // never the machine's test files.
  DiscoveryRequest r;
  r.path = "/greenlight-not-a-file.py";
  r.overlay = [](const std::string& p) -> std::optional<std::string> {
    if (p == "/greenlight-not-a-file.py") return std::string("def f():\n    return 1\n");
    return std::nullopt;
  };
  std::string err;
  auto plan = discoverTests(r, &err);
  REQUIRE(plan);
  CHECK(plan->workspaceRoot == "/");
  CHECK(plan->testFiles.empty());
  // An editor whose root is / is no project either: the file's own directory is.
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  ws.write("test_m.py", "from m import f\ndef test_f():\n    assert f() == 1\n");
  DiscoveryRequest r2;
  r2.path = src;
  r2.workspaceRoot = "/";
  auto plan2 = discoverTests(r2, &err);
  REQUIRE(plan2);
  CHECK(plan2->workspaceRoot == ws.root());
  CHECK(has(plan2->testFiles, ws.path("test_m.py")));
}
