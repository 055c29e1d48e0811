#include "core/refine/Splice.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "core/refine/CodeItems.h"
#include "core/refine/Definitions.h"
#include "core/refine/Imports.h"
#include "core/refine/RegexLimits.h"
#include "core/refine/SourceScan.h"
#include "core/testing/Discovery.h"
#include "support/Regex.h"

namespace greenlight::core::refine {

using testing::Language;

namespace {

std::vector<std::string> splitKeepEmpty(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t nl = text.find('\n', start);
    std::string line(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return out;
}

std::string trimmed(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  std::size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

bool blankLine(const std::string& s) { return trimmed(s).empty(); }

int widthOf(const std::string& s) {
  int w = 0;
  for (char c : s) {
    if (c == ' ') ++w;
    else if (c == '\t') w += 8 - w % 8;
    else break;
  }
  return w;
}

// The line with its leading whitespace replaced: `indent`, then what is left of the line's own
// indentation after `common` columns, written in the indent's style (tabs when the target is
// indented with tabs, else spaces). Re-expressing by width, rather than dropping characters,
// never mixes a model's tabs into a space-indented file (a TabError in Python) and never eats
// more than `common` columns when a tab straddles it.
std::string reindented(const std::string& s, int common, const std::string& indent) {
  std::size_t k = s.find_first_not_of(" \t");
  if (k == std::string::npos) k = s.size();
  int rest = std::max(0, widthOf(s) - common);
  std::string lead = indent;
  if (indent.find('\t') != std::string::npos) {
    lead.append(static_cast<std::size_t>(rest / 8), '\t');
    rest %= 8;
  }
  lead.append(static_cast<std::size_t>(rest), ' ');
  return lead + s.substr(k);
}

// The 1-based line and column of a byte offset.
std::pair<int, int> lineColumn(std::string_view text, std::size_t offset) {
  int line = 1;
  std::size_t lineStart = 0;
  for (std::size_t k = 0; k < offset && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      lineStart = k + 1;
    }
  }
  return {line, static_cast<int>(offset - lineStart) + 1};
}

// "\r\n" when the first line break at or after `offset` (else the last one before it) is CRLF.
std::string lineBreakNear(std::string_view text, std::size_t offset) {
  std::size_t nl = text.find('\n', std::min(offset, text.size()));
  if (nl == std::string_view::npos) nl = text.rfind('\n');
  return nl != std::string_view::npos && nl > 0 && text[nl - 1] == '\r' ? "\r\n" : "\n";
}

// Every '\n' of `code` (none of which is preceded by '\r') as `eol`.
std::string withLineBreaks(const std::string& code, const std::string& eol) {
  std::string out;
  out.reserve(code.size() + code.size() / 16);
  for (char c : code) {
    if (c == '\n') out += eol;
    else out += c;
  }
  return out;
}

// Byte offset of the start of 1-based `line` (text.size() past the end).
std::size_t lineStartOffset(std::string_view text, int line) {
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return text.size();
    pos = nl + 1;
  }
  return pos;
}

// Offset of the end of 1-based `line`'s content (before its '\n' / "\r\n").
std::size_t lineEndOffset(std::string_view text, int line) {
  std::size_t start = lineStartOffset(text, line);
  std::size_t nl = text.find('\n', start);
  if (nl == std::string_view::npos) return text.size();
  return nl > start && text[nl - 1] == '\r' ? nl - 1 : nl;
}

}  // namespace

std::string normalizeCandidate(std::string_view code, const Target& target) {
  std::vector<std::string> lines = splitKeepEmpty(code);
  while (!lines.empty() && blankLine(lines.front())) lines.erase(lines.begin());
  while (!lines.empty() && blankLine(lines.back())) lines.pop_back();
  // An echoed copy of the comment (models often repeat it) would duplicate it above the code.
  if (!target.commentText.empty()) {
    std::vector<std::string> comment = splitKeepEmpty(target.commentText);
    while (!comment.empty() && blankLine(comment.back())) comment.pop_back();
    if (!comment.empty() && lines.size() > comment.size()) {
      bool same = true;
      for (std::size_t i = 0; i < comment.size() && same; ++i) same = trimmed(lines[i]) == trimmed(comment[i]);
      if (same) {
        lines.erase(lines.begin(), lines.begin() + static_cast<long>(comment.size()));
        while (!lines.empty() && blankLine(lines.front())) lines.erase(lines.begin());
      }
    }
  }
  // Re-indent: the common indentation of the candidate becomes the target's. Lines that
  // continue a multi-line string keep their own text (their indentation is content).
  ScannedSource scan([&] {
    std::string joined;
    for (const auto& l : lines) joined += l + "\n";
    return joined;
  }(), target.language);
  int common = -1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (blankLine(lines[i]) || scan.line(static_cast<int>(i) + 1).startsInString) continue;
    int w = widthOf(lines[i]);
    common = common < 0 ? w : std::min(common, w);
  }
  if (common < 0) common = 0;
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i) out += '\n';
    if (blankLine(lines[i])) continue;
    if (scan.line(static_cast<int>(i) + 1).startsInString) {
      out += lines[i];
      continue;
    }
    // Nothing to move: the line as the model wrote it (tabs stay tabs at the top level).
    out += common == 0 && target.indent.empty() ? lines[i] : reindented(lines[i], common, target.indent);
  }
  return out;
}

namespace {

void placeEdit(std::string_view text, TextEdit& e) {
  auto [l1, c1] = lineColumn(text, e.begin);
  auto [l2, c2] = lineColumn(text, e.end);
  e.line = l1;
  e.column = c1;
  e.endLine = l2;
  e.endColumn = c2;
}

// The new imports, at the file's import block (never inside [avoidBegin, avoidEnd)).
std::optional<TextEdit> importEdit(std::string_view text, Language language, const std::vector<std::string>& wanted,
                                   const std::string& eol, std::size_t avoidBegin, std::size_t avoidEnd) {
  auto missing = missingImports(wanted, text, language);
  if (missing.empty()) return std::nullopt;
  ImportInsertion at = importInsertion(text, language);
  TextEdit e;
  e.begin = e.end = at.offset > avoidBegin && at.offset < avoidEnd ? avoidBegin : at.offset;
  std::string block;
  for (const auto& stmt : missing) block += withLineBreaks(stmt, eol) + eol;
  if (at.blankBefore) block = eol + block;
  if (at.blankAfter) block += eol;
  if (e.begin >= text.size() && !text.empty() && text.back() != '\n') block = eol + block;
  e.newText = block;
  return e;
}

// JavaScript: names added to the file's `module.exports = {…}` literal.
std::optional<TextEdit> exportEdit(std::string_view text, const std::vector<std::string>& names, const std::string& eol) {
  if (names.empty()) return std::nullopt;
  ScannedSource scan(text, Language::JavaScript);
  for (const auto& item : codeItems(text, Language::JavaScript)) {
    if (item.kind != ItemKind::Export || !item.wholeObject) continue;
    std::size_t from = scan.line(item.first).begin, to = scan.line(item.last).end;
    std::size_t open = std::string_view::npos;
    for (std::size_t k = text.find('=', from); k != std::string_view::npos && k < to; ++k) {
      if (scan.at(k) == CharClass::Code && text[k] == '{') {
        open = k;
        break;
      }
    }
    if (open == std::string_view::npos) continue;
    std::size_t close = scan.matching(open);
    if (close == std::string_view::npos) continue;
    std::size_t last = close;
    while (last > open + 1 && std::isspace(static_cast<unsigned char>(text[last - 1]))) --last;
    const bool empty = last == open + 1;
    const bool trailingComma = !empty && text[last - 1] == ',';
    const bool multiLine = text.substr(open, close - open).find('\n') != std::string_view::npos;
    TextEdit e;
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
    if (multiLine && !empty) {
      // One per line, at the indentation of the last entry.
      std::size_t lineBegin = text.rfind('\n', last - 1);
      lineBegin = lineBegin == std::string_view::npos ? 0 : lineBegin + 1;
      std::string indent(text.substr(lineBegin, text.find_first_not_of(" \t", lineBegin) - lineBegin));
      std::string add = trailingComma ? "" : ",";
      for (const auto& n : names) add += eol + indent + n + (trailingComma ? "," : "");
      e.begin = e.end = last;
      e.newText = add;
    } else {
      e.begin = e.end = last;
      e.newText = empty ? " " + list + " " : (trailingComma ? " " : ", ") + list;
    }
    return e;
  }
  return std::nullopt;
}

}  // namespace

Spliced splice(std::string_view text, const Target& target, std::string_view code, const Additions& additions) {
  Spliced out;
  TextEdit& e = out.edit;
  // The code arrives with '\n' line ends; a CRLF file gets CRLF code (the line break nearest the
  // target decides, so a file with mixed ends keeps the local style).
  const std::string eol = lineBreakNear(text, lineStartOffset(text, std::max(1, target.commentFirst > 0 ? target.commentFirst : target.first)));
  std::string body(code);
  if (eol == "\r\n") body = withLineBreaks(body, eol);
  if (target.kind == TargetKind::Stub) {
    e.begin = lineStartOffset(text, target.first);
    e.end = lineEndOffset(text, target.last);
    e.newText = body;
  } else {
    std::size_t at = lineStartOffset(text, target.first);
    if (at >= text.size() && !text.empty() && text.back() != '\n') {
      // The comment is the last line, without a newline: add one, then the code.
      e.begin = e.end = text.size();
      e.newText = eol + body + eol;
    } else {
      e.begin = e.end = at;
      e.newText = body + eol;
    }
  }
  placeEdit(text, e);
  // The additions, each outside the target's range; at the same offset as the target's edit
  // they come first (imports above the code).
  std::vector<TextEdit> extra;
  if (auto imp = importEdit(text, target.language, additions.imports, eol, e.begin, e.end)) extra.push_back(*imp);
  if (target.language == Language::JavaScript) {
    if (auto exp = exportEdit(text, additions.exports, eol)) {
      if (exp->begin < e.begin || exp->begin >= e.end) extra.push_back(*exp);
    }
  }
  for (auto& x : extra) placeEdit(text, x);
  // In text order; an addition at the target's own offset goes first.
  std::vector<std::pair<TextEdit, bool>> ordered;
  for (auto& x : extra) ordered.push_back({x, false});
  ordered.push_back({e, true});
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first.begin < b.first.begin; });
  // The new text, and how far the additions before it moved the target's code.
  std::size_t pos = 0, shiftBeforeTarget = 0;
  bool beforeTarget = true;
  out.text.reserve(text.size() + code.size() + 256);
  for (const auto& [x, isTarget] : ordered) {
    out.edits.push_back(x);
    out.text.append(text.substr(pos, x.begin - pos));
    if (isTarget) beforeTarget = false;
    else if (beforeTarget) shiftBeforeTarget += x.newText.size() - (x.end - x.begin);
    out.text.append(x.newText);
    pos = x.end;
  }
  out.text.append(text.substr(pos));
  std::size_t codeStart = e.begin + shiftBeforeTarget + (e.newText.rfind(eol, 0) == 0 ? eol.size() : 0);
  out.codeFirst = lineColumn(out.text, codeStart).first;
  out.codeLast = out.codeFirst + static_cast<int>(std::count(code.begin(), code.end(), '\n'));
  return out;
}

std::string firstDefinedName(std::string_view code, Language language) {
  ScannedSource scan(code, language);
  for (const auto& d : definitionsOf(scan)) {
    if (!d.name.empty()) return d.name;
  }
  return "";
}

std::string rejectCandidate(std::string_view code, const Target& target) {
  // Dedented, so that test definitions at any indentation are seen as the test scan sees them.
  Target flat = target;
  flat.indent.clear();
  flat.commentText.clear();
  std::string plain = normalizeCandidate(code, flat) + "\n";
  // Real code has no line this long; a one-line data dump or a hostile reply does, and the test
  // discovery and the runners' parsers (regexes that recurse per character) cannot take it.
  {
    std::size_t start = 0, longest = 0;
    int line = 0, longestLine = 0;
    while (start < plain.size()) {
      std::size_t nl = plain.find('\n', start);
      ++line;
      if (nl - start > longest) {
        longest = nl - start;
        longestLine = line;
      }
      start = nl + 1;
    }
    if (longest > kRegexSubjectMax)
      return "line " + std::to_string(longestLine) + " of the code is " + std::to_string(longest) +
             " characters long; keep every line under " + std::to_string(kRegexSubjectMax) +
             " characters (split long data over several lines)";
  }
  // Words in comments and strings define nothing: look at the code only (the masked text keeps
  // every offset, so a line found there is the same line in `plain`).
  ScannedSource scan(plain, target.language);
  const std::string masked = scan.masked(0, plain.size());
  auto tests = testing::listTests(masked, "candidate", target.language);
  // Line by line: a pattern that may repeat over newlines (`\s*`) could otherwise run over a
  // long stretch of blank lines.
  auto anyLine = [&](const std::regex& re) {
    for (int ln = 1; ln <= scan.lineCount(); ++ln) {
      const std::string line = regexSubject(scan.maskedLine(ln));
      if (std::regex_search(line, re)) return true;
    }
    return false;
  };
  // A call of a method that happens to be called test/it/describe (`/re/.test(s)`) is not a
  // test: the name must not follow a `.` or be part of a longer identifier.
  static const std::regex kPyTest = support::regex(R"(^[ \t]*(async\s+)?def\s+test\w*\s*\(|^[ \t]*class\s+Test\w*)");
  static const std::regex kJsTest = support::regex(R"((^|[^\w$.])(test|it|describe)(\.only|\.skip|\.todo)?\s*\()");
  static const std::regex kCxxTest = support::regex(R"((^|[^\w.])(TEST_CASE|SCENARIO|TEST|TEST_F|TEST_P)\s*\(|(^|[^\w.])int\s+main\s*\()");
  bool definesTests = false;
  switch (target.language) {
    case Language::Python: definesTests = !tests.empty() || anyLine(kPyTest); break;
    case Language::JavaScript:
      definesTests = anyLine(kJsTest);
      tests.erase(std::remove_if(tests.begin(), tests.end(), [&](const auto& t) {
                    std::string line = regexSubject(scan.maskedLine(t.line));
                    return !std::regex_search(line, kJsTest);
                  }), tests.end());
      break;
    case Language::Cxx: {
      // `int\nmain(...)` (GNU style) spans lines: the definitions scan sees it whole.
      const auto defs = definitionsOf(scan);
      definesTests = !tests.empty() || anyLine(kCxxTest) ||
                     std::any_of(defs.begin(), defs.end(), [](const Definition& d) { return d.name == "main" && d.className.empty(); });
      break;
    }
    case Language::Command: break;
  }
  // The name, for the message, from the unmasked text (string contents are blanked above).
  if (definesTests && !tests.empty()) {
    auto named = testing::listTests(plain, "candidate", target.language);
    auto it = std::find_if(named.begin(), named.end(), [&](const auto& t) { return t.line == tests.front().line; });
    tests.front().name = it != named.end() ? it->name : "";
  }
  if (definesTests) {
    std::string which = !tests.empty() && !tests.front().name.empty() ? " (" + tests.front().name + ")" : "";
    return "the code defines tests or a test entry point" + which +
           "; the tests are fixed and must not be redefined or changed: return only the code of the target";
  }
  if (!target.name.empty()) {
    bool defines = false;
    for (const auto& d : definitionsOf(scan)) defines = defines || d.name == target.name;
    if (!defines) {
      // A definition the scanner cannot see (a lambda bound to the name, a macro): accept any
      // assignment or declaration of the name.
      std::string name = std::regex_replace(target.name, support::regex(R"([\$\.\^\*\+\?\(\)\[\]\{\}\|\\=!<>~&%])"), "\\$&");
      std::regex bound = support::regex("(^|[^\\w$])" + name + "\\s*(=|\\()");
      defines = anyLine(bound);
    }
    if (!defines) return "the code does not define " + target.name + "(); return its complete definition";
  }
  return "";
}

}  // namespace greenlight::core::refine
