#include "core/refine/UserSpec.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "core/refine/Definitions.h"
#include "core/refine/SourceScan.h"

namespace greenlight::core::refine {

using testing::Language;

namespace {

std::vector<std::string> linesOf(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    out.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::string joined(const std::vector<std::string>& lines, bool finalNewline) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    if (i + 1 < lines.size() || finalNewline) out += '\n';
  }
  return out;
}

int widthOf(std::string_view s) {
  int w = 0;
  for (char c : s) {
    if (c == ' ') ++w;
    else if (c == '\t') w += 8 - w % 8;
    else break;
  }
  return w;
}

std::string leadingWhitespace(std::string_view s) {
  std::size_t k = s.find_first_not_of(" \t");
  return std::string(s.substr(0, k == std::string_view::npos ? s.size() : k));
}

std::string_view content(std::string_view s) {
  std::size_t k = s.find_first_not_of(" \t");
  return k == std::string_view::npos ? std::string_view{} : s.substr(k);
}

// Where the first definition's docstring is (1-based lines), and where its body starts.
struct DocSpan {
  int defLine = 0;     // the def's header first line
  int headerLast = 0;
  int bodyFirst = 0;   // the first statement of the body (0: none on its own line)
  int first = 0, last = 0;  // the docstring (0: none)
};

std::optional<DocSpan> docstringOf(std::string_view text) {
  ScannedSource s(text, Language::Python);
  auto defs = pythonDefinitions(s);
  if (defs.empty()) return std::nullopt;
  const Definition& d = defs.front();
  DocSpan span;
  span.defLine = d.headerFirst;
  span.headerLast = d.headerLast;
  for (int b = d.headerLast + 1; b <= d.last; ++b) {
    if (s.isBlank(b) || s.isCommentOnly(b) || s.line(b).startsInString) continue;
    span.bodyFirst = b;
    const auto& L = s.line(b);
    std::size_t o = L.begin;
    const std::string_view t = s.text();
    while (o < L.end && (t[o] == ' ' || t[o] == '\t')) ++o;
    std::size_t q = o;
    while (q < L.end && q - o < 2 && std::isalpha(static_cast<unsigned char>(t[q]))) ++q;  // r"", u"", rb""
    if (q >= L.end || s.at(q) != CharClass::String || (t[q] != '"' && t[q] != '\'')) break;
    std::size_t k = q;
    while (k < t.size() && s.at(k) == CharClass::String) ++k;
    span.first = b;
    span.last = s.lineOf(k == 0 ? 0 : k - 1);
    break;
  }
  return span;
}

// The lines of the body after the header, re-indented from `fromRel` to `toRel` columns past
// the definition's own indentation; lines inside strings keep their text.
std::vector<std::string> reindentBody(const std::vector<std::string>& lines, const DocSpan& span, int fromRel, int toRel) {
  std::string text = joined(lines, true);
  ScannedSource s(text, Language::Python);
  const std::string defIndent = leadingWhitespace(lines[static_cast<std::size_t>(span.defLine - 1)]);
  const int defWidth = widthOf(defIndent);
  std::vector<std::string> out = lines;
  for (int ln = span.headerLast + 1; ln <= static_cast<int>(lines.size()); ++ln) {
    const std::string& l = lines[static_cast<std::size_t>(ln - 1)];
    if (content(l).empty() || s.line(ln).startsInString) continue;
    int rel = widthOf(l) - defWidth;
    if (rel < fromRel) continue;
    // Levels scale (2 → 4 makes 4 → 8); an odd continuation indent just moves with its block.
    int to = rel % fromRel == 0 ? rel / fromRel * toRel : rel - fromRel + toRel;
    out[static_cast<std::size_t>(ln - 1)] = defIndent + std::string(static_cast<std::size_t>(to), ' ') + std::string(content(l));
  }
  return out;
}

// Without a docstring of the user's: the model's `>>>` examples out of its own docstring.
std::string withoutModelExamples(std::string_view definition) {
  auto span = docstringOf(definition);
  if (!span || span->first == 0) return std::string(definition);
  std::vector<std::string> lines = linesOf(definition);
  bool any = false;
  for (int ln = span->first; ln <= span->last; ++ln) any = any || content(lines[static_cast<std::size_t>(ln - 1)]).rfind(">>>", 0) == 0;
  if (!any) return std::string(definition);
  std::vector<std::string> doc;
  bool inExample = false;
  for (int ln = span->first; ln <= span->last; ++ln) {
    const std::string& l = lines[static_cast<std::size_t>(ln - 1)];
    std::string_view c = content(l);
    if (c.rfind(">>>", 0) == 0) inExample = true;
    else if (c.empty()) inExample = false;
    if (!inExample) {
      doc.push_back(l);
      continue;
    }
    // A dropped line may close the string: keep its quotes.
    for (std::string_view q : {"\"\"\"", "'''"}) {
      if (ln != span->first && ln == span->last && c.find(q) != std::string_view::npos) {
        doc.push_back(leadingWhitespace(l) + std::string(q));
        break;
      }
    }
  }
  // "Examples:" headers left without their examples, and blank lines before the closing quotes.
  for (std::size_t i = 0; i + 1 < doc.size();) {
    std::string_view c = content(doc[i]);
    bool header = c == "Example:" || c == "Examples:" || c == "Example usage:" || c == "For example:" || c == "Usage:";
    std::string_view next = content(doc[i + 1]);
    if (header && (next.empty() || next == "\"\"\"" || next == "'''")) {
      doc.erase(doc.begin() + static_cast<long>(i));
      continue;
    }
    ++i;
  }
  while (doc.size() >= 2 && content(doc[doc.size() - 2]).empty()) doc.erase(doc.end() - 2);
  // Nothing left but the quotes: the docstring goes, unless it is all the body has.
  std::string inner;
  for (const auto& l : doc) inner += std::string(content(l));
  for (std::string_view q : {"\"\"\"", "'''", "r\"\"\"", "\"", "'"}) {
    for (std::size_t p; (p = inner.find(q)) != std::string::npos;) inner.erase(p, q.size());
  }
  bool bodyAfter = false;
  for (std::size_t ln = static_cast<std::size_t>(span->last); ln < lines.size(); ++ln) bodyAfter = bodyAfter || !content(lines[ln]).empty();
  if (inner.find_first_not_of(" \t") == std::string::npos && bodyAfter) doc.clear();
  std::vector<std::string> out(lines.begin(), lines.begin() + span->first - 1);
  out.insert(out.end(), doc.begin(), doc.end());
  out.insert(out.end(), lines.begin() + span->last, lines.end());
  return joined(out, !definition.empty() && definition.back() == '\n');
}

}  // namespace

std::string userDocstring(const Target& target) {
  if (target.language != Language::Python || target.stubText.empty()) return "";
  auto span = docstringOf(target.stubText);
  if (!span || span->first == 0) return "";
  auto lines = linesOf(target.stubText);
  std::vector<std::string> doc(lines.begin() + span->first - 1, lines.begin() + span->last);
  return joined(doc, true);
}

std::string withUserDocstring(std::string_view definition, const Target& target, bool* changed) {
  if (changed) *changed = false;
  if (target.language != Language::Python) return std::string(definition);
  auto user = target.stubText.empty() ? std::nullopt : docstringOf(target.stubText);
  if (!user || user->first == 0) {
    std::string out = withoutModelExamples(definition);
    if (changed) *changed = out != definition;
    return out;
  }
  auto cand = docstringOf(definition);
  if (!cand || cand->bodyFirst == 0) return std::string(definition);
  const auto stubLines = linesOf(target.stubText);
  std::vector<std::string> lines = linesOf(definition);
  const int userRel = widthOf(stubLines[static_cast<std::size_t>(user->first - 1)]) -
                      widthOf(stubLines[static_cast<std::size_t>(user->defLine - 1)]);
  const std::string defIndent = leadingWhitespace(lines[static_cast<std::size_t>(cand->defLine - 1)]);
  const int candRel = widthOf(lines[static_cast<std::size_t>(cand->bodyFirst - 1)]) - widthOf(defIndent);
  std::vector<std::string> doc(stubLines.begin() + user->first - 1, stubLines.begin() + user->last);
  // The docstring's first line at the candidate's body indentation (re-indented below with the
  // rest of the body); its other lines are inside the string: verbatim.
  doc[0] = defIndent + std::string(static_cast<std::size_t>(std::max(0, candRel)), ' ') + std::string(content(doc[0]));
  std::vector<std::string> out(lines.begin(), lines.begin() + (cand->first ? cand->first : cand->bodyFirst) - 1);
  out.insert(out.end(), doc.begin(), doc.end());
  out.insert(out.end(), lines.begin() + (cand->first ? cand->last : cand->bodyFirst - 1), lines.end());
  if (candRel != userRel && candRel > 0 && userRel > 0) out = reindentBody(out, *cand, candRel, userRel);
  std::string result = joined(out, !definition.empty() && definition.back() == '\n');
  if (changed) *changed = result != definition;
  return result;
}

}  // namespace greenlight::core::refine
