#pragma once
// The text helpers every line-reading step needs (a model's reply, a file's lines for coverage),
// in one place so they agree on what a line is: '\n' ends a line, a '\r' before it is not part of it.

#include <string_view>
#include <vector>

namespace greenlight::support {

// `s` without leading and trailing whitespace (isspace).
std::string_view trimView(std::string_view s);

// The lines of `text`, views into it, each without its '\n' and a '\r' before it. With
// `keepTrailingEmpty`, text ending in '\n' has an empty last line ("a\n" -> {"a", ""}), so joining
// with '\n' gives the text back; without, it does not ("a\n" -> {"a"}), and "" has no lines.
std::vector<std::string_view> lineViews(std::string_view text, bool keepTrailingEmpty);

}  // namespace greenlight::support
