#include "core/refine/Prompt.h"

#include <sstream>

#include "core/providers/Redact.h"
#include "core/refine/Feedback.h"

namespace greenlight::core::refine {

using testing::Language;

namespace {

std::string displayLanguage(Language language) {
  switch (language) {
    case Language::Python: return "Python";
    case Language::JavaScript: return "JavaScript";
    case Language::Cxx: return "C++";
    case Language::Command: return "code";
  }
  return "code";
}

std::string commentMarker(Language language) { return language == Language::Python ? "#" : "//"; }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

std::string fence(Language language, const std::string& body) {
  std::string b = body;
  while (!b.empty() && b.back() == '\n') b.pop_back();
  return "```" + fenceTag(language) + "\n" + b + "\n```\n";
}

std::string targetWord(const Target& t) {
  if (!t.name.empty()) return (t.className.empty() ? "" : t.className + ".") + t.name + "()";
  return "the code";
}

std::string describeTarget(const PromptInput& in) {
  const Target& t = in.target;
  std::ostringstream out;
  if (in.fix) {
    out << "The target is the existing definition of " << targetWord(t) << " (lines " << t.first << "-" << t.last
        << ", marked). It fails its tests; fix it so that every test passes. Keep its name and signature.";
  } else if (t.kind == TargetKind::Stub) {
    out << "The target is the stub of " << targetWord(t) << " (lines " << t.first << "-" << t.last
        << ", marked): replace it with a complete, working definition. Keep its name and signature.";
  } else {
    out << "The target is new code to insert at the marked line, right after the comment on lines "
        << t.commentFirst << "-" << t.commentLast << ".";
    if (!t.name.empty()) out << " Define " << t.name << " as the comment says.";
  }
  return out.str();
}

}  // namespace

std::string fenceTag(Language language) {
  switch (language) {
    case Language::Python: return "python";
    case Language::JavaScript: return "javascript";
    case Language::Cxx: return "cpp";
    case Language::Command: return "";
  }
  return "";
}

std::string systemPrompt(Language language) {
  const std::string lang = displayLanguage(language);
  return "You are greenlight, a careful " + lang +
         " programmer working inside the user's editor. You write the code the user asks for, and it is "
         "accepted only when it passes the user's tests, which greenlight runs in a sandbox.\n"
         "Rules:\n"
         "1. The tests are correct. Never change, remove, redefine or add tests, and never special-case the "
         "inputs the tests use: write the general solution.\n"
         "2. Answer with exactly one fenced code block tagged " +
         fenceTag(language) +
         ", holding only the code of the target: the complete definition (signature and body) for a stub or a "
         "fix, or the new code for an insertion. Do not repeat the rest of the file.\n"
         "3. Keep the target's name and signature. Put any import or helper the code needs inside the same block.\n"
         "4. The code runs without network access, without a terminal and with limited time and memory.\n"
         "5. After the code block, say nothing more.\n";
}

std::string markedFile(const PromptInput& in, const PromptLimits& limits) {
  const Target& t = in.target;
  const std::string mark = commentMarker(t.language);
  auto all = lines(in.fileText);
  std::vector<std::string> out;
  const int n = static_cast<int>(all.size());
  const int markFirst = t.kind == TargetKind::Stub || in.fix ? t.first : t.first;
  const int markLast = t.kind == TargetKind::Stub || in.fix ? t.last : t.first - 1;
  for (int i = 1; i <= n + 1; ++i) {
    if (i == markFirst) {
      if (t.kind == TargetKind::Stub || in.fix)
        out.push_back(t.indent + mark + " >>> greenlight target: replace this definition of " + targetWord(t));
      else
        out.push_back(t.indent + mark + " >>> greenlight target: the new code goes here");
    }
    if (i <= n) out.push_back(all[static_cast<std::size_t>(i - 1)]);
    if (i == markLast && (t.kind == TargetKind::Stub || in.fix)) out.push_back(t.indent + mark + " <<< end of the target");
  }
  std::string text;
  if (out.size() <= limits.fileLines) {
    for (const auto& l : out) text += l + "\n";
    return text;
  }
  // A window around the target, plus the head of the file (imports), with cut markers.
  const int head = 40;
  const int window = static_cast<int>(limits.fileLines) - head;
  int from = std::max(head, markFirst - window / 2);
  int to = std::min(static_cast<int>(out.size()), from + window);
  for (int i = 0; i < head && i < static_cast<int>(out.size()); ++i) text += out[static_cast<std::size_t>(i)] + "\n";
  if (from > head) text += "… " + std::to_string(from - head) + " lines cut …\n";
  for (int i = from; i < to; ++i) text += out[static_cast<std::size_t>(i)] + "\n";
  if (to < static_cast<int>(out.size())) text += "… " + std::to_string(static_cast<int>(out.size()) - to) + " lines cut …\n";
  return text;
}

std::vector<providers::Message> buildMessages(const PromptInput& in, const PromptLimits& limits) {
  const Target& t = in.target;
  std::ostringstream first;
  if (in.fix) first << "Fix the failing " << displayLanguage(t.language) << " code marked in this file.\n\n";
  else first << "Write the " << displayLanguage(t.language) << " code for the target marked in this file.\n\n";
  first << "File: " << in.filePath << "\n" << fence(t.language, markedFile(in, limits)) << "\n";
  first << describeTarget(in) << "\n";
  if (!t.comment.empty()) {
    first << "\nWhat the code must do (the comment above it):\n";
    for (const auto& l : lines(t.comment)) first << "  " << l << "\n";
  }
  // The tests.
  if (in.testsFromComment) {
    first << "\nNo test file exists for it; the examples in the comment are the tests:\n";
  } else if (!in.tests.empty() || in.sameFileTests) {
    first << "\nThe tests that will run against your code (they are correct and will not change):\n";
  }
  if (in.sameFileTests && !in.testsFromComment) first << "(the tests in " << in.filePath << " itself, shown above)\n";
  if (!in.testNames.empty()) {
    first << "Tests: ";
    for (std::size_t i = 0; i < in.testNames.size(); ++i) first << (i ? ", " : "") << in.testNames[i];
    first << "\n";
  }
  std::size_t budget = limits.testBytesTotal;
  for (const auto& f : in.tests) {
    std::string text = boundHeadTail(f.text, 400, std::min(limits.testFileBytes, budget));
    budget -= std::min(budget, text.size());
    first << "\nFile: " << f.path << "\n" << fence(t.language, text);
    if (budget < 200) {
      first << "(further test files cut)\n";
      break;
    }
  }
  if (!in.exportHint.empty()) first << "\n" << in.exportHint << "\n";
  if (in.fix && !in.fixFeedback.empty()) {
    first << "\nWhat happened when the tests ran on the current code:\n" << in.fixFeedback;
    if (in.fixFeedback.back() != '\n') first << "\n";
  }
  first << "\nAnswer with one ```" << fenceTag(t.language) << " block holding only the complete code of the target"
        << (t.name.empty() ? "" : " (" + targetWord(t) + ")") << ".\n";

  std::vector<providers::Message> out;
  out.push_back({"user", providers::redactSecrets(first.str(), in.secrets)});
  for (const auto& turn : in.history) {
    std::string shown = !turn.code.empty() ? fence(t.language, turn.code) : boundHeadTail(turn.reply, 40, 4000);
    if (shown.empty()) shown = "(an empty reply)";
    out.push_back({"assistant", providers::redactSecrets(shown, in.secrets)});
    std::ostringstream next;
    next << "greenlight ran your code against the tests. It did not pass:\n\n" << turn.feedback;
    if (!turn.feedback.empty() && turn.feedback.back() != '\n') next << "\n";
    next << "\nThe tests are correct. Fix the code so that every test passes, and answer again with one ```"
         << fenceTag(t.language) << " block holding the complete code of the target"
         << (t.name.empty() ? "" : " (" + targetWord(t) + ")") << ".\n";
    out.push_back({"user", providers::redactSecrets(next.str(), in.secrets)});
  }
  return out;
}

}  // namespace greenlight::core::refine
