// The function definitions of a file, as target finding needs them: where each one's header and
// body are, what it is called, and whether it is a stub. One implementation per language family
// (DefinitionsPython.cpp: indentation; DefinitionsCLike.cpp: braces, for JavaScript and C++).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/refine/SourceScan.h"

namespace greenlight::core::refine {

struct Definition {
  int first = 0, last = 0;              // 1-based: decorators/template lines .. the closing line
  int headerFirst = 0, headerLast = 0;  // the lines of the header proper (def / signature)
  std::string name;                     // "slugify", "area", "operator=="
  std::string className;                // enclosing class, or the C++ qualifier ("Shape")
  std::string indent;                   // the leading whitespace of line `first`
  std::string signature;                // the header's text joined to one line
  bool stub = false;
};

std::vector<Definition> pythonDefinitions(const ScannedSource& source);
std::vector<Definition> clikeDefinitions(const ScannedSource& source);

inline std::vector<Definition> definitionsOf(const ScannedSource& source) {
  return source.language() == testing::Language::Python ? pythonDefinitions(source) : clikeDefinitions(source);
}

}  // namespace greenlight::core::refine
