// libFuzzer entry point over what the refine loop does with text it does not control: a model's
// reply (code extraction, normalisation, the test-redefinition check, splicing into the file)
// and the user's file (target finding on arbitrary text, comment examples, relocation), plus
// the feedback bounds. Any crash, sanitizer report, hang, or a broken invariant (__builtin_trap)
// is a finding.
//
// Input layout: byte 0 picks the language (and, with byte 1, the LINE); the rest is
// "FILE \x01 REPLY" (without \x01: a fixed file per language, the rest is the reply), so the
// fuzzer can grow either side. The same file builds the libFuzzer binary (GREENLIGHT_FUZZ=ON)
// and the replay ctest (ReplayMain.cpp feeds tests/fuzz/corpus-refine and tests/fuzz/crashes).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/refine/CommentExamples.h"
#include "core/refine/Feedback.h"
#include "core/refine/Prompt.h"
#include "core/refine/ReplyCode.h"
#include "core/refine/Splice.h"
#include "core/refine/Target.h"

namespace {

using greenlight::core::testing::Language;
namespace r = greenlight::core::refine;

void require(bool ok) {
  if (!ok) __builtin_trap();
}

const char* fallbackFile(Language language) {
  switch (language) {
    case Language::Python: return "import re\n\n# Lower-case it: `slug`\ndef slug(s):\n    pass\n";
    case Language::JavaScript: return "'use strict';\n// Larger of a and b: `larger`\nfunction larger(a, b) {}\nmodule.exports = { larger };\n";
    default: return "#include <string>\n// Twice x.\nint twice(int x) {}\n";
  }
}

// The spliced text must be the original with the edits applied (in order, none overlapping,
// the target's among them), and their lines/columns must name their byte offsets.
void checkSplice(std::string_view text, const r::Spliced& s) {
  auto offsetOf = [&](int line, int column) {
    std::size_t pos = 0;
    for (int l = 1; l < line; ++l) pos = text.find('\n', pos) + 1;
    return pos + static_cast<std::size_t>(column - 1);
  };
  std::string applied;
  std::size_t pos = 0;
  bool sawTarget = false;
  for (const auto& e : s.edits) {
    require(e.begin <= e.end && e.end <= text.size() && e.begin >= pos);
    require(offsetOf(e.line, e.column) == e.begin);
    require(offsetOf(e.endLine, e.endColumn) == e.end);
    sawTarget = sawTarget || (e.begin == s.edit.begin && e.end == s.edit.end && e.newText == s.edit.newText);
    applied += std::string(text.substr(pos, e.begin - pos)) + e.newText;
    pos = e.end;
  }
  applied += std::string(text.substr(pos));
  require(sawTarget && applied == s.text);
  require(s.codeFirst >= 1 && s.codeLast >= s.codeFirst);
}

void exercise(std::string_view file, std::string_view reply, int line, Language language) {
  auto lookup = r::findTarget(file, line, language);
  require(lookup.target.has_value() != !lookup.error.empty());
  r::findFixTarget(file, line, language);
  for (const auto& stub : r::findStubs(file, language)) require(stub.kind == r::TargetKind::Stub);
  if (!lookup.target) return;
  const r::Target& target = *lookup.target;
  require(target.first >= 1 && target.last >= target.first - 1);
  // The target is found again in the same text, and after an edit above it.
  auto again = r::relocateTarget(target, file);
  if (target.kind == r::TargetKind::Stub || !target.commentText.empty()) require(again.has_value());
  r::relocateTarget(target, "x\n" + std::string(file));
  if (auto tests = r::synthesizeTests(target, "/ws/m.py", file)) require(!tests->text.empty());

  auto taken = r::codeFromReply(reply, target, file);
  if (taken.code.empty()) return;
  std::string code = r::normalizeCandidate(taken.code, target);
  r::rejectCandidate(code, target);
  r::firstDefinedName(code, language);
  if (code.empty()) return;
  checkSplice(file, r::splice(file, target, code, {taken.imports, taken.exports}));

  r::PromptInput in;
  in.target = target;
  in.filePath = "m";
  in.fileText = std::string(file);
  in.history.push_back({code, std::string(reply), std::string(reply)});
  r::buildMessages(in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Language language = bytes[0] % 3 == 0 ? Language::Python : bytes[0] % 3 == 1 ? Language::JavaScript : Language::Cxx;
  std::string_view rest = bytes.substr(2);
  std::string_view file = fallbackFile(language), reply = rest;
  if (auto sep = rest.find('\x01'); sep != std::string_view::npos) {
    file = rest.substr(0, sep);
    reply = rest.substr(sep + 1);
  }
  const int lines = static_cast<int>(std::count(file.begin(), file.end(), '\n')) + 1;
  const int line = static_cast<unsigned char>(bytes[1]) % (lines + 1) + 1;  // one past the end too
  exercise(file, reply, line, language);
  // The reply as a file: target finding must cope with any text.
  r::findTarget(reply, static_cast<unsigned char>(bytes[1]) % 8 + 1, language);

  // Feedback bounds hold for any text.
  const std::size_t maxLines = static_cast<unsigned char>(bytes[1]) % 12 + 1, maxBytes = 200 + size % 300;
  std::string bounded = r::boundHeadTail(reply, maxLines, maxBytes);
  if (bounded != reply) {
    require(bounded.size() <= maxBytes);
    const auto boundedLines = static_cast<std::size_t>(std::count(bounded.begin(), bounded.end(), '\n'));
    require(boundedLines <= std::max<std::size_t>(maxLines, 3) + 1);
  }
  r::FeedbackContext context;
  context.workspaceRoot = "/ws";
  context.secrets = {"sk-fuzz-SECRET"};
  require(r::sanitizeText(std::string(reply) + "sk-fuzz-SECRET", context, true).find("sk-fuzz-SECRET") == std::string::npos);
  return 0;
}
