#include "core/testing/Discovery.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/testing/JsProject.h"
#include "core/testing/JsResolve.h"
#include "core/testing/PyResolve.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      if (!cur.empty() && cur.back() == '\r') cur.pop_back();
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
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

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "hasCloseElements" / "has_close_elements" -> "hascloseelements" for name matching.
std::string normalizedName(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool fileExists(const std::string& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const std::regex& pyDef() {
  static const std::regex r = support::regex(R"(^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\()");
  return r;
}
// JavaScript and TypeScript: function declarations (generics, `declare`), functions and arrows
// bound to a const (a type annotation, typed parameters and return type), and class methods
// (modifiers, generics, a return type) whose body opens on the line.
const std::regex& jsDefs() {
  static const std::regex r = support::regex(
      R"(^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^(]*>)?\s*\()"
      R"(|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::(?:[^=]|=>)+)?=\s*(?:async\s+)?(?:function\b|(?:<[^(]*>\s*)?\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>|(?:<[^(]*>\s*)?\(\s*$))"
      R"(|^\s*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*\*?\s*#?([A-Za-z_$][\w$]*)\s*(?:<[^(]*>)?\s*\([^;]*\)\s*(?::\s*[^;{=]+)?\{\s*\}?\s*$)");
  return r;
}
const std::regex& cxxDef() {
  static const std::regex r = support::regex(
      R"(^\s*(?:template\s*<[^>]*>\s*)?(?:(?:static|inline|constexpr|virtual|extern)\s+)*[A-Za-z_][\w:<>,\s\*&]*?[\s\*&]([A-Za-z_]\w*(?:::[A-Za-z_~]\w*)*)\s*\([^;]*$)");
  return r;
}

bool isCxxKeyword(const std::string& n) {
  static const std::set<std::string> k = {"if", "for", "while", "switch", "return", "catch", "sizeof", "else", "do", "case"};
  return k.count(n) > 0;
}

std::optional<FunctionAt> matchDef(const std::string& line, Language language, int* indent) {
  std::smatch m;
  switch (language) {
    case Language::Python:
      if (std::regex_search(line, m, pyDef())) {
        *indent = indentOf(line);
        return FunctionAt{m[2].str(), 0};
      }
      break;
    case Language::JavaScript:
      if (std::regex_search(line, m, jsDefs())) {
        std::string name = m[1].matched ? m[1].str() : m[2].matched ? m[2].str() : m[3].str();
        static const std::set<std::string> keywords = {"if", "for", "while", "switch", "catch", "with", "function",
                                                       "return", "do", "else", "try", "finally", "constructor"};
        if (m[3].matched && keywords.count(name)) break;
        *indent = indentOf(line);
        return FunctionAt{name, 0};
      }
      break;
    case Language::Cxx: {
      // A definition on one line ("bool empty() const { return n == 0; }") is read up to its body.
      const std::string head = line.substr(0, line.find('{'));
      // Operators: "T& operator[](std::size_t i) {", "bool operator==(const X&) const".
      static const std::regex op = support::regex(R"(^\s*(?:template\s*<[^>]*>\s*)?[A-Za-z_][\w:<>,\s\*&]*?[\s\*&](?:[A-Za-z_]\w*::)*(operator\s*(?:\[\s*\]|\(\s*\)|[-+*/%<>!=&|^~]{1,3}))\s*\([^;]*$)");
      if (head.find(';') == std::string::npos && std::regex_search(head, m, op)) {
        std::string name;
        for (char c : m[1].str())
          if (c != ' ' && c != '\t') name += c;
        *indent = indentOf(line);
        return FunctionAt{name, 0};
      }
      if (head.find(';') == std::string::npos && std::regex_search(head, m, cxxDef())) {
        std::string name = m[1].str();
        auto colons = name.rfind("::");
        if (colons != std::string::npos) name = name.substr(colons + 2);
        if (isCxxKeyword(name)) break;
        *indent = indentOf(line);
        return FunctionAt{name, 0};
      }
      break;
    }
    case Language::Command: break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> readSource(const std::string& path, const OverlayProvider& overlay) {
  if (overlay) {
    if (auto text = overlay(path)) return text;
  }
  return readFile(path);
}

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string findWorkspaceRoot(const std::string& file, const std::string& stopAt) {
  std::error_code ec;
  fs::path start = fs::absolute(file, ec).lexically_normal().parent_path();
  fs::path stop = stopAt.empty() ? fs::path() : fs::absolute(stopAt, ec).lexically_normal();
  if (!stop.empty() && stop.has_filename() == false) stop = stop.parent_path();
  for (fs::path dir = start;; dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec) || fs::exists(dir / ".greenlight.json", ec)) return dir.string();
    if (!stop.empty() && dir == stop) return dir.string();
    if (dir == dir.parent_path()) break;
  }
  return start.string();
}

bool isFilesystemRoot(const std::string& dir) {
  if (dir.empty()) return false;
  const fs::path p = fs::path(dir).lexically_normal();
  return p == p.root_path() || p.relative_path().empty();
}

std::optional<Language> languageForPath(const std::string& path) {
  std::string ext = lower(fs::path(path).extension().string());
  if (ext == ".py") return Language::Python;
  // TypeScript is of the JavaScript family: the same runners and harness (isTypeScriptPath).
  if (ext == ".js" || ext == ".mjs" || ext == ".cjs" || ext == ".jsx" || ext == ".ts" || ext == ".tsx" || ext == ".mts" ||
      ext == ".cts")
    return Language::JavaScript;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".hpp" || ext == ".h" || ext == ".hh" || ext == ".hxx")
    return Language::Cxx;
  return std::nullopt;
}

std::optional<FunctionAt> functionAtLine(const std::string& text, int line, Language language) {
  auto lines = splitLines(text);
  if (line < 1 || lines.empty()) return std::nullopt;
  if (line > static_cast<int>(lines.size())) line = static_cast<int>(lines.size());
  int minIndent = 1 << 30;  // the smallest indentation seen between the candidate and `line`
  for (int i = line - 1; i >= 0; --i) {
    const std::string& l = lines[static_cast<std::size_t>(i)];
    int indent = 0;
    if (auto def = matchDef(l, language, &indent)) {
      bool encloses = i == line - 1 || language != Language::Python || indent < minIndent;
      if (encloses) {
        def->line = i + 1;
        return def;
      }
    }
    if (!blank(l)) minIndent = std::min(minIndent, indentOf(l));
    // Python: a line at column 0 that is not a def ends the search (module-level code).
    if (language == Language::Python && !blank(l) && indentOf(l) == 0 && i != line - 1 &&
        l.rfind("#", 0) != 0 && l.rfind("@", 0) != 0)
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<FunctionAt> findFunction(const std::string& text, const std::string& name, Language language) {
  auto lines = splitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    int indent = 0;
    auto def = matchDef(lines[i], language, &indent);
    if (def && def->name == name) {
      def->line = static_cast<int>(i) + 1;
      return def;
    }
  }
  return std::nullopt;
}

std::vector<StaticTest> listTests(const std::string& text, const std::string& file, Language language) {
  std::vector<StaticTest> out;
  auto lines = splitLines(text);
  static const std::regex pyTestFn = support::regex(R"(^(?:async\s+)?def\s+(test\w*)\s*\()");
  static const std::regex pyClass = support::regex(R"(^class\s+(\w+)\s*(\(([^)]*)\))?\s*:)");
  static const std::regex pyMethod = support::regex(R"(^\s+(?:async\s+)?def\s+(test\w*)\s*\()");
  // The title in any of JS's three quotes, one alternative each (no back-reference: support::regex).
  static const std::regex jsTest = support::regex(
      R"re(\b(?:test|it)(?:\.only|\.skip|\.todo)?\s*\(\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\])*)`))re");
  static const std::regex catchTest = support::regex(R"(\b(?:TEST_CASE|SCENARIO)\s*\(\s*"((?:\\.|[^"])*)\")");
  static const std::regex gTest = support::regex(R"(\bTEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\))");
  std::string cls;
  // A line is searched only when it holds a literal every pattern of its language needs.
  const auto has = [](const std::string& l, const char* s) { return l.find(s) != std::string::npos; };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    std::smatch m;
    int lineNo = static_cast<int>(i) + 1;
    switch (language) {
      case Language::Python:
        if (!blank(l) && indentOf(l) == 0) cls.clear();
        if (!has(l, "def") && !has(l, "class")) break;
        if (std::regex_search(l, m, pyTestFn)) {
          out.push_back({m[1].str(), file, lineNo, 0});
        } else if (std::regex_search(l, m, pyClass)) {
          std::string bases = m[3].str();
          if (bases.find("TestCase") != std::string::npos || m[1].str().rfind("Test", 0) == 0) cls = m[1].str();
        } else if (!cls.empty() && std::regex_search(l, m, pyMethod)) {
          out.push_back({cls + "." + m[1].str(), file, lineNo, 0});
        }
        break;
      case Language::JavaScript:
        if ((has(l, "test") || has(l, "it")) && std::regex_search(l, m, jsTest))
          out.push_back({(m[1].matched ? m[1] : m[2].matched ? m[2] : m[3]).str(), file, lineNo, 0});
        break;
      case Language::Cxx:
        if (!has(l, "TEST") && !has(l, "SCENARIO")) break;
        if (std::regex_search(l, m, catchTest)) out.push_back({m[1].str(), file, lineNo, 0});
        else if (std::regex_search(l, m, gTest)) out.push_back({m[1].str() + "." + m[2].str(), file, lineNo, 0});
        break;
      case Language::Command: break;
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].endLine = i + 1 < out.size() ? out[i + 1].line - 1 : static_cast<int>(lines.size());
  }
  return out;
}

namespace {

std::vector<std::string> candidateTestFiles(const fs::path& source, Language language, const fs::path& root) {
  std::string stem = source.stem().string();
  std::vector<std::string> names;
  switch (language) {
    case Language::Python:
      names = {"test_" + stem + ".py", stem + "_test.py", "tests/test_" + stem + ".py", "tests/" + stem + "_test.py",
               "test/test_" + stem + ".py"};
      break;
    case Language::JavaScript:
      for (const char* ext : {".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx"}) {
        for (const char* kind : {".test", ".spec"}) {
          names.push_back(stem + kind + ext);
          names.push_back("__tests__/" + stem + kind + ext);
          names.push_back("test/" + stem + kind + ext);
          names.push_back("tests/" + stem + kind + ext);
        }
      }
      break;
    case Language::Cxx:
      for (const char* ext : {".cpp", ".cc", ".cxx"}) {
        names.push_back(stem + "_test" + ext);
        names.push_back("test_" + stem + ext);
        names.push_back("tests/" + stem + "_test" + ext);
        names.push_back("tests/test_" + stem + ext);
      }
      break;
    case Language::Command: break;
  }
  std::vector<std::string> found;
  std::set<std::string> seen;
  for (fs::path dir = source.parent_path();; dir = dir.parent_path()) {
    for (const auto& n : names) {
      fs::path cand = (dir / n).lexically_normal();
      if (cand == source) continue;
      if (fileExists(cand.string()) && seen.insert(cand.string()).second) found.push_back(cand.string());
    }
    if (dir == root || dir == dir.parent_path() || root.empty()) break;
    // Only walk while still inside the root.
    auto rel = dir.lexically_relative(root);
    if (rel.empty() || rel.native().rfind("..", 0) == 0) break;
  }
  return found;
}

bool looksLikeTestFile(const fs::path& p, Language language) {
  std::string name = p.filename().string();
  std::string stem = p.stem().string();
  switch (language) {
    case Language::Python: return stem.rfind("test_", 0) == 0 || endsWith(stem, "_test");
    case Language::JavaScript: return endsWith(stem, ".test") || endsWith(stem, ".spec") || p.parent_path().filename() == "__tests__";
    case Language::Cxx: return (endsWith(stem, "_test") || stem.rfind("test_", 0) == 0) && p.extension() != ".h" && p.extension() != ".hpp";
    case Language::Command: return false;
  }
  return false;
}

// The test files of a JavaScript/TypeScript source in a project without a runner (node:test):
// those of its package (the nearest package.json's directory, else the workspace root) whose
// local imports reach it, as node resolves them (JsResolve.h: '..' and package main, exports,
// imports, the package's own name, tsconfig paths, index files, .js written for .ts; a few
// levels deep). A test file named after the source (test/index.test.js for index.js) is one of
// them only when it loads that very file: a namesake that loads another module of the name is
// set aside and `note` says so. Bounded: node_modules and dot directories skipped, at most
// kMaxEntries entries walked and kMaxTests test files read.
std::vector<std::string> jsTestsImporting(const fs::path& source, const fs::path& root, const OverlayProvider& overlay,
                                          std::string* note) {
  constexpr std::size_t kMaxEntries = 5000, kMaxTests = 200;
  fs::path base = root.empty() ? source.parent_path() : root;
  for (fs::path d = source.parent_path();; d = d.parent_path()) {
    if (fileExists((d / "package.json").string())) {
      base = d;
      break;
    }
    if (d == root || d == d.parent_path() || root.empty()) break;
  }
  std::vector<std::string> tests;
  if (isFilesystemRoot(base.string())) return tests;
  std::size_t entries = 0;
  std::error_code ec;
  fs::recursive_directory_iterator it(base, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && entries < kMaxEntries && tests.size() < kMaxTests; it.increment(ec), ++entries) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (name == "node_modules" || name.rfind('.', 0) == 0 || it.depth() >= 6) it.disable_recursion_pending();
      continue;
    }
    if (it->path() != source && languageForPath(it->path().string()) == Language::JavaScript &&
        looksLikeTestFile(it->path(), Language::JavaScript))
      tests.push_back(it->path().lexically_normal().string());
  }
  // The namesakes (m.test.js, __tests__/m.spec.ts, test/m.test.mjs ... here and up to the root).
  const std::vector<std::string> namesakes = candidateTestFiles(source, Language::JavaScript, root);
  for (const auto& named : namesakes) {
    if (std::find(tests.begin(), tests.end(), named) == tests.end()) tests.push_back(named);
  }
  std::sort(tests.begin(), tests.end());
  const std::string target = source.lexically_normal().string();
  const auto resolver = JsResolver::forRoot(base.string());
  std::vector<std::string> found, setAside, unsure;
  const JsImportGraph graph = jsImportGraph(tests, *resolver, overlay);
  const std::set<std::string> loaders = graph.loaders(target);
  const std::set<std::string> unsureLoaders = graph.unsureLoaders();
  for (const auto& t : tests) {
    const bool namesake = std::find(namesakes.begin(), namesakes.end(), t) != namesakes.end();
    if (loaders.count(t)) found.push_back(t);
    // A namesake whose imports cannot all be followed may load the file: node has no list of
    // related tests to ask, so it runs (the note says why).
    else if (namesake && unsureLoaders.count(t)) found.push_back(t), unsure.push_back(t);
    else if (namesake) setAside.push_back(t);
  }
  auto rel = [&](const std::string& f) { return fs::path(f).lexically_relative(base).string(); };
  std::string words;
  for (const auto& t : setAside) {
    words += (words.empty() ? "" : "; ") + rel(t) + " is named after " + source.filename().string() +
             " but does not load " + rel(target);
  }
  for (const auto& t : unsure) {
    words += (words.empty() ? "" : "; ") + rel(t) + " is named after it and loads modules greenlight cannot follow: run";
  }
  if (found.empty() && !words.empty()) words += ": no test file loads " + rel(target);
  if (note) *note = words;
  return found;
}

bool hasDoctestExamples(const std::string& text) {
  static const std::regex r = support::regex(R"(^[ \t]*>>> )");
  return support::anyLineMatches(text, r, {">>> "});
}

bool sameFileTestsIn(const std::string& text) {
  static const std::regex r = support::regex(R"(^(?:async\s+)?def\s+test\w*\s*\(|^class\s+\w+\s*\([^)]*TestCase[^)]*\)\s*:)");
  return support::anyLineMatches(text, r, {"def", "TestCase"});
}

}  // namespace

bool isTestFilePath(const std::string& path) {
  auto language = languageForPath(path);
  return language && looksLikeTestFile(fs::path(path), *language);
}

TestPlan builtinDiscovery(const DiscoveryContext& ctx) {
  const DiscoveryRequest& request = ctx.request;
  const fs::path source(ctx.source);
  const std::string& text = ctx.text;
  const Language language = ctx.language;
  TestPlan plan;
  plan.sourceFile = ctx.source;
  plan.workspaceRoot = ctx.workspaceRoot;
  plan.language = language;
  plan.framework = language == Language::Python ? "python" : language == Language::JavaScript ? "node" : "assert";
  fs::path root(plan.workspaceRoot);
  if (looksLikeTestFile(source, language)) {
    plan.sourceIsTestFile = true;
  } else {
    // JavaScript: the test files that load it (a namesake only when it does). Python: a test file
    // named after the module counts only when it loads this very file (PyResolve.h); with none
    // left, the test files that import it are its tests.
    if (language == Language::JavaScript) {
      plan.testFiles = jsTestsImporting(source, root, request.overlay, &plan.discoveryNote);
    } else {
      plan.testFiles = candidateTestFiles(source, language, root);
    }
    if (language == Language::Python) {
      const PyResolver resolver(pythonSearch(ctx.source, ctx.workspaceRoot, request.overlay));
      plan.testFiles = pythonNamedTestsLoading(resolver, ctx.source, plan.testFiles, &plan.discoveryNote);
      if (plan.testFiles.empty() && !root.empty())
        plan.testFiles = pythonTestsLoading(resolver, ctx.source, {root.string()}, {"test_*.py", "*_test.py"});
    }
    for (const auto& extra : request.extraTestFiles) {
      if (std::find(plan.testFiles.begin(), plan.testFiles.end(), extra) == plan.testFiles.end()) plan.testFiles.push_back(extra);
    }
  }
  if (language == Language::Python) {
    plan.hasDoctests = !plan.sourceIsTestFile && hasDoctestExamples(text);
    plan.sameFileTests = !plan.sourceIsTestFile && sameFileTestsIn(text);
  }
  // The texts the tests live in, for framework detection and narrowing.
  std::vector<std::pair<std::string, std::string>> testTexts;
  if (plan.sourceIsTestFile || plan.sameFileTests) testTexts.emplace_back(plan.sourceFile, text);
  for (const auto& f : plan.testFiles) {
    if (auto t = readSource(f, request.overlay)) testTexts.emplace_back(f, *t);
  }
  if (language == Language::Cxx) {
    for (const auto& [f, t] : testTexts) {
      if (t.find("catch2/catch") != std::string::npos || t.find("<catch.hpp>") != std::string::npos) plan.framework = "catch2";
      else if (t.find("gtest/gtest.h") != std::string::npos) plan.framework = "gtest";
    }
  }
  for (const auto& [f, t] : testTexts) {
    auto tests = listTests(t, f, language);
    plan.staticTests.insert(plan.staticTests.end(), tests.begin(), tests.end());
  }
  narrowToFunction(plan, ctx);
  return plan;
}

void narrowToFunction(TestPlan& plan, const DiscoveryContext& ctx) {
  const DiscoveryRequest& request = ctx.request;
  if ((!request.line && request.functionName.empty()) || plan.sourceIsTestFile) return;
  if (request.line) {
    plan.function = functionAtLine(ctx.text, *request.line, ctx.language);
  } else {
    plan.function = findFunction(ctx.text, request.functionName, ctx.language);
    if (!plan.function) plan.function = FunctionAt{request.functionName, 0};
  }
  if (!plan.function) return;
  const std::string fn = plan.function->name;
  const std::string key = normalizedName(fn);
  const std::regex call = support::regex("\\b" + std::regex_replace(fn, support::regex(R"([\$\.\^\*\+\?\(\)\[\]\{\}\|\\])"), "\\$&") + "\\s*\\(");
  std::map<std::string, std::vector<std::string>> linesOf;
  for (const auto& st : plan.staticTests) {
    if (linesOf.count(st.file)) continue;
    auto t = st.file == plan.sourceFile ? std::optional<std::string>(ctx.text) : readSource(st.file, request.overlay);
    linesOf[st.file] = t ? splitLines(*t) : std::vector<std::string>{};
  }
  for (const auto& st : plan.staticTests) {
    bool byName = normalizedName(st.name).find(key) != std::string::npos;
    bool byCall = false;
    const auto& ls = linesOf[st.file];
    for (int l = st.line; l <= st.endLine && l <= static_cast<int>(ls.size()) && !byCall; ++l) {
      if (l == st.line) continue;  // the test's own name line
      byCall = std::regex_search(ls[static_cast<std::size_t>(l - 1)], call);
    }
    if (byName || byCall) plan.selected.push_back(st.name);
  }
  if (plan.hasDoctests) plan.doctestFunctions.push_back(fn);
}

}  // namespace greenlight::core::testing
