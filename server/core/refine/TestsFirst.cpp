#include "core/refine/TestsFirst.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "core/refine/CxxBuildTests.h"
#include "core/testing/Discovery.h"
#include "core/testing/JsProject.h"
#include "core/testing/PythonProject.h"

namespace greenlight::core::refine {

namespace fs = std::filesystem;
using testing::Language;

namespace {

bool isDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool under(const fs::path& p, const fs::path& dir) {
  auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

// The first test file of the project (its style and imports), bounded by a small walk.
std::optional<fs::path> exampleTestFile(const fs::path& root, Language language, const fs::path& avoid) {
  std::error_code ec;
  int seen = 0;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (++seen > 2000) break;
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && (name == "node_modules" || name == ".git" || name == ".venv" || name == "venv" ||
                                 name == "__pycache__" || name == "build" || (!name.empty() && name[0] == '.'))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec) || it->path() == avoid) continue;
    auto lang = testing::languageForPath(it->path().string());
    if (lang == language && testing::isTestFilePath(it->path().string())) return it->path();
  }
  return std::nullopt;
}

bool moduleSyntax(const std::string& text) {
  for (std::size_t start = 0; start < text.size();) {
    std::size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    start = nl == std::string::npos ? text.size() : nl + 1;
    std::size_t k = line.find_first_not_of(" \t");
    if (k == std::string::npos) continue;
    if (line.compare(k, 7, "export ") == 0) return true;
    if (line.compare(k, 7, "import ") == 0 && line.find('(', k) != k + 7) return true;
  }
  return false;
}

std::optional<TestsPlacement> placePython(const Target& target, const fs::path& src, const fs::path& root) {
  TestsPlacement p;
  const testing::PythonProject project = testing::pythonProject(src.string(), root.string());
  // Where the project keeps tests: its `tests/` folder when it has one, else beside the module.
  fs::path testsDir = isDir(root / "tests") ? root / "tests" : isDir(root / "test") ? root / "test" : src.parent_path();
  if (!project.testPaths.empty() && isDir(project.testPaths.front())) testsDir = project.testPaths.front();
  p.path = (testsDir / ("test_" + src.stem().string() + ".py")).lexically_normal().string();
  // The module as the tests import it: a src/ layout's package path, else the path from the root.
  fs::path base = under(src, root / "src") ? root / "src" : root;
  if (testsDir == src.parent_path()) base = src.parent_path();
  fs::path rel = src.lexically_relative(base).replace_extension();
  std::string module;
  for (const auto& part : rel) module += (module.empty() ? "" : ".") + part.string();
  const std::string name = target.name.empty() ? "*" : target.name;
  p.importLine = "from " + module + " import " + name;
  if (auto example = exampleTestFile(root, Language::Python, p.path)) {
    p.examplePath = example->string();
    p.exampleText = testing::readSource(p.examplePath, nullptr).value_or("");
  }
  const bool exampleUnittest = p.exampleText.find("unittest.TestCase") != std::string::npos ||
                               p.exampleText.find("(TestCase)") != std::string::npos;
  const bool examplePytest = p.exampleText.find("import pytest") != std::string::npos;
  p.framework = project.pytestConfigured || project.hasConftest || examplePytest ? "pytest"
                : exampleUnittest                                                ? "unittest"
                                                                                 : "python";
  return p;
}

// The suffix a JS test file's name carries before its extension (".test", ".spec"), or "".
std::string jsTestSuffix(const fs::path& file) {
  const std::string stem = file.stem().string();
  for (const char* s : {".test", ".spec"}) {
    const std::string suffix = s;
    if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0) return suffix;
  }
  return "";
}

// Where a project runner's (jest, vitest, mocha) tests live, learnt from its own test files: each
// votes for "beside its module" (a sibling source of its stem) or for its directory, with the
// suffix it carries; the most common wins (beside on a tie), so the new file matches the patterns
// the project's tests already match. `dir` is empty for "beside".
struct JsTestHome {
  fs::path dir;
  std::string suffix = ".test";
  std::string examplePath;  // a test file of that kind (its style and imports)
};

JsTestHome jsTestHome(const fs::path& root, const fs::path& avoid) {
  std::map<std::pair<std::string, std::string>, std::pair<int, std::string>> votes;  // (dir, suffix) -> (count, example)
  std::error_code ec;
  int seen = 0;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (++seen > 4000) break;
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && (name == "node_modules" || name == "fixtures" || name == "dist" || name == "coverage" ||
                                 (!name.empty() && name[0] == '.'))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec) || it->path() == avoid || testing::languageForPath(it->path().string()) != Language::JavaScript)
      continue;
    const fs::path& f = it->path();
    const std::string suffix = jsTestSuffix(f);
    const bool inTestDir = under(f, root / "test") || under(f, root / "tests") || f.parent_path().filename() == "__tests__";
    if (suffix.empty() && !inTestDir) continue;
    std::string stem = f.stem().string();
    stem = stem.substr(0, stem.size() - suffix.size());
    bool beside = false;  // a file of test/ without a suffix is no module's sibling (its stem is its own)
    for (const char* ext : {".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx"})
      beside = beside || (!suffix.empty() && isFile(f.parent_path() / (stem + ext)));
    auto& v = votes[{beside ? std::string() : f.parent_path().string(), suffix}];
    if (v.first++ == 0) v.second = f.string();
  }
  JsTestHome home;
  int best = 0;
  for (const auto& [key, v] : votes) {
    if (v.first > best || (v.first == best && key.first.empty())) {
      best = v.first;
      home.dir = key.first;
      home.suffix = key.second;
      home.examplePath = v.second;
    }
  }
  return home;
}

std::optional<TestsPlacement> placeJavaScript(const Target& target, const fs::path& src, const fs::path& root,
                                              std::string* error) {
  auto project = testing::jsProject(src.string(), root.string(), nullptr);
  const std::string runner = project ? project->runner : "";
  const bool projectRunner = runner == "jest" || runner == "vitest" || runner == "mocha";
  if (!runner.empty() && runner != "node" && !projectRunner) {
    *error = "tests first is not yet supported for " + runner +
             " projects: write a test file for it (or set generate.testsFirst to \"never\")";
    return std::nullopt;
  }
  if (target.name.empty()) {
    *error = "tests first needs the function's name: name it in the comment (e.g. `slugify(text)`) or write its stub";
    return std::nullopt;
  }
  TestsPlacement p;
  const std::string ext = src.extension().string();
  const bool ts = ext == ".ts" || ext == ".mts" || ext == ".tsx";
  const std::string text = testing::readSource(src.string(), nullptr).value_or("");
  const bool esm = ext == ".mjs" || ext == ".mts" || moduleSyntax(text);
  fs::path dir = isDir(src.parent_path() / "__tests__") ? src.parent_path() / "__tests__" : src.parent_path();
  std::string suffix = ".test";
  JsTestHome home;
  if (projectRunner) {
    home = jsTestHome(fs::path(project->root), src);
    if (!isDir(src.parent_path() / "__tests__")) dir = home.dir.empty() ? src.parent_path() : home.dir;
    suffix = home.suffix;
  }
  const std::string testExt = ts ? ext : esm && ext == ".js" && !projectRunner ? ".mjs" : ext;
  p.path = (dir / (src.stem().string() + suffix + testExt)).lexically_normal().string();
  std::string spec = fs::path(src).lexically_relative(dir).string();
  if (spec.rfind("../", 0) != 0) spec = "./" + spec;
  // A project runner resolves like a bundler (vitest, ts-jest): its TypeScript tests import the
  // module without its extension, as the project's own tests do.
  if (projectRunner && ts) spec = spec.substr(0, spec.size() - ext.size());
  p.framework = "node:test";
  if (projectRunner) {
    if (auto example = home.examplePath.empty() ? std::nullopt : std::optional<fs::path>(home.examplePath)) {
      p.examplePath = example->string();
      p.exampleText = testing::readSource(p.examplePath, nullptr).value_or("");
    }
    if (runner == "vitest") p.framework = "vitest";
    else if (runner == "jest") p.framework = p.exampleText.find("@jest/globals") != std::string::npos ? "jest:@jest/globals" : "jest";
    else p.framework = p.exampleText.find("chai") != std::string::npos ? "mocha:chai" : "mocha:node:assert";
  }
  if (esm) {
    p.importLine = "import { " + target.name + " } from '" + spec + "';";
    p.exportHint = "The tests import it as `import { " + target.name + " } from '" + spec + "'`: export it.";
  } else {
    p.importLine = "const { " + target.name + " } = require('" + spec + "');";
    p.exportHint = "The tests import it as `require('" + spec + "')." + target.name + "`: export it.";
  }
  if (p.examplePath.empty()) {
    if (auto example = exampleTestFile(root, Language::JavaScript, p.path)) {
      p.examplePath = example->string();
      p.exampleText = testing::readSource(p.examplePath, nullptr).value_or("");
    }
  }
  return p;
}

// C++ without a build (the single-file runner): `<name>_test.cpp` beside the source (or in
// tests/), including the source as the comment-example tests do. A project with a build is the
// build's to compile, and its test targets are not yet extended.
std::optional<TestsPlacement> placeCxx(const Target& target, const fs::path& src, const fs::path& root, std::string* error,
                                       const testing::TestPlan* plan) {
  if (plan && isBuildRunner(plan->runner)) return placeInBuild(target, src.string(), *plan, error);
  for (const char* build : {"CMakeLists.txt", "meson.build", "compile_commands.json"}) {
    if (isFile(root / build) || isFile(src.parent_path() / build)) {
      *error = std::string("tests first is not yet supported for C++ projects with a build (") + build +
               "): add the test to one of its test targets (or set generate.testsFirst to \"never\")";
      return std::nullopt;
    }
  }
  if (target.kind != TargetKind::Stub || target.name.empty()) {
    *error = "tests first in C++ needs the function's stub (its signature): write `int f(int x) {}` below the comment";
    return std::nullopt;
  }
  TestsPlacement p;
  const fs::path dir = isDir(src.parent_path() / "tests") ? src.parent_path() / "tests" : src.parent_path();
  p.path = (dir / (src.stem().string() + "_test.cpp")).lexically_normal().string();
  p.importLine = "#include \"" + src.lexically_relative(dir).string() + "\"";
  p.framework = "assert";
  if (auto example = exampleTestFile(root, Language::Cxx, p.path)) {
    p.examplePath = example->string();
    p.exampleText = testing::readSource(p.examplePath, nullptr).value_or("");
    if (p.exampleText.find("catch2/catch") != std::string::npos || p.exampleText.find("<catch.hpp>") != std::string::npos)
      p.framework = "catch2";
    else if (p.exampleText.find("gtest/gtest.h") != std::string::npos)
      p.framework = "gtest";
  }
  return p;
}

}  // namespace

std::optional<TestsPlacement> placeTests(const Target& target, const std::string& sourcePath, const std::string& root,
                                         std::string* error, const testing::TestPlan* plan) {
  const fs::path src = fs::path(sourcePath).lexically_normal();
  const fs::path r = fs::path(root.empty() ? src.parent_path().string() : root).lexically_normal();
  std::optional<TestsPlacement> p;
  switch (target.language) {
    case Language::Python: p = placePython(target, src, r); break;
    case Language::JavaScript: p = placeJavaScript(target, src, r, error); break;
    case Language::Cxx: p = placeCxx(target, src, r, error, plan); break;
    case Language::Command: *error = "tests first supports Python and JavaScript files"; return std::nullopt;
  }
  if (!p) return std::nullopt;
  if (isFile(p->path)) {
    p->exists = true;
    p->original = testing::readSource(p->path, nullptr).value_or("");
  }
  return p;
}

std::string proposedFileText(const TestsPlacement& placement, const std::string& testsCode) {
  std::string code = testsCode;
  while (!code.empty() && (code.back() == '\n' || code.back() == ' ')) code.pop_back();
  code += "\n";
  if (placement.inBuild) return appendToBuildTestFile(placement, testsCode);
  if (!placement.exists || placement.original.empty()) return code;
  std::string out = placement.original;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out + "\n\n\n" + code;
}

std::vector<std::pair<std::string, int>> testsIn(const std::string& text, const std::string& path, Language language) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& t : testing::listTests(text, path, language)) out.emplace_back(t.name, t.line);
  if (out.empty() && language == Language::Cxx) {
    // Plain assert + main: the program is the one test, as the runner reports it.
    if (auto main = testing::findFunction(text, "main", language)) out.emplace_back("main", main->line);
  }
  return out;
}

std::string stubFor(const Target& target, const std::string& sourcePath, const std::string& sourceText) {
  if (target.kind == TargetKind::Stub) return target.stubText;
  if (target.name.empty()) return "";
  switch (target.language) {
    case Language::Python:
      return "def " + target.name + "(*args, **kwargs):\n    raise NotImplementedError(\"" + target.name + "\")";
    case Language::JavaScript:
      return std::string(stubAdditions(target, sourcePath, sourceText).exports.empty() ? "export " : "") + "function " + target.name + "(...args) {\n  throw new Error('" + target.name + " is not implemented');\n}";
    default: return "";
  }
}

Additions stubAdditions(const Target& target, const std::string& sourcePath, const std::string& sourceText) {
  Additions a;
  if (target.language != Language::JavaScript || target.kind != TargetKind::Insert || target.name.empty()) return a;
  const std::string ext = fs::path(sourcePath).extension().string();
  if (ext == ".mjs" || ext == ".ts" || ext == ".mts" || moduleSyntax(sourceText)) return a;  // exported by the stub itself
  a.exports.push_back(target.name);
  return a;
}

std::vector<StubFlag> flagStubPasses(const testing::RunResult& run, const std::vector<std::pair<std::string, int>>& tests,
                                     const std::string& targetName) {
  std::vector<StubFlag> out;
  std::set<std::string> done;
  for (const auto& r : run.tests) {
    if (r.status != testing::TestStatus::Passed || done.count(r.name)) continue;
    int line = r.line;
    std::string shown = r.name;
    for (const auto& [name, l] : tests) {
      // "TestX.test_y" and "suite > test" as the runner reports them, "test_y" as written.
      const bool same = r.name == name || (r.name.size() > name.size() && r.name.compare(r.name.size() - name.size(), name.size(), name) == 0);
      if (same) {
        line = l;
        break;
      }
    }
    done.insert(r.name);
    out.push_back({shown, line, "passes on the stub: it asserts nothing about " + (targetName.empty() ? std::string("the target") : targetName)});
  }
  return out;
}

}  // namespace greenlight::core::refine
