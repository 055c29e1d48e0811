// core/testing/TestIds: the ids greenlight/listTests and greenlight/testResults share. The
// property that matters: a test listed from the text and the same test reported by a run (the
// built-in harness's name, or a runner's own id) get the SAME id.
#include <catch2/catch.hpp>

#include <map>

#include "core/testing/TestIds.h"

using namespace greenlight::core::testing;

namespace {

// An overlay of in-memory files (nothing on disk is read).
OverlayProvider files(std::map<std::string, std::string> texts) {
  return [texts = std::move(texts)](const std::string& p) -> std::optional<std::string> {
    auto it = texts.find(p);
    if (it == texts.end()) return std::nullopt;
    return it->second;
  };
}

std::map<std::string, TestNode> byId(const std::vector<TestNode>& nodes) {
  std::map<std::string, TestNode> out;
  for (const auto& n : nodes) out[n.id] = n;
  return out;
}

std::vector<std::string> ids(const std::vector<TestNode>& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(n.id);
  return out;
}

}  // namespace

TEST_CASE("TestIds: file keys are relative to the root, absolute outside it") {
  CHECK(testFileKey("/ws", "/ws/tests/test_m.py") == "tests/test_m.py");
  CHECK(testFileKey("/ws/", "/ws/./tests/../test_m.py") == "test_m.py");
  CHECK(testFileKey("/ws", "/elsewhere/test_m.py") == "/elsewhere/test_m.py");
  CHECK(testFileKey("", "/ws/test_m.py") == "/ws/test_m.py");
}

TEST_CASE("TestIds: built-in harness names map to pytest-shaped ids") {
  CHECK(testId("/ws", "/ws/tests/test_m.py", "test_add") == "tests/test_m.py::test_add");
  CHECK(testId("/ws", "/ws/tests/test_m.py", "TestMath.test_add") == "tests/test_m.py::TestMath::test_add");
  CHECK(testId("/ws", "/ws/m.py", "doctest:fib") == "m.py::doctest:fib");
  CHECK(testId("/ws", "/ws/m.py", "doctest:Shape.area") == "m.py::doctest:Shape.area");
  CHECK(testId("/ws", "/ws/tests/test_m.py", "test_m (import)") == "tests/test_m.py::test_m (import)");
  CHECK(testId("/ws", "/ws/m.test.js", "sum > adds") == "m.test.js::sum > adds");
  CHECK(testId("/ws", "/ws/t/m_test.cpp", "Math.Adds") == "t/m_test.cpp::Math.Adds");
}

TEST_CASE("TestIds: a runner's own id is used, rebased onto the workspace root") {
  // pytest's rootdir is the root: the node id as it is.
  CHECK(testId("/ws", "/ws/tests/test_m.py", "TestA::test_b[1-2]", "tests/test_m.py::TestA::test_b[1-2]") ==
        "tests/test_m.py::TestA::test_b[1-2]");
  // pytest's rootdir below the editor's folder: the file part is rebased.
  CHECK(testId("/ws", "/ws/sub/tests/test_m.py", "TestA::test_b", "tests/test_m.py::TestA::test_b") ==
        "sub/tests/test_m.py::TestA::test_b");
  // jest: relative to the package's directory.
  CHECK(testId("/ws", "/ws/pkg/src/a.test.js", "sum > adds", "src/a.test.js::sum > adds") == "pkg/src/a.test.js::sum > adds");
  // unittest's dotted id has no file part: the file-based id, as the listing makes it.
  CHECK(testId("/ws", "/ws/tests/test_m.py", "TestA.test_b", "tests.test_m.TestA.test_b") == "tests/test_m.py::TestA::test_b");
  // CTest's target::Suite.Name names no file: the file-based id when the result has a file...
  CHECK(testId("/ws", "/ws/tests/m_test.cpp", "Suite.Name", "m_tests::Suite.Name") == "tests/m_test.cpp::Suite.Name");
  // ... and the runner's id when it has none.
  CHECK(testId("/ws", "", "Suite.Name", "m_tests::Suite.Name") == "m_tests::Suite.Name");
}

TEST_CASE("TestIds: parents, kinds and labels follow from the id") {
  CHECK(parentTestId("tests/test_m.py::TestA::test_b[1-2]") == "tests/test_m.py::TestA::test_b");
  CHECK(testIdKind("tests/test_m.py::TestA::test_b[1-2]") == TestNodeKind::Case);
  CHECK(testIdLabel("tests/test_m.py::TestA::test_b[1-2]") == "test_b[1-2]");
  CHECK(parentTestId("tests/test_m.py::TestA::test_b") == "tests/test_m.py::TestA");
  CHECK(parentTestId("tests/test_m.py::TestA") == "tests/test_m.py");
  CHECK(parentTestId("tests/test_m.py") == "");
  CHECK(testIdKind("tests/test_m.py") == TestNodeKind::File);
  CHECK(parentTestId("m.py::doctest:Shape.area") == "m.py");
  CHECK(parentTestId("a.test.js::outer > inner > adds [1]") == "a.test.js::outer > inner");
  CHECK(testIdKind("a.test.js::outer > adds [1]") == TestNodeKind::Test);  // brackets in a JS title are no case
  CHECK(testIdLabel("a.test.js::outer > inner > adds") == "adds");
  CHECK(parentTestId("m_test.cpp::Math.Adds") == "m_test.cpp::Math");
  CHECK(testIdLabel("m_test.cpp::Math.Adds") == "Adds");
  CHECK(parentTestId("m_test.cpp::adds two numbers") == "m_test.cpp");
}

TEST_CASE("TestIds: the Python tree has the ids the harness's results get") {
  TestPlan plan;
  plan.language = Language::Python;
  plan.workspaceRoot = "/ws";
  plan.sourceFile = "/ws/m.py";
  plan.testFiles = {"/ws/tests/test_m.py"};
  plan.hasDoctests = true;
  auto overlay = files({
      {"/ws/m.py", "def fib(n):\n    \"\"\"\n    >>> fib(10)\n    55\n    \"\"\"\n    return n\n\n\nclass Shape:\n    def area(self):\n"
                   "        \"\"\">>> Shape().area()\n        0\"\"\"\n        return 0\n\n\ndef plain():\n    return 1\n"},
      {"/ws/tests/test_m.py", "import m\n\n\ndef test_fib():\n    assert m.fib(1) == 1\n\n\nclass TestShape:\n"
                              "    def test_area(self):\n        assert True\n\n    def helper(self):\n        pass\n"},
  });
  auto tree = testTree(plan, overlay);
  CHECK(ids(tree) == std::vector<std::string>{"m.py", "m.py::doctest:fib", "m.py::doctest:Shape.area", "tests/test_m.py",
                                              "tests/test_m.py::test_fib", "tests/test_m.py::TestShape",
                                              "tests/test_m.py::TestShape::test_area"});
  auto nodes = byId(tree);
  CHECK(nodes["tests/test_m.py::TestShape"].kind == TestNodeKind::Group);
  CHECK(nodes["tests/test_m.py::TestShape"].line == 8);
  CHECK(nodes["tests/test_m.py::TestShape"].endLine == 13);
  CHECK(nodes["tests/test_m.py::test_fib"].line == 4);
  CHECK(nodes["tests/test_m.py::test_fib"].endLine == 5);  // not the blank lines and class after it
  CHECK(nodes["tests/test_m.py::TestShape::test_area"].parent == "tests/test_m.py::TestShape");
  CHECK(nodes["tests/test_m.py::TestShape::test_area"].line == 9);
  CHECK(nodes["tests/test_m.py::test_fib"].parent == "tests/test_m.py");
  CHECK(nodes["m.py::doctest:fib"].line == 1);
  // The same tests as a run reports them.
  CHECK(nodes.count(testId("/ws", "/ws/tests/test_m.py", "TestShape.test_area")));
  CHECK(nodes.count(testId("/ws", "/ws/m.py", "doctest:Shape.area")));
  CHECK(nodes.count(testId("/ws", "/ws/tests/test_m.py", "TestShape::test_area", "tests/test_m.py::TestShape::test_area")));
}

TEST_CASE("TestIds: the JavaScript tree follows describe nesting") {
  TestPlan plan;
  plan.language = Language::JavaScript;
  plan.workspaceRoot = "/ws";
  plan.sourceFile = "/ws/sum.js";
  plan.testFiles = {"/ws/sum.test.js", "/ws/plain.test.js"};
  auto overlay = files({
      {"/ws/sum.test.js",
       "const { describe, it, test } = require('node:test');\n"  // 1
       "// test('commented out', () => {});\n"                    // 2
       "describe('sum', () => {\n"                                // 3
       "  it('adds (a, b)', () => { const s = \"test('no')\"; });\n"  // 4
       "  describe.skip(`nested`, function () {\n"                // 5
       "    test.only('handles { braces }', () => {\n"            // 6
       "      const re = /[)}]/;\n"                               // 7
       "    });\n"                                                // 8
       "  });\n"                                                  // 9
       "});\n"                                                    // 10
       "test('top', async (t) => {\n"                             // 11
       "  await t.test('sub', () => {});\n"                       // 12
       "});\n"},                                                  // 13
      {"/ws/plain.test.js", "const assert = require('assert');\nassert.equal(1, 1);\n"},
  });
  auto tree = testTree(plan, overlay);
  CHECK(ids(tree) == std::vector<std::string>{"sum.test.js", "sum.test.js::sum", "sum.test.js::sum > adds (a, b)",
                                              "sum.test.js::sum > nested", "sum.test.js::sum > nested > handles { braces }",
                                              "sum.test.js::top", "sum.test.js::top > sub", "plain.test.js",
                                              "plain.test.js::plain.test.js"});
  auto nodes = byId(tree);
  CHECK(nodes["sum.test.js::sum"].kind == TestNodeKind::Group);
  CHECK(nodes["sum.test.js::sum"].line == 3);
  CHECK(nodes["sum.test.js::sum"].endLine == 10);
  CHECK(nodes["sum.test.js::sum > nested > handles { braces }"].parent == "sum.test.js::sum > nested");
  CHECK(nodes["sum.test.js::sum > nested > handles { braces }"].line == 6);
  CHECK(nodes["sum.test.js::sum > nested > handles { braces }"].endLine == 8);
  CHECK(nodes["sum.test.js::top > sub"].parent == "sum.test.js::top");
  CHECK(nodes["sum.test.js::top"].kind == TestNodeKind::Test);
  // node:test's reporter names the nested test "sum > nested > handles { braces }".
  CHECK(nodes.count(testId("/ws", "/ws/sum.test.js", "sum > nested > handles { braces }")));
}

TEST_CASE("TestIds: GoogleTest suites group their tests, and selection names what runners select") {
  TestPlan plan;
  plan.language = Language::Cxx;
  plan.workspaceRoot = "/ws";
  plan.sourceFile = "/ws/m.cpp";
  plan.testFiles = {"/ws/m_test.cpp"};
  auto overlay = files({{"/ws/m_test.cpp", "#include <gtest/gtest.h>\nTEST(Math, Adds) {\n}\nTEST(Math, Subs) {\n}\n"}});
  auto tree = testTree(plan, overlay);
  CHECK(ids(tree) == std::vector<std::string>{"m_test.cpp", "m_test.cpp::Math", "m_test.cpp::Math.Adds", "m_test.cpp::Math.Subs"});
  CHECK(selectionForIds(plan, {"m_test.cpp::Math.Subs"}, overlay) == std::vector<std::string>{"Math.Subs"});
  CHECK(selectionForIds(plan, {"m_test.cpp::Math"}, overlay) == std::vector<std::string>{"Math.*"});
  CHECK_FALSE(selectionForIds(plan, {"m_test.cpp"}, overlay));
  CHECK_FALSE(selectionForIds(plan, {"m_test.cpp::Nope.Nope"}, overlay));

  TestPlan py;
  py.language = Language::Python;
  py.workspaceRoot = "/ws";
  py.sourceFile = "/ws/test_m.py";
  py.sourceIsTestFile = true;
  auto pyFiles = files({{"/ws/test_m.py", "class TestA:\n    def test_b(self):\n        pass\n\n\ndef test_c():\n    pass\n"}});
  CHECK(selectionForIds(py, {"test_m.py::TestA::test_b", "test_m.py::test_c[2]"}, pyFiles) ==
        std::vector<std::string>{"TestA.test_b", "test_c"});
  CHECK(selectionForIds(py, {"test_m.py::TestA"}, pyFiles) == std::vector<std::string>{"TestA"});
}
