// A lexical pass over a source file that tells, for every byte, whether it is code, comment or
// string, so that target finding can match brackets and recognise stubs without being fooled
// by a `{` in a string or a `def` in a docstring. Not a parser: it knows each language's
// comment and string syntax (Python prefixes and triple quotes; JavaScript template literals
// with nested `${}`, and regex literals by the usual preceding-token rule; C++ raw strings, char
// literals and digit separators) and nothing else.
//
// Thread-safety: pure functions and plain values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

enum class CharClass : unsigned char { Code, Comment, String };

struct ScannedLine {
  std::size_t begin = 0, end = 0;  // byte offsets of the line in the text, end excludes '\n' (and '\r')
  int depthAtStart = 0;            // bracket depth ((, [, {) in code at the start of the line
  bool startsInString = false;     // the line begins inside a (multi-line) string or comment
};

class ScannedSource {
 public:
  ScannedSource(std::string_view text, testing::Language language);

  std::string_view text() const { return text_; }
  testing::Language language() const { return language_; }
  CharClass at(std::size_t offset) const { return classes_[offset]; }
  const std::vector<CharClass>& classes() const { return classes_; }
  int lineCount() const { return static_cast<int>(lines_.size()); }
  // 1-based line access.
  const ScannedLine& line(int n) const { return lines_[static_cast<std::size_t>(n - 1)]; }
  std::string_view lineText(int n) const;
  // The line with comments and string contents replaced by spaces (quotes kept), same length.
  std::string maskedLine(int n) const;
  // The masked text of [begin, end).
  std::string masked(std::size_t begin, std::size_t end) const;
  // 1-based line holding `offset`.
  int lineOf(std::size_t offset) const;
  // The code of [begin, end) reduced to what tells a stub apart: comments dropped, each string
  // one 'S', whitespace runs one space, none at either end.
  std::string shape(std::size_t begin, std::size_t end) const;

  bool isBlank(int n) const;
  // Only a comment (and whitespace) on the line, and the line does not start inside a string.
  bool isCommentOnly(int n) const;
  // Whether the line holds any code character (not whitespace, comment or string).
  bool hasCode(int n) const;
  // Leading whitespace of the line, as written.
  std::string indentOf(int n) const;
  // Indent width (tabs to 8).
  int indentWidth(int n) const;

  // For `open` at a code '(' '[' or '{', the offset of the matching closer, or npos.
  std::size_t matching(std::size_t open) const;

 private:
  void scanPython();
  void scanCLike(bool javascript);
  void indexLines();

  std::string_view text_;
  testing::Language language_;
  std::vector<CharClass> classes_;
  std::vector<ScannedLine> lines_;
};

}  // namespace greenlight::core::refine
