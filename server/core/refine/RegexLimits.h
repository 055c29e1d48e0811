// Bounds on what reaches a std::regex in the refine code. The regexes are breadth-first
// (support::regex), so a long run in a subject no longer overflows the stack, but a search
// still costs a pass per start position: every pattern here is line- or header-local and matches
// near the start of its subject, so subjects (a model's one-line data table, a minified file, a
// hostile reply) are cut (or skipped) at kRegexSubjectMax.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace greenlight::core::refine {

inline constexpr std::size_t kRegexSubjectMax = 4096;

// The first kRegexSubjectMax bytes of `s`.
inline std::string regexSubject(std::string_view s) { return std::string(s.substr(0, kRegexSubjectMax)); }

// `text` with every line cut to kRegexSubjectMax bytes (line numbers unchanged).
inline std::string withLinesCapped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    out.append(text.substr(start, std::min(end - start, kRegexSubjectMax)));
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

}  // namespace greenlight::core::refine
