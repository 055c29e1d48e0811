// Tests first, the pure parts: where the test file goes and how it imports the target, the
// test-writing prompt (the comment, the stub, never an implementation), the reply's tests, and
// which tests the stub passes.
#include <catch2/catch.hpp>

#include <filesystem>

#include "TempTree.h"
#include "core/refine/TestsFirst.h"
#include "core/refine/TestsPrompt.h"

using namespace greenlight::core::refine;
namespace fs = std::filesystem;
namespace t = greenlight::core::testing;

namespace {

struct TempRoot : gltest::TempTree {
  TempRoot() : TempTree("gl-testsfirst") {}
};

const char* kStub = "# parse_duration(text): \"1h30m\" -> 5400 seconds\ndef parse_duration(text):\n    raise NotImplementedError\n";

Target stubTarget(const std::string& text = kStub) {
  auto found = findTarget(text, 1, t::Language::Python);
  REQUIRE(found.target);
  return *found.target;
}

}  // namespace

TEST_CASE("tests first placement, python: beside the module without tests/, else tests/, src/ layouts by package",
          "[refine][testsfirst]") {
  TempRoot ws;
  std::string error;
  {
    const std::string src = ws.write("dur.py", kStub);
    auto p = placeTests(stubTarget(), src, ws.root.string(), &error);
    REQUIRE(p);
    CHECK(p->path == (ws.root / "test_dur.py").string());
    CHECK(p->importLine == "from dur import parse_duration");
    CHECK(p->framework == "python");
    CHECK_FALSE(p->exists);
  }
  {
    const std::string src = ws.write("src/timing/dur.py", kStub);
    ws.write("src/timing/__init__.py", "");
    ws.write("tests/test_other.py", "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        pass\n");
    auto p = placeTests(stubTarget(), src, ws.root.string(), &error);
    REQUIRE(p);
    CHECK(p->path == (ws.root / "tests/test_dur.py").string());
    CHECK(p->importLine == "from timing.dur import parse_duration");
    CHECK(p->framework == "unittest");
    CHECK(p->examplePath == (ws.root / "tests/test_other.py").string());
  }
  {
    ws.write("conftest.py", "");
    ws.write("tests/test_dur.py", "def test_old():\n    assert True\n");
    auto p = placeTests(stubTarget(), (ws.root / "src/timing/dur.py").string(), ws.root.string(), &error);
    REQUIRE(p);
    CHECK(p->framework == "pytest");
    CHECK(p->exists);
    CHECK(p->original == "def test_old():\n    assert True\n");
    // The new tests are added at the end; the file's own stay as they are.
    CHECK(proposedFileText(*p, "def test_new():\n    assert 1\n\n") ==
          "def test_old():\n    assert True\n\n\ndef test_new():\n    assert 1\n");
  }
}

TEST_CASE("tests first placement: C++ without a build beside the source, a build says why not",
          "[refine][testsfirst]") {
  TempRoot ws;
  std::string error;
  auto cxx = findTarget("// add(a, b): the sum\nint add(int a, int b) {}\n", 1, t::Language::Cxx);
  REQUIRE(cxx.target);
  const std::string add = ws.write("add.cpp", "");
  auto p = placeTests(*cxx.target, add, ws.root.string(), &error);
  REQUIRE(p);
  CHECK(p->path == (ws.root / "add_test.cpp").string());
  CHECK(p->importLine == "#include \"add.cpp\"");
  CHECK(p->framework == "assert");
  CHECK(testsIn("#include <cassert>\n\nint main() {\n  assert(1);\n}\n", p->path, t::Language::Cxx) ==
        std::vector<std::pair<std::string, int>>{{"main", 3}});
  ws.write("CMakeLists.txt", "project(x)\n");
  CHECK_FALSE(placeTests(*cxx.target, add, ws.root.string(), &error));
  CHECK_THAT(error, Catch::Contains("CMakeLists.txt"));
}

TEST_CASE("tests first placement: jest, vitest and mocha projects get the place and style their own tests have",
          "[refine][testsfirst]") {
  std::string error;
  auto js = findTarget("// slugify(text): dashes\nfunction slugify(text) {}\n", 1, t::Language::JavaScript);
  REQUIRE(js.target);
  auto ts = findTarget("// slugify(text: string): dashes\nexport function slugify(text: string): string {}\n", 1,
                       t::Language::JavaScript);
  REQUIRE(ts.target);
  {
    // vitest: two test files beside their modules, one in test/: beside wins, no extension.
    TempRoot ws;
    ws.write("package.json", R"({"name": "x", "devDependencies": {"vitest": "^1.0.0"}, "scripts": {"test": "vitest"}})");
    ws.write("src/a/x.ts", "export const x = 1;\n");
    ws.write("src/a/x.test.ts", "import { it } from 'vitest';\n");
    ws.write("src/b/y.ts", "export const y = 1;\n");
    ws.write("src/b/y.test.ts", "import { it } from 'vitest';\n");
    ws.write("test/all.spec.ts", "import { it } from 'vitest';\n");
    auto p = placeTests(*ts.target, ws.write("src/slug.ts", "export {};\n"), ws.root.string(), &error);
    INFO(error);
    REQUIRE(p);
    CHECK(p->path == (ws.root / "src/slug.test.ts").string());
    CHECK(p->framework == "vitest");
    CHECK(p->importLine == "import { slugify } from './slug';");
  }
  {
    // jest: most tests in __tests__/ at the root (one .spec beside its module): __tests__/ wins.
    TempRoot ws;
    ws.write("package.json", R"({"name": "x", "devDependencies": {"jest": "^29.0.0"}, "scripts": {"test": "jest"}})");
    ws.write("src/cart.js", "module.exports = {};\n");
    ws.write("src/money.js", "module.exports = {};\n");
    ws.write("src/format.js", "module.exports = {};\n");
    ws.write("src/format.spec.js", "require('./format');\n");
    ws.write("__tests__/cart.test.js", "const { test } = require('@jest/globals');\nrequire('../src/cart');\n");
    ws.write("__tests__/money.test.js", "require('../src/money');\n");
    auto p = placeTests(*js.target, ws.write("src/slug.js", "'use strict';\n"), ws.root.string(), &error);
    INFO(error);
    REQUIRE(p);
    CHECK(p->path == (ws.root / "__tests__/slug.test.js").string());
    CHECK(p->importLine == "const { slugify } = require('../src/slug.js');");
    CHECK(p->framework == "jest:@jest/globals");
    // A __tests__/ beside the module is where its tests go.
    ws.write("lib/__tests__/other.test.js", "");
    auto q = placeTests(*js.target, ws.write("lib/slug.js", "'use strict';\n"), ws.root.string(), &error);
    REQUIRE(q);
    CHECK(q->path == (ws.root / "lib/__tests__/slug.test.js").string());
  }
  {
    // mocha: specs in test/ without a suffix, chai as the project's assertion library.
    TempRoot ws;
    ws.write("package.json", R"({"name": "x", "devDependencies": {"mocha": "^10.0.0", "chai": "^4.0.0"}, "scripts": {"test": "mocha"}})");
    ws.write("lib/parse.js", "module.exports = {};\n");
    ws.write("test/parse.js", "const { expect } = require('chai');\nrequire('../lib/parse');\n");
    auto p = placeTests(*js.target, ws.write("lib/slug.js", "'use strict';\n"), ws.root.string(), &error);
    INFO(error);
    REQUIRE(p);
    CHECK(p->path == (ws.root / "test/slug.js").string());
    CHECK(p->framework == "mocha:chai");
    CHECK(p->importLine == "const { slugify } = require('../lib/slug.js');");
  }
}

TEST_CASE("tests first prompt: the comment, the stub, where and how to import, never an implementation", "[refine][testsfirst]") {
  TestsPromptInput in;
  in.target = stubTarget();
  in.filePath = "dur.py";
  in.fileText = kStub;
  in.testPath = "tests/test_dur.py";
  in.placement.framework = "pytest";
  in.placement.importLine = "from dur import parse_duration";
  in.secrets = {"sk-SECRET"};
  in.fileText += "# sk-SECRET\n";
  auto messages = buildTestsMessages(in);
  REQUIRE(messages.size() == 1);
  const std::string& m = messages[0].content;
  CHECK_THAT(m, Catch::Contains("\"1h30m\" -> 5400 seconds"));
  CHECK_THAT(m, Catch::Contains("Signature: def parse_duration(text):"));
  CHECK_THAT(m, Catch::Contains("raise NotImplementedError"));
  CHECK_THAT(m, Catch::Contains("tests/test_dur.py (a new file)"));
  CHECK_THAT(m, Catch::Contains("Import the target as: from dur import parse_duration"));
  CHECK_THAT(m, Catch::Contains("pytest.raises"));
  CHECK(m.find("sk-SECRET") == std::string::npos);
  CHECK_THAT(testsSystemPrompt(t::Language::Python), Catch::Contains("Never write the implementation"));
}

TEST_CASE("tests first: the reply's last fenced block is the tests, and the tests the stub passes are flagged", "[refine][testsfirst]") {
  CHECK(testsFromReply("Here:\n```python\ndef test_a():\n    assert 1\n```\nBetter:\n```python\ndef test_b():\n    assert 2\n```\n",
                       t::Language::Python) == "def test_b():\n    assert 2\n");
  CHECK(testsFromReply("no code at all.", t::Language::Python).empty());

  const std::string text = "def test_a():\n    assert f() == 1\n\n\ndef test_b():\n    assert True\n";
  auto tests = testsIn(text, "/w/test_m.py", t::Language::Python);
  REQUIRE(tests.size() == 2);
  t::RunResult run;
  t::TestResult a;
  a.name = "test_a";
  a.status = t::TestStatus::Failed;
  t::TestResult b;
  b.name = "test_b";
  b.status = t::TestStatus::Passed;
  run.tests = {a, b};
  auto flags = flagStubPasses(run, tests, "f");
  REQUIRE(flags.size() == 1);
  CHECK(flags[0].name == "test_b");
  CHECK(flags[0].line == 5);
  CHECK(flags[0].message == "passes on the stub: it asserts nothing about f");
}
