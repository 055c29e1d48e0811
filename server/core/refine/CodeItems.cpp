#include "core/refine/CodeItems.h"

#include <algorithm>
#include <cctype>

#include "core/refine/LineLexer.h"
#include "core/refine/SourceScan.h"
#include "support/TextLines.h"

namespace greenlight::core::refine {

using support::trimView;

using testing::Language;

namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

bool word(std::string_view t, std::string_view w) {
  return t.size() >= w.size() && t.substr(0, w.size()) == w && (t.size() == w.size() || !identChar(t[w.size()]));
}

std::string_view afterWord(std::string_view t, std::string_view w) { return trimView(t.substr(w.size())); }

// The identifier at the start of `t` ("" when none).
std::string leadingIdent(std::string_view t) {
  std::size_t e = 0;
  if (t.empty() || !identStart(t[0])) return "";
  while (e < t.size() && identChar(t[e])) ++e;
  return std::string(t.substr(0, e));
}

bool isKeyword(std::string_view w, Language language) {
  static const std::set<std::string, std::less<>> kPython = {
      "def", "class", "return", "if", "elif", "else", "for", "while", "in", "not", "and", "or", "is", "None", "True",
      "False", "import", "from", "as", "with", "try", "except", "finally", "raise", "lambda", "yield", "pass",
      "break", "continue", "global", "nonlocal", "assert", "del", "async", "await", "self", "cls"};
  static const std::set<std::string, std::less<>> kJs = {
      "function", "class", "return", "if", "else", "for", "while", "do", "switch", "case", "default", "break",
      "continue", "const", "let", "var", "new", "this", "typeof", "instanceof", "in", "of", "null", "undefined",
      "true", "false", "export", "import", "from", "as", "async", "await", "yield", "throw", "try", "catch",
      "finally", "delete", "void", "static", "get", "set", "extends", "super", "type", "interface"};
  static const std::set<std::string, std::less<>> kCxx = {
      "return", "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "const",
      "new", "delete", "this", "true", "false", "nullptr", "class", "struct", "union", "enum", "template",
      "typename", "namespace", "using", "public", "private", "protected", "virtual", "override", "final", "static",
      "inline", "constexpr", "consteval", "extern", "volatile", "mutable", "noexcept", "decltype", "sizeof",
      "operator", "throw", "try", "catch", "int", "long", "short", "char", "bool", "double", "float", "unsigned",
      "signed", "auto", "void", "std", "typedef", "static_cast", "dynamic_cast", "const_cast", "reinterpret_cast"};
  switch (language) {
    case Language::Python: return kPython.count(w) > 0;
    case Language::JavaScript: return kJs.count(w) > 0;
    default: return kCxx.count(w) > 0;
  }
}

// Identifiers in `t` (masked code) that are not member accesses (after `.`, `->`, `?.`) and
// not keywords of the language.
void collectUses(std::string_view t, Language language, std::set<std::string>& out) {
  for (std::size_t i = 0; i < t.size();) {
    if (!identStart(t[i])) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < t.size() && identChar(t[e])) ++e;
    std::size_t p = i;
    while (p > 0 && (t[p - 1] == ' ' || t[p - 1] == '\t')) --p;
    // After `.`, or C++'s `->`; Python's `->` starts a return annotation, whose names are read
    // when the `def` runs (an import used only there is needed all the same).
    bool member = p > 0 && (t[p - 1] == '.' || (language == Language::Cxx && p > 1 && t[p - 1] == '>' && t[p - 2] == '-'));
    if (i > 0 && std::isdigit(static_cast<unsigned char>(t[i - 1]))) member = true;  // 1e5, 0x1f
    std::string_view w = t.substr(i, e - i);
    if (!member && !isKeyword(w, language)) out.emplace(w);
    i = e;
  }
}

// `a, b as c, d.e` (Python import lists): the bound names.
std::vector<std::string> pythonImportNames(std::string_view stmt) {
  std::vector<std::string> names;
  std::string s;
  for (char c : stmt) {
    if (c == '(' || c == ')' || c == '\\' || c == '\n') s += ' ';
    else s += c;
  }
  std::string_view t = trimView(s);
  if (word(t, "from")) {
    std::size_t at = t.find(" import ");
    if (at == std::string_view::npos) return names;
    t = trimView(t.substr(at + 8));
    std::size_t start = 0;
    while (start <= t.size()) {
      std::size_t comma = t.find(',', start);
      std::string_view part = trimView(t.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      if (!part.empty()) {
        std::size_t as = part.find(" as ");
        names.emplace_back(trimView(as == std::string_view::npos ? part : part.substr(as + 4)));
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return names;
  }
  if (word(t, "import")) {
    t = afterWord(t, "import");
    std::size_t start = 0;
    while (start <= t.size()) {
      std::size_t comma = t.find(',', start);
      std::string_view part = trimView(t.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      if (!part.empty()) {
        std::size_t as = part.find(" as ");
        if (as != std::string_view::npos) names.emplace_back(trimView(part.substr(as + 4)));
        else names.emplace_back(part.substr(0, part.find('.')));
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }
  return names;
}

// The names in a destructuring pattern or import clause `{ a, b: c, d as e, ...rest }`:
// the local names (c, e, rest, a).
std::vector<std::string> braceNames(std::string_view t, bool importClause) {
  std::vector<std::string> out;
  std::size_t open = t.find('{'), close = t.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return out;
  std::string_view inner = t.substr(open + 1, close - open - 1);
  std::size_t start = 0;
  while (start <= inner.size()) {
    std::size_t comma = inner.find(',', start);
    std::string_view part = trimView(inner.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (part.rfind("...", 0) == 0) part = trimView(part.substr(3));
    if (word(part, "type")) part = afterWord(part, "type");
    if (!part.empty()) {
      std::size_t sep = importClause ? part.find(" as ") : part.find(':');
      std::string_view local = sep == std::string_view::npos ? part : trimView(part.substr(sep + (importClause ? 4 : 1)));
      std::size_t eq = local.find('=');  // a default value
      if (eq != std::string_view::npos) local = trimView(local.substr(0, eq));
      std::string name = leadingIdent(local);
      if (!name.empty()) out.push_back(name);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// --- Python --------------------------------------------------------------------------------

void classifyPython(CodeItem& item, std::string_view head, std::string_view whole) {
  if (word(head, "def") || word(head, "async")) {
    std::string_view t = word(head, "async") ? afterWord(head, "async") : head;
    item.kind = ItemKind::Definition;
    item.names = {leadingIdent(afterWord(t, "def"))};
  } else if (word(head, "class")) {
    item.kind = ItemKind::Definition;
    item.isType = true;
    item.names = {leadingIdent(afterWord(head, "class"))};
  } else if (word(head, "import") || word(head, "from")) {
    item.kind = ItemKind::Import;
    item.names = pythonImportNames(whole);
  } else if (word(head, "if") && head.find("__name__") != std::string_view::npos) {
    item.kind = ItemKind::Demo;
  } else if (word(head, "try") && whole.find("import ") != std::string_view::npos &&
             whole.find("def ") == std::string_view::npos) {
    // try: import x / except ImportError: x = None
    item.kind = ItemKind::Import;
    for (std::size_t pos = 0; (pos = whole.find("import ", pos)) != std::string_view::npos; pos += 7) {
      std::size_t ls = whole.rfind('\n', pos);
      ls = ls == std::string_view::npos ? 0 : ls + 1;
      std::size_t le = whole.find('\n', pos);
      for (auto& n : pythonImportNames(trimView(whole.substr(ls, le == std::string_view::npos ? std::string_view::npos : le - ls))))
        item.names.push_back(n);
    }
  } else {
    // NAME = ..., NAME: T = ..., a, b = ...: an assignment; anything else runs at import: demo.
    std::size_t eq = std::string_view::npos;
    int depth = 0;
    for (std::size_t i = 0; i < head.size(); ++i) {
      char c = head[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') --depth;
      else if (c == '=' && depth == 0 && (i + 1 >= head.size() || head[i + 1] != '=') &&
               (i == 0 || std::string_view("=!<>+-*/%&|^@:").find(head[i - 1]) == std::string_view::npos)) {
        eq = i;
        break;
      }
    }
    std::string_view target = eq == std::string_view::npos ? std::string_view{} : trimView(head.substr(0, eq));
    std::size_t colon = target.find(':');
    if (colon != std::string_view::npos) target = trimView(target.substr(0, colon));
    bool plain = !target.empty();
    for (char c : target) plain = plain && (identChar(c) || c == ',' || c == ' ' || c == '(' || c == ')' || c == '*');
    if (eq == std::string_view::npos && colon == std::string_view::npos) {
      // `x: int` alone (an annotation) binds nothing we need; everything else is a statement.
      std::size_t c2 = head.find(':');
      std::string id = leadingIdent(head);
      if (c2 != std::string_view::npos && !id.empty() && trimView(head.substr(0, c2)) == id && !word(head, "else") &&
          !word(head, "try") && !word(head, "for") && !word(head, "while") && !word(head, "with")) {
        item.kind = ItemKind::Assignment;
        item.names = {id};
        return;
      }
    }
    if (!plain) {
      item.kind = ItemKind::Demo;
      return;
    }
    item.kind = ItemKind::Assignment;
    std::string cur;
    for (char c : target) {
      if (identChar(c)) {
        cur += c;
      } else if (!cur.empty()) {
        item.names.push_back(cur);
        cur.clear();
      }
    }
    if (!cur.empty()) item.names.push_back(cur);
    if (std::find(item.names.begin(), item.names.end(), "__all__") != item.names.end()) item.kind = ItemKind::Export;
  }
}

// One top-level Python line with its strings' contents and its comment blanked (quotes kept):
// what classifies an item. A string that goes on past the line is blanked to the end.
std::string maskedPythonLine(std::string_view line) {
  std::string out(line);
  const std::size_t n = out.size();
  for (std::size_t i = 0; i < n;) {
    const char c = out[i];
    if (c == '#') {
      for (std::size_t k = i; k < n; ++k) out[k] = ' ';
      break;
    }
    if (c != '\'' && c != '"') {
      ++i;
      continue;
    }
    const bool triple = i + 2 < n && out[i + 1] == c && out[i + 2] == c;
    std::size_t j = i + (triple ? 3 : 1);
    for (; j < n; ++j) {
      if (out[j] == '\\') {
        out[j] = ' ';
        if (j + 1 < n) out[++j] = ' ';
        continue;
      }
      if (out[j] == c && (!triple || (j + 2 < n && out[j + 1] == c && out[j + 2] == c))) break;
      out[j] = ' ';
    }
    i = j >= n ? n : j + (triple ? 3 : 1);
  }
  return out;
}

// Items by indentation, with one LineLexer pass (no per-character classes: a reply's block can be
// megabytes long): an item starts at a column-0 line at the top level and takes the lines under it.
std::vector<CodeItem> pythonItems(std::string_view code) {
  struct Extent {
    std::size_t headBegin = 0, headEnd = 0, end = 0;  // the head line, and the end of the item's last line
  };
  std::vector<CodeItem> items;
  std::vector<Extent> extents;
  // Reserved, not touched: a generous guess costs address space, a reallocation moves them all.
  const std::size_t guess = static_cast<std::size_t>(std::count(code.begin(), code.end(), '\n')) / 2 + 16;
  items.reserve(guess);
  extents.reserve(guess);
  LineLexer lexer(Language::Python);
  int lead = 0;       // the first comment or decorator line waiting for its item
  int decorator = 0;  // the first decorator line waiting for its definition
  std::size_t leadAt = 0, decoratorAt = 0;
  int ln = 0;
  auto extend = [&](std::size_t lineEnd) {
    if (items.empty()) return;
    items.back().last = ln;
    extents.back().end = lineEnd;
  };
  for (std::size_t pos = 0; pos < code.size();) {
    std::size_t nl = code.find('\n', pos);
    if (nl == std::string_view::npos) nl = code.size();
    std::string_view line = code.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t lineBegin = pos, lineEnd = pos + line.size();
    pos = nl + 1;
    ++ln;
    const bool top = lexer.atTopLevel();
    lexer.feed(line);
    if (!top) {
      extend(lineEnd);
      continue;
    }
    std::size_t k = 0;
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t' || line[k] == '\f')) ++k;
    if (k == line.size()) {
      if (!decorator) lead = 0;
      continue;
    }
    if (k > 0) {
      extend(lineEnd);
      continue;
    }
    if (line[0] == '#') {
      if (!lead) lead = ln, leadAt = lineBegin;
      continue;
    }
    if (line[0] == '@') {
      if (!lead) lead = ln, leadAt = lineBegin;
      if (!decorator) decorator = ln, decoratorAt = lineBegin;
      continue;
    }
    if (!items.empty() && (word(line, "else") || word(line, "elif") || word(line, "except") || word(line, "finally"))) {
      extend(lineEnd);
      continue;
    }
    CodeItem item;
    item.lead = lead ? lead : ln;
    item.first = decorator ? decorator : ln;
    item.last = ln;
    item.leadOffset = lead ? leadAt : lineBegin;
    item.firstOffset = decorator ? decoratorAt : lineBegin;
    lead = 0;
    decorator = 0;
    items.push_back(std::move(item));
    extents.push_back({lineBegin, lineEnd, lineEnd});
  }
  // Classify and collect names once each item's extent is known.
  for (std::size_t i = 0; i < items.size(); ++i) {
    CodeItem& item = items[i];
    const Extent& x = extents[i];
    item.endOffset = x.end < code.size() ? code.find('\n', x.end) : code.size();
    item.endOffset = item.endOffset == std::string_view::npos ? code.size() : item.endOffset + 1;
    std::string_view headLine = code.substr(x.headBegin, x.headEnd - x.headBegin);
    // `def name(` / `class Name`: nothing before the name can be a string; anything else is
    // classified with its strings and comment blanked.
    if (word(headLine, "def") || word(headLine, "class") || word(headLine, "async")) {
      classifyPython(item, headLine, code.substr(x.headBegin, x.end - x.headBegin));
    } else {
      std::string masked = maskedPythonLine(headLine);
      classifyPython(item, trimView(masked), code.substr(x.headBegin, x.end - x.headBegin));
    }
    if (item.kind == ItemKind::Export) {
      std::string_view text = code.substr(x.headBegin, x.end - x.headBegin);
      ScannedSource s(text, Language::Python);
      std::set<std::string> uses;
      collectUses(s.masked(0, text.size()), Language::Python, uses);
      item.uses.assign(uses.begin(), uses.end());
    }
  }
  return items;
}

// --- JavaScript and C++ --------------------------------------------------------------------

bool blockHead(std::string_view head, bool js) {
  // What a `{` at depth 0 opens: a declaration's block (the item ends with its `}`) or an
  // expression (object literal, arrow body: the item goes on to its `;`).
  std::string_view t = head;
  if (js) {
    if (word(t, "export")) {
      t = afterWord(t, "export");
      if (word(t, "default")) t = afterWord(t, "default");
    }
    if (word(t, "async")) t = afterWord(t, "async");
    if (word(t, "declare")) t = afterWord(t, "declare");
    for (std::string_view w : {"function", "class", "if", "for", "while", "switch", "try", "do", "else", "interface",
                               "enum", "abstract"}) {
      if (word(t, w)) return true;
    }
    // TypeScript `namespace X {` / `module X {` (not `module.exports = {`).
    for (std::string_view w : {"namespace", "module"}) {
      if (t.size() > w.size() && t.substr(0, w.size()) == w && t[w.size()] == ' ') return true;
    }
    return false;
  }
  // C++: an initializer (`= {`) or a braced init (`T x{...};`) is not a block; everything else
  // that opens at depth 0 (functions, classes, namespaces, extern "C") is.
  int depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '(' || c == '[' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '>') --depth;
    else if (c == '=' && depth == 0 && (i + 1 >= t.size() || t[i + 1] != '=') &&
             (i == 0 || std::string_view("=!<>").find(t[i - 1]) == std::string_view::npos) && t.find("operator") == std::string_view::npos)
      return false;
  }
  return true;
}

// JavaScript: a line break ends the statement when the next line cannot continue it.
bool asiBreak(std::string_view lineCode, std::string_view nextCode) {
  std::string_view a = trimView(lineCode), b = trimView(nextCode);
  if (a.empty() || b.empty()) return false;
  if (std::string_view("=+-*/%&|^,(<>?:!.[{").find(a.back()) != std::string_view::npos) return false;
  if (a.size() >= 2 && a.substr(a.size() - 2) == "=>") return false;
  if (std::string_view(".?:+-*/%&|^=,([)]}>`").find(b.front()) != std::string_view::npos) return false;
  for (std::string_view w : {"else", "catch", "finally", "instanceof", "in", "of", "extends"}) {
    if (word(b, w)) return false;
  }
  return true;
}

std::string jsNameAfter(std::string_view t, std::initializer_list<std::string_view> prefixes) {
  for (auto p : prefixes) {
    if (word(t, p)) t = afterWord(t, p);
  }
  if (!t.empty() && t[0] == '*') t = trimView(t.substr(1));
  return leadingIdent(t);
}

void classifyJs(CodeItem& item, std::string_view head) {
  std::string_view t = head;
  if (word(t, "import") && !(t.size() > 6 && trimView(t.substr(6)).rfind('(', 0) == 0)) {
    item.kind = ItemKind::Import;
    std::string_view clause = afterWord(t, "import");
    if (word(clause, "type")) clause = afterWord(clause, "type");
    if (!clause.empty() && (clause[0] == '"' || clause[0] == '\'')) {
      item.sideEffectImport = true;
      return;
    }
    std::size_t from = clause.rfind(" from");
    if (from != std::string_view::npos) clause = clause.substr(0, from);
    std::string def = leadingIdent(clause);
    if (!def.empty()) item.names.push_back(def);
    std::size_t star = clause.find("* as ");
    if (star != std::string_view::npos) item.names.push_back(leadingIdent(trimView(clause.substr(star + 5))));
    for (auto& n : braceNames(clause, true)) item.names.push_back(n);
    return;
  }
  if (word(t, "const") || word(t, "let") || word(t, "var")) {
    std::string_view rest = afterWord(t, word(t, "const") ? "const" : word(t, "let") ? "let" : "var");
    std::size_t eq = rest.find('=');
    std::string_view lhs = trimView(rest.substr(0, eq));
    std::string_view rhs = eq == std::string_view::npos ? std::string_view{} : trimView(rest.substr(eq + 1));
    std::vector<std::string> names;
    if (!lhs.empty() && (lhs[0] == '{' || lhs[0] == '[')) {
      names = braceNames(lhs[0] == '[' ? std::string("{") + std::string(lhs.substr(1, lhs.size() - 2)) + "}" : std::string(lhs), false);
    } else {
      names = {leadingIdent(lhs)};
    }
    item.names = names;
    if (word(rhs, "require") || (word(rhs, "await") && afterWord(rhs, "await").rfind("import(", 0) == 0)) {
      item.kind = ItemKind::Import;
    } else if (word(rhs, "function") || word(rhs, "async") ||
               (rhs.find("=>") != std::string_view::npos && (rhs[0] == '(' || identStart(rhs[0])))) {
      item.kind = ItemKind::Definition;
    } else {
      item.kind = ItemKind::Assignment;
    }
    return;
  }
  if (t.rfind("module.exports", 0) == 0 || t.rfind("exports.", 0) == 0) {
    item.kind = ItemKind::Export;
    std::string_view rest = t.rfind("module.exports", 0) == 0 ? t.substr(14) : t.substr(7);
    rest = trimView(rest);
    if (!rest.empty() && rest[0] == '.') {
      std::string key = leadingIdent(rest.substr(1));
      item.exported = {key};
      std::size_t eq = rest.find('=');
      std::string value = eq == std::string_view::npos ? "" : leadingIdent(trimView(rest.substr(eq + 1)));
      if (!value.empty()) item.uses = {value};
    } else if (!rest.empty() && rest[0] == '=') {
      item.wholeObject = true;
      std::string_view value = trimView(rest.substr(1));
      if (!value.empty() && value[0] == '{') {
        // { a, b: c, d() {} }: the keys are what is exported.
        std::size_t close = value.rfind('}');
        std::string_view inner = value.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
        int depth = 0;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= inner.size(); ++i) {
          char c = i < inner.size() ? inner[i] : ',';
          if (c == '(' || c == '[' || c == '{') ++depth;
          else if (c == ')' || c == ']' || c == '}') --depth;
          else if (c == ',' && depth == 0) {
            std::string key = leadingIdent(trimView(inner.substr(start, i - start)));
            if (!key.empty()) item.exported.push_back(key);
            start = i + 1;
          }
        }
      } else {
        std::string v = leadingIdent(value);
        if (!v.empty()) item.exported.push_back(v);
      }
    }
    return;
  }
  if (word(t, "export")) {
    std::string_view rest = afterWord(t, "export");
    if (!rest.empty() && rest[0] == '{') {
      item.kind = ItemKind::Export;
      // export { a, b as c }: a and b are read; a and c are exported.
      std::size_t close = rest.find('}');
      std::string_view inner = rest.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
      std::size_t start = 0;
      while (start <= inner.size()) {
        std::size_t comma = inner.find(',', start);
        std::string_view part = trimView(inner.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (!part.empty()) {
          std::size_t as = part.find(" as ");
          item.exported.emplace_back(trimView(as == std::string_view::npos ? part : part.substr(as + 4)));
        }
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
      if (rest.find(" from ") != std::string_view::npos) item.kind = ItemKind::Other;  // a re-export
      return;
    }
    if (rest.rfind('*', 0) == 0) {
      item.kind = ItemKind::Other;
      return;
    }
    bool isDefault = word(rest, "default");
    std::string_view decl = isDefault ? afterWord(rest, "default") : rest;
    item.exportPrefix = isDefault ? "export default " : "export ";
    classifyJs(item, decl);
    if (item.kind == ItemKind::Demo || item.kind == ItemKind::Other) {
      // export default someName;
      item.kind = ItemKind::Export;
      item.exportPrefix = {};
      std::string v = leadingIdent(decl);
      if (!v.empty()) item.exported = {isDefault ? "default" : v};
    }
    return;
  }
  if (word(t, "function") || word(t, "async")) {
    std::string n = jsNameAfter(t, {"async", "function"});
    item.kind = n.empty() ? ItemKind::Demo : ItemKind::Definition;
    if (!n.empty()) item.names = {n};
    return;
  }
  if (word(t, "class") || word(t, "abstract")) {
    item.kind = ItemKind::Definition;
    item.isType = true;
    item.names = {jsNameAfter(t, {"abstract", "class"})};
    return;
  }
  if (word(t, "interface") || word(t, "type") || word(t, "enum") || word(t, "declare")) {
    std::string n = jsNameAfter(t, {"declare", "const", "interface", "type", "enum"});
    if (!n.empty()) {
      item.kind = ItemKind::Definition;
      item.isType = true;
      item.names = {n};
      return;
    }
  }
  if (t.rfind("'use strict'", 0) == 0 || t.rfind("\"use strict\"", 0) == 0 || t.rfind("' ", 0) == 0 ||
      t.rfind("\"", 0) == 0) {
    item.kind = ItemKind::Other;
    return;
  }
  item.kind = ItemKind::Demo;  // console.log(...), a call, a loop: runs at load
}

// C++: the declarator's name before the first `(` at depth 0 (qualified names split).
void cxxDeclarator(std::string_view head, std::string& name, std::string& qualifier) {
  int depth = 0;
  std::size_t paren = std::string_view::npos;
  for (std::size_t i = 0; i < head.size(); ++i) {
    char c = head[i];
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (c == '(' && depth <= 0) {
      paren = i;
      break;
    }
  }
  if (paren == std::string_view::npos) return;
  std::size_t e = paren;
  while (e > 0 && head[e - 1] == ' ') --e;
  std::size_t op = head.rfind("operator", e);
  if (op != std::string_view::npos && op < e) {
    name = std::string(trimView(head.substr(op, e - op)));
  } else {
    std::size_t b = e;
    while (b > 0 && (identChar(head[b - 1]) || head[b - 1] == '~')) --b;
    name = std::string(head.substr(b, e - b));
    e = b;
  }
  // A qualifier: `Shape::area`.
  if (e >= 2 && head[e - 1] == ':' && head[e - 2] == ':') {
    std::size_t qe = e - 2, qb = qe;
    while (qb > 0 && identChar(head[qb - 1])) --qb;
    qualifier = std::string(head.substr(qb, qe - qb));
  }
}

void classifyCxx(CodeItem& item, std::string_view head, bool blockBody) {
  std::string_view t = head;
  if (!t.empty() && t[0] == '#') {
    std::string_view d = trimView(t.substr(1));
    if (word(d, "include")) {
      item.kind = ItemKind::Import;
      item.sideEffectImport = true;
    } else if (word(d, "define")) {
      item.kind = ItemKind::Assignment;
      item.names = {leadingIdent(afterWord(d, "define"))};
    } else {
      item.kind = ItemKind::Other;
    }
    return;
  }
  if (word(t, "using")) {
    std::string_view rest = afterWord(t, "using");
    if (word(rest, "namespace")) {
      item.kind = ItemKind::Import;
      item.sideEffectImport = true;
    } else {
      item.kind = ItemKind::Assignment;
      std::string n = leadingIdent(rest);
      if (rest.find('=') == std::string_view::npos) {
        // using std::vector; binds the last component
        std::size_t c = rest.rfind("::");
        n = c == std::string_view::npos ? n : leadingIdent(rest.substr(c + 2));
      }
      item.names = {n};
      item.isType = true;
    }
    return;
  }
  if (word(t, "template")) {
    std::size_t depth = 0, i = t.find('<');
    for (; i < t.size(); ++i) {
      if (t[i] == '<') ++depth;
      else if (t[i] == '>' && --depth == 0) break;
    }
    t = i < t.size() ? trimView(t.substr(i + 1)) : std::string_view{};
  }
  if (word(t, "typedef")) {
    item.kind = ItemKind::Assignment;
    item.isType = true;
    std::string_view r = trimView(t.substr(0, t.rfind(';')));
    std::size_t b = r.size();
    while (b > 0 && identChar(r[b - 1])) --b;
    item.names = {std::string(r.substr(b))};
    return;
  }
  for (std::string_view kw : {"struct", "class", "union", "enum"}) {
    if (word(t, kw)) {
      std::string_view rest = afterWord(t, kw);
      if (word(rest, "class") || word(rest, "struct")) rest = afterWord(rest, word(rest, "class") ? "class" : "struct");
      std::string n = leadingIdent(rest);
      item.kind = blockBody && !n.empty() ? ItemKind::Definition : ItemKind::Other;
      item.isType = true;
      if (!n.empty()) item.names = {n};
      return;
    }
  }
  if (word(t, "namespace")) {
    item.kind = ItemKind::Definition;
    item.isType = true;
    std::string n = leadingIdent(afterWord(t, "namespace"));
    if (!n.empty()) item.names = {n};
    return;
  }
  if (word(t, "extern") && t.find("\"C") != std::string_view::npos) {
    item.kind = ItemKind::Other;
    return;
  }
  // A function (definition or prototype) or a variable.
  int depth = 0;
  std::size_t eq = std::string_view::npos, paren = std::string_view::npos;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (c == '(' && depth <= 0 && paren == std::string_view::npos) paren = i;
    else if (c == '=' && depth <= 0 && eq == std::string_view::npos && paren == std::string_view::npos &&
             (i + 1 >= t.size() || t[i + 1] != '=') && t.find("operator") == std::string_view::npos)
      eq = i;
  }
  if (paren != std::string_view::npos && eq == std::string_view::npos) {
    std::string name, qualifier;
    cxxDeclarator(t, name, qualifier);
    item.names = {name};
    item.qualifier = qualifier;
    item.kind = blockBody ? (name == "main" && qualifier.empty() ? ItemKind::Demo : ItemKind::Definition) : ItemKind::Other;
    return;
  }
  // Variables: `const int N = 5;`, `static std::map<int, int> memo;`.
  std::string_view lhs = trimView(t.substr(0, std::min(eq, t.find_first_of(";{["))));
  std::size_t b = lhs.size();
  while (b > 0 && identChar(lhs[b - 1])) --b;
  std::string n(lhs.substr(b));
  item.kind = n.empty() ? ItemKind::Other : ItemKind::Assignment;
  if (!n.empty()) item.names = {n};
}

// The code of [from, to) with comments and strings' contents blanked, line breaks as spaces,
// at most `cap` bytes.
std::string flatMasked(const ScannedSource& s, std::size_t from, std::size_t to, std::size_t cap) {
  std::string out = s.masked(from, std::min(to, from + cap));
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

std::vector<CodeItem> clikeItems(std::string_view code, Language language) {
  const bool js = language == Language::JavaScript;
  ScannedSource s(code, language);
  const std::string_view text = s.text();
  std::vector<CodeItem> items;
  items.reserve(static_cast<std::size_t>(s.lineCount()) / 2 + 16);  // reserved, not touched: no reallocation
  int lead = 0;
  int ln = 1;
  const int n = s.lineCount();
  while (ln <= n) {
    const auto& L = s.line(ln);
    if (s.isBlank(ln)) {
      lead = 0;
      ++ln;
      continue;
    }
    if (s.isCommentOnly(ln) || (L.startsInString && !s.hasCode(ln))) {
      if (!lead) lead = ln;
      ++ln;
      continue;
    }
    CodeItem item;
    item.lead = lead ? lead : ln;
    item.first = ln;
    lead = 0;
    std::size_t start = L.begin;
    while (start < L.end && (s.at(start) != CharClass::Code || std::isspace(static_cast<unsigned char>(text[start])))) ++start;
    const bool preprocessor = !js && start < text.size() && text[start] == '#';
    // Find the end. The item's code (capped: what classifies it) and, when it has one, its code
    // up to the first `{` at depth 0 (what decides a declaration's block) are cut out after.
    constexpr std::size_t kHeadCap = 4096;
    int end = ln;
    std::size_t brace = std::string_view::npos, stop = text.size();
    bool block = false;
    if (preprocessor) {
      while (end < n) {
        std::string m = s.maskedLine(end);
        std::string_view tm = trimView(m);
        if (tm.empty() || tm.back() != '\\') break;
        ++end;
      }
      stop = s.line(end).end;
    } else {
      int depth = 0, line = ln;
      bool done = false;
      for (std::size_t k = start; k < text.size() && !done; ++k) {
        const char c = text[k];
        if (c == '\n') {
          const int here = line++;
          if (depth > 0 && s.at(k) == CharClass::Code && line < n && s.line(line + 1).depthAtStart > 0 &&
              s.line(line).end > s.line(line).begin) {
            // Inside brackets from this line's start to the next one's: nothing on it can end the
            // item (a body's middle); on to its end.
            depth = s.line(line + 1).depthAtStart;
            k = s.line(line).end - 1;
            continue;
          }
          if (s.at(k) != CharClass::Code || depth != 0 || !js) continue;
          // Automatic semicolon: the next code line cannot continue this statement.
          int next = here + 1;
          while (next <= n && (s.isBlank(next) || s.isCommentOnly(next))) ++next;
          if (next > n || asiBreak(s.maskedLine(here), s.maskedLine(next))) {
            end = here;
            stop = k;
            done = true;
          }
          continue;
        }
        if (s.at(k) != CharClass::Code) continue;
        if (c == '(' || c == '[' || c == '{') {
          if (c == '{' && depth == 0 && brace == std::string_view::npos) {
            brace = k;
            block = blockHead(trimView(flatMasked(s, start, k, kHeadCap)), js);
          }
          ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
          --depth;
          if (depth == 0 && c == '}' && block) {
            // The block's end: with a `;` (or `} name;`) on the same line, up to it.
            std::size_t lineEnd = s.line(line).end;
            std::size_t r = k + 1;
            while (r < lineEnd && (s.at(r) != CharClass::Code || std::isspace(static_cast<unsigned char>(text[r])))) ++r;
            if (r >= lineEnd || text[r] == ';') {
              end = line;
              stop = r < lineEnd ? r + 1 : k + 1;
              done = true;
            } else if (js && (word(text.substr(r), "else") || word(text.substr(r), "catch") || word(text.substr(r), "finally"))) {
              // the next block of the same statement
            } else if (!js) {
              block = false;  // `} name;`: on to the `;`
            }
          }
          if (depth < 0) depth = 0;
        } else if (c == ';' && depth == 0) {
          end = line;
          stop = k + 1;
          done = true;
        }
      }
      if (!done) end = n;
    }
    const std::string head = flatMasked(s, start, stop, kHeadCap);
    const std::string blockText = block ? flatMasked(s, start, brace, kHeadCap) : std::string();
    item.last = end;
    item.leadOffset = s.line(item.lead).begin;
    item.firstOffset = s.line(item.first).begin;
    item.endOffset = std::min(text.size(), s.line(item.last).end + 1);
    if (item.endOffset > 0 && text[item.endOffset - 1] == '\r' && item.endOffset < text.size()) ++item.endOffset;
    std::string_view h = trimView(block ? std::string_view(blockText) : std::string_view(head));
    if (js) classifyJs(item, h);
    else classifyCxx(item, h, block);
    if (item.kind == ItemKind::Export) {
      const std::size_t b = s.line(item.first).begin, e = s.line(item.last).end;
      std::set<std::string> uses;
      collectUses(s.masked(b, e), language, uses);
      item.uses.assign(uses.begin(), uses.end());
    }
    items.push_back(std::move(item));
    ln = end + 1;
  }
  return items;
}

}  // namespace

std::vector<CodeItem> codeItems(std::string_view code, Language language) {
  if (language == Language::Python) return pythonItems(code);
  if (language == Language::JavaScript || language == Language::Cxx) return clikeItems(code, language);
  return {};
}

std::set<std::string> identifiersUsed(std::string_view code, Language language) {
  ScannedSource s(code, language);
  std::set<std::string> out;
  collectUses(s.masked(0, code.size()), language, out);
  return out;
}

std::set<std::string> identifiersBoundInside(std::string_view code, Language language) {
  ScannedSource s(code, language);
  const std::string m = s.masked(0, code.size());
  std::set<std::string> out;
  std::string previous;  // the identifier before the current one (`for`, `as`, `const`, a type)
  int depth = 0, headerDepth = -1;
  bool inHeader = true;  // the definition's first parameter list
  for (std::size_t i = 0; i < m.size();) {
    const char c = m[i];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
      ++i;
      if (c == '(' && inHeader && headerDepth < 0) headerDepth = depth;
      previous.clear();
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (c == ')' && depth == headerDepth) inHeader = false;
      --depth;
      ++i;
      previous.clear();
      continue;
    }
    if (!identStart(c) || (i > 0 && (identChar(m[i - 1]) || m[i - 1] == '.'))) {
      if (!std::isspace(static_cast<unsigned char>(c)) && c != ',' && c != '*' && c != '&') previous.clear();
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < m.size() && identChar(m[e])) ++e;
    std::string w = m.substr(i, e - i);
    std::size_t k = e;
    while (k < m.size() && (m[k] == ' ' || m[k] == '\t')) ++k;
    const char next = k < m.size() ? m[k] : '\0';
    const char after = k + 1 < m.size() ? m[k + 1] : '\0';
    // A parameter: in the header's parentheses, before `,` `)` `:` `=`.
    if (inHeader && depth == headerDepth && (next == ',' || next == ')' || next == ':' || next == '=')) out.insert(w);
    // An assignment or declaration with a value: `x = …` (not `==`, not `=>`), `x += …`.
    if (next == '=' && after != '=' && after != '>') out.insert(w);
    if ((next == '+' || next == '-' || next == '*' || next == '/' || next == '|' || next == '&') && after == '=') out.insert(w);
    // After a binding word: `for x`, `as x`, `const x`, `let x`, `var x`, `auto x`; and a C++
    // declaration `int x;` / `std::string s(…)`.
    if (previous == "for" || previous == "as" || previous == "const" || previous == "let" || previous == "var" ||
        previous == "auto" || previous == "lambda")
      out.insert(w);
    static const std::set<std::string, std::less<>> kCxxTypes = {"int", "long", "short", "char", "bool", "double",
                                                                  "float", "unsigned", "signed", "auto", "size_t"};
    if (language == Language::Cxx && kCxxTypes.count(previous) &&
        (next == ';' || next == '=' || next == '(' || next == '{' || next == ',' || next == ':'))
      out.insert(w);
    // Python tuples in `for a, b in` and `a, b = …`.
    if (next == ',' && !inHeader && language == Language::Python) {
      std::size_t eq = m.find_first_of("=\n", k);
      if (eq != std::string::npos && m[eq] == '=' && eq + 1 < m.size() && m[eq + 1] != '=') out.insert(w);
      if (previous == "for") out.insert(w);
    }
    if (!(next == ',' && (previous == "for" || previous == "const" || previous == "let" || previous == "var"))) previous = w;
    i = e;
  }
  return out;
}

bool isBuiltinName(std::string_view name, Language language) {
  static const std::set<std::string, std::less<>> kPython = {
      "abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr", "classmethod", "complex",
      "dict", "dir", "divmod", "enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr",
      "globals", "hasattr", "hash", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len", "list",
      "locals", "map", "max", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "range",
      "repr", "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple",
      "type", "vars", "zip", "Exception", "ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError",
      "NotImplementedError", "ZeroDivisionError", "StopIteration", "AttributeError", "AssertionError"};
  static const std::set<std::string, std::less<>> kJs = {
      "Math", "Object", "Array", "String", "Number", "Boolean", "JSON", "console", "Date", "RegExp", "Map", "Set",
      "WeakMap", "WeakSet", "Promise", "Symbol", "Error", "TypeError", "RangeError", "parseInt", "parseFloat",
      "isNaN", "isFinite", "BigInt", "Infinity", "NaN", "require", "module", "exports", "process", "Buffer",
      "setTimeout", "clearTimeout", "globalThis", "arguments"};
  static const std::set<std::string, std::less<>> kCxx = {"size_t", "std", "assert", "printf", "puts", "main"};
  switch (language) {
    case Language::Python: return kPython.count(name) > 0;
    case Language::JavaScript: return kJs.count(name) > 0;
    default: return kCxx.count(name) > 0;
  }
}

std::set<std::string> selfMembersUsed(std::string_view code, Language language) {
  ScannedSource s(code, language);
  const std::string m = s.masked(0, code.size());
  const std::string_view self = language == Language::Python ? "self." : "this.";
  std::set<std::string> out;
  for (std::size_t pos = 0; (pos = m.find(self, pos)) != std::string::npos;) {
    bool bounded = pos == 0 || !identChar(m[pos - 1]);
    pos += self.size();
    std::string name = leadingIdent(std::string_view(m).substr(pos));
    if (bounded && !name.empty()) out.insert(name);
  }
  return out;
}

LineTable::LineTable(std::string_view text) : text_(text) {
  starts_.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  starts_.push_back(0);
  for (std::size_t i = text.find('\n'); i != std::string_view::npos && i + 1 < text.size(); i = text.find('\n', i + 1))
    starts_.push_back(i + 1);
}

std::string LineTable::lines(int first, int last) const {
  first = std::max(first, 1);
  last = std::min(last, static_cast<int>(starts_.size()));
  if (text_.empty() || first > last) return "";
  std::size_t b = starts_[static_cast<std::size_t>(first - 1)];
  std::size_t e = last < static_cast<int>(starts_.size()) ? starts_[static_cast<std::size_t>(last)] : text_.size();
  std::string out(text_.substr(b, e - b));
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

std::string itemText(std::string_view code, const CodeItem& item, bool withLead) {
  const std::size_t from = withLead ? item.leadOffset : item.firstOffset;
  if (from >= code.size() || item.endOffset <= from) return "";
  std::string out(code.substr(from, std::min(item.endOffset, code.size()) - from));
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

}  // namespace greenlight::core::refine
