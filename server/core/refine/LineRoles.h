// What one line of a reply is, judged on its own at the top level of the code (outside any
// string, comment or bracket): prose, code, code that starts a definition or an import (a place
// a run of code may begin), or neutral (a comment: code's or a Markdown heading's, decided by
// what is around it). Hand-written checks on the line's first tokens, no regex: a reply can be
// megabytes long.
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

enum class LineRole { Blank, Prose, Code, Strong, Neutral };

// `line` with its indentation already removed.
LineRole lineRole(std::string_view line, testing::Language language);

}  // namespace greenlight::core::refine
