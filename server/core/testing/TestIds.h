// Stable test ids for the editors' test views (the `greenlight/listTests` request and the
// `greenlight/testResults` notification, DESIGN.md "LSP surface"): ONE function, testId(), names
// a test both when it is listed (from the source text, nothing run) and when a run reports it,
// so an editor can match a result to the item it shows.
//
// An id is `<test file relative to the root>::<path>` (pytest's node id shape):
//   Python   tests/test_m.py::TestA::test_b, tests/test_m.py::test_c[1-2] (a parametrize case),
//            m.py::doctest:fib (the built-in harness's `TestA.test_b` maps to `TestA::test_b`)
//   JS       m.test.js::sum > adds two numbers (describe titles joined by " > ", jest's shape)
//   C++      tests/m_test.cpp::Suite.Name (GoogleTest), tests/m_test.cpp::adds (Catch2)
// A runner's own id (TestResult::id, EVENTS.md) is used when it has one, rebased onto the root
// when its file part is relative to another directory (pytest's rootdir, jest's project root);
// a runner id without a file part (unittest's `module.Class.test`, CTest's `target::Suite.Name`)
// gives way to the file-based id, so both sides still agree. The parent of an id follows from
// the id alone (parentTestId), with the file's language.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

enum class TestNodeKind { File, Group, Test, Case };
// "file", "group", "test", "case".
std::string_view testNodeKindName(TestNodeKind kind);

struct TestNode {
  std::string id;
  std::string label;
  TestNodeKind kind = TestNodeKind::Test;
  std::string parent;  // "" for a file
  std::string file;    // absolute host path
  int line = 0;        // 1-based; 0: unknown
  int endLine = 0;     // last line (best effort); 0: unknown
};

// `file` relative to `root` with '/' separators; the absolute path when it is not under root.
std::string testFileKey(const std::string& root, const std::string& file);

// The id of the test `name` defined in `file` (TestResult::name / StaticTest::name), or of the
// runner's `runnerId` when it has one. `root` is the workspace root the ids are relative to.
std::string testId(const std::string& root, const std::string& file, const std::string& name,
                   const std::string& runnerId = "");

// The file part of an id ("tests/test_m.py"); the whole id when it has none.
std::string testIdFile(const std::string& id);
// What a node of this id is: Case for a parametrize id (`test_b[1-2]`), File for a bare file
// key, else Test (listTests says Group for the groups it lists).
TestNodeKind testIdKind(const std::string& id);
// The enclosing node: case -> its test, test -> its class/describe/suite or file, group -> the
// enclosing group or file, file -> "". The language (by the file's extension) decides how the
// path splits: "::" (Python), " > " (JavaScript), `Suite.Name` (C++).
std::string parentTestId(const std::string& id);
// The last component of the id, as an editor labels it ("test_b[1-2]", "adds two numbers").
std::string testIdLabel(const std::string& id);

// The tree of the tests written near the plan's file: each test file (and the source itself
// when it holds tests or doctests) -> its classes / describe blocks / GoogleTest suites -> its
// tests, in file order. Reads the files through `overlay`; runs nothing.
std::vector<TestNode> testTree(const TestPlan& plan, const OverlayProvider& overlay);

// The names (as the runner reports them) that select `ids` in a run of `plan`: a test's name,
// a Python class for the class's group; nullopt when some id cannot be narrowed to (a file, a
// describe block): then the whole plan runs.
std::optional<std::vector<std::string>> selectionForIds(const TestPlan& plan, const std::vector<std::string>& ids,
                                                        const OverlayProvider& overlay);

}  // namespace greenlight::core::testing
