#include "lsp/features/RunTestsPositions.h"

#include <algorithm>

namespace greenlight::lsp {
namespace {

// The code point at line[i] (its sequence length is `len`); an invalid byte decodes as itself.
char32_t decodeAt(std::string_view s, std::size_t i, std::size_t len) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  switch (len) {
    case 2: return static_cast<char32_t>(((b(0) & 0x1Fu) << 6) | (b(1) & 0x3Fu));
    case 3: return static_cast<char32_t>(((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu));
    case 4:
      return static_cast<char32_t>(((b(0) & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) |
                                   (b(3) & 0x3Fu));
    default: return static_cast<char32_t>(b(0));
  }
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

int displayWidth(char32_t c) {
  if (c == 0x200B || (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x20D0 && c <= 0x20FF) ||
      (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xFE20 && c <= 0xFE2F))
    return 0;
  if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF) ||
      (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
      (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
      (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
      (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x1F680 && c <= 0x1F6FF) || (c >= 0x20000 && c <= 0x3FFFD))
    return 2;
  return 1;
}

std::size_t byteInLine(std::string_view line, int column, ColumnUnit unit) {
  if (column <= 1) return 0;
  const std::size_t want = static_cast<std::size_t>(column - 1);  // units before the target
  if (unit == ColumnUnit::Bytes) return std::min(want, line.size());
  std::size_t units = 0, i = 0;
  while (i < line.size() && units < want) {
    std::size_t len = protocol::utf8SequenceLength(line, i);
    char32_t c = decodeAt(line, i, len);
    std::size_t step = 1;
    if (unit == ColumnUnit::Utf16) {
      step = (len == 4) ? 2 : 1;
    } else if (unit == ColumnUnit::Display) {
      step = c == U'\t' ? 8 - units % 8 : static_cast<std::size_t>(displayWidth(c));
    }
    // A target inside a wide character (the second half of a surrogate pair or of a 2-column
    // glyph) rounds down to that character's start.
    if (units + step > want && step > 0) break;
    units += step;
    i += len;
  }
  return i;
}

ColumnUnit producerUnit(core::testing::Language language, bool compileError, const std::string& cxxCompiler) {
  using core::testing::Language;
  switch (language) {
    case Language::Python: return ColumnUnit::CodePoints;  // SyntaxError.offset
    case Language::JavaScript: return ColumnUnit::Utf16;   // V8 stack frames, SyntaxError carets
    case Language::Cxx:
      if (!compileError) return ColumnUnit::Bytes;  // DWARF/sanitizer columns
      return cxxCompiler.find("clang") != std::string::npos ? ColumnUnit::Bytes : ColumnUnit::Display;
    case Language::Command: return ColumnUnit::Bytes;
  }
  return ColumnUnit::Bytes;
}

TextPositions::TextPositions(std::optional<std::string> text) : text_(std::move(text)) {
  if (text_) index_ = protocol::LineIndex(*text_);
}

std::string_view TextPositions::lineText(std::size_t line) const {
  if (!text_) return {};
  std::size_t start = index_.lineStart(line);
  std::size_t end = index_.lineEnd(*text_, line);
  return std::string_view(*text_).substr(start, end - start);
}

std::size_t TextPositions::offset(int line, int column, ColumnUnit unit) const {
  if (!text_) return 0;
  if (line < 1) return 0;
  auto l = static_cast<std::size_t>(line - 1);
  if (l >= index_.lineCount()) return text_->size();
  return index_.lineStart(l) + byteInLine(lineText(l), column, unit);
}

std::pair<std::size_t, std::size_t> TextPositions::codeSpan(int line) const {
  if (!text_ || line < 1) return {0, 0};
  auto l = static_cast<std::size_t>(line - 1);
  if (l >= index_.lineCount()) return {text_->size(), text_->size()};
  std::string_view t = lineText(l);
  std::size_t first = 0, last = t.size();
  while (first < t.size() && isBlank(t[first])) ++first;
  while (last > first && isBlank(t[last - 1])) --last;
  std::size_t base = index_.lineStart(l);
  return {base + first, base + last};
}

std::size_t TextPositions::lineEnd(int line) const {
  if (!text_ || line < 1) return 0;
  auto l = static_cast<std::size_t>(line - 1);
  if (l >= index_.lineCount()) return text_->size();
  return index_.lineEnd(*text_, l);
}

std::size_t TextPositions::nextChar(std::size_t offset) const {
  if (!text_ || offset >= text_->size() || (*text_)[offset] == '\n' || (*text_)[offset] == '\r') return offset;
  return offset + protocol::utf8SequenceLength(*text_, offset);
}

protocol::Position TextPositions::position(std::size_t offset, protocol::PositionEncoding enc) const {
  if (!text_) return {};
  return index_.position(*text_, offset, enc);
}

protocol::Position TextPositions::rawPosition(int line, int column) const {
  return protocol::Position{static_cast<std::uint32_t>(std::max(0, line - 1)), static_cast<std::uint32_t>(std::max(0, column - 1))};
}

}  // namespace greenlight::lsp
