// The one way greenlight builds a std::regex. libstdc++'s default executor backtracks and
// recurses once per character a repetition consumes, so a subject with a long run that `\s*`,
// `.*` or `[^\n]*` spans (a test file with 400,000 blank lines, a minified bundle, a model's
// one-line data table) overflows the thread's stack and kills the server. Built with
// libstdc++'s __polynomial flag the executor is breadth-first instead: its stack depth is bounded
// by the pattern, its time linear in the subject. ECMAScript semantics stay (leftmost match,
// alternatives and laziness in priority order). Back-references cannot run breadth-first
// (libstdc++ refuses them with error_complexity), so no pattern here uses one.
// A search over a whole file is still one pass per start position; `anyLineMatches` searches
// line by line, and only the lines that hold a literal every match needs.
// include_lint.sh keeps <regex> and std::regex's constructors out of every other file.
//
// Thread-safety: a built std::regex is immutable; matching it from several threads is safe.
#pragma once

#include <initializer_list>
#include <regex>  // IWYU pragma: export
#include <string>
#include <string_view>

namespace greenlight::support {

// `pattern` (ECMAScript) compiled for the breadth-first executor; `extra` adds flags such as
// std::regex::icase. Throws std::regex_error for a malformed pattern, as std::regex does.
inline std::regex regex(const std::string& pattern, std::regex::flag_type extra = {}) {
  return std::regex(pattern, std::regex::ECMAScript | std::regex_constants::__polynomial | extra);
}

// Whether some line of `text` (without its '\n') has a match of `r`, a pattern for one line
// (`^` is the line's start). When `literals` is not empty only the lines that contain one of
// them are searched: name a string every match contains.
inline bool anyLineMatches(std::string_view text, const std::regex& r, std::initializer_list<std::string_view> literals = {}) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(start, nl - start);
    bool candidate = literals.size() == 0;
    for (std::string_view l : literals) candidate = candidate || line.find(l) != std::string_view::npos;
    if (candidate && std::regex_search(line.data(), line.data() + line.size(), r)) return true;
    start = nl + 1;
  }
  return false;
}

}  // namespace greenlight::support
