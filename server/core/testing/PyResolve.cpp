#include "core/testing/PyResolve.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <filesystem>

#include "core/testing/PythonProject.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}
bool isDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool dottedName(const std::string& s) {
  if (s.empty()) return false;
  for (const auto& part : split(s, '.')) {
    if (part.empty() || !identStart(part[0]) || !std::all_of(part.begin(), part.end(), identChar)) return false;
  }
  return true;
}

struct LogicalLine {
  std::string text;
  int line = 0;
};

// Python's logical lines: comments dropped, continuation lines (backslash, open brackets) joined,
// `;` separating statements, string literals kept whole (a docstring mentioning `import x` is a
// line that starts with a quote, never an import statement).
std::vector<LogicalLine> logicalLines(const std::string& text) {
  std::vector<LogicalLine> out;
  std::string cur;
  int curLine = 1, lineNo = 1, depth = 0;
  const std::size_t n = text.size();
  auto flush = [&]() {
    std::string t = trim(cur);
    if (!t.empty()) out.push_back({std::move(t), curLine});
    cur.clear();
    depth = 0;
  };
  std::size_t i = 0;
  while (i < n) {
    const char c = text[i];
    if (cur.empty() && (c == ' ' || c == '\t' || c == '\r' || c == '\f')) {
      ++i;
      continue;
    }
    if (cur.empty()) curLine = lineNo;
    if (c == '#') {
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      i += text[i + 1] == '\r' && i + 2 < n && text[i + 2] == '\n' ? 3 : 2;
      ++lineNo;
      cur += ' ';
      continue;
    }
    if (c == '\n') {
      ++lineNo;
      ++i;
      if (depth > 0) cur += ' ';
      else flush();
      continue;
    }
    if (c == ';' && depth == 0) {
      flush();
      ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == '"' || c == '\'') {
      const bool triple = i + 2 < n && text[i + 1] == c && text[i + 2] == c;
      const std::size_t q = triple ? 3 : 1;
      std::size_t j = i + q;
      bool closed = false;
      while (j < n && !closed) {
        if (text[j] == '\\') {
          if (j + 1 < n && text[j + 1] == '\n') ++lineNo;
          j += 2;
          continue;
        }
        if (text[j] == '\n') {
          if (!triple) break;  // an unterminated one-line string ends at the line's end
          ++lineNo;
        }
        if (text[j] == c && (!triple || (j + 2 < n && text[j + 1] == c && text[j + 2] == c))) {
          j += q;
          closed = true;
          continue;
        }
        ++j;
      }
      j = std::min(j, n);
      cur.append(text, i, j - i);
      i = j;
      continue;
    }
    cur += c;
    ++i;
  }
  flush();
  return out;
}

// ---- A small evaluator for the path expressions of sys.path edits ----------------------------

struct Tok {
  enum Kind { Name, Str, Num, Op, End } kind = End;
  std::string text;
};

std::vector<Tok> tokenize(const std::string& s) {
  std::vector<Tok> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    // String literals, with the prefixes that leave the text as written (r, u); f- and b-strings
    // are not paths we can know.
    std::size_t p = i;
    std::string prefix;
    while (p < s.size() && std::isalpha(static_cast<unsigned char>(s[p])) && p - i < 2) prefix += static_cast<char>(std::tolower(s[p++]));
    if (p < s.size() && (s[p] == '"' || s[p] == '\'') && (prefix.empty() || prefix == "r" || prefix == "u")) {
      const char q = s[p];
      const bool triple = p + 2 < s.size() && s[p + 1] == q && s[p + 2] == q;
      std::size_t j = p + (triple ? 3 : 1);
      std::string value;
      while (j < s.size()) {
        if (s[j] == '\\' && prefix != "r" && j + 1 < s.size()) {
          value += s[j + 1];
          j += 2;
          continue;
        }
        if (s[j] == q && (!triple || (j + 2 < s.size() && s[j + 1] == q && s[j + 2] == q))) break;
        value += s[j++];
      }
      out.push_back({Tok::Str, value});
      i = std::min(s.size(), j + (triple ? 3 : 1));
      continue;
    }
    if (p < s.size() && (s[p] == '"' || s[p] == '\'')) {
      out.push_back({Tok::Op, "?"});  // an f-string or bytes: not evaluated
      return out;
    }
    if (identStart(c)) {
      std::size_t j = i;
      while (j < s.size() && identChar(s[j])) ++j;
      out.push_back({Tok::Name, s.substr(i, j - i)});
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      out.push_back({Tok::Num, s.substr(i, j - i)});
      i = j;
      continue;
    }
    out.push_back({Tok::Op, std::string(1, c)});
    ++i;
  }
  return out;
}

class PathEval {
 public:
  PathEval(std::vector<Tok> toks, const std::map<std::string, std::string>& vars, const std::string& file,
           const std::string& cwd)
      : t_(std::move(toks)), vars_(vars), file_(file), cwd_(cwd) {}

  // The whole token list as one expression.
  std::optional<std::string> all() {
    auto v = expr();
    if (!v || i_ != t_.size()) return std::nullopt;
    return v;
  }
  // The expression at the start; the index after it.
  std::optional<std::string> prefix(std::size_t* end) {
    auto v = expr();
    *end = i_;
    return v;
  }
  std::size_t pos() const { return i_; }
  void seek(std::size_t i) { i_ = i; }
  const std::vector<Tok>& toks() const { return t_; }

 private:
  bool peekOp(const char* op) const { return i_ < t_.size() && t_[i_].kind == Tok::Op && t_[i_].text == op; }
  bool takeOp(const char* op) {
    if (!peekOp(op)) return false;
    ++i_;
    return true;
  }
  std::string absolute(const std::string& p) const {
    fs::path v(p);
    if (v.is_relative()) v = fs::path(cwd_) / v;
    std::string s = v.lexically_normal().string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
  }
  static std::string dirname(const std::string& p) {
    std::string s = p;
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return fs::path(s).parent_path().string();
  }
  static std::string join(const std::string& a, const std::string& b) {
    if (!b.empty() && b[0] == '/') return b;
    return (fs::path(a) / b).string();
  }

  std::optional<std::string> expr() {
    auto v = term();
    while (v) {
      if (takeOp("/")) {
        auto r = term();
        if (!r) return std::nullopt;
        v = join(*v, *r);
      } else if (takeOp("+")) {
        auto r = term();
        if (!r) return std::nullopt;
        v = *v + *r;
      } else {
        break;
      }
    }
    return v;
  }

  std::optional<std::vector<std::string>> args() {
    std::vector<std::string> out;
    if (takeOp(")")) return out;
    for (;;) {
      auto v = expr();
      if (!v) return std::nullopt;
      out.push_back(*v);
      if (takeOp(")")) return out;
      if (!takeOp(",")) return std::nullopt;
      if (takeOp(")")) return out;  // a trailing comma
    }
  }

  std::optional<std::string> call(const std::string& fn) {
    auto a = args();
    if (!a) return std::nullopt;
    auto last = [&](const std::string& suffix) { return fn == suffix || (fn.size() > suffix.size() && fn.compare(fn.size() - suffix.size() - 1, std::string::npos, "." + suffix) == 0); };
    if ((fn == "os.getcwd" || fn == "Path.cwd" || fn == "pathlib.Path.cwd") && a->empty()) return cwd_;
    if (last("join") && !a->empty() && fn != "str.join") {
      std::string v = (*a)[0];
      for (std::size_t k = 1; k < a->size(); ++k) v = join(v, (*a)[k]);
      return v;
    }
    if (a->size() != 1) return std::nullopt;
    const std::string& x = (*a)[0];
    if (fn == "os.path.dirname" || fn == "path.dirname" || fn == "dirname") return dirname(x);
    if (last("abspath") || last("realpath") || last("normpath")) return absolute(x);
    if (fn == "str" || fn == "os.fspath" || last("Path") || last("PurePath") || last("PosixPath")) return x;
    return std::nullopt;
  }

  std::optional<std::string> primary() {
    if (i_ >= t_.size()) return std::nullopt;
    const Tok tok = t_[i_];
    if (tok.kind == Tok::Str) {
      ++i_;
      return tok.text;
    }
    if (tok.kind == Tok::Op && tok.text == "(") {
      ++i_;
      auto v = expr();
      if (!v || !takeOp(")")) return std::nullopt;
      return v;
    }
    if (tok.kind != Tok::Name) return std::nullopt;
    ++i_;
    if (tok.text == "__file__") return file_;
    if (auto it = vars_.find(tok.text); it != vars_.end()) return it->second;
    // A dotted function name: os.path.join(...), pathlib.Path(...), Path.cwd().
    std::string fn = tok.text;
    while (peekOp(".") && i_ + 1 < t_.size() && t_[i_ + 1].kind == Tok::Name) {
      fn += "." + t_[i_ + 1].text;
      i_ += 2;
    }
    if (!takeOp("(")) return std::nullopt;
    return call(fn);
  }

  std::optional<std::string> term() {
    auto v = primary();
    while (v && peekOp(".") && i_ + 1 < t_.size() && t_[i_ + 1].kind == Tok::Name) {
      const std::string attr = t_[i_ + 1].text;
      i_ += 2;
      if (attr == "parent") {
        v = dirname(absolute(*v));
      } else if (attr == "parents") {
        if (!takeOp("[") || i_ >= t_.size() || t_[i_].kind != Tok::Num) return std::nullopt;
        const int k = std::stoi(t_[i_++].text);
        if (!takeOp("]") || k > 64) return std::nullopt;
        std::string p = absolute(*v);
        for (int up = 0; up <= k; ++up) p = dirname(p);
        v = p;
      } else if (attr == "resolve" || attr == "absolute" || attr == "as_posix" || attr == "__str__") {
        if (!takeOp("(") || !takeOp(")")) return std::nullopt;
        if (attr != "as_posix" && attr != "__str__") v = absolute(*v);
      } else if (attr == "joinpath") {
        if (!takeOp("(")) return std::nullopt;
        auto a = args();
        if (!a) return std::nullopt;
        for (const auto& x : *a) v = join(*v, x);
      } else {
        return std::nullopt;
      }
    }
    return v;
  }

  std::vector<Tok> t_;
  std::size_t i_ = 0;
  const std::map<std::string, std::string>& vars_;
  std::string file_, cwd_;
};

std::string absolutePath(const std::string& p, const std::string& cwd) {
  fs::path v(p);
  if (v.is_relative()) v = fs::path(cwd) / v;
  std::string s = v.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// The argument list of the call whose '(' is at `open` in `s`: the text up to the matching ')'.
std::optional<std::string> callArgs(const std::string& s, std::size_t open) {
  int depth = 0;
  char quote = 0;
  for (std::size_t j = open; j < s.size(); ++j) {
    const char c = s[j];
    if (quote) {
      if (c == '\\') ++j;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(') ++depth;
    else if (c == ')' && --depth == 0) return s.substr(open + 1, j - open - 1);
  }
  return std::nullopt;
}

// The call arguments split at top-level commas.
std::vector<std::string> splitArgs(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (std::size_t j = 0; j < s.size(); ++j) {
    const char c = s[j];
    if (quote) {
      cur += c;
      if (c == '\\' && j + 1 < s.size()) cur += s[++j];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

// A string literal's value, when `s` is exactly one.
std::optional<std::string> literal(const std::string& s) {
  auto toks = tokenize(s);
  if (toks.size() != 1 || toks[0].kind != Tok::Str) return std::nullopt;
  return toks[0].text;
}

// Every occurrence of `fn(` in `s` at a word boundary: the positions of its '('.
std::vector<std::size_t> callsOf(const std::string& s, const std::string& fn) {
  std::vector<std::size_t> out;
  for (std::size_t p = s.find(fn + "("); p != std::string::npos; p = s.find(fn + "(", p + 1)) {
    if (p > 0 && identChar(s[p - 1])) continue;
    out.push_back(p + fn.size());
  }
  return out;
}

// Appends the import statement `s` (a logical line); false when it is none.
bool parseImportStatement(const std::string& s, int line, PyImports& out) {
  auto startsWord = [&](const char* w) {
    const std::size_t n = std::char_traits<char>::length(w);
    return s.compare(0, n, w) == 0 && s.size() > n && !identChar(s[n]);
  };
  if (startsWord("import")) {
    for (const auto& item : split(s.substr(6), ',')) {
      std::string name = trim(item);
      const std::size_t as = name.find(" as ");
      if (as != std::string::npos) name = trim(name.substr(0, as));
      if (dottedName(name)) out.imports.push_back({name, 0, false, {}, line});
    }
    return true;
  }
  if (!startsWord("from")) return false;
  std::string rest = trim(s.substr(4));
  PyImport imp;
  imp.from = true;
  imp.line = line;
  std::size_t k = 0;
  while (k < rest.size() && (rest[k] == '.' || rest[k] == ' ')) {
    if (rest[k] == '.') ++imp.level;
    ++k;
  }
  rest = rest.substr(k);
  std::size_t imPos = std::string::npos;
  for (std::size_t p = rest.find("import"); p != std::string::npos; p = rest.find("import", p + 1)) {
    const bool before = p == 0 || rest[p - 1] == ' ' || rest[p - 1] == '\t';
    const bool after = p + 6 >= rest.size() || rest[p + 6] == ' ' || rest[p + 6] == '(' || rest[p + 6] == '*' || rest[p + 6] == '\t';
    if (before && after) {
      imPos = p;
      break;
    }
  }
  if (imPos == std::string::npos) return false;
  imp.module = trim(rest.substr(0, imPos));
  if (!imp.module.empty() && !dottedName(imp.module)) return false;
  if (imp.module.empty() && imp.level == 0) return false;
  std::string names = trim(rest.substr(imPos + 6));
  if (!names.empty() && names.front() == '(') names = names.substr(1, names.find(')') == std::string::npos ? std::string::npos : names.find(')') - 1);
  for (const auto& item : split(names, ',')) {
    std::string name = trim(item);
    if (name.empty()) continue;
    std::string as;
    const std::size_t a = name.find(" as ");
    if (a != std::string::npos) {
      as = trim(name.substr(a + 4));
      name = trim(name.substr(0, a));
    }
    if (name == "*" || dottedName(name)) imp.names.push_back({name, as});
  }
  out.imports.push_back(std::move(imp));
  return true;
}

}  // namespace

PyImports parsePythonImports(const std::string& text, const std::string& file, const std::string& cwd) {
  PyImports out;
  std::map<std::string, std::string> vars;
  for (const auto& [s, line] : logicalLines(text)) {
    if ((s.rfind("import", 0) == 0 || s.rfind("from", 0) == 0) && parseImportStatement(s, line, out)) continue;
    // importlib.import_module("a.b"[, "pkg"]) and __import__("a"): by a literal name, an import.
    for (const char* fn : {"import_module", "__import__"}) {
      if (s.find(fn) == std::string::npos) continue;
      for (std::size_t open : callsOf(s, fn)) {
        auto inner = callArgs(s, open);
        const auto a = inner ? splitArgs(*inner) : std::vector<std::string>{};
        auto name = a.empty() ? std::nullopt : literal(a[0]);
        if (name && !name->empty() && name->front() == '.' && a.size() > 1) {
          if (auto package = literal(a[1])) {
            PyImport rel;
            std::size_t dots = 0;
            while (dots < name->size() && (*name)[dots] == '.') ++dots;
            // ".m" relative to "pkg" is "pkg.m"; each further dot goes one package up.
            std::vector<std::string> parts = split(*package, '.');
            for (std::size_t up = 1; up < dots && !parts.empty(); ++up) parts.pop_back();
            std::string base;
            for (const auto& p : parts) base += (base.empty() ? "" : ".") + p;
            name = base + (name->size() > dots ? "." + name->substr(dots) : "");
          }
        }
        if (name && dottedName(*name)) out.imports.push_back({*name, 0, false, {}, line});
        else out.dynamic = true;
      }
    }
    // Files run by path or a name computed at run time: what they load is not in the text.
    for (const char* fn : {"run_path", "run_module", "spec_from_file_location", "SourceFileLoader", "load_source",
                           "execfile", "load_module"}) {
      if (!callsOf(s, fn).empty()) out.dynamic = true;
    }
    if (!callsOf(s, "exec").empty() && (s.find("open(") != std::string::npos || s.find("read") != std::string::npos ||
                                         s.find("compile(") != std::string::npos))
      out.dynamic = true;
    // sys.path edits.
    auto evaluate = [&](const std::string& arg) -> std::optional<std::string> {
      PathEval e(tokenize(arg), vars, file, cwd);
      auto v = e.all();
      if (!v) return std::nullopt;
      return absolutePath(*v, cwd);
    };
    for (const char* fn : {"sys.path.insert", "sys.path.append", "site.addsitedir"}) {
      if (s.find(fn) == std::string::npos) continue;
      for (std::size_t open : callsOf(s, fn)) {
        auto inner = callArgs(s, open);
        if (!inner) continue;
        auto a = splitArgs(*inner);
        const std::string arg = std::string(fn) == "sys.path.insert" ? (a.size() == 2 ? a[1] : "") : (a.size() == 1 ? a[0] : "");
        if (auto v = evaluate(arg)) {
          if (std::find(out.sysPath.begin(), out.sysPath.end(), *v) == out.sysPath.end()) out.sysPath.push_back(*v);
        }
      }
    }
    // NAME = EXPR, for the edits that use it (HERE = os.path.dirname(__file__)).
    std::size_t k = 0;
    while (k < s.size() && identChar(s[k])) ++k;
    if (k > 0 && identStart(s[0])) {
      std::size_t eq = k;
      while (eq < s.size() && s[eq] == ' ') ++eq;
      if (eq + 1 < s.size() && s[eq] == '=' && s[eq + 1] != '=') {
        const std::string name = s.substr(0, k);
        PathEval e(tokenize(s.substr(eq + 1)), vars, file, cwd);
        if (auto v = e.all()) vars[name] = *v;
        else vars.erase(name);
      }
    }
  }
  return out;
}

std::string pythonBaseDir(const std::string& file) {
  fs::path dir = fs::path(file).lexically_normal().parent_path();
  while (isFile(dir / "__init__.py") && dir != dir.parent_path()) dir = dir.parent_path();
  return dir.string();
}

namespace {

void addRoot(std::vector<std::string>& roots, const std::string& dir) {
  if (dir.empty() || isFilesystemRoot(dir) || !isDir(dir)) return;
  std::string d = fs::path(dir).lexically_normal().string();
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  if (std::find(roots.begin(), roots.end(), d) == roots.end()) roots.push_back(d);
}

// What an editable install of the project puts on sys.path, read from the project's venv: the
// directories its .pth files name and the package directories its finder maps
// (__editable___*_finder.py's MAPPING = {'pkg': '/abs/src/pkg'}).
void addEditableRoots(std::vector<std::string>& roots, const std::string& dir) {
  std::error_code ec;
  for (const char* venv : {".venv", "venv"}) {
    const fs::path lib = fs::path(dir) / venv / "lib";
    if (!isDir(lib)) continue;
    for (fs::directory_iterator py(lib, ec), end; !ec && py != end; py.increment(ec)) {
      const fs::path site = py->path() / "site-packages";
      if (!isDir(site)) continue;
      int seen = 0;
      for (fs::directory_iterator it(site, ec), e2; !ec && it != e2 && seen < 2000; it.increment(ec), ++seen) {
        const std::string name = it->path().filename().string();
        const bool pth = it->path().extension() == ".pth";
        const bool finder = name.rfind("__editable__", 0) == 0 && it->path().extension() == ".py";
        if (!pth && !finder) continue;
        auto text = readFile(it->path().string());
        if (!text || text->size() > 200000) continue;
        if (pth) {
          for (const auto& l : split(*text, '\n')) {
            const std::string t = trim(l);
            if (!t.empty() && t[0] == '/' && t.rfind("import", 0) != 0) addRoot(roots, t);
          }
        } else {
          // Every quoted absolute path in the mapping: its parent is the root the package is under.
          for (const auto& tok : tokenize(*text)) {
            if (tok.kind == Tok::Str && !tok.text.empty() && tok.text[0] == '/' && isDir(tok.text))
              addRoot(roots, fs::path(tok.text).parent_path().string());
          }
        }
      }
    }
  }
}

}  // namespace

PySearch pythonSearch(const std::string& source, const std::string& workspaceRoot, const OverlayProvider& overlay,
                      const std::string& rootDir) {
  PySearch search;
  search.overlay = overlay;
  const PythonProject project = pythonProject(source, workspaceRoot);
  const std::string cwd = rootDir.empty() ? project.rootDir : rootDir;
  search.cwd = cwd;
  std::vector<std::string>& roots = search.roots;
  // conftest.py runs before the tests: its sys.path edits are the tests' (pytest imports them
  // in the rootdir's tests/ too, PythonProject::conftests). Then pytest's pythonpath.
  for (const auto& c : project.conftests) {
    if (auto text = readSource(c, overlay)) {
      for (const auto& d : parsePythonImports(*text, c, cwd).sysPath) addRoot(roots, d);
    }
  }
  for (const auto& d : project.pythonPath) addRoot(roots, d);
  // The runner's working directory (python -m pytest / -m unittest put it first), src/ layouts,
  // the workspace.
  for (const auto& d : {cwd, workspaceRoot}) {
    addRoot(roots, d);
    addRoot(roots, d + "/src");
  }
  for (const auto& d : {cwd, workspaceRoot}) addEditableRoots(roots, d);
  // The source's own top-level package is importable where its tests run (an install, a staged
  // tree, the prepend import mode of a test beside it).
  addRoot(roots, pythonBaseDir(source));
  if (project.pytestConfigured || project.hasConftest) search.preloadRoot = project.rootDir;
  return search;
}

PyResolver::PyResolver(PySearch search) : search_(std::move(search)) {}

const PyImports& PyResolver::parsed(const std::string& file) const {
  auto it = parsed_.find(file);
  if (it != parsed_.end()) return it->second;
  auto text = readSource(file, search_.overlay);
  const std::string cwd = search_.cwd.empty() ? fs::path(file).parent_path().string() : search_.cwd;
  return parsed_.emplace(file, text ? parsePythonImports(*text, file, cwd) : PyImports{}).first->second;
}

std::vector<std::string> PyResolver::rootsFor(const std::string& file) const {
  std::vector<std::string> roots;
  for (const auto& d : parsed(file).sysPath) addRoot(roots, d);
  addRoot(roots, pythonBaseDir(file));
  for (const auto& d : search_.roots) addRoot(roots, d);
  return roots;
}

std::optional<std::vector<std::string>> PyResolver::resolveModule(const std::string& module,
                                                                  const std::vector<std::string>& roots,
                                                                  std::string* packageDir) const {
  std::string key = module;
  for (const auto& r : roots) key += "\n" + r;
  auto memo = modules_.find(key);
  if (memo == modules_.end()) {
    std::optional<Resolved> found;
    const std::vector<std::string> parts = module.empty() ? std::vector<std::string>{} : split(module, '.');
    for (const auto& root : roots) {
      Resolved r;
      fs::path dir(root);
      bool ok = true, package = true;
      for (std::size_t k = 0; k < parts.size() && ok; ++k) {
        const bool last = k + 1 == parts.size();
        const fs::path sub = dir / parts[k];
        // In one directory of sys.path: a regular package, then a module, then a namespace package.
        if (isFile(sub / "__init__.py")) {
          r.files.push_back((sub / "__init__.py").string());
          dir = sub;
          package = true;
        } else if (isFile(dir / (parts[k] + ".py"))) {
          r.files.push_back((dir / (parts[k] + ".py")).string());
          ok = last;  // a module has no submodules
          package = false;
        } else if (isDir(sub)) {
          dir = sub;
          package = true;
        } else {
          ok = false;
        }
      }
      if (!ok) continue;
      if (package) r.packageDir = dir.string();
      found = r;
      break;
    }
    memo = modules_.emplace(key, found).first;
  }
  if (!memo->second) return std::nullopt;
  if (packageDir) *packageDir = memo->second->packageDir;
  return memo->second->files;
}

bool PyResolver::resolveParts(const PyImport& imp, const std::string& fromFile, std::vector<std::string>* moduleFiles,
                              std::string* packageDir) const {
  if (imp.level > 0) {
    fs::path dir = fs::path(fromFile).parent_path();
    for (int k = 1; k < imp.level; ++k) dir = dir.parent_path();
    if (imp.module.empty()) {
      moduleFiles->clear();
      if (isFile(dir / "__init__.py") && (dir / "__init__.py").string() != fromFile)
        moduleFiles->push_back((dir / "__init__.py").string());
      *packageDir = dir.string();
      return true;
    }
    auto r = resolveModule(imp.module, {dir.string()}, packageDir);
    if (!r) return false;
    *moduleFiles = *r;
    return true;
  }
  auto r = resolveModule(imp.module, rootsFor(fromFile), packageDir);
  if (!r) return false;
  *moduleFiles = *r;
  return true;
}

namespace {
// The submodule `name` of the package in `packageDir`: name.py or name/__init__.py; "" when none.
std::string submodule(const std::string& packageDir, const std::string& name) {
  if (packageDir.empty() || name == "*" || name.find('.') != std::string::npos) return "";
  const fs::path p = fs::path(packageDir) / (name + ".py");
  if (isFile(p)) return p.string();
  const fs::path init = fs::path(packageDir) / name / "__init__.py";
  if (isFile(init)) return init.string();
  return "";
}
bool isInit(const std::string& f) { return fs::path(f).filename() == "__init__.py"; }
}  // namespace

std::optional<std::vector<std::string>> PyResolver::resolve(const PyImport& imp, const std::string& fromFile) const {
  std::vector<std::string> files;
  std::string packageDir;
  if (!resolveParts(imp, fromFile, &files, &packageDir)) return std::nullopt;
  if (imp.from) {
    for (const auto& n : imp.names) {
      std::string sub = submodule(packageDir, n.name);
      if (!sub.empty()) files.push_back(sub);
    }
  }
  return files;
}

PyLoadVerdict PyResolver::loads(const std::string& testFile, const std::string& target, bool withPreloads) const {
  constexpr std::size_t kMaxModules = 3000;
  std::vector<std::string> start;
  if (withPreloads && !search_.preloadRoot.empty()) {
    // pytest imports the conftest.py files from the rootdir down to the test's directory first.
    const fs::path root(search_.preloadRoot);
    for (fs::path dir = fs::path(testFile).parent_path();; dir = dir.parent_path()) {
      if (isFile(dir / "conftest.py")) start.insert(start.begin(), (dir / "conftest.py").string());
      if (dir == root || dir == dir.parent_path()) break;
      const auto rel = dir.lexically_relative(root);
      if (rel.empty() || rel.native().rfind("..", 0) == 0) break;
    }
  }
  // A test module inside a package is imported as part of it: its packages' __init__.py run first.
  for (fs::path dir = fs::path(testFile).parent_path(); isFile(dir / "__init__.py") && dir != dir.parent_path();
       dir = dir.parent_path())
    start.push_back((dir / "__init__.py").string());
  start.push_back(testFile);
  std::set<std::string> seen(start.begin(), start.end());
  std::deque<std::string> queue(start.begin(), start.end());
  std::string dynamicIn;
  bool testImportsProject = false;
  std::vector<std::string> sameName;
  const std::string stem = fs::path(target).stem().string() == "__init__" ? fs::path(target).parent_path().filename().string()
                                                                          : fs::path(target).stem().string();
  if (noReachTarget_ != target) {
    noReach_.clear();
    noReachTarget_ = target;
  }
  while (!queue.empty()) {
    const std::string f = queue.front();
    queue.pop_front();
    if (f == target) return {PyLoads::Yes, ""};
    if (f != testFile && noReach_.count(f)) continue;  // its closure was walked before: no target in it
    if (seen.size() > kMaxModules)
      return {PyLoads::Unsure, "it loads more than " + std::to_string(kMaxModules) + " of the project's modules"};
    const PyImports& im = parsed(f);
    if (im.dynamic && dynamicIn.empty()) dynamicIn = f;
    for (const auto& imp : im.imports) {
      auto files = resolve(imp, f);
      if (!files) continue;
      if (f == testFile && !files->empty()) testImportsProject = true;
      for (const auto& x : *files) {
        if (x == target) return {PyLoads::Yes, ""};
        if (!seen.insert(x).second) continue;
        queue.push_back(x);
        const std::string xs = isInit(x) ? fs::path(x).parent_path().filename().string() : fs::path(x).stem().string();
        if (xs == stem) sameName.push_back(x);
      }
    }
  }
  // Every file walked here has its whole closure walked too, without the target and (with no
  // dynamic import on the way) without doubt: the next test's walk stops at them.
  if (dynamicIn.empty()) noReach_.insert(seen.begin(), seen.end());
  if (!dynamicIn.empty()) return {PyLoads::Unsure, dynamicIn + " imports a module by a name computed at run time"};
  if (!testImportsProject) return {PyLoads::Unsure, "it imports none of the project's modules itself"};
  std::string why;
  for (const auto& s : sameName) why += (why.empty() ? "" : ", ") + s;
  return {PyLoads::No, why};
}

namespace {
bool skippedDir(const std::string& name) {
  static const std::set<std::string> k = {"node_modules", "__pycache__", "venv", "env", "site-packages", "dist",
                                          "build", "htmlcov", "docs"};
  return name.empty() || name[0] == '.' || k.count(name) > 0 ||
         (name.size() > 9 && name.substr(name.size() - 9) == ".egg-info");
}
bool matchesGlobs(const std::string& fileName, const std::vector<std::string>& globs) {
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return ::fnmatch(g.c_str(), fileName.c_str(), 0) == 0; });
}
}  // namespace

std::vector<std::string> pythonTestsLoading(const PyResolver& resolver, const std::string& target,
                                              const std::vector<std::string>& dirs, const std::vector<std::string>& globs,
                                              std::size_t cap) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t read = 0;
  std::error_code ec;
  for (const auto& d : dirs) {
    if (isFilesystemRoot(d) || !isDir(d)) continue;
    fs::recursive_directory_iterator it(d, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end && read < cap; it.increment(ec)) {
      const auto& entry = *it;
      const std::string name = entry.path().filename().string();
      if (entry.is_directory(ec)) {
        if (skippedDir(name) || it.depth() > 8) it.disable_recursion_pending();
        continue;
      }
      if (!entry.is_regular_file(ec) || entry.path().extension() != ".py" || !matchesGlobs(name, globs)) continue;
      const std::string path = entry.path().lexically_normal().string();
      if (path == target || !seen.insert(path).second) continue;
      ++read;
      if (resolver.loads(path, target, false).loads == PyLoads::Yes) out.push_back(path);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> pythonNamedTestsLoading(const PyResolver& resolver, const std::string& source,
                                                 const std::vector<std::string>& named, std::string* note) {
  std::vector<std::string> kept;
  for (const auto& f : named) {
    const PyLoadVerdict v = resolver.loads(f, source);
    if (v.loads != PyLoads::No) {
      kept.push_back(f);
      continue;
    }
    if (note) {
      *note += (note->empty() ? "" : "; ") + f + " is named after " + fs::path(source).filename().string() +
               " but does not load it" + (v.why.empty() ? "" : " (it loads " + v.why + ")");
    }
  }
  return kept;
}

}  // namespace greenlight::core::testing
