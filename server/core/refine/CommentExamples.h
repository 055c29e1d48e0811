// Tests written in the comment itself (DESIGN.md "Apply"): when no nearby test exists, examples
// in the comment are run as tests. Two forms, in any of the three languages:
//   >>> f(2)          a call on a `>>>` line and its expected value on the next line
//   4
//   f(2) == 4         an equality (also `===` in JavaScript)
// They become a test file that exists only as an overlay (never written to disk), beside the
// source, found by the runner like any other test file.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/refine/Target.h"

namespace greenlight::core::refine {

struct CommentExample {
  std::string call;      // "f(2)"
  std::string expected;  // "4"
  int line = 0;          // 1-based line in the file (of the call)
};

std::vector<CommentExample> examplesInComment(const Target& target);

struct SyntheticTests {
  std::string path;  // absolute host path beside the source (does not exist on disk)
  std::string text;
  std::vector<std::string> names;  // the test names it defines
  std::string exportHint;          // JavaScript: how the tests import the function
};

// nullopt when there are no examples, or the function's name cannot be told.
std::optional<SyntheticTests> synthesizeTests(const Target& target, const std::string& sourcePath,
                                              std::string_view sourceText);

}  // namespace greenlight::core::refine
