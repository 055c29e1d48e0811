#include "core/refine/CommentExamples.h"

#include <filesystem>
#include <sstream>

#include "core/refine/RegexLimits.h"
#include "support/Regex.h"

namespace greenlight::core::refine {

namespace fs = std::filesystem;
using testing::Language;

namespace {

std::string trim(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  std::size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

std::string calleeOf(const std::string& call) {
  static const std::regex kCallee = support::regex(R"(^\s*([A-Za-z_$][\w$]*)\s*\()");
  std::smatch m;
  const std::string subject = regexSubject(call);
  return std::regex_search(subject, m, kCallee) ? m[1].str() : "";
}

// A line starting with `export ` or `import x` (not `import(`): hand-written, the file may be long.
bool isModuleSyntax(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; };
  for (std::size_t start = 0; start < text.size();) {
    std::size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() : nl + 1;
    std::size_t k = 0;
    while (k < line.size() && space(line[k])) ++k;
    line.remove_prefix(k);
    if (line.size() > 6 && line.substr(0, 6) == "export" && space(line[6])) return true;
    if (line.size() > 7 && line.substr(0, 6) == "import" && space(line[6])) {
      std::size_t j = 6;
      while (j < line.size() && space(line[j])) ++j;
      if (j < line.size() && line[j] != '(') return true;
    }
  }
  return false;
}

}  // namespace

std::vector<CommentExample> examplesInComment(const Target& target) {
  std::vector<CommentExample> out;
  std::vector<std::string> lines;
  std::istringstream in(target.comment);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  static const std::regex kEquality = support::regex(R"(^\s*([A-Za-z_$][\w$.]*\s*\(.*\))\s*===?\s*(.+?)\s*;?$)");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string l = trim(lines[i]);
    int fileLine = target.commentFirst + static_cast<int>(i);
    if (l.rfind(">>>", 0) == 0) {
      std::string call = trim(l.substr(3));
      std::string expected = i + 1 < lines.size() ? trim(lines[i + 1]) : "";
      if (call.empty() || expected.empty() || expected.rfind(">>>", 0) == 0) continue;
      out.push_back({call, expected, fileLine});
      ++i;
      continue;
    }
    std::smatch m;
    if (l.size() <= kRegexSubjectMax && std::regex_match(l, m, kEquality)) out.push_back({trim(m[1].str()), trim(m[2].str()), fileLine});
  }
  return out;
}

std::optional<SyntheticTests> synthesizeTests(const Target& target, const std::string& sourcePath,
                                              std::string_view sourceText) {
  auto examples = examplesInComment(target);
  if (examples.empty()) return std::nullopt;
  std::string name = target.name;
  if (name.empty()) name = calleeOf(examples.front().call);
  if (name.empty()) return std::nullopt;
  const fs::path src(sourcePath);
  const std::string stem = src.stem().string();
  const std::string dir = src.parent_path().string();
  SyntheticTests out;
  std::ostringstream t;
  // Each example's test sits on its own lines; a comment names the comment line it came from.
  switch (target.language) {
    case Language::Python: {
      out.path = dir + "/test_" + stem + "_greenlight_examples.py";
      t << "# The examples of the comment above " << name << " in " << src.filename().string()
        << ", run as tests by greenlight.\n";
      t << "from " << stem << " import *  # noqa: F403\n";
      t << "from " << stem << " import " << name << "\n\n";
      for (std::size_t i = 0; i < examples.size(); ++i) {
        std::string test = "test_comment_example_" + std::to_string(i + 1);
        out.names.push_back(test);
        t << "\ndef " << test << "():  # line " << examples[i].line << "\n";
        t << "    assert " << examples[i].call << " == " << examples[i].expected << "\n";
      }
      break;
    }
    case Language::JavaScript: {
      const bool esm = src.extension() == ".mjs" || isModuleSyntax(sourceText);
      const std::string ext = esm && src.extension() != ".mjs" ? ".mjs" : ".js";
      out.path = dir + "/" + stem + ".greenlight-examples.test" + (esm ? std::string(".mjs") : ext);
      if (esm) {
        t << "import test from 'node:test';\nimport assert from 'node:assert';\n";
        t << "import { " << name << " } from './" << src.filename().string() << "';\n";
        out.exportHint = "The examples import it as `import { " + name + " } from './" + src.filename().string() +
                         "'`: export it (`export function " + name + "`).";
      } else {
        t << "const test = require('node:test');\nconst assert = require('node:assert');\n";
        t << "const { " << name << " } = require('./" << src.filename().string() << "');\n";
        out.exportHint = "The examples import it as `require('./" + src.filename().string() + "')." + name +
                         "`: export it (e.g. `module.exports." + name + " = " + name + ";` after the definition).";
      }
      for (std::size_t i = 0; i < examples.size(); ++i) {
        std::string test = "comment example " + std::to_string(i + 1);
        out.names.push_back(test);
        t << "\ntest('" << test << "', () => {  // line " << examples[i].line << "\n";
        t << "  assert.deepStrictEqual(" << examples[i].call << ", " << examples[i].expected << ");\n";
        t << "});\n";
      }
      break;
    }
    case Language::Cxx: {
      out.path = dir + "/" + stem + "_greenlight_examples_test.cpp";
      t << "// The examples of the comment above " << name << " in " << src.filename().string()
        << ", run as tests by greenlight.\n";
      t << "#include <cassert>\n#include \"" << src.filename().string() << "\"\n\nint main() {\n";
      for (const auto& e : examples) t << "  assert(" << e.call << " == " << e.expected << ");  // line " << e.line << "\n";
      t << "  return 0;\n}\n";
      out.names.push_back("main");
      break;
    }
    case Language::Command: return std::nullopt;
  }
  out.text = t.str();
  return out;
}

}  // namespace greenlight::core::refine
