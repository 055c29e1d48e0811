// Getting the code out of a model's reply.
//
// Replies come as: one fenced block with prose around it; several blocks (imports + function,
// a function then a usage example, a first version then a corrected one); blocks in other
// languages (a shell line to install something); no fences at all; prose with unfenced code
// in the middle; and, from reasoning models, <think>...</think> sections before the answer
// (or only a closing </think> when the template opened it).
//
// Rules: drop reasoning sections; among fenced blocks keep those in the requested language
// (untagged blocks count when no block is tagged with it), skip shell sessions and blocks in
// other languages; when a later block redefines a function or class an earlier kept block
// defined, the later one replaces it (a revision), otherwise kept blocks are joined in order
// (split code), and exact duplicates are dropped. Without fences, the longest run of
// code-looking lines is taken, trimming prose before and after.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace greenlight::core::providers {

struct ExtractedCode {
  std::string code;      // empty when the reply holds none
  std::string language;  // normalised tag of the chosen block(s) ("" when untagged/unfenced)
  bool fenced = false;
  int blocksUsed = 0;
};

// "py" -> "python", "js"/"node"/"mjs" -> "javascript", "c++"/"cxx"/"cc"/"hpp" -> "cpp", ...
std::string normalizeLanguage(std::string_view tag);

// The reply without <think>/<thinking>/<reasoning> sections.
std::string stripReasoning(std::string_view reply);

// `language`: "python", "javascript", "cpp" (aliases accepted) or "" for any.
ExtractedCode extractCode(std::string_view reply, std::string_view language);

}  // namespace greenlight::core::providers
