// Putting a candidate where the target is: normalise the model's code (drop an echoed copy of
// the comment, re-indent to the target's indentation), then replace the stub's lines or insert
// after the comment block. The result is the whole new text (an overlay for the test run; the
// file on disk is never touched here) and the edit that turns the old text into it.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/refine/Target.h"

namespace greenlight::core::refine {

// One replacement in the original text. Lines are 1-based; columns 1-based UTF-8 byte columns
// (the CLI/JSON convention), the end exclusive. The byte offsets are what the LSP layer
// converts to its negotiated encoding.
struct TextEdit {
  int line = 1, column = 1, endLine = 1, endColumn = 1;
  std::size_t begin = 0, end = 0;  // byte offsets in the original text
  std::string newText;
};

// What a candidate adds to the file elsewhere than at the target (ReplyCode).
struct Additions {
  std::vector<std::string> imports;  // import statements it uses; those the file lacks are added
  std::vector<std::string> exports;  // JavaScript: names added to the file's `module.exports = {…}`
  bool empty() const { return imports.empty() && exports.empty(); }
};

struct Spliced {
  std::string text;      // the file with the candidate in place
  TextEdit edit;         // the target's edit
  std::vector<TextEdit> edits;  // every edit: the target's and the additions' (imports, exports), in text order
  int codeFirst = 0, codeLast = 0;  // 1-based lines of the candidate in `text`
};

// The model's code made ready to splice: trimmed, an echoed copy of the target's comment
// removed, re-indented to the target's indentation, ending without a newline.
std::string normalizeCandidate(std::string_view code, const Target& target);

// `code` must already be normalised. The additions go where the file keeps its imports and its
// export object (Imports.h), never inside the target's range.
Spliced splice(std::string_view text, const Target& target, std::string_view code, const Additions& additions = {});

// Why a candidate must not be run, or "" when it may: it defines or redefines tests (test
// functions, TestCase classes, test()/it()/describe() calls, TEST_CASE/TEST, a C++ main), or
// does not define the target's function when the target is named.
std::string rejectCandidate(std::string_view code, const Target& target);

// The first function the code defines (to name an unnamed insert target), or "".
std::string firstDefinedName(std::string_view code, testing::Language language);

}  // namespace greenlight::core::refine
