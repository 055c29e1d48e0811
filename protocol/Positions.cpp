#include "protocol/Positions.h"

#include <algorithm>

namespace greenlight::protocol {

std::string_view encodingName(PositionEncoding e) {
  switch (e) {
    case PositionEncoding::Utf8: return "utf-8";
    case PositionEncoding::Utf16: return "utf-16";
    case PositionEncoding::Utf32: return "utf-32";
  }
  return "utf-16";
}

std::optional<PositionEncoding> parseEncoding(std::string_view name) {
  if (name == "utf-8") return PositionEncoding::Utf8;
  if (name == "utf-16") return PositionEncoding::Utf16;
  if (name == "utf-32") return PositionEncoding::Utf32;
  return std::nullopt;
}

std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // UTF-16 surrogates are not characters
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // > U+10FFFF
  } else {
    return 1;
  }
  if (i + len > s.size()) return 1;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 1;
  for (std::size_t k = 2; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 1;
  return len;
}

static std::size_t unitsOf(std::size_t seqLen, PositionEncoding enc) {
  switch (enc) {
    case PositionEncoding::Utf8: return seqLen;
    case PositionEncoding::Utf16: return seqLen == 4 ? 2 : 1;
    case PositionEncoding::Utf32: return 1;
  }
  return 1;
}

std::size_t measure(std::string_view s, PositionEncoding enc) {
  if (enc == PositionEncoding::Utf8) return s.size();
  std::size_t units = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = utf8SequenceLength(s, i);
    units += unitsOf(len, enc);
    i += len;
  }
  return units;
}

LineIndex::LineIndex(std::string_view text) : starts_{0} {
  for (std::size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1))
    starts_.push_back(i + 1);
}

std::size_t LineIndex::lineStart(std::size_t line) const {
  return starts_[std::min(line, starts_.size() - 1)];
}

std::size_t LineIndex::lineEnd(std::string_view text, std::size_t line) const {
  if (line + 1 >= starts_.size()) return text.size();
  std::size_t start = starts_[line];
  std::size_t end = std::min(starts_[line + 1] - 1, text.size());  // at the '\n'
  if (end > start && text[end - 1] == '\r') --end;
  return end;
}

std::size_t LineIndex::offset(std::string_view text, Position pos, PositionEncoding enc) const {
  if (pos.line >= starts_.size()) return text.size();
  std::size_t i = std::min(starts_[pos.line], text.size());
  std::size_t end = lineEnd(text, pos.line);
  std::size_t units = 0;
  while (i < end && units < pos.character) {
    std::size_t len = std::min(utf8SequenceLength(text, i), end - i);
    std::size_t u = unitsOf(len, enc);
    if (units + u > pos.character) break;  // inside a character: round down to its start
    units += u;
    i += len;
  }
  return i;
}

Position LineIndex::position(std::string_view text, std::size_t offset, PositionEncoding enc) const {
  offset = std::min(offset, text.size());
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  std::size_t line = static_cast<std::size_t>(it - starts_.begin()) - 1;
  std::size_t i = starts_[line];
  std::size_t units = 0;
  while (i < offset) {
    std::size_t len = utf8SequenceLength(text, i);
    if (i + len > offset) break;
    units += unitsOf(len, enc);
    i += len;
  }
  return Position{static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(units)};
}

void LineIndex::applyEdit(std::size_t start, std::size_t end, std::string_view inserted) {
  // Line starts in (start, end] came from newlines inside the replaced bytes.
  auto first = std::upper_bound(starts_.begin(), starts_.end(), start);
  auto last = std::upper_bound(first, starts_.end(), end);
  const std::ptrdiff_t delta = static_cast<std::ptrdiff_t>(inserted.size()) -
                               static_cast<std::ptrdiff_t>(end - start);
  std::vector<std::size_t> added;
  for (std::size_t i = inserted.find('\n'); i != std::string_view::npos; i = inserted.find('\n', i + 1))
    added.push_back(start + i + 1);

  std::size_t at = static_cast<std::size_t>(first - starts_.begin());
  std::size_t removed = static_cast<std::size_t>(last - first);
  if (added.size() < removed) {
    starts_.erase(starts_.begin() + static_cast<std::ptrdiff_t>(at + added.size()),
                  starts_.begin() + static_cast<std::ptrdiff_t>(at + removed));
  } else if (added.size() > removed) {
    starts_.insert(starts_.begin() + static_cast<std::ptrdiff_t>(at + removed), added.size() - removed, 0);
  }
  std::copy(added.begin(), added.end(), starts_.begin() + static_cast<std::ptrdiff_t>(at));
  for (std::size_t k = at + added.size(); k < starts_.size(); ++k)
    starts_[k] = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(starts_[k]) + delta);
}

}  // namespace greenlight::protocol
