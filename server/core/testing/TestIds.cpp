#include "core/testing/TestIds.h"
#include "support/Regex.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kSep = "::";
constexpr std::string_view kJsSep = " > ";

std::string normalised(const std::string& path) {
  std::string out = fs::path(path).lexically_normal().generic_string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  for (const auto& part : fs::path(path).lexically_normal()) {
    std::string s = part.generic_string();
    if (!s.empty() && s != "/" && s != ".") out.push_back(s);
  }
  return out;
}

// Whether `file` (absolute) ends with the relative (or absolute) path `tail`, component-wise.
bool pathEndsWith(const std::string& file, const std::string& tail) {
  auto f = components(file);
  auto t = components(tail);
  if (t.empty() || t.size() > f.size()) return false;
  if (std::find(t.begin(), t.end(), "..") != t.end()) return false;
  return std::equal(t.rbegin(), t.rend(), f.rbegin());
}

std::optional<Language> languageOfKey(const std::string& fileKey) { return languageForPath(fileKey); }

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The built-in harness and unittest name a method `TestA.test_b`; the id says `TestA::test_b`
// (pytest's shape). Doctests (`doctest:Cls.meth`) and anything that is not a dotted
// identifier path ("m (import)", "test_x[1.5]") stay as they are.
std::string mapPythonName(const std::string& name) {
  if (name.rfind("doctest:", 0) == 0) return name;
  static const std::regex dotted = support::regex(R"(^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$)");
  if (!std::regex_match(name, dotted)) return name;
  std::string out;
  for (char c : name) {
    if (c == '.') out += kSep;
    else out += c;
  }
  return out;
}

// The position of the '[' that opens a trailing parametrize suffix of `tail`'s last segment
// ("test_b[1-2]" -> 6), or npos.
std::size_t caseBracket(const std::string& tail) {
  if (tail.empty() || tail.back() != ']') return std::string::npos;
  int depth = 0;
  for (std::size_t i = tail.size(); i-- > 0;) {
    if (tail[i] == ']') ++depth;
    else if (tail[i] == '[' && --depth == 0) return i == 0 ? std::string::npos : i;
  }
  return std::string::npos;
}

bool isGtestName(const std::string& tail, std::string* suite) {
  static const std::regex gtest = support::regex(R"(^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$)");
  std::smatch m;
  if (!std::regex_match(tail, m, gtest)) return false;
  if (suite) *suite = m[1].str();
  return true;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

int indentOf(const std::string& line) {
  int n = 0;
  for (char c : line) {
    if (c == ' ') ++n;
    else if (c == '\t') n += 8 - n % 8;
    else break;
  }
  return n;
}

bool blank(const std::string& line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

// ---- JavaScript: describe / test / it calls with a literal title, and their nesting --------

struct JsCall {
  std::vector<std::string> path;  // titles from the outermost describe down to this call
  bool group = false;             // describe / suite / context
  int line = 0, endLine = 0;
};

class JsScanner {
 public:
  explicit JsScanner(const std::string& text) : s_(text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < s_.size(); ++i)
      if (s_[i] == '\n') starts_.push_back(i + 1);
  }

  std::vector<JsCall> scan() {
    // Bracket stack: '(' '[' '{' from the code, 'T' for a template literal's ${ ... }. An
    // entry may own a call (the '(' that opened a describe/test call).
    struct Open {
      char c;
      int call;
    };
    std::vector<Open> stack;
    std::vector<int> openCalls;  // indices into calls_, innermost last
    std::size_t pendingParen = std::string::npos;
    int pendingCall = -1;
    char prevSignificant = 0;  // the last non-space code character (for regex literals)
    std::size_t i = 0;
    bool inTemplate = false;   // scanning template text (after ` or after the } of a ${})
    while (i < s_.size()) {
      char c = s_[i];
      if (inTemplate) {
        if (c == '\\') {
          i += 2;
        } else if (c == '`') {
          inTemplate = false;
          prevSignificant = '`';
          ++i;
        } else if (c == '$' && i + 1 < s_.size() && s_[i + 1] == '{') {
          stack.push_back({'T', -1});
          inTemplate = false;
          prevSignificant = '{';
          i += 2;
        } else {
          ++i;
        }
        continue;
      }
      if (c == '/' && i + 1 < s_.size() && s_[i + 1] == '/') {
        std::size_t nl = s_.find('\n', i);
        i = nl == std::string::npos ? s_.size() : nl;
        continue;
      }
      if (c == '/' && i + 1 < s_.size() && s_[i + 1] == '*') {
        std::size_t end = s_.find("*/", i + 2);
        i = end == std::string::npos ? s_.size() : end + 2;
        continue;
      }
      if (c == '\'' || c == '"') {
        i = skipString(i);
        prevSignificant = c;
        continue;
      }
      if (c == '`') {
        inTemplate = true;
        ++i;
        continue;
      }
      if (c == '/' && regexAllowed(prevSignificant)) {
        i = skipRegex(i);
        prevSignificant = '/';
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        int call = -1;
        if (c == '(' && i == pendingParen) {
          call = pendingCall;
          openCalls.push_back(call);
          pendingParen = std::string::npos;
        }
        stack.push_back({c, call});
        prevSignificant = c;
        ++i;
        continue;
      }
      if (c == ')' || c == ']' || c == '}') {
        if (!stack.empty()) {
          Open top = stack.back();
          stack.pop_back();
          if (top.c == 'T') {
            inTemplate = true;
            ++i;
            continue;
          }
          if (top.call >= 0) {
            calls_[static_cast<std::size_t>(top.call)].endLine = lineOf(i);
            if (!openCalls.empty() && openCalls.back() == top.call) openCalls.pop_back();
          }
        }
        prevSignificant = c;
        ++i;
        continue;
      }
      if (isIdentStart(c) && (i == 0 || !isIdentChar(s_[i - 1]))) {
        std::size_t end = i;
        while (end < s_.size() && isIdentChar(s_[end])) ++end;
        std::string ident = s_.substr(i, end - i);
        bool afterDot = prevSignificant == '.';
        bool insideTest = !openCalls.empty() && !calls_[static_cast<std::size_t>(openCalls.back())].group;
        bool candidate = ident == "describe" || ident == "suite" || ident == "context" || ident == "test" || ident == "it";
        // `t.test('sub', ...)` is a node:test subtest; any other `x.test(` is not a test call.
        if (candidate && afterDot) candidate = ident == "test" && insideTest;
        if (candidate) {
          std::string title;
          std::size_t paren = matchCall(end, &title);
          if (paren != std::string::npos) {
            JsCall call;
            for (int k : openCalls) call.path.push_back(calls_[static_cast<std::size_t>(k)].path.back());
            call.path.push_back(title);
            call.group = ident == "describe" || ident == "suite" || ident == "context";
            call.line = lineOf(i);
            call.endLine = call.line;
            calls_.push_back(std::move(call));
            pendingParen = paren;
            pendingCall = static_cast<int>(calls_.size()) - 1;
          }
        }
        prevSignificant = 'a';
        i = end;
        continue;
      }
      if (!std::isspace(static_cast<unsigned char>(c))) prevSignificant = c;
      ++i;
    }
    return calls_;
  }

 private:
  int lineOf(std::size_t pos) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), pos);
    return static_cast<int>(it - starts_.begin());
  }

  static bool regexAllowed(char prev) {
    return prev == 0 || std::string_view("(,=:[!&|?{};+-*%<>~^").find(prev) != std::string_view::npos;
  }

  std::size_t skipString(std::size_t i) const {
    char q = s_[i++];
    while (i < s_.size() && s_[i] != q && s_[i] != '\n') i += s_[i] == '\\' ? 2 : 1;
    return std::min(s_.size(), i + 1);
  }

  std::size_t skipRegex(std::size_t i) const {
    ++i;
    bool cls = false;
    while (i < s_.size() && s_[i] != '\n') {
      char c = s_[i];
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '[') cls = true;
      else if (c == ']') cls = false;
      else if (c == '/' && !cls) return i + 1;
      ++i;
    }
    return i;
  }

  std::size_t skipSpace(std::size_t i) const {
    while (i < s_.size() && std::isspace(static_cast<unsigned char>(s_[i]))) ++i;
    return i;
  }

  // After `describe` / `test`: optional `.only` `.skip` `.todo` `.concurrent` `.sequential`,
  // then `(` and a literal title. Returns the position of the `(` and the title.
  std::size_t matchCall(std::size_t i, std::string* title) const {
    static const std::set<std::string> kModifiers = {"only", "skip", "todo", "concurrent", "sequential", "failing"};
    for (;;) {
      std::size_t j = skipSpace(i);
      if (j < s_.size() && s_[j] == '.') {
        std::size_t k = skipSpace(j + 1), end = k;
        while (end < s_.size() && isIdentChar(s_[end])) ++end;
        if (!kModifiers.count(s_.substr(k, end - k))) return std::string::npos;
        i = end;
        continue;
      }
      i = j;
      break;
    }
    if (i >= s_.size() || s_[i] != '(') return std::string::npos;
    std::size_t paren = i;
    std::size_t q = skipSpace(i + 1);
    if (q >= s_.size() || (s_[q] != '\'' && s_[q] != '"' && s_[q] != '`')) return std::string::npos;
    char quote = s_[q];
    std::string out;
    for (std::size_t k = q + 1; k < s_.size(); ++k) {
      char c = s_[k];
      if (c == quote) {
        *title = out;
        return paren;
      }
      if (c == '\n' && quote != '`') return std::string::npos;
      if (quote == '`' && c == '$' && k + 1 < s_.size() && s_[k + 1] == '{') return std::string::npos;
      if (c == '\\' && k + 1 < s_.size()) {
        char e = s_[++k];
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        continue;
      }
      out += c;
    }
    return std::string::npos;
  }

  const std::string& s_;
  std::vector<std::size_t> starts_;
  std::vector<JsCall> calls_;
};

// ---- Python doctests: the definitions whose docstring holds `>>>` ---------------------------

struct Doctest {
  std::string name;  // "fib", "Shape.area", the module's name for its docstring
  int line = 0, endLine = 0;
};

std::vector<Doctest> pythonDoctests(const std::string& text, const std::string& file) {
  static const std::regex def = support::regex(R"(^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*))");
  auto lines = splitLines(text);
  std::vector<Doctest> out;
  // Module docstring: ">>>" before the first definition or statement after it.
  {
    std::size_t i = 0;
    while (i < lines.size() && (blank(lines[i]) || lines[i].rfind("#", 0) == 0)) ++i;
    if (i < lines.size() && (lines[i].rfind("\"\"\"", 0) == 0 || lines[i].rfind("'''", 0) == 0)) {
      std::string quote = lines[i].substr(0, 3);
      std::size_t first = i;
      bool has = false;
      for (std::size_t k = i; k < lines.size(); ++k) {
        if (lines[k].find(">>>") != std::string::npos) has = true;
        if (lines[k].find(quote, k == first ? 3 : 0) != std::string::npos) {
          if (has) out.push_back({fs::path(file).stem().string(), static_cast<int>(first) + 1, static_cast<int>(k) + 1});
          break;
        }
      }
    }
  }
  std::vector<std::pair<int, std::string>> classes;  // (indent, name) enclosing the current line
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, def)) continue;
    int indent = indentOf(lines[i]);
    while (!classes.empty() && classes.back().first >= indent) classes.pop_back();
    std::string qualified;
    for (const auto& [ci, cn] : classes) qualified += cn + ".";
    qualified += m[3].str();
    if (m[2].str() == "class") classes.emplace_back(indent, m[3].str());
    // The docstring: the body's lines up to the next definition (or the end of the body).
    bool has = false;
    std::size_t k = i + 1;
    for (; k < lines.size(); ++k) {
      if (blank(lines[k])) continue;
      if (indentOf(lines[k]) <= indent) break;
      if (std::regex_search(lines[k], def)) break;
      if (lines[k].find(">>>") != std::string::npos) has = true;
    }
    if (has) out.push_back({qualified, static_cast<int>(i) + 1, static_cast<int>(k)});
  }
  return out;
}

// The last line of the Python block (def or class) that starts on `line` (1-based): the last
// non-blank line indented deeper than its header, before the first line that is not.
int pythonBlockEnd(const std::vector<std::string>& lines, int line) {
  if (line < 1 || line > static_cast<int>(lines.size())) return line;
  const int indent = indentOf(lines[static_cast<std::size_t>(line - 1)]);
  int last = line;
  for (std::size_t k = static_cast<std::size_t>(line); k < lines.size(); ++k) {
    if (blank(lines[k])) continue;
    if (indentOf(lines[k]) <= indent) break;
    last = static_cast<int>(k) + 1;
  }
  return last;
}

std::optional<int> pythonClassLine(const std::vector<std::string>& lines, const std::string& cls) {
  const std::regex r = support::regex("^class\\s+" + cls + "\\b");
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (std::regex_search(lines[i], r)) return static_cast<int>(i) + 1;
  return std::nullopt;
}

std::string tailOf(const std::string& id) {
  auto sep = id.find(kSep);
  return sep == std::string::npos ? std::string() : id.substr(sep + kSep.size());
}

}  // namespace

std::string_view testNodeKindName(TestNodeKind kind) {
  switch (kind) {
    case TestNodeKind::File: return "file";
    case TestNodeKind::Group: return "group";
    case TestNodeKind::Test: return "test";
    case TestNodeKind::Case: return "case";
  }
  return "test";
}

std::string testFileKey(const std::string& root, const std::string& file) {
  std::string f = normalised(file);
  if (root.empty()) return f;
  std::string r = normalised(root);
  auto rel = fs::path(f).lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return f;
  return rel.generic_string();
}

std::string testId(const std::string& root, const std::string& file, const std::string& name, const std::string& runnerId) {
  if (!runnerId.empty()) {
    auto sep = runnerId.find(kSep);
    if (sep != std::string::npos && sep > 0 && !file.empty() && pathEndsWith(file, runnerId.substr(0, sep)))
      return testFileKey(root, file) + std::string(kSep) + runnerId.substr(sep + kSep.size());
    if (file.empty()) return runnerId;
  }
  if (file.empty()) return name;
  std::string key = testFileKey(root, file);
  auto language = languageOfKey(key);
  std::string mapped = language && *language == Language::Python ? mapPythonName(name) : name;
  return key + std::string(kSep) + mapped;
}

std::string testIdFile(const std::string& id) {
  auto sep = id.find(kSep);
  return sep == std::string::npos ? id : id.substr(0, sep);
}

TestNodeKind testIdKind(const std::string& id) {
  if (id.find(kSep) == std::string::npos) return TestNodeKind::File;
  auto language = languageOfKey(testIdFile(id));
  if (language && *language == Language::Python && caseBracket(tailOf(id)) != std::string::npos) return TestNodeKind::Case;
  return TestNodeKind::Test;
}

std::string parentTestId(const std::string& id) {
  auto sep = id.find(kSep);
  if (sep == std::string::npos) return "";
  const std::string file = id.substr(0, sep);
  const std::string tail = id.substr(sep + kSep.size());
  const std::string prefix = file + std::string(kSep);
  auto language = languageOfKey(file);
  if (!language) return file;
  switch (*language) {
    case Language::Python: {
      if (auto b = caseBracket(tail); b != std::string::npos) return prefix + tail.substr(0, b);
      auto last = tail.rfind(kSep);
      return last == std::string::npos ? file : prefix + tail.substr(0, last);
    }
    case Language::JavaScript: {
      auto last = tail.rfind(kJsSep);
      return last == std::string::npos ? file : prefix + tail.substr(0, last);
    }
    case Language::Cxx: {
      std::string suite;
      return isGtestName(tail, &suite) ? prefix + suite : file;
    }
    case Language::Command: break;
  }
  return file;
}

std::string testIdLabel(const std::string& id) {
  auto sep = id.find(kSep);
  if (sep == std::string::npos) return fs::path(id).filename().string();
  const std::string tail = id.substr(sep + kSep.size());
  auto language = languageOfKey(id.substr(0, sep));
  if (!language) return tail;
  switch (*language) {
    case Language::Python: {
      std::string head = tail;
      std::string suffix;
      if (auto b = caseBracket(tail); b != std::string::npos) {
        head = tail.substr(0, b);
        suffix = tail.substr(b);
      }
      auto last = head.rfind(kSep);
      return (last == std::string::npos ? head : head.substr(last + kSep.size())) + suffix;
    }
    case Language::JavaScript: {
      auto last = tail.rfind(kJsSep);
      return last == std::string::npos ? tail : tail.substr(last + kJsSep.size());
    }
    case Language::Cxx: {
      std::string suite;
      return isGtestName(tail, &suite) ? tail.substr(suite.size() + 1) : tail;
    }
    case Language::Command: break;
  }
  return tail;
}

std::vector<TestNode> testTree(const TestPlan& plan, const OverlayProvider& overlay) {
  std::vector<TestNode> out;
  if (plan.language == Language::Command) return out;
  const std::string& root = plan.workspaceRoot;
  std::vector<std::string> files;
  if (plan.sourceIsTestFile || plan.sameFileTests || plan.hasDoctests) files.push_back(plan.sourceFile);
  for (const auto& f : plan.testFiles)
    if (std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);

  for (const auto& file : files) {
    auto text = readSource(file, overlay);
    if (!text) continue;
    auto lines = splitLines(*text);
    const std::string key = testFileKey(root, file);
    TestNode fileNode{key, fs::path(file).filename().string(), TestNodeKind::File, "", file, 1, static_cast<int>(lines.size())};
    std::vector<TestNode> children;
    auto add = [&](TestNode n) {
      if (std::none_of(children.begin(), children.end(), [&](const TestNode& c) { return c.id == n.id; }))
        children.push_back(std::move(n));
    };
    switch (plan.language) {
      case Language::Python: {
        bool tests = file != plan.sourceFile || plan.sourceIsTestFile || plan.sameFileTests;
        if (tests) {
          for (const auto& st : listTests(*text, file, Language::Python)) {
            std::string id = testId(root, file, st.name);
            std::string parent = parentTestId(id);
            const int end = pythonBlockEnd(lines, st.line);
            if (parent != key && std::none_of(children.begin(), children.end(), [&](const TestNode& c) { return c.id == parent; })) {
              std::string cls = testIdLabel(parent);
              int line = pythonClassLine(lines, cls).value_or(st.line);
              add({parent, cls, TestNodeKind::Group, key, file, line, line == st.line ? end : pythonBlockEnd(lines, line)});
            }
            add({id, testIdLabel(id), TestNodeKind::Test, parent, file, st.line, end});
          }
        }
        if (file == plan.sourceFile && plan.hasDoctests) {
          for (const auto& d : pythonDoctests(*text, file)) {
            std::string id = testId(root, file, "doctest:" + d.name);
            const std::string& first = lines[static_cast<std::size_t>(d.line - 1)];
            bool moduleDoc = first.rfind(R"(""")", 0) == 0 || first.rfind("'''", 0) == 0;
            add({id, "doctest:" + d.name, TestNodeKind::Test, key, file, d.line, moduleDoc ? d.endLine : pythonBlockEnd(lines, d.line)});
          }
        }
        break;
      }
      case Language::JavaScript: {
        auto calls = JsScanner(*text).scan();
        bool anyTest = std::any_of(calls.begin(), calls.end(), [](const JsCall& c) { return !c.group; });
        if (!anyTest) {
          // A file of plain asserts: the harness reports the file itself as one test.
          std::string name = fs::path(file).filename().string();
          std::string id = testId(root, file, name);
          add({id, name, TestNodeKind::Test, key, file, 1, static_cast<int>(lines.size())});
          break;
        }
        for (const auto& c : calls) {
          std::string name;
          for (std::size_t k = 0; k < c.path.size(); ++k) name += (k ? std::string(kJsSep) : "") + c.path[k];
          std::string id = testId(root, file, name);
          add({id, c.path.back(), c.group ? TestNodeKind::Group : TestNodeKind::Test, parentTestId(id), file, c.line,
               std::max(c.line, c.endLine)});
        }
        break;
      }
      case Language::Cxx: {
        for (const auto& st : listTests(*text, file, Language::Cxx)) {
          std::string id = testId(root, file, st.name);
          std::string parent = parentTestId(id);
          if (parent != key) {
            bool known = false;
            for (auto& c : children) {
              if (c.id != parent) continue;
              known = true;
              c.endLine = std::max(c.endLine, st.endLine);
            }
            if (!known) add({parent, tailOf(parent), TestNodeKind::Group, key, file, st.line, st.endLine});
          }
          add({id, testIdLabel(id), TestNodeKind::Test, parent, file, st.line, st.endLine});
        }
        break;
      }
      case Language::Command: break;
    }
    out.push_back(std::move(fileNode));
    for (auto& c : children) out.push_back(std::move(c));
  }
  return out;
}

std::optional<std::vector<std::string>> selectionForIds(const TestPlan& plan, const std::vector<std::string>& ids,
                                                        const OverlayProvider& overlay) {
  if (ids.empty()) return std::nullopt;
  auto tree = testTree(plan, overlay);
  std::map<std::string, const TestNode*> byId;
  for (const auto& n : tree) byId[n.id] = &n;
  std::vector<std::string> names;
  auto push = [&](std::string n) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(std::move(n));
  };
  for (std::string id : ids) {
    if (testIdKind(id) == TestNodeKind::Case) id = parentTestId(id);  // the harness selects functions
    auto it = byId.find(id);
    if (it == byId.end()) return std::nullopt;
    const TestNode& n = *it->second;
    if (n.kind == TestNodeKind::File) return std::nullopt;
    const std::string tail = tailOf(id);
    switch (plan.language) {
      case Language::Python: {
        // Test: `TestA.test_b` / `test_c`; group: the class (the harness selects its methods).
        std::string name;
        for (std::size_t k = 0; k < tail.size(); ++k) {
          if (tail.compare(k, kSep.size(), kSep) == 0) {
            name += '.';
            k += kSep.size() - 1;
          } else {
            name += tail[k];
          }
        }
        push(name);
        break;
      }
      case Language::JavaScript:
        if (n.kind == TestNodeKind::Group) return std::nullopt;
        push(n.label);
        break;
      case Language::Cxx:
        push(n.kind == TestNodeKind::Group ? tail + ".*" : tail);
        break;
      case Language::Command: return std::nullopt;
    }
  }
  return names;
}

}  // namespace greenlight::core::testing
