#include "core/refine/Imports.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/refine/CodeItems.h"
#include "support/TextLines.h"

namespace greenlight::core::refine {

using support::trimView;

using testing::Language;

namespace {

// Whitespace runs as one space, none at the ends, a trailing `;` dropped.
std::string collapsed(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : trimView(s)) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  while (!out.empty() && out.back() == ';') out.pop_back();
  return out;
}

std::vector<std::string> splitTop(std::string_view s, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    char c = i < s.size() ? s[i] : sep;
    if (c == '(' || c == '{' || c == '[') ++depth;
    else if (c == ')' || c == '}' || c == ']') --depth;
    if (c == sep && depth == 0) {
      std::string_view part = trimView(s.substr(start, i - start));
      if (!part.empty()) out.emplace_back(part);
      start = i + 1;
    }
  }
  return out;
}

std::string localName(std::string_view part, std::string_view sep) {
  std::size_t at = part.find(sep);
  std::string_view local = trimView(at == std::string_view::npos ? part : part.substr(at + sep.size()));
  std::size_t e = 0;
  while (e < local.size() && (std::isalnum(static_cast<unsigned char>(local[e])) || local[e] == '_' || local[e] == '$')) ++e;
  return std::string(local.substr(0, e));
}

struct FileFacts {
  std::vector<CodeItem> items;
  std::set<std::string> bound;    // top-level names
  std::set<std::string> imports;  // collapsed import statements
  std::set<std::string> modules;  // JavaScript module strings imported; C++ headers included
};

std::string moduleString(std::string_view stmt) {
  for (char q : {'\'', '"', '`'}) {
    std::size_t a = stmt.rfind(q);
    if (a == std::string_view::npos || a == 0) continue;
    std::size_t b = stmt.rfind(q, a - 1);
    if (b != std::string_view::npos) return std::string(stmt.substr(b + 1, a - b - 1));
  }
  return "";
}

std::string includedHeader(std::string_view line) {
  std::size_t at = line.find("include");
  if (at == std::string_view::npos) return "";
  std::string_view rest = trimView(line.substr(at + 7));
  if (rest.empty()) return "";
  char close = rest[0] == '<' ? '>' : '"';
  std::size_t end = rest.find(close, 1);
  return std::string(rest.substr(0, end == std::string_view::npos ? rest.size() : end + 1));
}

FileFacts factsOf(std::string_view text, Language language) {
  FileFacts f;
  f.items = codeItems(text, language);
  for (const auto& item : f.items) {
    if (item.kind == ItemKind::Import || item.kind == ItemKind::Definition || item.kind == ItemKind::Assignment)
      f.bound.insert(item.names.begin(), item.names.end());
    if (item.kind != ItemKind::Import) continue;
    std::string stmt = itemText(text, item, false);
    f.imports.insert(collapsed(stmt));
    if (language == Language::JavaScript) f.modules.insert(moduleString(stmt));
    if (language == Language::Cxx) f.modules.insert(includedHeader(stmt));
  }
  return f;
}

std::string pythonMissing(std::string_view stmt, std::set<std::string>& bound) {
  std::string flat;
  for (char c : stmt) flat += (c == '\n' || c == '\\') ? ' ' : c;
  std::string_view t = trimView(flat);
  if (t.rfind("from ", 0) == 0) {
    std::size_t at = t.find(" import ");
    if (at == std::string_view::npos) return "";
    std::string_view module = trimView(t.substr(5, at - 5));
    if (module == "__future__") return "";
    std::string_view list = trimView(t.substr(at + 8));
    if (!list.empty() && list.front() == '(') list = trimView(list.substr(1, list.rfind(')') == std::string_view::npos ? std::string_view::npos : list.rfind(')') - 1));
    std::vector<std::string> keep;
    bool star = false;
    auto parts = splitTop(list, ',');
    for (const auto& p : parts) {
      if (p == "*") {
        star = true;
        continue;
      }
      std::string name = localName(p, " as ");
      if (name.empty() || bound.count(name)) continue;
      bound.insert(name);
      keep.push_back(p);
    }
    if (star) return std::string(t);
    if (keep.empty()) return "";
    if (keep.size() == parts.size()) return std::string(stmt);
    std::string out = "from " + std::string(module) + " import ";
    for (std::size_t i = 0; i < keep.size(); ++i) out += (i ? ", " : "") + keep[i];
    return out;
  }
  if (t.rfind("import ", 0) == 0) {
    auto parts = splitTop(t.substr(7), ',');
    std::vector<std::string> keep;
    for (const auto& p : parts) {
      std::string name = p.find(" as ") != std::string::npos ? localName(p, " as ") : p.substr(0, p.find('.'));
      if (name.empty() || bound.count(name)) continue;
      bound.insert(name);
      keep.push_back(p);
    }
    if (keep.empty()) return "";
    if (keep.size() == parts.size()) return std::string(stmt);
    std::string out = "import ";
    for (std::size_t i = 0; i < keep.size(); ++i) out += (i ? ", " : "") + keep[i];
    return out;
  }
  return std::string(stmt);  // try/except import guards: by text only
}

std::string jsMissing(std::string_view stmt, FileFacts& facts) {
  auto items = codeItems(stmt, Language::JavaScript);
  if (items.empty()) return "";
  const CodeItem& item = items.front();
  std::string module = moduleString(stmt);
  if (item.sideEffectImport || item.names.empty()) {
    if (facts.modules.count(module)) return "";
    facts.modules.insert(module);
    return std::string(stmt);
  }
  std::vector<std::string> missing;
  for (const auto& n : item.names) {
    if (!n.empty() && !facts.bound.count(n)) missing.push_back(n);
  }
  if (missing.empty()) return "";
  for (const auto& n : missing) facts.bound.insert(n);
  if (missing.size() == item.names.size()) return std::string(stmt);
  // Part of it is bound already: keep the parts that bind a missing name.
  std::string_view t = trimView(stmt);
  std::size_t open = t.find('{'), close = t.find('}');
  if (open == std::string_view::npos || close == std::string_view::npos) return "";
  const bool esm = t.rfind("import", 0) == 0;
  std::vector<std::string> keep;
  for (const auto& p : splitTop(t.substr(open + 1, close - open - 1), ',')) {
    std::string name = localName(p, esm ? " as " : ":");
    if (std::find(missing.begin(), missing.end(), name) != missing.end()) keep.push_back(p);
  }
  if (keep.empty()) return "";
  std::string list = "{ ";
  for (std::size_t i = 0; i < keep.size(); ++i) list += (i ? ", " : "") + keep[i];
  list += " }";
  return esm ? "import " + list + " from '" + module + "';" : "const " + list + " = require('" + module + "');";
}

std::size_t lineStart(std::string_view text, int line) {
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return text.size();
    pos = nl + 1;
  }
  return pos;
}

bool lineBlank(std::string_view text, int line) {
  std::size_t b = lineStart(text, line);
  if (b >= text.size()) return true;
  std::size_t e = text.find('\n', b);
  return trimView(text.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b)).empty();
}

std::string_view firstCodeLine(std::string_view text, const CodeItem& item) {
  std::size_t b = lineStart(text, item.first);
  std::size_t e = text.find('\n', b);
  return trimView(text.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
}

bool isDocstring(std::string_view text, const CodeItem& item) {
  std::string_view t = firstCodeLine(text, item);
  std::size_t k = 0;
  while (k < t.size() && k < 2 && std::isalpha(static_cast<unsigned char>(t[k]))) ++k;
  return item.kind == ItemKind::Demo && k < t.size() && (t[k] == '"' || t[k] == '\'');
}

}  // namespace

std::vector<std::string> missingImports(const std::vector<std::string>& wanted, std::string_view fileText,
                                        Language language) {
  FileFacts facts = factsOf(fileText, language);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& w : wanted) {
    std::string stmt(trimView(w));
    std::string key = collapsed(stmt);
    if (key.empty() || facts.imports.count(key) || !seen.insert(key).second) continue;
    std::string keep;
    switch (language) {
      case Language::Python: keep = pythonMissing(stmt, facts.bound); break;
      case Language::JavaScript: keep = jsMissing(stmt, facts); break;
      case Language::Cxx: {
        std::string header = includedHeader(stmt);
        if (stmt.rfind('#', 0) == 0 && !header.empty()) {
          if (facts.modules.insert(header).second) keep = stmt;
        } else {
          keep = stmt;  // using namespace x;: by text (already checked)
        }
        break;
      }
      case Language::Command: break;
    }
    if (!keep.empty()) out.push_back(keep);
  }
  return out;
}

ImportInsertion importInsertion(std::string_view text, Language language) {
  ImportInsertion at;
  const auto items = codeItems(text, language);
  if (items.empty()) {
    // Only comments (the comment that asks for the code): the imports go on top.
    at.offset = text.rfind("#!", 0) == 0 ? lineStart(text, 2) : 0;
    at.blankAfter = !text.empty();
    return at;
  }
  int after = 0;  // the last line of what the new imports follow
  bool imports = false;
  std::size_t i = 0;
  auto isImport = [](const CodeItem& item) { return item.kind == ItemKind::Import; };
  switch (language) {
    case Language::Python:
      if (isDocstring(text, items[0])) after = items[i++].last;
      break;
    case Language::JavaScript:
      while (i < items.size() && items[i].kind == ItemKind::Other) after = items[i++].last;  // 'use strict'
      break;
    case Language::Cxx: {
      // After every include before the first definition; else after the guard.
      for (std::size_t k = 0; k < items.size(); ++k) {
        if (items[k].kind == ItemKind::Definition) break;
        std::string_view first = firstCodeLine(text, items[k]);
        if (items[k].kind == ItemKind::Import && first.rfind('#', 0) == 0) {
          after = items[k].last;  // includes (a `using namespace` after them stays after the new ones)
          imports = true;
        } else if (!imports && (first.find("pragma") != std::string_view::npos ||
                                (first.rfind('#', 0) == 0 && first.find("ifndef") != std::string_view::npos) ||
                                (k > 0 && first.rfind('#', 0) == 0 && first.find("define") != std::string_view::npos &&
                                 firstCodeLine(text, items[k - 1]).find("ifndef") != std::string_view::npos))) {
          after = items[k].last;
        }
      }
      i = items.size();
      break;
    }
    case Language::Command: break;
  }
  while (i < items.size() && isImport(items[i])) {
    after = items[i++].last;
    imports = true;
  }
  if (after == 0) {
    // Nothing to follow: before the first item (a shebang stays first).
    int line = items.front().lead;
    if (line == 1 && text.rfind("#!", 0) == 0) line = 2;
    at.offset = lineStart(text, line);
    at.blankAfter = true;
    return at;
  }
  at.offset = lineStart(text, after + 1);
  if (at.offset >= text.size() && !text.empty() && text.back() != '\n') at.offset = text.size();
  if (!imports) {
    at.blankBefore = true;
    at.blankAfter = !lineBlank(text, after + 1);
  }
  return at;
}

}  // namespace greenlight::core::refine
