// 1-based (line, column) from the test engine -> LSP positions in the negotiated encoding.
//
// The engine's columns are NOT in one unit (core/testing/TestTypes.h does not say which, and
// each producer keeps its own): ranges computed by core/testing/Diagnostics.cpp from the line
// text (first/last non-blank, end_column) are BYTE columns; Python's SyntaxError.offset counts
// code points; V8 stack frames count UTF-16 code units; gcc counts "display" columns (a wide
// CJK character or emoji is 2, a tab advances to the next multiple of 8) unless told
// -fdiagnostics-column-unit=byte; clang counts bytes. This file converts each unit against the
// text the run used, so a column after an emoji or CJK text lands on the right character.
//
// Thread-safety: pure functions over values.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/testing/TestTypes.h"
#include "protocol/Positions.h"

namespace greenlight::lsp {

enum class ColumnUnit { Bytes, CodePoints, Utf16, Display };

// Byte index inside `line` (no terminator) of the 1-based `column` counted in `unit`; columns
// past the end clamp to line.size(); column <= 0 means the line start.
std::size_t byteInLine(std::string_view line, int column, ColumnUnit unit);

// Display width of the character starting at line[i] (gcc's rules, close enough: East Asian
// wide/fullwidth and emoji 2, combining marks 0, others 1; tabs are handled by the caller).
int displayWidth(char32_t c);

// The unit a producer reports columns in, for a run of `language` (see the essay above).
ColumnUnit producerUnit(core::testing::Language language, bool compileError, const std::string& cxxCompiler);

// A file's text with its line index, for repeated conversions.
class TextPositions {
 public:
  // nullopt text: the file could not be read; positions then pass the numbers through
  // (line-1, column-1) so the diagnostic still appears on the right line.
  explicit TextPositions(std::optional<std::string> text);
  bool hasText() const { return text_.has_value(); }
  // Byte offset of (line, column-in-unit), 1-based, clamped to the line / the document.
  std::size_t offset(int line, int column, ColumnUnit unit) const;
  // Offsets of the first and one-past-the-last non-blank characters of `line` (1-based).
  std::pair<std::size_t, std::size_t> codeSpan(int line) const;
  // End of `line`'s content.
  std::size_t lineEnd(int line) const;
  // The byte offset one character after `offset` (clamped to the line end).
  std::size_t nextChar(std::size_t offset) const;
  protocol::Position position(std::size_t offset, protocol::PositionEncoding enc) const;
  // Without text: the raw 0-based position.
  protocol::Position rawPosition(int line, int column) const;

 private:
  std::string_view lineText(std::size_t zeroBasedLine) const;
  std::optional<std::string> text_;
  protocol::LineIndex index_;
};

}  // namespace greenlight::lsp
