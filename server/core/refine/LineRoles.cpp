#include "core/refine/LineRoles.h"

#include <cctype>
#include <initializer_list>

namespace greenlight::core::refine {

using testing::Language;

namespace {

bool identStart(char c, bool js) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (js && c == '$');
}
bool identChar(char c, bool js) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (js && c == '$');
}

std::string_view rtrim(std::string_view t) {
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}

std::size_t skipSpaces(std::string_view t, std::size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  return i;
}

std::size_t identEnd(std::string_view t, std::size_t i, bool js) {
  if (i >= t.size() || !identStart(t[i], js)) return i;
  while (i < t.size() && identChar(t[i], js)) ++i;
  return i;
}

// `t` starts with `w` as a whole word.
bool word(std::string_view t, std::string_view w, bool js = false) {
  return t.size() >= w.size() && t.substr(0, w.size()) == w && (t.size() == w.size() || !identChar(t[w.size()], js));
}

bool anyWord(std::string_view t, std::initializer_list<std::string_view> words, bool js = false) {
  for (auto w : words) {
    if (word(t, w, js)) return true;
  }
  return false;
}

// Past the bracket group that opens at `i` (on this line), or npos when it does not close here.
std::size_t skipGroup(std::string_view t, std::size_t i) {
  int depth = 0;
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"' || c == '\'' || c == '`') {
      char q = c;
      for (++i; i < t.size() && t[i] != q; ++i) {
        if (t[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// The line without a trailing comment (`marker` outside quotes), right-trimmed.
std::string_view withoutComment(std::string_view t, std::string_view marker) {
  char quote = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (t.substr(i, marker.size()) == marker) return rtrim(t.substr(0, i));
  }
  return rtrim(t);
}

bool endsWithAny(std::string_view t, std::string_view chars) {
  return !t.empty() && chars.find(t.back()) != std::string_view::npos;
}

// `a.b.c` then optional subscripts/calls in between (`x[0].y`); returns where it stops.
std::size_t identChain(std::string_view t, std::size_t i, bool js) {
  std::size_t e = identEnd(t, i, js);
  if (e == i) return i;
  for (;;) {
    std::size_t k = e;
    if (k < t.size() && t[k] == '[') {
      std::size_t g = skipGroup(t, k);
      if (g == std::string_view::npos) return e;
      e = g;
      continue;
    }
    if (k < t.size() && t[k] == '.') ++k;
    else if (js && k + 1 < t.size() && t[k] == '?' && t[k + 1] == '.') k += 2;
    else if (!js && k + 1 < t.size() && t[k] == ':' && t[k + 1] == ':') k += 2;
    else if (!js && k + 1 < t.size() && t[k] == '-' && t[k + 1] == '>') k += 2;
    else return e;
    std::size_t n = identEnd(t, k, js);
    if (n == k) return e;
    e = n;
  }
}

bool isAugmentedAssign(std::string_view rest) {
  for (std::string_view op : {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "|=", "&=", "^=", ">>=", "<<=", "@=", "?" "?=", "||=", "&&="}) {
    if (rest.substr(0, op.size()) == op) return true;
  }
  return false;
}

// --- Python -------------------------------------------------------------------------------

bool pythonDottedList(std::string_view t, std::size_t i) {
  // name[.name] [as name] (, ...)*  up to the end or a comment.
  bool any = false;
  while (i < t.size()) {
    i = skipSpaces(t, i);
    if (i >= t.size() || t[i] == '#') break;
    std::size_t e = identEnd(t, i, false);
    if (e == i) return false;
    i = e;
    while (i < t.size() && t[i] == '.') {
      std::size_t n = identEnd(t, i + 1, false);
      if (n == i + 1) return false;
      i = n;
    }
    any = true;
    i = skipSpaces(t, i);
    if (word(t.substr(i), "as")) {
      i = skipSpaces(t, i + 2);
      std::size_t n = identEnd(t, i, false);
      if (n == i) return false;
      i = skipSpaces(t, n);
    }
    if (i < t.size() && t[i] == ',') {
      ++i;
      continue;
    }
    if (i < t.size() && t[i] != '#') return false;
  }
  return any;
}

LineRole pythonRole(std::string_view t) {
  const char c = t[0];
  if (c == '#') return LineRole::Neutral;
  if (t.substr(0, 3) == ">>>") return LineRole::Prose;  // transcripts are cut apart, not here
  if (c == '@') return t.size() > 1 && identStart(t[1], false) ? LineRole::Strong : LineRole::Prose;
  const std::string_view code = withoutComment(t, "#");
  if (word(t, "def") || word(t, "async")) {
    std::size_t i = skipSpaces(t, word(t, "async") ? 5 : 3);
    if (word(t, "async")) {
      if (!word(t.substr(i), "def")) return LineRole::Prose;
      i = skipSpaces(t, i + 3);
    }
    std::size_t e = identEnd(t, i, false);
    return e > i && skipSpaces(t, e) < t.size() && t[skipSpaces(t, e)] == '(' ? LineRole::Strong : LineRole::Prose;
  }
  if (word(t, "class")) {
    std::size_t i = skipSpaces(t, 5), e = identEnd(t, i, false);
    std::size_t k = skipSpaces(t, e);
    return e > i && k < t.size() && (t[k] == ':' || t[k] == '(') ? LineRole::Strong : LineRole::Prose;
  }
  if (word(t, "import")) return pythonDottedList(t, 6) ? LineRole::Strong : LineRole::Prose;
  if (word(t, "from")) {
    std::size_t i = skipSpaces(t, 4);
    while (i < t.size() && t[i] == '.') ++i;
    std::size_t e = i;
    while (e < t.size() && (identChar(t[e], false) || t[e] == '.')) ++e;
    std::size_t k = skipSpaces(t, e);
    return (e > i || i > skipSpaces(t, 4)) && k > e && word(t.substr(k), "import") ? LineRole::Strong : LineRole::Prose;
  }
  if (anyWord(t, {"if", "elif", "else", "for", "while", "with", "try", "except", "finally"}))
    return endsWithAny(code, ":") ? LineRole::Code : LineRole::Prose;
  if (anyWord(t, {"return", "raise", "assert", "del", "pass", "break", "continue", "yield", "global", "nonlocal"})) {
    // A sentence may start with one of these words too ("pass it the list."): code ends with
    // no sentence punctuation.
    return endsWithAny(code, ".!?") && code.find('(') == std::string_view::npos ? LineRole::Prose : LineRole::Code;
  }
  if (c == '"' || c == '\'') return LineRole::Code;
  if ((c == 'r' || c == 'b' || c == 'f' || c == 'u' || c == 'R' || c == 'B' || c == 'F' || c == 'U') && t.size() > 1) {
    std::size_t k = 1;
    if (k < t.size() && std::isalpha(static_cast<unsigned char>(t[k])) && k + 1 < t.size()) ++k;
    if (t[k] == '"' || t[k] == '\'') return LineRole::Code;
  }
  if (c == ')' || c == ']' || c == '}') return LineRole::Code;
  std::size_t e = identChain(t, 0, false);
  if (e == 0) return LineRole::Prose;
  std::size_t k = skipSpaces(t, e);
  std::string_view rest = t.substr(k);
  if (rest.empty()) return LineRole::Prose;  // a lone word
  if (rest[0] == '=' && (rest.size() == 1 || rest[1] != '=')) return LineRole::Code;
  if (isAugmentedAssign(rest)) return LineRole::Code;
  if (rest[0] == '(') return endsWithAny(code, "),(\\[{:") ? LineRole::Code : LineRole::Prose;
  if (rest[0] == ',') {
    // a, b = ...
    std::size_t eq = code.find('=');
    if (eq == std::string_view::npos || (eq + 1 < code.size() && code[eq + 1] == '=')) return LineRole::Prose;
    for (std::size_t i = 0; i < eq; ++i) {
      char x = code[i];
      if (!identChar(x, false) && x != ',' && x != ' ' && x != '*' && x != '.' && x != '(' && x != ')') return LineRole::Prose;
    }
    return LineRole::Code;
  }
  if (rest[0] == ':' && e == identEnd(t, 0, false)) {
    // An annotation: `name: type` or `name: type = value`.
    std::size_t i = skipSpaces(t, k + 1);
    std::size_t te = identChain(t, i, false);
    if (te == i) return LineRole::Prose;
    std::size_t after = skipSpaces(t, te);
    return after >= code.size() || t[after] == '=' || t[after] == '|' || t[after] == ',' ? LineRole::Code : LineRole::Prose;
  }
  return LineRole::Prose;
}

// --- JavaScript ---------------------------------------------------------------------------

LineRole jsRole(std::string_view t) {
  const char c = t[0];
  if (t.substr(0, 2) == "//" || t.substr(0, 2) == "/*") return LineRole::Neutral;
  if (c == '*' && (t.size() == 1 || t[1] == ' ' || t[1] == '/')) return LineRole::Neutral;
  if (c == ')' || c == ']' || c == '}') return LineRole::Code;
  if (t.substr(0, 12) == "'use strict'" || t.substr(0, 12) == "\"use strict\"") return LineRole::Code;
  const std::string_view code = withoutComment(t, "//");
  if (word(t, "function", true) || word(t, "async", true)) {
    std::size_t i = word(t, "async", true) ? skipSpaces(t, 5) : 0;
    if (word(t, "async", true) && !word(t.substr(i), "function", true)) {
      return t.find("=>") != std::string_view::npos ? LineRole::Code : LineRole::Prose;
    }
    i = skipSpaces(t, i + 8);
    if (i < t.size() && t[i] == '*') i = skipSpaces(t, i + 1);
    std::size_t e = identEnd(t, i, true);
    std::size_t k = skipSpaces(t, e);
    return k < t.size() && t[k] == '(' ? LineRole::Strong : LineRole::Prose;
  }
  if (word(t, "class", true)) {
    std::size_t i = skipSpaces(t, 5), e = identEnd(t, i, true);
    std::size_t k = skipSpaces(t, e);
    return e > i && (k >= t.size() || t[k] == '{' || word(t.substr(k), "extends", true)) ? LineRole::Strong : LineRole::Prose;
  }
  if (anyWord(t, {"const", "let", "var"}, true)) {
    std::size_t i = skipSpaces(t, t[0] == 'c' ? 5 : 3);
    if (i < t.size() && (t[i] == '{' || t[i] == '[')) return LineRole::Strong;
    std::size_t e = identEnd(t, i, true);
    if (e == i) return LineRole::Prose;
    std::size_t k = skipSpaces(t, e);
    return k >= code.size() || t[k] == '=' || t[k] == ':' || t[k] == ';' || t[k] == ',' ? LineRole::Strong : LineRole::Prose;
  }
  if (word(t, "export", true)) {
    std::size_t i = skipSpaces(t, 6);
    std::string_view r = t.substr(i);
    return anyWord(r, {"default", "function", "async", "class", "const", "let", "var", "type", "interface", "enum"}, true) ||
                   (!r.empty() && (r[0] == '{' || r[0] == '*'))
               ? LineRole::Strong
               : LineRole::Prose;
  }
  if (word(t, "import", true)) {
    std::size_t i = skipSpaces(t, 6);
    if (i < t.size() && (t[i] == '"' || t[i] == '\'' || t[i] == '{' || t[i] == '*')) return LineRole::Strong;
    if (i < t.size() && t[i] == '(') return LineRole::Code;
    return t.find(" from ") != std::string_view::npos || word(t.substr(i), "type", true) ? LineRole::Strong : LineRole::Prose;
  }
  if (t.substr(0, 14) == "module.exports" || t.substr(0, 8) == "exports.") return LineRole::Strong;
  if (anyWord(t, {"interface", "type", "enum"}, true)) {
    // TypeScript declarations.
    std::size_t i = skipSpaces(t, t.find_first_of(" \t") == std::string_view::npos ? t.size() : t.find_first_of(" \t"));
    std::size_t e = identEnd(t, i, true);
    std::size_t k = skipSpaces(t, e);
    return e > i && k < t.size() && (t[k] == '{' || t[k] == '=' || t[k] == '<') ? LineRole::Strong : LineRole::Prose;
  }
  if (anyWord(t, {"if", "for", "while", "switch", "catch"}, true)) {
    std::size_t i = skipSpaces(t, t.find_first_of(" \t(") == std::string_view::npos ? t.size() : t.find_first_of(" \t("));
    return i < t.size() && t[i] == '(' ? LineRole::Code : LineRole::Prose;
  }
  if (anyWord(t, {"try", "do", "else", "finally"}, true)) return endsWithAny(code, "{") ? LineRole::Code : LineRole::Prose;
  if (anyWord(t, {"return", "throw", "await", "new", "yield", "delete"}, true))
    return endsWithAny(code, ";)}]") || code.find('(') != std::string_view::npos ? LineRole::Code : LineRole::Prose;
  std::size_t e = identChain(t, 0, true);
  if (e == 0) return LineRole::Prose;
  std::size_t k = skipSpaces(t, e);
  std::string_view rest = t.substr(k);
  if (rest.empty()) return LineRole::Prose;
  if (rest[0] == '=' && (rest.size() == 1 || (rest[1] != '=' && rest[1] != '>'))) return LineRole::Code;
  if (isAugmentedAssign(rest) || rest.substr(0, 2) == "++" || rest.substr(0, 2) == "--") return LineRole::Code;
  if (rest[0] == '(') return endsWithAny(code, ";),({[") ? LineRole::Code : LineRole::Prose;
  return LineRole::Prose;
}

// --- C++ ----------------------------------------------------------------------------------

// `type-ish tokens ... name (` — a declaration or a function definition's header.
bool cxxDeclaration(std::string_view t, std::size_t* parenAt) {
  std::size_t i = 0;
  int tokens = 0;
  while (i < t.size()) {
    i = skipSpaces(t, i);
    while (i < t.size() && (t[i] == '*' || t[i] == '&')) i = skipSpaces(t, i + 1);
    if (i < t.size() && t[i] == '~') ++i;
    if (t.substr(i, 8) == "operator") {
      std::size_t p = t.find('(', i + 8);
      if (p == i + 8 && t.substr(p, 2) == "()") p = t.find('(', p + 2);
      if (p == std::string_view::npos) return false;
      *parenAt = p;
      return tokens >= 1 || t.substr(0, 8) == "operator";
    }
    std::size_t e = identChain(t, i, false);
    if (e == i) return false;
    ++tokens;
    i = e;
    if (i < t.size() && t[i] == '<') {
      std::size_t g = skipGroup(t, i);
      if (g == std::string_view::npos) return false;
      i = g;
      if (i + 1 < t.size() && t[i] == ':' && t[i + 1] == ':') {
        i += 2;
        continue;
      }
    }
    std::size_t k = skipSpaces(t, i);
    if (k < t.size() && t[k] == '(') {
      *parenAt = k;
      return tokens >= 2 || (tokens == 1 && t.find("::") != std::string_view::npos);
    }
    if (tokens > 8) return false;
  }
  return false;
}

LineRole cxxRole(std::string_view t) {
  const char c = t[0];
  if (c == '#') {
    std::size_t i = skipSpaces(t, 1);
    std::string_view d = t.substr(i);
    if (anyWord(d, {"include", "pragma", "define"})) return LineRole::Strong;
    if (anyWord(d, {"if", "ifdef", "ifndef", "endif", "else", "elif", "undef", "error", "line"})) return LineRole::Code;
    return LineRole::Prose;  // a Markdown heading
  }
  if (t.substr(0, 2) == "//" || t.substr(0, 2) == "/*") return LineRole::Neutral;
  if (c == '*' && (t.size() == 1 || t[1] == ' ' || t[1] == '/')) return LineRole::Neutral;
  if (c == '}' || c == ')') return LineRole::Code;
  const std::string_view code = withoutComment(t, "//");
  if (word(t, "template")) return t.find('<') != std::string_view::npos ? LineRole::Strong : LineRole::Prose;
  if (word(t, "namespace")) return endsWithAny(code, "{;") || code.size() < 40 ? LineRole::Strong : LineRole::Prose;
  if (word(t, "using")) return endsWithAny(code, ";") ? LineRole::Strong : LineRole::Prose;
  if (anyWord(t, {"struct", "class", "union", "enum"})) {
    std::size_t i = t.find_first_of(" \t");
    if (i == std::string_view::npos) return LineRole::Prose;
    i = skipSpaces(t, i);
    if (word(t.substr(i), "class") || word(t.substr(i), "struct")) i = skipSpaces(t, i + 6);
    std::size_t e = identEnd(t, i, false);
    std::size_t k = skipSpaces(t, e);
    return e > i && (k >= code.size() || t[k] == '{' || t[k] == ':' || t[k] == ';' || word(t.substr(k), "final"))
               ? LineRole::Strong
               : LineRole::Prose;
  }
  if (word(t, "typedef")) return LineRole::Code;
  if (anyWord(t, {"return", "if", "for", "while", "switch", "do", "else", "try", "catch", "throw", "case", "default",
                  "public", "private", "protected", "static_assert"}))
    return endsWithAny(code, ";{:)") ? LineRole::Code : LineRole::Prose;
  std::size_t paren = 0;
  if (cxxDeclaration(t, &paren)) {
    if (endsWithAny(code, "{)") || code.substr(code.size() >= 5 ? code.size() - 5 : 0) == "const" ||
        (code.size() >= 8 && (code.substr(code.size() - 8) == "override" || code.substr(code.size() - 8) == "noexcept")))
      return LineRole::Strong;
    return endsWithAny(code, ";,") ? LineRole::Code : LineRole::Prose;
  }
  std::size_t e = identChain(t, 0, false);
  if (e == 0) return LineRole::Prose;
  std::size_t k = skipSpaces(t, e);
  std::string_view rest = t.substr(k);
  if (rest.empty()) return LineRole::Prose;
  // Declarations and statements: `int x = 1;`, `std::vector<int> v;`, `x += 2;`, `f(x);`.
  if (endsWithAny(code, ";{,")) return LineRole::Code;
  return LineRole::Prose;
}

}  // namespace

LineRole lineRole(std::string_view line, Language language) {
  std::string_view t = rtrim(line);
  std::size_t lead = skipSpaces(t, 0);
  t.remove_prefix(lead);
  if (t.empty()) return LineRole::Blank;
  switch (language) {
    case Language::Python: return pythonRole(t);
    case Language::JavaScript: return jsRole(t);
    case Language::Cxx: return cxxRole(t);
    case Language::Command: break;
  }
  return LineRole::Code;
}

}  // namespace greenlight::core::refine
