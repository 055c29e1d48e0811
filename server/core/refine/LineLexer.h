// An incremental, line-at-a-time lexical state for Python and the C-like languages: whether the
// next line starts inside a string, a comment or brackets. ScannedSource needs the whole text up
// front; the reply cutter does not know yet where the code ends (prose after it may hold an
// apostrophe that would open a "string"), so it feeds lines one by one and stops at the first
// line that is not code.
//
// Not a parser: the same comment and string rules ScannedSource knows (Python prefixes and
// triple quotes; JavaScript template literals with nested `${}`; C++ raw strings and digit
// separators), minus JavaScript regex literals (a `/` is an operator here; a regex literal with
// a quote in it can mislead it, which costs at most a too-short or too-long run of code).
//
// Thread-safety: plain value.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

class LineLexer {
 public:
  explicit LineLexer(testing::Language language) : language_(language) {}

  // The state before the next line: at the top level (no open string, comment or bracket, and
  // the previous line did not end with a backslash).
  bool atTopLevel() const { return !inString_ && !inComment_ && depth_ == 0 && !continued_; }
  bool inString() const { return inString_; }
  int depth() const { return depth_; }

  // Consumes one line (without its '\n').
  void feed(std::string_view line);

 private:
  void feedPython(std::string_view line);
  void feedCLike(std::string_view line);

  testing::Language language_;
  bool inString_ = false;     // inside a multi-line string (Python triple quotes, JS template, C++ raw)
  bool inComment_ = false;    // inside /* */
  bool continued_ = false;    // the last line ended with a backslash outside a string
  int depth_ = 0;             // ( [ { in code
  char quote_ = 0;            // Python: the triple quote's character; JS: '`'
  std::string rawDelimiter_;  // C++ raw string: ")delim\""
  std::vector<int> templateDepths_;  // JS: the brace depth at each open `${`
};

}  // namespace greenlight::core::refine
