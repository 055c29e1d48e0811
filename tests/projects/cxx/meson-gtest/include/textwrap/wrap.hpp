// Greedy word wrapping and full justification for fixed-width text.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace textwrap {

// Splits on runs of spaces; no empty words.
std::vector<std::string> words(const std::string& text);

// Greedy wrap: as many words per line as fit in `width` (a longer word gets a line of its own).
std::vector<std::string> wrap(const std::string& text, std::size_t width);

// Pads a line with spaces between its words to exactly `width` (leftmost gaps get the extra);
// a one-word line is left-aligned.
inline std::string justify(const std::vector<std::string>& ws, std::size_t width) {
  if (ws.empty()) return std::string(width, ' ');
  std::size_t letters = 0;
  for (const auto& w : ws) letters += w.size();
  if (ws.size() == 1) return ws[0] + std::string(width > letters ? width - letters : 0, ' ');
  const std::size_t gaps = ws.size() - 1;
  const std::size_t spaces = width > letters ? width - letters : gaps;
  std::string out = ws[0];
  for (std::size_t i = 1; i < ws.size(); ++i) {
    const std::size_t n = spaces / gaps + (i - 1 < spaces % gaps ? 1 : 0);
    out += std::string(n, ' ') + ws[i];
  }
  return out;
}

}  // namespace textwrap
