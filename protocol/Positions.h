// LSP positions <-> byte offsets in UTF-8 text, for the negotiated position encoding.
//
// LineIndex records where each line starts. Lines end at "\n"; a "\r" before it belongs to the
// line terminator, not the line (so a column past "abc" in "abc\r\n" clamps to 3, not 4). Only
// "\n" starts a new line: a lone "\r" is content (LSP allows it as a terminator, but no editor
// greenlight targets sends it, and treating it as content never crashes).
//
// Conversions follow the spec's clamping rules: a character past the end of its line means the
// line end, and a line past the last line means the end of the document. A UTF-16 column that
// falls between the two halves of a surrogate pair rounds down to the start of that character.
// Invalid UTF-8 never crashes: each byte that does not begin a valid sequence counts as one
// code unit in every encoding (what VS Code shows for U+FFFD is also one unit).
//
// The index supports incremental update (`applyEdit`): it replaces the line starts inside the
// edited range and shifts the ones after it, without rescanning the whole text.
//
// Thread-safety: a LineIndex is a plain value; the text it describes is passed in each call and
// must be the text the index was built from (or kept in sync with applyEdit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/Basic.h"

namespace greenlight::protocol {

enum class PositionEncoding { Utf8, Utf16, Utf32 };
// "utf-8", "utf-16", "utf-32"
std::string_view encodingName(PositionEncoding e);
std::optional<PositionEncoding> parseEncoding(std::string_view name);

class LineIndex {
 public:
  LineIndex() : starts_{0} {}
  explicit LineIndex(std::string_view text);

  std::size_t lineCount() const { return starts_.size(); }
  // Byte offset of the first character of `line` (clamped to the last line).
  std::size_t lineStart(std::size_t line) const;
  // Byte offset of the end of `line`'s content (before "\r\n" / "\n"; the text end for the last).
  std::size_t lineEnd(std::string_view text, std::size_t line) const;

  // Position -> byte offset, clamped as the spec says. Never past text.size().
  std::size_t offset(std::string_view text, Position pos, PositionEncoding enc) const;
  // Byte offset (clamped to text.size(), rounded down to a character start) -> Position.
  Position position(std::string_view text, std::size_t offset, PositionEncoding enc) const;

  // Updates the index for text[start, end) having been replaced by `inserted`. Call AFTER
  // editing: `text` is the new text. Cost: O(lines after the edit) integer adds plus a scan of
  // `inserted` — no rescan of the document.
  void applyEdit(std::size_t start, std::size_t end, std::string_view inserted);

 private:
  std::vector<std::size_t> starts_;  // starts_[0] == 0; one entry per line
};

// Length of the UTF-8 sequence starting at s[i] if it is valid, else 1 (an invalid byte).
std::size_t utf8SequenceLength(std::string_view s, std::size_t i);
// Code units of `s` in `enc` (invalid bytes count 1).
std::size_t measure(std::string_view s, PositionEncoding enc);

}  // namespace greenlight::protocol
