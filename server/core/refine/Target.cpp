#include "core/refine/Target.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/refine/Definitions.h"
#include "core/refine/RegexLimits.h"
#include "core/refine/SourceScan.h"
#include "support/Regex.h"

namespace greenlight::core::refine {

using testing::Language;

std::string_view targetKindName(TargetKind kind) { return kind == TargetKind::Stub ? "stub" : "insert"; }

namespace {

bool commentLine(const ScannedSource& s, int ln) {
  if (ln < 1 || ln > s.lineCount() || !s.isCommentOnly(ln)) return false;
  if (s.language() == Language::Python && ln == 1 && s.lineText(1).rfind("#!", 0) == 0) return false;
  return true;
}

std::string linesVerbatim(const ScannedSource& s, int first, int last) {
  if (first < 1 || last < first) return "";
  std::size_t from = s.line(first).begin;
  std::size_t to = last < s.lineCount() ? s.line(last + 1).begin : s.text().size();
  std::string out(s.text().substr(from, to - from));
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

// The comment's words: markers removed, common indentation removed, blank ends trimmed.
std::string commentWords(const ScannedSource& s, int first, int last) {
  std::vector<std::string> lines;
  for (int ln = first; ln <= last; ++ln) {
    std::string t(s.lineText(ln));
    std::size_t at = t.find_first_not_of(" \t");
    if (at == std::string::npos) {
      lines.emplace_back();
      continue;
    }
    t = t.substr(at);
    if (s.language() == Language::Python) {
      std::size_t k = 0;
      while (k < t.size() && t[k] == '#') ++k;
      t = t.substr(k);
    } else if (t.rfind("//", 0) == 0) {
      std::size_t k = 2;
      if (k < t.size() && (t[k] == '/' || t[k] == '!')) ++k;
      t = t.substr(k);
    } else {
      if (t.rfind("/**", 0) == 0) t = t.substr(3);
      else if (t.rfind("/*", 0) == 0) t = t.substr(2);
      else if (t.rfind("*", 0) == 0 && t.rfind("*/", 0) != 0) t = t.substr(1);
      std::size_t end = t.rfind("*/");
      if (end != std::string::npos) t = t.substr(0, end);
    }
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    lines.push_back(t);
  }
  std::size_t common = std::string::npos;
  for (const auto& l : lines) {
    if (l.empty()) continue;
    std::size_t k = l.find_first_not_of(' ');
    common = std::min(common, k == std::string::npos ? l.size() : k);
  }
  if (common == std::string::npos) common = 0;
  std::string out;
  for (const auto& l : lines) {
    std::string t = l.size() >= common ? l.substr(common) : std::string();
    if (out.empty() && t.empty()) continue;
    out += t + "\n";
  }
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace

// Per line and per name, so that a lookup costs its own target, not a walk over the file:
// relocateTarget looks up every occurrence of its anchor, and a 30,000-line comment block
// walked for each of its lines was quadratic.
struct FinderIndex {
  std::vector<int> blockFirst, blockLast;  // by line (1-based): the comment block around it
  std::vector<int> definitionAt;           // by line: the last definition starting there, or -1
  std::vector<int> innermost;              // by line: the shortest definition holding it (the last of equals), or -1
  std::set<std::string> defined;           // every definition's name

  FinderIndex(const ScannedSource& s, const std::vector<Definition>& defs) {
    const int n = s.lineCount();
    blockFirst.assign(static_cast<std::size_t>(n) + 2, 0);
    blockLast.assign(static_cast<std::size_t>(n) + 2, 0);
    for (int ln = 1; ln <= n; ++ln) {
      if (!commentLine(s, ln)) continue;
      blockFirst[static_cast<std::size_t>(ln)] = commentLine(s, ln - 1) ? blockFirst[static_cast<std::size_t>(ln) - 1] : ln;
    }
    for (int ln = n; ln >= 1; --ln) {
      if (!commentLine(s, ln)) continue;
      blockLast[static_cast<std::size_t>(ln)] = commentLine(s, ln + 1) ? blockLast[static_cast<std::size_t>(ln) + 1] : ln;
    }
    definitionAt.assign(static_cast<std::size_t>(n) + 2, -1);
    for (std::size_t i = 0; i < defs.size(); ++i) {
      const int first = defs[i].first;
      if (first >= 0 && first <= n + 1) definitionAt[static_cast<std::size_t>(first)] = static_cast<int>(i);
      defined.insert(defs[i].name);
    }
    // Painted longest first (equal lengths in order), so the last paint of a line is the
    // shortest: the cost is the definitions' lengths, bounded by the nesting depth times the lines.
    std::vector<std::size_t> order(defs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      return defs[x].last - defs[x].first > defs[y].last - defs[y].first;
    });
    innermost.assign(static_cast<std::size_t>(n) + 2, -1);
    for (std::size_t i : order) {
      for (int ln = std::max(defs[i].first, 0); ln <= std::min(defs[i].last, n + 1); ++ln) innermost[static_cast<std::size_t>(ln)] = static_cast<int>(i);
    }
  }
};

namespace {

// The innermost definition holding `line`, or null.
const Definition* innermostAt(const std::vector<Definition>& defs, const FinderIndex& index, int line) {
  if (line < 0 || static_cast<std::size_t>(line) >= index.innermost.size()) return nullptr;
  const int at = index.innermost[static_cast<std::size_t>(line)];
  return at < 0 ? nullptr : &defs[static_cast<std::size_t>(at)];
}

// The comment block around `line`, a comment line.
std::pair<int, int> blockAround(const FinderIndex& index, int line) {
  return {index.blockFirst[static_cast<std::size_t>(line)], index.blockLast[static_cast<std::size_t>(line)]};
}

Target stubTarget(const ScannedSource& s, const Definition& d) {
  Target t;
  t.language = s.language();
  t.kind = TargetKind::Stub;
  t.name = d.name;
  t.className = d.className;
  t.first = d.first;
  t.last = d.last;
  t.headerFirst = d.headerFirst;
  t.headerLast = d.headerLast;
  t.indent = d.indent;
  t.stubText = linesVerbatim(s, d.first, d.last);
  t.signature = d.signature;
  return t;
}

void attachComment(const ScannedSource& s, Target& t, int a, int b) {
  t.commentFirst = a;
  t.commentLast = b;
  t.comment = commentWords(s, a, b);
  t.commentText = linesVerbatim(s, a, b);
}

std::string describe(const Definition& d) {
  return (d.className.empty() ? "" : d.className + (d.className.empty() ? "" : ".")) + d.name + "()";
}

const char* kExpected =
    "generate needs a comment block that says what to write, or a stub (a definition whose body is ";

std::string stubWords(Language language) {
  return language == Language::Python ? "pass, ..., a docstring or raise NotImplementedError)"
                                      : "{} or only a throw)";
}

}  // namespace

std::vector<std::string> namesInComment(std::string_view comment) {
  static const std::regex kPatterns = support::regex(
      R"(`([A-Za-z_$][\w$]*)(?:\([^`]*\))?`|\bdef\s+([A-Za-z_]\w*)|\bfunction\s+([A-Za-z_$][\w$]*)|\b([A-Za-z_$][\w$]*)\()");
  static const std::set<std::string> kSkip = {"if", "for", "while", "return", "print", "e", "i", "eg", "ie", "len",
                                              "str", "int", "list", "dict", "set", "tuple", "float", "bool",
                                              "assert", "console", "log", "sizeof", "std", "max", "min", "sum",
                                              "sorted", "range", "map", "filter", "abs", "round"};
  std::vector<std::string> out;
  // Line by line, each cut to the regex bound (a name is never that far into a line).
  for (std::size_t start = 0; start < comment.size();) {
    std::size_t nl = comment.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? comment.size() : nl;
    std::string text = regexSubject(comment.substr(start, end - start));
    start = end + 1;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kPatterns); it != std::sregex_iterator(); ++it) {
      std::string name;
      for (int g = 1; g <= 4 && name.empty(); ++g) name = (*it)[g].str();
      if (name.empty() || kSkip.count(name)) continue;
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
  }
  return out;
}

namespace {

TargetLookup findIn(const ScannedSource& s, const std::vector<Definition>& defs, const FinderIndex& index, int line) {
  TargetLookup out;
  const Language language = s.language();
  const int n = s.lineCount();
  if (line < 1 || line > n) {
    out.error = "line " + std::to_string(line) + " is outside the file (it has " + std::to_string(n) + " lines)";
    return out;
  }
  const std::string where = "line " + std::to_string(line);

  // Any line of a stub (a comment inside its body included) means that stub.
  const Definition* d = innermostAt(defs, index, line);
  if (d && d->stub) {
    Target t = stubTarget(s, *d);
    int b = d->first - 1;
    while (b >= 1 && s.isBlank(b)) --b;
    if (commentLine(s, b)) {
      auto [ca, cb] = blockAround(index, b);
      attachComment(s, t, ca, cb);
    }
    out.target = std::move(t);
    return out;
  }

  if (commentLine(s, line)) {
    auto [a, b] = blockAround(index, line);
    int next = b + 1;
    while (next <= n && s.isBlank(next)) ++next;
    const int at = index.definitionAt[static_cast<std::size_t>(next)];
    const Definition* below = at < 0 ? nullptr : &defs[static_cast<std::size_t>(at)];
    if (below && below->stub) {
      Target t = stubTarget(s, *below);
      attachComment(s, t, a, b);
      out.target = std::move(t);
      return out;
    }
    if (next == b + 1 && next <= n && s.hasCode(next)) {
      out.error = where + " is in a comment that documents the code below it (line " + std::to_string(next) +
                  "); " + kExpected + stubWords(language) + ", with a blank line between a comment and code it does not describe";
      return out;
    }
    Target t;
    t.language = language;
    t.kind = TargetKind::Insert;
    attachComment(s, t, a, b);
    t.first = b + 1;
    t.last = b;
    t.indent = s.indentOf(a);
    for (const auto& name : namesInComment(t.comment)) {
      if (!index.defined.count(name)) {
        t.name = name;
        break;
      }
    }
    out.target = std::move(t);
    return out;
  }

  if (d && line <= d->headerLast) {
    out.error = where + " is the header of " + describe(*d) + ", which already has a body; " + kExpected +
                stubWords(language);
    return out;
  }
  if (s.isBlank(line)) out.error = where + " is blank; " + kExpected + stubWords(language);
  else out.error = where + " holds code, not a comment or a stub; " + kExpected + stubWords(language);
  return out;
}

TargetLookup findFixIn(const ScannedSource& s, const std::vector<Definition>& defs, const FinderIndex& index, int line) {
  TargetLookup out;
  const Definition* d = innermostAt(defs, index, line);
  if (!d) {
    out.error = "line " + std::to_string(line) + " is not inside a function definition; fix works on the function that fails its tests";
    return out;
  }
  Target t = stubTarget(s, *d);
  int b = d->first - 1;
  while (b >= 1 && s.isBlank(b)) --b;
  if (b == d->first - 1 && commentLine(s, b)) {
    auto [ca, cb] = blockAround(index, b);
    attachComment(s, t, ca, cb);
  }
  out.target = std::move(t);
  return out;
}

}  // namespace

TargetFinder::TargetFinder(std::string text, Language language) : text_(std::move(text)), language_(language) {
  if (language_ != Language::Command) {
    scan_ = std::make_unique<ScannedSource>(text_, language_);
    defs_ = definitionsOf(*scan_);
    index_ = std::make_unique<FinderIndex>(*scan_, defs_);
  }
}

TargetFinder::~TargetFinder() = default;

TargetLookup TargetFinder::find(int line) const {
  if (!scan_) return {std::nullopt, "generate supports Python, JavaScript and C++ files"};
  return findIn(*scan_, defs_, *index_, line);
}

TargetLookup TargetFinder::findFix(int line) const {
  if (!scan_) return {std::nullopt, "fix supports Python, JavaScript and C++ files"};
  return findFixIn(*scan_, defs_, *index_, line);
}

std::vector<Target> TargetFinder::stubs() const {
  std::vector<Target> out;
  if (!scan_) return out;
  for (const auto& d : defs_) {
    if (!d.stub) continue;
    auto found = findIn(*scan_, defs_, *index_, d.headerFirst);
    if (found.target && found.target->first == d.first) out.push_back(std::move(*found.target));
  }
  return out;
}

std::vector<FunctionInfo> TargetFinder::functions() const {
  std::vector<FunctionInfo> out;
  for (const auto& d : defs_) out.push_back({d.name, d.className, d.headerFirst, d.first, d.last, d.stub});
  return out;
}

TargetLookup findTarget(std::string_view text, int line, Language language) {
  return TargetFinder(std::string(text), language).find(line);
}

TargetLookup findFixTarget(std::string_view text, int line, Language language) {
  return TargetFinder(std::string(text), language).findFix(line);
}

std::vector<Target> findStubs(std::string_view text, Language language) {
  return TargetFinder(std::string(text), language).stubs();
}

std::optional<Target> relocateTarget(const Target& target, std::string_view text) {
  return TargetFinder(std::string(text), target.language).relocate(target);
}

std::optional<Target> TargetFinder::relocate(const Target& target) const {
  // The anchor: the comment (and, for a stub, the stub) exactly as it was, at line starts.
  const std::string& anchor = target.kind == TargetKind::Stub ? target.stubText : target.commentText;
  if (anchor.empty() || !scan_) return std::nullopt;  // (no scan: every lookup is an error)
  const int oldLine = target.kind == TargetKind::Stub ? target.first : target.commentFirst;
  const int anchorLines = static_cast<int>(std::count(anchor.begin(), anchor.end(), '\n'));
  std::optional<Target> best;
  int bestDistance = 0;
  std::string body(text_);
  if (body.empty() || body.back() != '\n') body += '\n';  // a last line without '\n' still matches
  int lineNo = 1;
  std::size_t lineStart = 0;
  std::optional<TargetLookup> found;
  std::pair<int, int> foundKey;
  for (std::size_t pos = body.find(anchor); pos != std::string::npos; pos = body.find(anchor, pos + 1)) {
    if (pos != 0 && body[pos - 1] != '\n') continue;
    lineNo += static_cast<int>(std::count(body.begin() + static_cast<long>(lineStart), body.begin() + static_cast<long>(pos), '\n'));
    lineStart = pos;
    // What find(lineNo) gives depends on the stub lineNo is in, else on the comment block it is
    // in (else it is an error): looked up once per stub or block (a lookup costs its target's
    // text, and an anchor can occur on every line of a 30,000-line comment block).
    const Definition* d = innermostAt(defs_, *index_, lineNo);
    std::pair<int, int> key;
    if (d && d->stub) {
      if (target.kind != TargetKind::Stub || d->last - d->first + 1 != anchorLines) continue;  // not the anchor's text
      key = {-1, static_cast<int>(d - defs_.data())};
    } else if (commentLine(*scan_, lineNo)) {
      auto [a, b] = blockAround(*index_, lineNo);
      if (target.kind == TargetKind::Insert && b - a + 1 != anchorLines) continue;  // the text is the whole block
      key = {a, b};
    } else {
      continue;  // a blank line, code or a header: no target there
    }
    if (!found || key != foundKey) {
      found = find(lineNo);
      foundKey = key;
    }
    if (!found->target) continue;
    const Target& t = *found->target;
    if (t.kind != target.kind || t.stubText != target.stubText || t.commentText != target.commentText) continue;
    int distance = std::abs(lineNo - oldLine);
    if (!best || distance < bestDistance) {
      best = t;
      bestDistance = distance;
    }
  }
  if (best && best->name.empty()) best->name = target.name;
  return best;
}

}  // namespace greenlight::core::refine
