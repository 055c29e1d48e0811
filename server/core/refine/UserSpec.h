// The user's words stay as the user wrote them. The tests are the user's: only the examples in
// the user's own file count, never examples a model invented.
//
//  - A Python stub (or the definition a fix starts from) with a docstring: the candidate's
//    docstring, rewritten or missing, becomes the user's, byte for byte (the candidate's body is
//    re-indented to the user's body indentation when the two differ, so that the docstring's
//    lines are identical once applied).
//  - No docstring of the user's: the `>>>` examples a model put into its own docstring are taken
//    out (they would run as doctests); a docstring left with nothing else goes.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "core/refine/Target.h"

namespace greenlight::core::refine {

// `definition` is the candidate's definition of the target (Python; other languages are
// returned unchanged). `changed`, when given, says whether the docstring was replaced.
std::string withUserDocstring(std::string_view definition, const Target& target, bool* changed = nullptr);

// The user's docstring in `target` (its lines verbatim, with their newlines), or "".
std::string userDocstring(const Target& target);

}  // namespace greenlight::core::refine
