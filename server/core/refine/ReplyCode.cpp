#include "core/refine/ReplyCode.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "core/refine/CodeItems.h"
#include "core/refine/Definitions.h"
#include "core/refine/LineLexer.h"
#include "core/refine/ReplyText.h"
#include "core/refine/SourceScan.h"
#include "core/refine/UserSpec.h"
#include "support/TextLines.h"

namespace greenlight::core::refine {

using support::lineViews;
using support::trimView;

using testing::Language;

namespace {

// --- step 1: units (a diff becomes the file it describes) ----------------------------------

// A code unit; its items are listed on first use (most units of a long reply are never
// looked into: they do not even mention the target's name).
struct Unit {
  std::string code;
  Language language = Language::Python;
  bool fenced = false;
  int group = 0;  // the reply's block (or run of code) it is part of: a huge block is cut in chunks
  const std::vector<CodeItem>& items() const {
    if (!parsed_) parsed_ = codeItems(code, language);
    return *parsed_;
  }
  bool parsed() const { return parsed_.has_value(); }
  bool mentions(std::string_view name) const { return !name.empty() && code.find(name) != std::string::npos; }
  std::string text(const CodeItem& item, bool withLead) const { return itemText(code, item, withLead); }
  // Lines [first, last] (1-based) of the code.
  std::string lines(int first, int last) const {
    if (!table_) table_ = std::make_unique<LineTable>(code);
    return table_->lines(first, last);
  }

 private:
  mutable std::optional<std::vector<CodeItem>> parsed_;
  mutable std::unique_ptr<LineTable> table_;  // over `code`, which does not move once the unit is in its vector
};

std::string diffNewSide(std::string_view diff) {
  std::string out;
  bool inHunk = false;
  for (auto l : lineViews(diff, false)) {
    if (l.rfind("@@", 0) == 0) {
      if (inHunk) out += '\n';
      inHunk = true;
      continue;
    }
    if (!inHunk || l.rfind("+++", 0) == 0 || l.rfind("---", 0) == 0) continue;
    if (!l.empty() && (l[0] == '+' || l[0] == ' ')) {
      out.append(l.substr(1));
      out += '\n';
    } else if (l.empty()) {
      out += '\n';
    }
  }
  return out;
}

// A block this long is cut into chunks at blank lines between top-level statements, so that only
// the chunks that mention a name greenlight looks for are ever parsed (a 5 MB block costs one
// lexical pass then).
constexpr std::size_t kChunkAbove = 256 * 1024;

std::vector<std::string> chunksOf(const std::string& code, Language language) {
  std::vector<std::string> out;
  LineLexer lexer(language);
  std::size_t chunkStart = 0;
  bool previousBlank = false;
  for (std::size_t pos = 0; pos < code.size();) {
    std::size_t nl = code.find('\n', pos);
    if (nl == std::string::npos) nl = code.size();
    std::string_view line(code.data() + pos, nl - pos);
    const bool blankLine = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (lexer.atTopLevel() && previousBlank && !blankLine && line[0] != ' ' && line[0] != '\t' &&
        pos - chunkStart >= 4096) {
      out.push_back(code.substr(chunkStart, pos - chunkStart));
      chunkStart = pos;
    }
    lexer.feed(line);
    previousBlank = blankLine;
    pos = nl + 1;
  }
  out.push_back(code.substr(chunkStart));
  return out;
}

std::vector<Unit> unitsOf(std::string_view reply, const Target& target, std::string_view fileText, bool* fenced,
                          std::vector<std::string>* otherTags, int* groups) {
  ReplyUnits cut = replyUnits(reply, target.language);
  *otherTags = cut.otherTags;
  std::vector<Unit> units;
  *fenced = false;
  *groups = 0;
  for (auto& u : cut.units) {
    *fenced = *fenced || u.fenced;
    std::string code = u.code;
    if (u.diff) {
      auto applied = applyUnifiedDiff(fileText, u.code);
      code = applied ? *applied : diffNewSide(u.code);
    }
    std::vector<std::string> chunks;
    if (code.size() > kChunkAbove) chunks = chunksOf(code, target.language);
    else chunks.push_back(std::move(code));
    for (auto& chunk : chunks) {
      Unit unit;
      unit.fenced = u.fenced;
      unit.group = *groups;
      unit.code = std::move(chunk);
      unit.language = target.language;
      units.push_back(std::move(unit));
    }
    ++*groups;
  }
  return units;
}

// --- step 3: which unit ---------------------------------------------------------------------

// A definition of the target in `unit`: the item, and for a method written inside its class,
// the method's own lines.
struct Found {
  int item = -1;
  int first = 0, last = 0;  // the lines to take (1-based, in the unit); 0: the item's own
  bool inClass = false;
};

std::optional<Found> targetIn(const Unit& unit, const Target& target) {
  if (target.name.empty() || !unit.mentions(target.name)) return std::nullopt;
  std::optional<Found> found;
  for (std::size_t i = 0; i < unit.items().size(); ++i) {
    const CodeItem& item = unit.items()[i];
    if (item.kind != ItemKind::Definition && item.kind != ItemKind::Assignment) continue;
    if (item.isType || item.names.empty() || item.names.front() != target.name) continue;
    if (!item.qualifier.empty() && !target.className.empty() && item.qualifier != target.className) continue;
    found = Found{static_cast<int>(i), 0, 0, false};
  }
  if (found || target.className.empty()) return found;
  // The method inside a class the model wrote around it.
  for (std::size_t i = 0; i < unit.items().size(); ++i) {
    const CodeItem& item = unit.items()[i];
    if (!item.isType || item.names.empty() || item.names.front() != target.className) continue;
    ScannedSource scan(unit.code, target.language);
    for (const auto& d : definitionsOf(scan)) {
      if (d.name == target.name && d.className == target.className && d.first >= item.first && d.last <= item.last) {
        // Comments right above the method belong to it.
        int first = d.first;
        while (first - 1 > item.first && scan.isCommentOnly(first - 1)) --first;
        found = Found{static_cast<int>(i), first, d.last, true};
      }
    }
  }
  return found;
}

// Words of the comment against the names a unit defines: `flip_case`, `flipCase` and "flip the
// case" share "flip" and "case".
std::set<std::string> wordsOf(std::string_view text) {
  std::set<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 3) out.insert(cur);
    cur.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      if (std::isupper(static_cast<unsigned char>(c)) && !cur.empty() && std::islower(static_cast<unsigned char>(cur.back()))) flush();
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      flush();
    }
  }
  flush();
  return out;
}

int chooseByComment(const std::vector<Unit>& units, const Target& target) {
  const auto comment = wordsOf(target.comment);
  int best = -1, bestScore = -1;
  for (std::size_t u = 0; u < units.size(); ++u) {
    int defs = 0, score = 0;
    for (const auto& item : units[u].items()) {
      if (item.kind != ItemKind::Definition) continue;
      ++defs;
      for (const auto& n : item.names) {
        for (const auto& w : wordsOf(n)) score += comment.count(w) ? 2 : 0;
      }
    }
    if (defs == 0) continue;
    if (score >= bestScore) {  // ties go to the later unit (a revision)
      best = static_cast<int>(u);
      bestScore = score;
    }
  }
  return best;
}

// --- steps 4-5: what is kept ----------------------------------------------------------------

struct Kept {
  int unit = 0, item = 0;
  std::string text;  // what goes into the code
  bool isTarget = false;
};

bool bindsName(const CodeItem& item) {
  return item.kind == ItemKind::Definition || item.kind == ItemKind::Assignment;
}

std::set<std::string> namesBoundBy(std::string_view fileText, Language language) {
  std::set<std::string> out;
  for (const auto& item : codeItems(fileText, language)) {
    if (item.kind == ItemKind::Import || bindsName(item)) out.insert(item.names.begin(), item.names.end());
  }
  return out;
}

// JavaScript: the names the file exports (export keywords, export lists, module.exports).
struct FileExports {
  std::set<std::string> names;
  bool esm = false;
  int objectLine = 0;  // a `module.exports = {…}` literal: its first line (0: none)
};

FileExports exportsOf(std::string_view fileText) {
  FileExports out;
  const LineTable lines(fileText);
  for (const auto& item : codeItems(fileText, Language::JavaScript)) {
    std::string first(trimView(lines.lines(item.first, item.first)));
    if (item.kind == ItemKind::Import && first.rfind("import", 0) == 0) out.esm = true;
    if (!item.exportPrefix.empty()) {
      out.esm = true;
      out.names.insert(item.names.begin(), item.names.end());
    }
    if (item.kind == ItemKind::Export) {
      out.names.insert(item.exported.begin(), item.exported.end());
      if (first.rfind("export", 0) == 0) out.esm = true;
      if (item.wholeObject && first.find('{') != std::string::npos) out.objectLine = item.first;
    }
  }
  return out;
}

// The stub's own `export` / `export default ` (JavaScript), "" when it has none.
std::string stubExportPrefix(const Target& target) {
  std::string_view t = trimView(target.stubText);
  if (t.rfind("export default ", 0) == 0) return "export default ";
  if (t.rfind("export ", 0) == 0) return "export ";
  return "";
}

// The definition's first code line with its export prefix made `want`.
std::string withExportPrefix(const std::string& text, std::string_view have, std::string_view want) {
  if (have == want) return text;
  std::size_t at = text.find(have.empty() ? std::string_view("") : std::string_view(have));
  if (!have.empty()) {
    if (at == std::string::npos) return text;
    std::string out = text;
    out.replace(at, have.size(), want);
    return out;
  }
  // Insert before the first code character of the first line that is not a comment.
  auto lines = lineViews(text, false);
  std::size_t pos = 0;
  for (auto l : lines) {
    std::string_view t = trimView(l);
    if (!t.empty() && t.rfind("//", 0) != 0 && t.rfind("/*", 0) != 0 && t.rfind("*", 0) != 0 && t[0] != '@') {
      std::size_t indent = l.find_first_not_of(" \t");
      std::string out = text;
      out.insert(pos + indent, want);
      return out;
    }
    pos += l.size() + 1;
  }
  return text;
}

// A JavaScript-family header, split: what comes before the parameter list, the parameters
// (depth-0 pieces), what follows them up to the body's `{`, and where that `{` is.
struct JsHeader {
  std::string before;               // "export function truncate" (generics removed)
  std::vector<std::string> params;  // "text: string", "ellipsis = '…'"
  std::string after;                // ": string", " =>"
  std::size_t start = 0, brace = 0; // the header's first code character; the body's `{`
};

std::optional<JsHeader> jsHeader(std::string_view text) {
  JsHeader h;
  h.start = text.find_first_not_of(" \t\r\n");
  if (h.start == std::string_view::npos) return std::nullopt;
  std::size_t open = std::string_view::npos;
  int angle = 0;
  for (std::size_t i = h.start; i < text.size(); ++i) {
    char c = text[i];
    if (c == '<') ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (c == '(' && angle == 0) {
      open = i;
      break;
    } else if (c == '{' || c == ';' || c == '\n') return std::nullopt;
    else if (angle == 0) h.before += c;
  }
  if (open == std::string_view::npos) return std::nullopt;
  int depth = 0;
  std::size_t close = std::string_view::npos, pieceStart = open + 1;
  char quote = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') quote = c;
    else if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '}' || (c == '>' && i > 0 && text[i - 1] != '=')) {
      if (--depth == 0) {
        close = i;
        break;
      }
    } else if (c == ',' && depth == 1) {
      h.params.emplace_back(trimView(text.substr(pieceStart, i - pieceStart)));
      pieceStart = i + 1;
    }
  }
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view last = trimView(text.substr(pieceStart, close - pieceStart));
  if (!last.empty()) h.params.emplace_back(last);
  std::size_t brace = text.find('{', close);
  if (brace == std::string_view::npos) return std::nullopt;
  h.after = std::string(text.substr(close + 1, brace - close - 1));
  if (h.after.find_first_of("{};\n") != std::string::npos && trimView(h.after).find('\n') != std::string::npos) return std::nullopt;
  h.brace = brace;
  std::string b;
  for (char c : h.before) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!b.empty() && b.back() != ' ') b += ' ';
    } else {
      b += c;
    }
  }
  while (!b.empty() && b.back() == ' ') b.pop_back();
  h.before = b;
  return h;
}

// A parameter's name ("text" of "text: string = ''"), and whether it is annotated.
std::string paramName(std::string_view p, bool* typed) {
  std::size_t i = 0;
  while (i < p.size() && (p[i] == '.' || std::isspace(static_cast<unsigned char>(p[i])))) ++i;
  std::size_t j = i;
  while (j < p.size() && (std::isalnum(static_cast<unsigned char>(p[j])) || p[j] == '_' || p[j] == '$')) ++j;
  std::size_t k = j;
  while (k < p.size() && std::isspace(static_cast<unsigned char>(p[k]))) ++k;
  if (k < p.size() && p[k] == '?') ++k;
  while (k < p.size() && std::isspace(static_cast<unsigned char>(p[k]))) ++k;
  *typed = k < p.size() && p[k] == ':';
  return std::string(p.substr(i, j - i));
}

// TypeScript: a stub's typed signature kept when the reply wrote the same function untyped
// (`function f(a, b) {` for the stub's `function f(a: number, b = 2): number {`), so that the
// file keeps its types (a strict type check, ts-jest's, would refuse the untyped parameters).
std::string withStubSignature(const std::string& text, const Target& target) {
  auto stub = jsHeader(target.stubText);
  auto cand = jsHeader(text);
  if (!stub || !cand || stub->params.size() != cand->params.size()) return text;
  auto stripPrefix = [](std::string b) {
    for (const char* p : {"export default ", "export "})
      if (b.rfind(p, 0) == 0) b = b.substr(std::string(p).size());
    return b;
  };
  if (stripPrefix(stub->before) != stripPrefix(cand->before)) return text;
  bool stubTyped = trimView(stub->after).rfind(":", 0) == 0, candTyped = trimView(cand->after).rfind(":", 0) == 0;
  for (std::size_t i = 0; i < stub->params.size(); ++i) {
    bool st = false, ct = false;
    const std::string sn = paramName(stub->params[i], &st), cn = paramName(cand->params[i], &ct);
    if (sn.empty() || sn != cn) return text;
    stubTyped = stubTyped || st;
    candTyped = candTyped || ct;
  }
  if (!stubTyped || candTyped) return text;
  // The stub's header from its first code character to its `{`, with the candidate's export
  // prefix (already made the stub's own).
  std::string head = target.stubText.substr(stub->start, stub->brace - stub->start);
  std::string out = text;
  out.replace(cand->start, cand->brace - cand->start, head);
  return out;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

std::string languageWord(Language language) {
  switch (language) {
    case Language::Python: return "python";
    case Language::JavaScript: return "javascript";
    case Language::Cxx: return "cpp";
    case Language::Command: break;
  }
  return "code";
}

// A test the reply defines (never taken: the user's tests are fixed): its name, or "".
// `firstLine` gives the item's first line, asked only when the name does not tell.
template <typename FirstLine>
std::string testDefined(const CodeItem& item, const FirstLine& firstLine, Language language) {
  const std::string name = item.names.empty() ? "" : item.names.front();
  switch (language) {
    case Language::Python:
      if (item.kind != ItemKind::Definition) return "";
      if (name.rfind("test", 0) == 0 || (item.isType && (name.rfind("Test", 0) == 0 || firstLine().find("TestCase") != std::string::npos)))
        return name;
      return "";
    case Language::JavaScript: {
      if (item.kind != ItemKind::Demo) return "";
      const std::string line = firstLine();
      std::string_view t = trimView(line);
      for (std::string_view w : {"test(", "it(", "describe(", "test.", "it.", "describe."}) {
        if (t.substr(0, w.size()) == w) {
          std::size_t q = t.find_first_of("'\"`");
          std::size_t e = q == std::string_view::npos ? std::string_view::npos : t.find(t[q], q + 1);
          return e == std::string_view::npos ? std::string(w.substr(0, w.size() - 1)) : std::string(t.substr(q + 1, e - q - 1));
        }
      }
      return "";
    }
    case Language::Cxx:
      if (name == "TEST" || name == "TEST_F" || name == "TEST_P" || name == "TEST_CASE" || name == "SCENARIO") return name;
      return "";
    case Language::Command: break;
  }
  return "";
}

}  // namespace

std::optional<std::string> applyUnifiedDiff(std::string_view text, std::string_view diff) {
  auto fileLines = lineViews(text, false);
  std::vector<std::string> out(fileLines.begin(), fileLines.end());
  const auto lines = lineViews(diff, false);
  long shift = 0;
  bool any = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("@@", 0) != 0) continue;
    // @@ -a,b +c,d @@
    long oldStart = 0;
    {
      std::size_t minus = lines[i].find('-');
      if (minus != std::string_view::npos) {
        std::size_t k = minus + 1;
        while (k < lines[i].size() && std::isdigit(static_cast<unsigned char>(lines[i][k]))) oldStart = oldStart * 10 + (lines[i][k++] - '0');
      }
    }
    std::vector<std::string> before, after;
    std::size_t j = i + 1;
    for (; j < lines.size() && lines[j].rfind("@@", 0) != 0; ++j) {
      std::string_view l = lines[j];
      if (l.rfind("--- ", 0) == 0 || l.rfind("+++ ", 0) == 0 || l.rfind("diff ", 0) == 0) break;
      if (l.rfind("\\", 0) == 0) continue;  // \ No newline at end of file
      if (l.empty()) {
        before.emplace_back();
        after.emplace_back();
      } else if (l[0] == ' ') {
        before.emplace_back(l.substr(1));
        after.emplace_back(l.substr(1));
      } else if (l[0] == '-') {
        before.emplace_back(l.substr(1));
      } else if (l[0] == '+') {
        after.emplace_back(l.substr(1));
      } else {
        break;
      }
    }
    i = j - 1;
    while (!before.empty() && !after.empty() && before.back().empty() && after.back().empty()) {
      before.pop_back();
      after.pop_back();
    }
    // Where the old side is: nearest to the line it names, exact, then ignoring trailing blanks.
    auto matchesAt = [&](std::size_t at, bool loose) {
      if (at + before.size() > out.size()) return false;
      for (std::size_t k = 0; k < before.size(); ++k) {
        std::string_view a = out[at + k], b = before[k];
        if (loose ? trimView(a) != trimView(b) : a != b) return false;
      }
      return true;
    };
    std::optional<std::size_t> where;
    const long hint = std::max(0L, oldStart - 1 + shift);
    for (bool loose : {false, true}) {
      for (std::size_t d = 0; !where && d <= out.size(); ++d) {
        for (long at : {hint - static_cast<long>(d), hint + static_cast<long>(d)}) {
          if (at >= 0 && matchesAt(static_cast<std::size_t>(at), loose)) {
            where = static_cast<std::size_t>(at);
            break;
          }
        }
      }
      if (where) break;
    }
    if (!where) return std::nullopt;
    out.erase(out.begin() + static_cast<long>(*where), out.begin() + static_cast<long>(*where + before.size()));
    out.insert(out.begin() + static_cast<long>(*where), after.begin(), after.end());
    shift += static_cast<long>(after.size()) - static_cast<long>(before.size());
    any = true;
  }
  if (!any) return std::nullopt;
  std::string result;
  for (const auto& l : out) result += l + "\n";
  return result;
}

ReplyCode codeFromReply(std::string_view reply, const Target& target, std::string_view fileText) {
  ReplyCode rc;
  const Language language = target.language;
  std::vector<std::string> otherTags;
  int groups = 0;  // the reply's blocks (units.size() counts a huge block's chunks)
  std::vector<Unit> units = unitsOf(reply, target, fileText, &rc.fenced, &otherTags, &groups);
  rc.units = groups;
  const std::string blocksWord = rc.fenced ? "code blocks" : "pieces of code";
  if (units.empty()) {
    rc.note = otherTags.empty() ? "no code found in your reply"
                                : "your reply's code blocks are " + joinNames(otherTags) + ", not " + languageWord(language);
    return rc;
  }

  // Step 3: the unit that defines the target.
  int chosen = -1;
  std::optional<Found> found;
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (auto f = targetIn(units[u], target)) {
      chosen = static_cast<int>(u);
      found = f;
    }
  }
  rc.definesTarget = found.has_value() || target.name.empty();
  if (!found) {
    chosen = target.name.empty() ? chooseByComment(units, target) : -1;
    if (chosen < 0) chosen = static_cast<int>(units.size()) - 1;
    if (!target.name.empty()) {
      rc.note = groups > 1 ? "none of the " + std::to_string(groups) + " " + blocksWord + " in your reply defines " + target.name
                                 : "the code in your reply does not define " + target.name;
    }
  }
  const Unit& unit = units[static_cast<std::size_t>(chosen)];

  // Step 4: the target's definition and its helpers.
  std::set<std::string> fileNames = namesBoundBy(fileText, language);
  fileNames.erase(target.name);
  std::vector<Kept> kept;
  std::set<std::pair<int, int>> taken;
  std::set<std::string> keptNames, wanted;
  std::vector<std::string> helpersFromOthers;
  // The names a kept definition reads that something outside it must provide: not its own
  // parameters and locals, not the language's builtins.
  auto addWanted = [&](const std::string& text) {
    const auto local = identifiersBoundInside(text, language);
    for (const auto& n : identifiersUsed(text, language)) {
      if (!local.count(n) && !isBuiltinName(n, language)) wanted.insert(n);
    }
  };
  auto take = [&](int u, int i, std::string text, bool isTarget = false) {
    taken.insert({u, i});
    const CodeItem& item = units[static_cast<std::size_t>(u)].items()[static_cast<std::size_t>(i)];
    if (!(isTarget && found && found->inClass)) keptNames.insert(item.names.begin(), item.names.end());
    addWanted(text);
    kept.push_back({u, i, std::move(text), isTarget});
  };
  const bool keepModelComment = target.commentFirst == 0;
  std::set<std::string> selfUses;
  if (found) {
    const CodeItem& item = unit.items()[static_cast<std::size_t>(found->item)];
    std::string text = found->inClass ? unit.lines(found->first, found->last) : unit.text(item, keepModelComment);
    if (found->inClass) {
      selfUses = selfMembersUsed(text, language);
      keptNames.insert(target.name);
    }
    take(chosen, found->item, std::move(text), true);
  } else {
    // No definition of the target: every definition of the unit (a nameless insert's code, or
    // what the rejection will explain); a unit without any: all its statements (an insert of
    // plain code).
    bool anyDefinition = false;
    for (const auto& item : unit.items()) anyDefinition = anyDefinition || item.kind == ItemKind::Definition;
    for (std::size_t i = 0; i < unit.items().size(); ++i) {
      const CodeItem& item = unit.items()[i];
      if (anyDefinition ? item.kind == ItemKind::Definition : item.kind != ItemKind::Import)
        take(chosen, static_cast<int>(i), unit.text(item, true));
    }
  }
  // Helpers, transitively: the chosen unit first, then the others from the last.
  std::vector<int> order = {chosen};
  for (int u = static_cast<int>(units.size()) - 1; u >= 0; --u) {
    if (u != chosen) order.push_back(u);
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::string& name : std::set<std::string>(wanted)) {
      if (keptNames.count(name) || fileNames.count(name) || name == target.name) continue;
      for (int u : order) {
        if (!units[static_cast<std::size_t>(u)].mentions(name)) continue;
        const auto& items = units[static_cast<std::size_t>(u)].items();
        int hit = -1;
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (bindsName(items[i]) && std::find(items[i].names.begin(), items[i].names.end(), name) != items[i].names.end() &&
              !taken.count({u, static_cast<int>(i)}))
            hit = static_cast<int>(i);
        }
        if (hit < 0) continue;
        take(u, hit, units[static_cast<std::size_t>(u)].text(items[static_cast<std::size_t>(hit)], true));
        if (units[static_cast<std::size_t>(u)].group != unit.group) helpersFromOthers.push_back(name);
        grew = true;
        break;
      }
    }
  }
  // A method's calls of its class's other methods that the file's class lacks: those methods,
  // from the class the model wrote, beside the target.
  if (found && found->inClass && !selfUses.empty()) {
    ScannedSource fileScan(fileText, language);
    std::set<std::string> fileMembers;
    for (const auto& d : definitionsOf(fileScan)) {
      if (d.className == target.className) fileMembers.insert(d.name);
    }
    ScannedSource scan(unit.code, language);
    const CodeItem& cls = unit.items()[static_cast<std::size_t>(found->item)];
    for (const auto& d : definitionsOf(scan)) {
      if (d.className != target.className || d.name == target.name || d.first < cls.first || d.last > cls.last) continue;
      if (selfUses.count(d.name) && !fileMembers.count(d.name)) kept.push_back({chosen, found->item, unit.lines(d.first, d.last), false});
    }
  }

  // Step 5: the imports the kept code reads.
  std::set<int> helperGroups;  // the blocks something was taken from
  for (const auto& k : kept) helperGroups.insert(units[static_cast<std::size_t>(k.unit)].group);
  std::set<std::string> imported;
  // Names read but bound by nothing taken: only a unit that mentions one can import it.
  std::vector<std::string> unresolved;
  for (const auto& n : wanted) {
    if (!keptNames.count(n) && !fileNames.count(n) && n != target.name) unresolved.push_back(n);
  }
  auto considerImports = [&](int u) {
    const Unit& un = units[static_cast<std::size_t>(u)];
    const bool helperGroup = helperGroups.count(un.group) > 0, chosenGroup = un.group == unit.group;
    // A unit that mentions no unresolved name can only add includes (C++), `import '…'` or a
    // star import, all of them taken from the blocks the code came from only.
    const bool sideEffectsOnly =
        std::none_of(unresolved.begin(), unresolved.end(), [&](const std::string& n) { return un.mentions(n); });
    if (sideEffectsOnly && !helperGroup) return;
    if (sideEffectsOnly && !un.mentions(language == Language::Cxx ? "#" : "import")) return;
    for (const auto& item : un.items()) {
      if (item.kind != ItemKind::Import) continue;
      bool use = false;
      if (item.sideEffectImport || item.names.empty()) {
        use = helperGroup && (language == Language::Cxx || chosenGroup);
      } else {
        for (const auto& n : item.names) use = use || (n == "*" ? chosenGroup : (wanted.count(n) && !imported.count(n)));
      }
      if (!use) continue;
      imported.insert(item.names.begin(), item.names.end());
      std::string stmt(trimView(un.text(item, false)));
      if (std::find(rc.imports.begin(), rc.imports.end(), stmt) == rc.imports.end()) rc.imports.push_back(stmt);
    }
  };
  for (int u : order) considerImports(u);

  // Step 6: exports (JavaScript).
  std::vector<std::string> appended;
  if (language == Language::JavaScript) {
    const FileExports fileExports = exportsOf(fileText);
    std::vector<std::string> candidateExports;
    for (int u : order) {
      if (!units[static_cast<std::size_t>(u)].mentions("export")) continue;
      for (const auto& item : units[static_cast<std::size_t>(u)].items()) {
        if (item.kind != ItemKind::Export) continue;
        for (const auto& n : item.exported) {
          // module.exports.key = value: exported when the value is kept
          std::string local = n;
          if (!keptNames.count(local) && item.uses.size() == 1 && keptNames.count(item.uses.front())) local = item.uses.front();
          if (keptNames.count(local) && std::find(candidateExports.begin(), candidateExports.end(), local) == candidateExports.end())
            candidateExports.push_back(local);
        }
      }
    }
    const std::string stubPrefix = stubExportPrefix(target);
    std::vector<std::string> toExport;
    for (auto& k : kept) {
      const CodeItem& item = units[static_cast<std::size_t>(k.unit)].items()[static_cast<std::size_t>(k.item)];
      const bool isTarget = k.isTarget && !found->inClass;
      if (isTarget && target.kind == TargetKind::Stub) k.text = withExportPrefix(k.text, item.exportPrefix, stubPrefix);
      else if (!isTarget && !item.exportPrefix.empty() && fileExports.names.count(item.names.empty() ? "" : item.names.front()))
        k.text = withExportPrefix(k.text, item.exportPrefix, "");
    }
    for (const auto& name : candidateExports) {
      if (fileExports.names.count(name)) continue;
      bool onDefinition = false;
      for (const auto& k : kept) {
        const CodeItem& item = units[static_cast<std::size_t>(k.unit)].items()[static_cast<std::size_t>(k.item)];
        if (!item.exportPrefix.empty() && !item.names.empty() && item.names.front() == name) onDefinition = true;
      }
      if (name == target.name && !stubPrefix.empty()) onDefinition = true;
      if (!onDefinition) toExport.push_back(name);
    }
    if (!toExport.empty()) {
      const int targetLine = target.kind == TargetKind::Stub ? target.last : std::max(target.commentLast, target.first - 1);
      if (fileExports.esm) appended.push_back("export { " + joinNames(toExport) + " };");
      else if (fileExports.objectLine > targetLine) rc.exports = toExport;
      else {
        for (const auto& n : toExport) appended.push_back("module.exports." + n + " = " + n + ";");
      }
    }
  }

  // Step 7: the user's spec.
  for (auto& k : kept) {
    if (k.isTarget && language == Language::Python) k.text = withUserDocstring(k.text, target);
    if (k.isTarget && language == Language::JavaScript && target.kind == TargetKind::Stub) k.text = withStubSignature(k.text, target);
  }

  // Assemble: helpers from other units first (in their order), then the chosen unit's items
  // in the model's order.
  std::stable_sort(kept.begin(), kept.end(), [&](const Kept& a, const Kept& b) {
    const int chosenGroup = unit.group;
    bool ao = units[static_cast<std::size_t>(a.unit)].group != chosenGroup, bo = units[static_cast<std::size_t>(b.unit)].group != chosenGroup;
    if (ao != bo) return ao;
    if (a.unit != b.unit) return a.unit < b.unit;
    if (a.item != b.item) return a.item < b.item;
    return a.isTarget && !b.isTarget;  // a method before the class's other methods taken with it
  });
  const std::string gap = language == Language::Python && target.className.empty() ? "\n\n" : "\n";
  for (const auto& k : kept) {
    if (!rc.code.empty()) rc.code += gap;
    rc.code += k.text;
  }
  for (const auto& line : appended) rc.code += line + "\n";

  // Step 8: the note (how the reply was read; tests it defined, left out).
  std::vector<std::string> tests;
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (!units[u].parsed() && !units[u].mentions("test") && !units[u].mentions("Test") && !units[u].mentions("TEST")) continue;
    for (std::size_t i = 0; i < units[u].items().size(); ++i) {
      const CodeItem& item = units[u].items()[i];
      if (taken.count({static_cast<int>(u), static_cast<int>(i)})) continue;
      if (item.kind != (language == Language::JavaScript ? ItemKind::Demo : ItemKind::Definition)) continue;
      std::string t = testDefined(item, [&] { return units[u].lines(item.first, item.first); }, language);
      if (!t.empty() && std::find(tests.begin(), tests.end(), t) == tests.end()) tests.push_back(t);
    }
  }
  if (rc.note.empty() && groups > 1 && found) {
    rc.note = "your reply had " + std::to_string(groups) + " " + blocksWord + "; greenlight used the one that defines " +
              target.name;
    if (!helpersFromOthers.empty()) rc.note += " (and " + joinNames(helpersFromOthers) + " from another)";
  } else if (rc.note.empty() && groups > 1) {
    rc.note = "your reply had " + std::to_string(groups) + " " + blocksWord + "; greenlight used the " +
              (unit.group == groups - 1 ? std::string("last") : "#" + std::to_string(unit.group + 1)) + " one";
  } else if (rc.note.empty() && !rc.fenced) {
    rc.note = "your reply had no fenced code block; greenlight read the code from its text";
  }
  if (!tests.empty()) {
    if (tests.size() > 4) {
      tests.resize(4);
      tests.back() = "...";
    }
    rc.note += std::string(rc.note.empty() ? "" : "; ") + "the tests are fixed, so the tests your reply defined were left out (" +
               joinNames(tests) + ")";
  }
  return rc;
}

}  // namespace greenlight::core::refine
