// Python definitions by indentation: a `def` (or `async def`) line at bracket depth 0, its
// header up to the ':' that closes it, its body while lines are indented deeper (or continue a
// string or a bracket), decorators above it at the same indentation.
#include <cctype>
#include <utility>
#include <vector>

#include "core/refine/Definitions.h"
#include "core/refine/RegexLimits.h"
#include "core/testing/AssertMessages.h"
#include "support/Regex.h"

namespace greenlight::core::refine {

namespace {

const std::regex& defLine() {
  static const std::regex k = support::regex(R"(^\s*(async\s+)?def\s+([A-Za-z_]\w*)\s*[\(\[])");
  return k;
}

// The body's statements with strings as 'S', comments, whitespace and ';' dropped.
std::string bodyShape(const ScannedSource& s, std::size_t from, std::size_t to) {
  std::string out = s.shape(from, to);
  std::erase_if(out, [](char c) { return c == ' ' || c == ';'; });
  return out;
}

bool isStubShape(const std::string& shape) {
  if (shape.size() > 256) return false;  // a stub's body is a few tokens; also keeps the regex shallow
  static const std::regex k = support::regex(R"(^S*(pass|\.\.\.|raiseNotImplementedError(\(S*\))?)?$)");
  return std::regex_match(shape, k);
}

}  // namespace

std::vector<Definition> pythonDefinitions(const ScannedSource& s) {
  std::vector<Definition> out;
  const int n = s.lineCount();
  std::string_view text = s.text();
  // For each line of code at bracket depth 0 outside strings, the nearest such line above it
  // with less indentation (0: none), for the enclosing class: one pass with a stack of the
  // indentations still open. Walking up from each def instead cost the lines above it, and a
  // reply of 2,400 indented one-line defs took 6.8 s.
  std::vector<int> outer(static_cast<std::size_t>(n) + 1, 0);
  {
    std::vector<std::pair<int, int>> open;  // (indent width, line), widths increasing
    for (int p = 1; p <= n; ++p) {
      if (s.line(p).startsInString || s.line(p).depthAtStart > 0 || s.isBlank(p) || s.isCommentOnly(p)) continue;
      const int w = s.indentWidth(p);
      while (!open.empty() && open.back().first >= w) open.pop_back();
      outer[static_cast<std::size_t>(p)] = open.empty() ? 0 : open.back().second;
      open.emplace_back(w, p);
    }
  }
  for (int ln = 1; ln <= n; ++ln) {
    const auto& L = s.line(ln);
    if (L.depthAtStart != 0 || L.startsInString) continue;
    if (s.lineText(ln).find("def") == std::string_view::npos) continue;  // (masking only blanks characters out)
    std::string masked = regexSubject(s.maskedLine(ln));
    std::smatch m;
    // Anchored: one attempt, not a fresh one per position of the line.
    if (!std::regex_search(masked, m, defLine(), std::regex_constants::match_continuous)) continue;
    Definition d;
    d.name = m[2];
    d.headerFirst = ln;
    const int indent = s.indentWidth(ln);
    // The header ends at the first ':' at depth 0 after the parameters.
    int depth = 0;
    std::size_t colon = std::string_view::npos;
    bool sawParams = false;
    for (std::size_t k = L.begin + static_cast<std::size_t>(m.position(0)); k < text.size(); ++k) {
      if (s.at(k) != CharClass::Code) continue;
      char c = text[k];
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') {
        --depth;
        if (depth == 0 && c == ')') sawParams = true;
      } else if (c == ':' && depth == 0 && sawParams) {
        colon = k;
        break;
      }
    }
    if (colon == std::string_view::npos) continue;
    d.headerLast = s.lineOf(colon);
    // Body: the rest of the header's last line (a one-liner), else the indented block.
    std::size_t bodyFrom = colon + 1, bodyTo = s.line(d.headerLast).end;
    bool oneLiner = false;
    for (std::size_t k = bodyFrom; k < bodyTo; ++k) {
      if (s.at(k) != CharClass::Comment && !std::isspace(static_cast<unsigned char>(text[k]))) oneLiner = true;
    }
    d.last = d.headerLast;
    if (!oneLiner) {
      for (int b = d.headerLast + 1; b <= n; ++b) {
        const auto& B = s.line(b);
        bool inside = B.startsInString || B.depthAtStart > 0;
        if (!inside && s.isBlank(b)) continue;
        if (!inside && s.isCommentOnly(b) && s.indentWidth(b) <= indent) continue;  // decided by what follows
        if (!inside && s.indentWidth(b) <= indent) break;
        d.last = b;
      }
      bodyTo = s.line(d.last).end;
    }
    // Decorators directly above, at the same indentation (multi-line ones included).
    d.first = d.headerFirst;
    for (int p = d.headerFirst - 1; p >= 1; --p) {
      if (s.isBlank(p) || s.line(p).startsInString) break;
      if (s.line(p).depthAtStart > 0) continue;  // inside a multi-line decorator's arguments
      std::string mp = s.maskedLine(p);
      std::size_t at = mp.find_first_not_of(" \t");
      if (at == std::string::npos || mp[at] != '@' || s.indentWidth(p) != indent) break;
      d.first = p;
    }
    // Lines skipped as continuation must end in a decorator: else the header starts at `def`.
    if (d.first != d.headerFirst) {
      std::string mp = s.maskedLine(d.first);
      if (mp.find_first_not_of(" \t") == std::string::npos || mp[mp.find_first_not_of(" \t")] != '@') d.first = d.headerFirst;
    }
    d.indent = s.indentOf(d.first);
    for (int h = d.headerFirst; h <= d.headerLast; ++h) {
      d.signature += (h > d.headerFirst ? " " : "") + std::string(s.lineText(h));
    }
    d.signature = testing::normalizeSpace(d.signature);
    // The enclosing class: the nearest less-indented line above is `class X` (not a def).
    // (The def's own line is such a line: code at depth 0 outside strings.)
    if (const int p = outer[static_cast<std::size_t>(d.headerFirst)]; indent > 0 && p > 0) {
      static const std::regex kClass = support::regex(R"(^\s*class\s+([A-Za-z_]\w*))");
      std::string mp = regexSubject(s.maskedLine(p));
      std::smatch cm;
      if (std::regex_search(mp, cm, kClass, std::regex_constants::match_continuous)) d.className = cm[1];
    }
    d.stub = isStubShape(bodyShape(s, bodyFrom, bodyTo));
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace greenlight::core::refine
