// Tests first (DESIGN.md "Apply", generate.testsFirst): a target with no nearby tests and no
// examples in its comment gets tests written from its comment and signature alone, placed where
// the project keeps tests, checked against the stub, and shown to the user before anything runs
// against an implementation. The user's accepted (possibly edited) text is then the test file
// the refine loop runs, as an overlay, and the final edit holds it and the code.
//
// What lives here: where the test file goes and in which style (placeTests), the names a test
// file defines, the stub the tests are checked against (stubFor), and which tests the stub
// passes (flagStubPasses). The words said to the model are in TestsPrompt.h.
//
// Thread-safety: pure functions (placeTests reads the file system).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/refine/Splice.h"
#include "core/refine/Target.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

// Tests the user accepted: `text` is the WHOLE text the test file is to have.
struct AcceptedTests {
  std::string path;  // absolute
  std::string text;
};

struct TestsPlacement {
  std::string path;        // absolute: where the test file goes
  bool exists = false;     // the file is there already (the new tests are added to it)
  std::string original;    // its current text when it exists
  // "pytest", "unittest", "python" (plain test_* functions, the built-in harness), "node:test"
  std::string framework;
  std::string importLine;  // how the tests import the target, as the project's tests do
  std::string examplePath;  // another test file of the project (its style), "" when none
  std::string exampleText;
  std::string exportHint;  // JavaScript: the export the import needs
  // C++ with a build: an existing source of a test target (CxxBuildTests.h); its unsaved text
  // overlays the file, and only the new cases run (the framework's filter).
  bool inBuild = false;
};

// nullopt + `error` (one sentence) for a language or project tests-first cannot serve yet.
// `plan`: the source's discovered tests, which a C++ project with a build needs (its test
// targets); without it such a project is refused.
std::optional<TestsPlacement> placeTests(const Target& target, const std::string& sourcePath, const std::string& root,
                                         std::string* error, const testing::TestPlan* plan = nullptr);

struct StubFlag {
  std::string name;
  int line = 0;  // 1-based, in the proposed file
  std::string message;
};

struct TestsProposal {
  std::string path;          // absolute
  bool exists = false;
  std::string original;      // when exists
  std::string text;          // the whole proposed file
  std::vector<std::string> names;
  std::vector<StubFlag> flagged;
  std::string error;         // the proposal did not collect / run: one sentence
};

// The test file's text with the model's new tests: the block itself for a new file, appended to
// the existing text otherwise.
std::string proposedFileText(const TestsPlacement& placement, const std::string& testsCode);

// The tests a test file defines, in order (name, 1-based line).
std::vector<std::pair<std::string, int>> testsIn(const std::string& text, const std::string& path, testing::Language language);

// The code the tests are checked against: the stub as the user wrote it, or for an insert a
// definition that only raises / throws. "" when the target has no name to define.
std::string stubFor(const Target& target, const std::string& sourcePath, const std::string& sourceText);
Additions stubAdditions(const Target& target, const std::string& sourcePath, const std::string& sourceText);

// Which of `names` PASSED in a run against the stub: each asserts nothing about the target.
std::vector<StubFlag> flagStubPasses(const testing::RunResult& run, const std::vector<std::pair<std::string, int>>& tests,
                                     const std::string& targetName);

}  // namespace greenlight::core::refine
