// Finds the tests near a file, or near the function at a line (DESIGN.md "Nearby tests").
//
//  Python m.py      test_* functions, unittest.TestCase and Test* classes in m.py itself,
//                   doctests in its docstrings, and test_m.py / m_test.py / tests/test_m.py
//                   beside it or in any parent up to the workspace root.
//  JavaScript m.js  m.test.js, m.spec.js (also .mjs/.cjs/.ts/.mts/.cts/.tsx), __tests__/m.test.js,
//  (.mjs, .cjs,     test/m.test.js, beside it or in a parent up to the root; node:test or plain
//  .ts .tsx .mts .cts)  asserts. A project with jest, vitest or mocha: JsProject.h.
//  C++ m.cpp/.hpp/.h  m_test.cpp, test_m.cpp, tests/m_test.cpp (beside or in a parent); plain
//                   assert+main, Catch2 or GoogleTest (by the header the test includes).
//  anything else    `tests.command` from the config (argv with {file} {dir}).
// A file that is itself a test file (test_m.py, m.test.js, m_test.cpp) is run on its own.
//
// With a line, the plan is narrowed to the tests that exercise the function defined there:
// tests whose name contains the function's name or whose body calls it; when none can be told
// apart, every nearby test runs. Doctests are narrowed to that function's docstring.
//
// Discovery reads files (through the overlay, so unsaved editor text counts) and never runs
// anything. Which runner owns a file (and so which discovery applies) is adapters/TestJob.h's
// question: this file serves the adapters and knows none of them. Thread-safety: pure functions.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

// Unsaved text for an absolute path, or nullopt to read the file from disk.
// Called from worker threads: the provider must be thread-safe (DocumentStore::textForPath is).
using OverlayProvider = std::function<std::optional<std::string>(const std::string& path)>;

// Reads `path` through `overlay` (when set) or from disk.
std::optional<std::string> readSource(const std::string& path, const OverlayProvider& overlay);
// The bytes of the file at `path`, nullopt when it cannot be opened.
std::optional<std::string> readFile(const std::string& path);

// The nearest ancestor of `file` holding .git or .greenlight.json; the walk also stops at
// `stopAt` (a workspace folder the editor gave us) when set. Falls back to the file's directory.
std::string findWorkspaceRoot(const std::string& file, const std::string& stopAt = "");

// Whether `dir` is the filesystem root. No search for tests walks it: a file saved at / or an
// editor whose root is / would have discovery read the whole machine (2,000 of the system's
// Python test files, seconds per keystroke) for tests no project keeps there.
bool isFilesystemRoot(const std::string& dir);

std::optional<Language> languageForPath(const std::string& path);
// Whether `path` is named as a test file of its language (test_m.py, m_test.py, m.test.js,
// m.spec.ts, __tests__/m.js, m_test.cpp, test_m.cpp): what discovery runs on its own, and what
// the workspace listing (WorkspaceTests.h) lists.
bool isTestFilePath(const std::string& path);

struct StaticTest {
  std::string name;  // as the harness will report it ("test_fib", "TestX.test_y", "adds")
  std::string file;
  int line = 0;      // 1-based
  int endLine = 0;   // last line of its body (best effort)
};

struct FunctionAt {
  std::string name;
  int line = 0;  // the definition's line, 1-based
};

// The function whose definition encloses (or is on) `line` (1-based), best effort.
std::optional<FunctionAt> functionAtLine(const std::string& text, int line, Language language);
// Where `name` is defined in `text` (first match), best effort.
std::optional<FunctionAt> findFunction(const std::string& text, const std::string& name, Language language);
// Tests written in `text` (a test file, or a Python source with same-file tests).
std::vector<StaticTest> listTests(const std::string& text, const std::string& file, Language language);

struct DiscoveryRequest {
  std::string path;                 // absolute or relative to the cwd
  std::optional<int> line;          // 1-based
  std::string workspaceRoot;        // empty: findWorkspaceRoot(path)
  const Config* config = nullptr;   // testsCommand; may be null
  OverlayProvider overlay;          // may be empty
  // Narrow to this function when no line is given (a function that does not exist yet).
  std::string functionName;
  // Test files that exist only in the overlay (tests written from a comment's examples).
  std::vector<std::string> extraTestFiles;
  // The extra test files are test files of the project, placed where its runner finds them by
  // its own patterns (tests first): a project runner (jest, vitest, mocha) runs them in place,
  // where they exist only as overlays. False: the built-in harness runs them (comment examples).
  bool extraAreProjectTests = false;
  // Environment used to resolve the toolchain (RunOptions::toolEnvironment), for adapters that
  // must know whether the project's interpreter can run its runner.
  std::map<std::string, std::string> toolEnvironment;
};

struct TestPlan {
  Language language = Language::Python;
  // The adapter that owns the plan (adapters/Adapter.h): "pytest", "unittest", "python",
  // "node", "cxx", "command"; runTests() (adapters/TestJob.h) hands the plan back to it.
  std::string runner;
  std::string rootDir;          // the runner's root and working directory (pytest's rootdir); "" for the built-in harnesses
  std::vector<std::string> runnerArgs;  // what the runner is asked to run (pytest node ids or paths, unittest names)
  // The JS runners' test-name filter (jest/vitest -t, mocha --grep): a regular expression over
  // the tests' title paths joined with ' '; "" runs every test of the files.
  std::string namePattern;
  // Files the runner reads beyond the source and the tests (conftest.py, its config): their
  // unsaved text is what it sees, and they are part of the run's fingerprint.
  std::vector<std::string> supportFiles;
  std::string selectionNote;    // how a FILE:LINE run chose its tests, in words ("" when it ran all of them)
  // What decided the test files beyond their imports, in words: a test named after the file set
  // aside because it loads another module of that name (JavaScript, Python), the runner's answer
  // where the static map could not follow an import, why no test file was found.
  std::string discoveryNote;
  std::string sourceFile;       // the file under test (absolute, normalised)
  std::string workspaceRoot;
  bool sourceIsTestFile = false;             // PATH was a test file: it is run on its own
  std::vector<std::string> testFiles;        // separate test files (never the source)
  bool sameFileTests = false;                // Python: the source defines tests itself
  bool hasDoctests = false;                  // Python: the source has >>> examples
  std::string framework;        // "python", "node", "assert", "catch2", "gtest", "command"
  std::optional<FunctionAt> function;        // the function at LINE, when one was asked for
  std::vector<std::string> selected;         // tests to run; empty: all
  std::vector<std::string> doctestFunctions; // empty + hasDoctests: all functions' doctests
  std::vector<std::string> command;          // Language::Command: argv after substitution
  // The interpreter a project runner chose at discovery (adapters/ProjectPython.h: the one that
  // imports pytest), as a path; "" runs python.interpreter / node.path as configured.
  std::string interpreter;
  std::vector<StaticTest> staticTests;       // what the scan saw (names for narrowing)

  bool empty() const { return testFiles.empty() && !sameFileTests && !hasDoctests && command.empty() && !sourceIsTestFile; }
};

// What every adapter's discovery starts from: the request, resolved once (adapters/TestJob.h
// resolves it; which adapter owns the file is decided there, never here).
struct DiscoveryContext {
  const DiscoveryRequest& request;
  std::string source;         // absolute, normalised
  std::string workspaceRoot;  // absolute, normalised, no trailing '/'
  Language language = Language::Python;
  std::string text;           // the source's text (overlay first)
};

// The built-in discovery (test_m.py beside m.py, m.test.js, m_test.cpp; the tests in the file;
// docstring examples; narrowing to a function): what the built-in harnesses run, and a start
// for the project runners' own discovery.
TestPlan builtinDiscovery(const DiscoveryContext& ctx);
// Narrows `plan` to the function at the request's line (or named): plan.selected and
// plan.doctestFunctions; the texts of the plan's test files are read through the overlay.
void narrowToFunction(TestPlan& plan, const DiscoveryContext& ctx);

}  // namespace greenlight::core::testing
