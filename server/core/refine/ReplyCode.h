// The code greenlight takes from a model's reply for a target: the target's definition, the
// helpers it calls and the imports it needs — and nothing else of the reply.
//
// The steps (codeFromReply):
//  1. cut the reply into code units (ReplyText: fenced blocks of the language, else runs of code
//     in the text; transcripts turned into code; a diff applied to the file, else its new side);
//  2. list each unit's top-level items (CodeItems);
//  3. choose the unit: the last one that defines the target (a later block revises an earlier
//     one; examples for other problems define other names); a nameless insert takes the unit
//     whose names best match the comment's words;
//  4. keep the target's definition (a method taken out of a class the model wrote around it) and,
//     transitively, the helpers it uses that the file does not already define — from the chosen
//     unit first, then from other units; demo code (prints, asserts, main guards, console.log, an
//     `int main()` when the target is not main) and unused definitions never come along;
//  5. keep the imports those definitions use (as written; Imports.h merges them into the file);
//  6. JavaScript: exports as the file has them — the stub's `export` kept, the candidate's own
//     export statements dropped, and a name the file does not yet export added once, in the
//     file's style;
//  7. keep the user's spec: the user's docstring replaces the candidate's (UserSpec.h); with a
//     comment of the user's above the target, the model's comment above its definition goes;
//  8. say what was taken when the reply was not one block with the target: the note is the first
//     line of the next round's feedback, so the model can fix its format.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/refine/Target.h"

namespace greenlight::core::refine {

struct ReplyCode {
  std::string code;                  // the definitions, as the model wrote them (not yet normalised)
  std::vector<std::string> imports;  // the import statements they use (some may be in the file already)
  std::vector<std::string> exports;  // JavaScript: names to add to the file's `module.exports = {…}`
  std::string note;                  // one line on how the reply was read; "" when it was as asked
  int units = 0;                     // code units found (fenced blocks of the language, or runs of code)
  bool fenced = false;
  bool definesTarget = false;        // a unit defines the target (or the target has no name)
};

ReplyCode codeFromReply(std::string_view reply, const Target& target, std::string_view fileText);

// A unified diff applied to `text` (hunks found by their context, near the line they name);
// nullopt when a hunk does not apply.
std::optional<std::string> applyUnifiedDiff(std::string_view text, std::string_view diff);

}  // namespace greenlight::core::refine
