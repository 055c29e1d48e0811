#include "Corpus.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace greenlight::corpus {

const char* variantName(Variant v) {
  switch (v) {
    case Variant::Reference: return "reference";
    case Variant::Raise: return "raise";
    case Variant::WrongReturn: return "wrong-return";
    case Variant::SyntaxError: return "syntax-error";
    case Variant::InfiniteLoop: return "infinite-loop";
  }
  return "?";
}

std::vector<nlohmann::json> readJsonLinesGz(const std::string& path) {
  std::string cmd = "gzip -dc '" + path + "'";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("popen " + cmd);
  std::string text;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  if (::pclose(p) != 0) throw std::runtime_error(cmd + " failed");
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

nlohmann::json readJsonFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return nlohmann::json::parse(in);
}

namespace {

int countLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

std::string leadingIndent(const std::string& line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return line.substr(0, i);
}

// First non-blank line of `text` at or after 1-based `from`: its number and indentation.
std::pair<int, std::string> firstCodeLine(const std::string& text, int from) {
  std::istringstream in(text);
  std::string l;
  for (int i = 1; std::getline(in, l); ++i) {
    if (i < from) continue;
    if (l.find_first_not_of(" \t\r") == std::string::npos) continue;
    return {i, leadingIndent(l)};
  }
  return {from, "    "};
}

std::string insertLine(const std::string& text, int line, const std::string& content) {
  std::istringstream in(text);
  std::string out, l;
  int i = 1;
  bool inserted = false;
  while (std::getline(in, l)) {
    if (i == line) {
      out += content + "\n";
      inserted = true;
    }
    out += l + "\n";
    ++i;
  }
  if (!inserted) out += content + "\n";
  return out;
}

std::string trimRight(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// Python: the first body line of `def entry(` in `src` (after a possibly multi-line header).
std::pair<int, std::string> pythonBody(const std::string& src, const std::string& entry) {
  std::istringstream in(src);
  std::string l;
  int defLine = 0;
  std::regex def("^\\s*def\\s+" + entry + "\\s*\\(");
  for (int i = 1; std::getline(in, l); ++i) {
    if (!defLine && std::regex_search(l, def)) defLine = i;
    if (defLine) {
      std::string t = trimRight(l);
      auto hash = t.find('#');
      if (hash != std::string::npos) t = trimRight(t.substr(0, hash));
      if (!t.empty() && t.back() == ':') return firstCodeLine(src, i + 1);
    }
  }
  return {0, ""};
}

const char kPythonPerturb[] = R"(

def _gl_perturb(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value * 2 + 1  # beyond any isclose() tolerance a test may use
    if isinstance(value, str):
        return value + "x"
    # A new element, not a repeat: tests that compare set(result) must see the change.
    if isinstance(value, list):
        return value + ["_gl_wrong"]
    if isinstance(value, tuple):
        return value + ("_gl_wrong",)
    if value is None:
        return 0
    if isinstance(value, dict):
        return {**value, "_gl": 1}
    if isinstance(value, set):
        return value | {"_gl"}
    return None
)";

// The wrong-return sentinels (see Corpus.h: kWrongValuePattern). JavaScript: from the call's
// arguments; C++: from the value the solution computed (one line: it replaces line 2). Numbers
// are 7775000 + N, N < 1000, so a test that subtracts the expected value (abs(f(x) - 2.5) < eps)
// still shows 777xxxx.
const char kJsSentinel[] =
    "const _glHash = (a) => { let h = 0, t = ''; try { t = JSON.stringify(a) || ''; } catch (e) { t = String(a); }\n"
    "  for (let i = 0; i < t.length; i++) h = (h * 31 + t.charCodeAt(i)) % 10000; return h; };\n"
    "const _glWrong = (v, a) => { const h = _glHash(a);\n"
    "  if (typeof v === 'boolean') return !v;\n"
    "  if (typeof v === 'number') return 7775000 + h % 1000;\n"
    "  if (typeof v === 'string') return 'gl-wrong-' + h;\n"
    "  if (Array.isArray(v)) return ['gl-wrong-' + h];\n"
    "  return {sentinel: 'gl-wrong-' + h}; };\n";

const char kCxxSentinel[] =
    "inline bool gl_wrong(bool v) { return !v; } "
    "inline std::string gl_wrong(const std::string& v) { std::size_t h = 0; for (char c : v) h = (h * 31 + static_cast<unsigned char>(c)) % 10000; return \"gl-wrong-\" + std::to_string(h); } "
    "inline std::string gl_wrong(const char* v) { return gl_wrong(std::string(v)); } "
    "template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type> T gl_wrong(T v) { "
    "return static_cast<T>(7775000 + static_cast<long long>(v < 0 ? -v : v) % 1000); }";

}  // namespace

Problem fromHumanEval(const nlohmann::json& r) {
  Problem p;
  p.id = r.at("task_id").get<std::string>();
  p.lang = Lang::Python;
  p.sourceName = "prob.py";
  p.testName = "test_prob.py";
  p.entry = r.at("entry_point").get<std::string>();
  const std::string prompt = r.at("prompt").get<std::string>();
  p.source = prompt + r.at("canonical_solution").get<std::string>();
  p.test = "from prob import *\nimport prob as _gl_prob; globals().update({k: v for k, v in vars(_gl_prob).items() if not k.startswith('__')})\n\n" + r.at("test").get<std::string>() +
           "\n\ndef test_check():\n    check(_gl_prob." + p.entry + ")\n";
  auto [line, indent] = firstCodeLine(p.source, countLines(prompt) + 1);
  p.bodyLine = line;
  p.indent = indent;
  return p;
}

Problem fromHumanEvalXPython(const nlohmann::json& r) {
  Problem p;
  p.id = r.at("task_id").get<std::string>();
  p.lang = Lang::Python;
  p.sourceName = "prob.py";
  p.testName = "test_prob.py";
  const std::string prompt = r.at("prompt").get<std::string>();
  p.source = prompt + r.at("canonical_solution").get<std::string>();
  // HumanEval-X python tests end with "check(<entry>)" at top level.
  std::string test = r.at("test").get<std::string>();
  std::smatch m;
  std::regex call(R"((^|\n)check\((\w+)\)\s*$)");
  if (std::regex_search(test, m, call)) {
    p.entry = m[2].str();
    test = test.substr(0, static_cast<std::size_t>(m.position(0)));
  }
  p.test = "from prob import *\nimport prob as _gl_prob; globals().update({k: v for k, v in vars(_gl_prob).items() if not k.startswith('__')})\n\n" + test + "\n\ndef test_check():\n    check(_gl_prob." + p.entry + ")\n";
  auto [line, indent] = firstCodeLine(p.source, countLines(prompt) + 1);
  p.bodyLine = line;
  p.indent = indent;
  return p;
}

Problem fromMbpp(const nlohmann::json& r) {
  Problem p;
  p.id = "MBPP/" + std::to_string(r.at("task_id").get<int>());
  p.lang = Lang::Python;
  p.sourceName = "prob.py";
  p.testName = "test_prob.py";
  p.source = r.at("code").get<std::string>();
  // Normalise line endings: some records use \r\n.
  p.source.erase(std::remove(p.source.begin(), p.source.end(), '\r'), p.source.end());
  if (p.source.empty() || p.source.back() != '\n') p.source += "\n";
  std::string test = "from prob import *\nimport prob as _gl_prob; globals().update({k: v for k, v in vars(_gl_prob).items() if not k.startswith('__')})\n";
  for (const auto& imp : r.at("test_imports")) test += imp.get<std::string>() + "\n";
  test += "\n\ndef test_mbpp():\n";
  for (const auto& a : r.at("test_list")) {
    std::string s = a.get<std::string>();
    test += "    " + s + "\n";
    if (p.entry.empty()) {
      // The first function of the module that the assert calls.
      static const std::regex callRe(R"(([A-Za-z_]\w*)\s*\()");
      for (std::sregex_iterator it(s.begin(), s.end(), callRe), end; it != end; ++it) {
        std::string n = (*it)[1].str();
        if (std::regex_search(p.source, std::regex("(^|\\n)def\\s+" + n + "\\s*\\("))) {
          p.entry = n;
          break;
        }
      }
    }
  }
  p.test = test;
  auto [line, indent] = pythonBody(p.source, p.entry);
  p.bodyLine = line;
  p.indent = indent;
  return p;
}

Problem fromHumanEvalXCpp(const nlohmann::json& r) {
  Problem p;
  p.id = r.at("task_id").get<std::string>();
  p.lang = Lang::Cxx;
  p.sourceName = "prob.cpp";
  p.testName = "prob_test.cpp";
  const std::string prompt = r.at("prompt").get<std::string>();
  // <stdexcept> first so the raise variant compiles; one line, before everything.
  p.source = "#include <stdexcept>\n// (line reserved for the corpus's wrong-return helper)\n" + prompt +
             r.at("canonical_solution").get<std::string>();
  p.test = "#include \"prob.cpp\"\n" + r.at("test").get<std::string>();
  auto [line, indent] = firstCodeLine(p.source, countLines(prompt) + 3);
  p.bodyLine = line;
  p.indent = indent.empty() ? "    " : indent;
  std::smatch m;
  const std::string decl = r.at("declaration").get<std::string>();
  std::regex sig(R"((\w[\w:<>, ]*?)\s+(\w+)\s*\([^)]*\)\s*\{\s*$)");
  if (std::regex_search(decl, m, sig)) {
    p.entry = m[2].str();
    std::string type = m[1].str();
    p.wrongReturnSupported = type == "int" || type == "long" || type == "long long" || type == "float" || type == "double" ||
                             type == "bool" || type == "string";
  } else {
    p.wrongReturnSupported = false;
  }
  return p;
}

Problem fromHumanEvalXJs(const nlohmann::json& r) {
  Problem p;
  p.id = r.at("task_id").get<std::string>();
  p.lang = Lang::JavaScript;
  p.sourceName = "prob.js";
  p.testName = "prob.test.js";
  const std::string prompt = r.at("prompt").get<std::string>();
  std::string src = prompt + r.at("canonical_solution").get<std::string>();
  std::vector<std::string> names;
  std::regex top(R"((^|\n)(?:const|let|var|function)\s+([A-Za-z_$][\w$]*))");
  for (std::sregex_iterator it(src.begin(), src.end(), top), end; it != end; ++it) {
    std::string n = (*it)[2].str();
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  // The entry is the last function the declaration opens (helpers such as isPalindrome or
  // encodeCyclic come before it).
  std::regex decl(R"((?:const|let|var|function)\s+([A-Za-z_$][\w$]*)\s*(?:=|\())");
  const std::string d = r.at("declaration").get<std::string>();
  for (std::sregex_iterator it(d.begin(), d.end(), decl), end; it != end; ++it) p.entry = (*it)[1].str();
  std::string exports;
  for (const auto& n : names) exports += (exports.empty() ? "" : ", ") + n;
  p.source = trimRight(src) + "\n\nmodule.exports = { " + exports + " };\n";
  p.test = "const { " + exports + " } = require('./prob');\n" + r.at("test").get<std::string>();
  auto [line, indent] = firstCodeLine(p.source, countLines(prompt) + 1);
  p.bodyLine = line;
  p.indent = indent.empty() ? "  " : indent;
  return p;
}

bool entryInAssert(const Problem& p) {
  // Each assert call's parenthesized argument list, however many lines it spans.
  static const std::regex assertCall(R"(\bassert\w*\s*\()");
  const std::regex call("\\b" + p.entry + "\\s*\\(");
  const std::string& t = p.test;
  for (std::sregex_iterator it(t.begin(), t.end(), assertCall), end; it != end; ++it) {
    std::size_t open = static_cast<std::size_t>(it->position(0) + it->length(0)) - 1;
    int depth = 0;
    std::size_t close = open;
    for (; close < t.size(); ++close) {
      if (t[close] == '(') ++depth;
      if (t[close] == ')' && --depth == 0) break;
    }
    const std::string args = t.substr(open, close - open);
    if (std::regex_search(args, call)) return true;
  }
  return false;
}

Case makeCase(const Problem& p, Variant v) {
  Case c;
  c.problem = p;
  c.variant = v;
  c.source = p.source;
  const bool py = p.lang == Lang::Python;
  const bool js = p.lang == Lang::JavaScript;
  switch (v) {
    case Variant::Reference: break;
    case Variant::Raise:
      c.source = insertLine(p.source, p.bodyLine,
                            p.indent + (py ? "raise RuntimeError('greenlight corpus: injected')"
                                           : js ? "throw new Error('greenlight corpus: injected');"
                                                : "throw std::runtime_error(\"greenlight corpus: injected\");"));
      c.expectedLine = p.bodyLine;
      break;
    case Variant::SyntaxError:
      c.source = insertLine(p.source, p.bodyLine, p.indent + (py ? "return )" : js ? "return );" : "int gl_broken = ;"));
      c.expectedLine = p.bodyLine;
      break;
    case Variant::InfiniteLoop:
      c.source = insertLine(p.source, p.bodyLine,
                            p.indent + (py ? "while True: pass"
                                           : js ? "while (true) {}"
                                                : "for (volatile unsigned gl_i = 0;; gl_i = gl_i + 1) {}"));
      c.expectedLine = p.bodyLine;
      break;
    case Variant::WrongReturn:
      if (py) {
        c.source = trimRight(p.source) + "\n" + kPythonPerturb + "\n\n_gl_original = " + p.entry + "\n\n\ndef " + p.entry +
                   "(*args, **kwargs):\n    return _gl_perturb(_gl_original(*args, **kwargs))\n";
      } else if (js) {
        // A sentinel computed at run time from the arguments, of the reference value's type, that
        // a failure must show: numbers 777xxxx, strings/arrays/objects "gl-wrong-N", booleans flipped.
        c.source = trimRight(p.source) + "\n" + kJsSentinel + "module.exports." + p.entry + " = (...a) => _glWrong(" + p.entry +
                   "(...a), a);\n";
      } else {
        // Numeric, bool and string returns: every `return X;` of the solution returns a sentinel
        // computed from X at run time (numbers 777xxxx, strings "gl-wrong-N", booleans flipped);
        // the helper replaces the reserved second line so no line moves.
        std::string out;
        std::istringstream in(p.source);
        std::string l;
        std::regex ret(R"(\breturn\s+([^;]+);)");
        for (int i = 1; std::getline(in, l); ++i) {
          if (i == 2) l = kCxxSentinel;
          else if (i >= p.bodyLine) l = std::regex_replace(l, ret, "return gl_wrong($1);");
          out += l + "\n";
        }
        c.source = out;
      }
      break;
  }
  return c;
}

}  // namespace greenlight::corpus
