// Reading what ran in the sandbox: the harnesses' JSON event lines, gcc/clang diagnostics, a
// generic file:line[:col] matcher (tests.command), and glibc's assert message.
//
// Pure functions over text; thread-safe. Paths come back as the sandbox saw them: the caller
// maps them to host paths (PathMap).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

// The marker that prefixes every harness event line: "\x1eGL ".
inline constexpr char kEventMarker[] = "\x1eGL ";

struct EventStream {
  std::vector<nlohmann::json> events;  // in order; malformed lines are skipped
  std::string rest;                    // the text without the event lines
};
EventStream extractEvents(const std::string& text);
// One event line's JSON (after the marker); a discarded json when it is not an object. Lone
// surrogate escapes (Python's surrogateescape output) become U+FFFD instead of losing the event.
nlohmann::json parseEventLine(std::string line);

// Folds harness events ("start", "result", "loaded", "done", "timeout") into results.
// `running` is the test that started and never finished (the sandbox killed it).
struct HarnessOutcome {
  std::vector<TestResult> results;
  std::vector<RunWarning> warnings;  // "warning" events (a docstring doctest cannot parse)
  std::optional<TestResult> running;
  // Every test a `collected` event listed (id, name, file, line), in order: what the run meant
  // to run, so that a run stopped early can say which tests it never reached.
  std::vector<TestResult> collected;
  // "coverage" events, counts of the same file summed (paths as the sandbox saw them).
  std::vector<FileCoverage> coverage;
  bool done = false;
};
HarnessOutcome foldEvents(const std::vector<nlohmann::json>& events);
TestResult resultFromEvent(const nlohmann::json& event);

// gcc/clang: "file:line:col: error: msg", "file:line: error: msg", "fatal error", warnings and
// notes; also the linker's "file:line: undefined reference to `x'" (as an error).
std::vector<CompilerMessage> parseCompilerOutput(const std::string& text);

// Any "path:line[:col][: message]" where path looks like a file path (contains a dot or a
// slash). Used for tests.command output. A message that starts with a severity word
// ("error:", "fatal error:", "warning:", "note:", "info:", also "error[E0308]:") is a compiler
// or linter line: that severity, code "compile-error", the word removed from the message. Any
// other location is where a test failed: severity "error", code "test-failed".
std::vector<CompilerMessage> parseGenericLocations(const std::string& text);

// glibc: "prog: file:line: function: Assertion `expr' failed."
struct AssertFailure {
  std::string file, function, expression;
  int line = 0;
};
std::optional<AssertFailure> parseAssertFailure(const std::string& text);

// Maps paths seen inside the sandbox to host paths: exact files first, then prefixes.
class PathMap {
 public:
  void addFile(std::string sandboxPath, std::string hostPath);
  void addPrefix(std::string sandboxPrefix, std::string hostPrefix);
  std::string toHost(const std::string& path) const;
  void mapFrames(std::vector<Frame>& frames) const;
  // Also rewrites sandbox paths inside the message and output ("... from /work/src/m.py").
  void mapResult(TestResult& result) const;
  std::string mapText(std::string text) const;

 private:
  std::vector<std::pair<std::string, std::string>> files_, prefixes_;
};

// Caps `text` at `cap` bytes on a UTF-8 boundary, adding a note when cut.
std::string capText(const std::string& text, std::size_t cap);

}  // namespace greenlight::core::testing
