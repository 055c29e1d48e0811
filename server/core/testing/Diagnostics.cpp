#include "core/testing/Diagnostics.h"

#include <set>
#include <sstream>
#include <tuple>

#include "core/testing/OutputParsing.h"
#include "support/Regex.h"

namespace greenlight::core::testing {

namespace {

// At most 12 lines / 1,200 bytes of a failure's details, cut with a visible marker.
std::string boundedDetails(const std::string& details) {
  std::string out;
  int lines = 0;
  std::size_t start = 0;
  while (start < details.size() && lines < 12 && out.size() < 1200) {
    std::size_t nl = details.find('\n', start);
    std::string line = details.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    out += (lines ? "\n" : "") + line.substr(0, 200);
    ++lines;
    if (nl == std::string::npos) {
      start = details.size();
      break;
    }
    start = nl + 1;
  }
  if (start < details.size()) out += "\n…";
  return out;
}


constexpr std::size_t kDataOutputCap = 4096;

std::string lineOf(const std::map<std::string, std::string>& texts, const std::string& file, int line) {
  auto it = texts.find(file);
  if (it == texts.end() || line < 1) return "";
  std::istringstream in(it->second);
  std::string l;
  for (int i = 1; std::getline(in, l); ++i) {
    if (i == line) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      return l;
    }
  }
  return "";
}

// The range of the code on `line`: from `column` (or the first non-blank) to the last
// non-blank character, 1-based with an exclusive end.
void setRange(Diagnostic& d, const std::map<std::string, std::string>& texts, int column) {
  std::string text = lineOf(texts, d.file, d.line);
  int first = 1;
  while (first <= static_cast<int>(text.size()) && std::isspace(static_cast<unsigned char>(text[static_cast<std::size_t>(first - 1)]))) ++first;
  int last = static_cast<int>(text.size());
  while (last > 0 && std::isspace(static_cast<unsigned char>(text[static_cast<std::size_t>(last - 1)]))) --last;
  d.column = column > 0 ? column : first;
  d.endLine = d.line;
  d.endColumn = std::max(d.column + 1, last + 1);
}

nlohmann::json framesJson(const std::vector<Frame>& frames) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& f : frames) {
    nlohmann::json j = {{"file", f.file}, {"line", f.line}};
    if (f.column) j["column"] = f.column;
    if (!f.function.empty()) j["function"] = f.function;
    a.push_back(std::move(j));
  }
  return a;
}

nlohmann::json originJson(const ValueOrigin& o) {
  nlohmann::json locals = nlohmann::json::array();
  for (const auto& [k, v] : o.locals) locals.push_back({k, v});
  return {{"function", o.function}, {"file", o.file}, {"line", o.line}, {"def_line", o.defLine},
          {"kind", o.kind}, {"value", o.value}, {"locals", locals}};
}

const Frame* deepestIn(const std::vector<Frame>& frames, const std::string& file) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (it->file == file && it->line > 0) return &*it;
  }
  return nullptr;
}

const Frame* deepestKnown(const std::vector<Frame>& frames, const std::map<std::string, std::string>& texts) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (it->line > 0 && texts.count(it->file)) return &*it;
  }
  return nullptr;
}

// The callee an assertion is about: "fib(10) returned 34" -> fib; else the first identifier
// followed by "(" on the assertion line that the source defines.
std::optional<FunctionAt> calleeOf(const TestResult& t, const std::string& assertionLine, const DiagnosticContext& ctx) {
  static const std::regex call = support::regex(R"(([A-Za-z_$][\w$]*)\s*\()");
  std::vector<std::string> names;
  // C++: a subscript in the check ("rb[1]") calls the class's operator[].
  static const std::regex subscript = support::regex(R"([\w\)\]]\s*\[[^\]])");
  for (const std::string& text : {t.message, assertionLine}) {
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it) names.push_back((*it)[1].str());
    if (ctx.language == Language::Cxx && std::regex_search(text, subscript)) names.push_back("operator[]");
  }
  static const std::set<std::string> skip = {"assert", "assertEqual", "console", "strictEqual", "deepStrictEqual", "equal",
                                             "ok", "AssertionError", "len", "print", "int", "str", "list", "set",
                                             "tuple", "dict", "abs", "round", "sorted", "isclose", "main"};
  for (const auto& n : names) {
    if (skip.count(n)) continue;
    if (auto f = findFunction(ctx.sourceText, n, ctx.language)) return f;
  }
  return std::nullopt;
}

}  // namespace

std::vector<Diagnostic> buildDiagnostics(const RunResult& result, const DiagnosticContext& ctx) {
  std::vector<Diagnostic> out;
  std::map<std::string, std::string> texts = ctx.texts;
  if (!ctx.sourceFile.empty() && !texts.count(ctx.sourceFile)) texts[ctx.sourceFile] = ctx.sourceText;

  // Compile errors first: where the compiler put them, in the files of the run. A tests.command's
  // lines are all reported, one diagnostic each, with the severity and code the line gave.
  const bool command = ctx.language == Language::Command;
  std::set<std::pair<std::string, int>> compileSeen;
  std::set<std::tuple<std::string, int, int, std::string>> commandSeen;
  for (const auto& m : result.compilerMessages) {
    if (!command && m.severity != "error" && m.severity != "fatal error") continue;
    if (!texts.count(m.file)) continue;
    if (command ? !commandSeen.insert({m.file, m.line, m.column, m.message}).second
                : !compileSeen.insert({m.file, m.line}).second)
      continue;
    compileSeen.insert({m.file, m.line});
    Diagnostic d;
    d.file = m.file;
    d.line = std::max(1, m.line);
    d.code = m.code.empty() ? "compile-error" : m.code;
    d.severity = m.severity == "warning" ? "warning" : m.severity == "note" ? "information" : "error";
    d.message = m.message;
    setRange(d, texts, m.column);
    std::string test = command && !result.tests.empty() ? result.tests.front().name : "";
    d.data = {{"test", test},
              {"status", command ? "failed" : "error"},
              {"output", capText(command ? result.stdoutText + result.stderrText : result.stderrText, kDataOutputCap)}};
    out.push_back(std::move(d));
  }

  for (const auto& w : result.warnings) {
    Diagnostic d;
    d.file = w.file;
    d.line = std::max(1, w.line);
    d.severity = "warning";
    d.code = w.code;
    d.message = w.message;
    setRange(d, texts, 0);
    d.data = {{"test", ""}, {"status", "warning"}};
    out.push_back(std::move(d));
  }

  for (const auto& t : result.tests) {
    if (t.status == TestStatus::Passed || t.status == TestStatus::Skipped) continue;
    if (t.kind == FailureKind::Compile && !compileSeen.empty()) continue;  // already reported
    if (command && !compileSeen.empty()) continue;  // its lines are the diagnostics
    Diagnostic d;
    d.code = std::string(failureCode(t.kind == FailureKind::None ? FailureKind::Exception : t.kind));
    d.message = t.name + ": " + t.message;
    d.data = {{"test", t.name},
              {"status", std::string(testStatusName(t.status))},
              {"expected", t.expected},
              {"actual", t.actual},
              {"frames", framesJson(t.frames)},
              {"output", capText(t.output, kDataOutputCap)}};
    if (t.origin) d.data["origin"] = originJson(*t.origin);
    // Where the failing check is in the test file (the assertion, or the call into the code).
    const Frame* testFrame = deepestIn(t.frames, t.file);
    const Frame* inSource = deepestIn(t.frames, ctx.sourceFile);
    const Frame* anyKnown = deepestKnown(t.frames, texts);
    const Frame* primary = nullptr;
    bool onAssertion = false;
    if (inSource) {
      primary = inSource;
    } else if (t.kind == FailureKind::Assertion && testFrame) {
      primary = testFrame;
      onAssertion = true;
    } else if (anyKnown) {
      primary = anyKnown;
      onAssertion = t.kind == FailureKind::Assertion;
    }
    if (primary) {
      d.file = primary->file;
      d.line = primary->line;
      setRange(d, texts, primary->column);
    } else {
      d.file = t.file.empty() ? ctx.sourceFile : t.file;
      d.line = std::max(1, t.line);
      setRange(d, texts, 0);
    }
    const Frame* assertion = testFrame ? testFrame : (primary && onAssertion ? primary : nullptr);
    if (assertion && !(assertion->file == d.file && assertion->line == d.line)) {
      d.related.push_back({assertion->file, assertion->line, assertion->column,
                           t.kind == FailureKind::Assertion ? "assertion here" : "called from " + t.name});
    } else if (!assertion && !t.file.empty() && t.line > 0 && !(t.file == d.file && t.line == d.line)) {
      d.related.push_back({t.file, t.line, 0, "test " + t.name});
    }
    // A failure that says more than one line (pytest's diff, "Lists differ"): a bounded excerpt
    // beside the one-line message, where the editor shows related information.
    if (!t.details.empty()) {
      const Frame* where = assertion ? assertion : primary;
      d.related.push_back({where ? where->file : d.file, where ? where->line : d.line, where ? where->column : 0,
                           boundedDetails(t.details)});
      d.data["details"] = capText(t.details, 4096);
    }
    const bool inSourceFile = d.file == ctx.sourceFile;
    out.push_back(d);
    // No frame in the file under test: also mark the definition of the function under test.
    if (!inSourceFile && (t.kind == FailureKind::Assertion || t.kind == FailureKind::Timeout ||
                          t.kind == FailureKind::Exception)) {
      std::optional<FunctionAt> fn = ctx.function;
      if (!fn) {
        std::string at = assertion ? lineOf(texts, assertion->file, assertion->line) : "";
        fn = calleeOf(t, at, ctx);
        // C++: a check of a value computed earlier ("EXPECT_EQ(top[0].first, ...)" after
        // "auto top = top_n(...)"): the last call into the source above it in the test.
        if (!fn && ctx.language == Language::Cxx && assertion && assertion->file == t.file && t.line > 0) {
          TestResult none;
          for (int l = assertion->line - 1; l > t.line && l >= assertion->line - 40 && !fn; --l)
            fn = calleeOf(none, lineOf(texts, assertion->file, l), ctx);
        }
      }
      if (t.origin && t.origin->file == ctx.sourceFile && t.origin->line > 0) {
        // The line that produced the wrong value (traced), the definition as related information.
        const ValueOrigin& o = *t.origin;
        Diagnostic at = d;
        at.file = ctx.sourceFile;
        at.line = o.line;
        setRange(at, texts, 0);
        at.message = d.message + " (" + o.function + (o.kind == "raise" ? " raised here" : " returned here");
        for (std::size_t i = 0; i < o.locals.size() && i < 4; ++i)
          at.message += (i ? ", " : " with ") + o.locals[i].first + "=" + o.locals[i].second;
        at.message += ")";
        at.related.clear();
        at.related.push_back({d.file, d.line, d.column, t.kind == FailureKind::Assertion ? "assertion here" : "failing test " + t.name});
        if (o.defLine > 0 && o.defLine != o.line) at.related.push_back({ctx.sourceFile, o.defLine, 0, o.function + " is defined here"});
        out.push_back(std::move(at));
      } else if (fn && fn->line > 0) {
        Diagnostic def = d;
        def.file = ctx.sourceFile;
        def.line = fn->line;
        setRange(def, texts, 0);
        def.related.clear();
        def.related.push_back({d.file, d.line, d.column, t.kind == FailureKind::Assertion ? "assertion here" : "failing test " + t.name});
        out.push_back(std::move(def));
      }
    }
  }
  return out;
}

nlohmann::ordered_json diagnosticToJson(const Diagnostic& d) {
  nlohmann::ordered_json j;
  j["file"] = d.file;
  j["line"] = d.line;
  j["column"] = d.column;
  j["end_line"] = d.endLine;
  j["end_column"] = d.endColumn;
  j["severity"] = d.severity;
  j["code"] = d.code;
  j["message"] = d.message;
  nlohmann::ordered_json rel = nlohmann::ordered_json::array();
  for (const auto& r : d.related) {
    nlohmann::ordered_json x;
    x["file"] = r.file;
    x["line"] = r.line;
    if (r.column) x["column"] = r.column;
    x["message"] = r.message;
    rel.push_back(std::move(x));
  }
  j["related"] = std::move(rel);
  j["data"] = d.data;
  return j;
}

}  // namespace greenlight::core::testing
