// Merging the imports a candidate needs into the file: which of them the file lacks, and where
// the file keeps its imports.
//
//  - Python: `import a`, `from m import x as y`: a name the file already binds at its top level is
//    not imported again (a `from m import a, b` whose `a` the file has becomes `from m import b`);
//    `from __future__` lines never move.
//  - JavaScript: `import … from`, `const x = require(…)`, destructured or not: a name the file binds
//    already is dropped (a second `const` of it would not even load); side-effect imports by
//    module string.
//  - C++: `#include` lines by their header, `using namespace x;` by text.
// New lines go right after the file's last import of its leading import block (Python: after the
// module docstring when there is none; JavaScript: after 'use strict'; C++: after the last
// `#include`, else after `#pragma once` / the include guard), never inside a definition.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

// The statements of `wanted` (each one import statement, maybe several lines) that `fileText`
// lacks, rewritten to what is missing, in order, duplicates removed.
std::vector<std::string> missingImports(const std::vector<std::string>& wanted, std::string_view fileText,
                                        testing::Language language);

struct ImportInsertion {
  std::size_t offset = 0;   // byte offset of the line the new imports go before
  bool blankAfter = false;  // a new block right before code: keep a blank line after it
  bool blankBefore = false; // after a docstring or a guard with no blank line after it
};

ImportInsertion importInsertion(std::string_view fileText, testing::Language language);

}  // namespace greenlight::core::refine
