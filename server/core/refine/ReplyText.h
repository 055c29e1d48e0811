// A model's reply cut into the pieces of code it holds, before anything is chosen among them.
//
// Replies come as: one fenced block with prose around it; several blocks (examples for other
// problems, imports apart from the function, a first version then a corrected one, a usage
// demo); blocks in other languages (a shell line, JSON output); fences with any tag or none,
// backticks or tildes, indented inside list items; no fence at all (the code restated with its
// docstring, prose before and after, "Explanation:" sections); REPL transcripts (`>>> def …`);
// unified diffs of the file; and, from reasoning models, <think>…</think> sections (or only the
// closing tag when the chat template opened it).
//
// replyUnits() returns the code units in reply order: every fenced block in the file's language
// (or untagged and not a shell session or other language), and, only when there is none, the
// runs of code found in the unfenced text by the language's line rules (a line at the top level
// that is not code ends a run; lines inside a string or a bracket never do, so `>>>` in a
// docstring stays part of the code). A unit that is a REPL transcript is turned into its code;
// a diff is marked so the caller can apply it to the file.
//
// Linear in the reply's size (a 5 MB reply is cut in a few milliseconds): no regex runs over
// the reply's lines.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

struct ReplyUnit {
  std::string code;       // the unit's lines, common indentation removed, trimmed, ending in '\n'
  std::string tag;        // the fence's normalised tag ("" untagged or unfenced)
  bool fenced = false;
  bool diff = false;      // a unified diff (code holds the diff itself)
  bool transcript = false;  // was a REPL transcript (code holds the statements typed)
};

struct ReplyUnits {
  std::vector<ReplyUnit> units;
  int fencedBlocks = 0;   // fenced blocks of any language in the reply
  std::vector<std::string> otherTags;  // the tags of the fenced blocks left out (other languages, output)
};

// "py" -> "python", "js"/"node"/"mjs"/"jsx" -> "javascript", "ts"/"tsx" -> "typescript",
// "c++"/"cxx"/"cc"/"h"/"hpp" -> "cpp", "pycon" -> "pycon", "patch" -> "diff", ...
std::string normalizeLanguage(std::string_view tag);

// The reply without <think>/<thinking>/<reasoning> sections.
std::string stripReasoning(std::string_view reply);

ReplyUnits replyUnits(std::string_view reply, testing::Language language);

// The statements typed in a Python REPL transcript (`>>> ` and `... ` prompts removed, output
// lines dropped); `text` must start with a `>>>` line.
std::string transcriptCode(std::string_view text);

}  // namespace greenlight::core::refine
