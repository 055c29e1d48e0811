#include "core/refine/CxxBuildTests.h"

#include <algorithm>
#include <filesystem>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

namespace fs = std::filesystem;
using testing::Language;

namespace {

bool isHeader(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx" || ext == ".ipp";
}

std::string trimmed(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t\r");
  std::size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t nl = text.find('\n', start);
    out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    start = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

// The path an #include line names ("" for another line).
std::string includedPath(const std::string& line) {
  const std::string t = trimmed(line);
  if (t.rfind("#", 0) != 0) return "";
  std::size_t k = t.find_first_not_of(" \t", 1);
  if (k == std::string::npos || t.compare(k, 7, "include") != 0) return "";
  std::size_t open = t.find_first_of("\"<", k + 7);
  if (open == std::string::npos) return "";
  std::size_t close = t.find(t[open] == '"' ? '"' : '>', open + 1);
  return close == std::string::npos ? "" : t.substr(open + 1, close - open - 1);
}

bool namesHeader(const std::string& included, const std::string& filename) {
  return included == filename ||
         (included.size() > filename.size() && included.compare(included.size() - filename.size(), filename.size(), filename) == 0 &&
          included[included.size() - filename.size() - 1] == '/');
}

// The #include line of `header` in `text`, verbatim; "" when it has none.
std::string includeLineIn(const std::string& text, const std::string& filename) {
  for (const auto& l : linesOf(text))
    if (namesHeader(includedPath(l), filename)) return trimmed(l);
  return "";
}

// The header the tests include: the source itself, or the header of its name the test targets
// read (their include graph: the plan's support files), or one beside it.
std::optional<fs::path> headerFor(const fs::path& src, const testing::TestPlan& plan) {
  if (isHeader(src)) return src;
  for (const auto& f : plan.supportFiles)
    if (isHeader(f) && fs::path(f).stem() == src.stem()) return fs::path(f);
  for (const char* ext : {".h", ".hpp", ".hh", ".hxx"}) {
    std::error_code ec;
    fs::path beside = fs::path(src).replace_extension(ext);
    if (fs::is_regular_file(beside, ec)) return beside;
  }
  return std::nullopt;
}

std::string frameworkOf(const std::string& text, const std::string& planFramework) {
  if (text.find("gtest/gtest.h") != std::string::npos || text.find("gmock/gmock.h") != std::string::npos) return "gtest";
  if (text.find("doctest") != std::string::npos) return "doctest";
  if (text.find("catch2/catch") != std::string::npos || text.find("catch.hpp") != std::string::npos) return "catch2";
  if (text.find("boost/test") != std::string::npos) return "boost";
  return planFramework;
}

bool namedAfter(const fs::path& testFile, const std::string& module) {
  const std::string stem = testFile.stem().string();
  for (const std::string& n : {"test_" + module, module + "_test", module + "_tests", module + "test", "test" + module,
                               module + "_unittest"})
    if (stem == n) return true;
  return false;
}

std::string buildName(const std::string& runner) {
  return runner == "meson" ? "Meson build" : runner == "compdb" ? "compile_commands.json build" : "CMake build";
}

}  // namespace

bool isBuildRunner(const std::string& runner) { return runner == "cmake" || runner == "meson" || runner == "compdb"; }

std::optional<TestsPlacement> placeInBuild(const Target& target, const std::string& sourcePath,
                                           const testing::TestPlan& plan, std::string* error) {
  const fs::path src = fs::path(sourcePath).lexically_normal();
  const std::string rel = plan.rootDir.empty() ? src.filename().string() : src.lexically_relative(plan.rootDir).string();
  if (!isBuildRunner(plan.runner)) {
    *error = "tests first in C++ projects supports CMake, Meson and compile_commands.json builds: add the tests to one of "
             "its test targets (or set generate.testsFirst to \"never\")";
    return std::nullopt;
  }
  if (target.kind != TargetKind::Stub || target.name.empty()) {
    *error = "tests first in C++ needs the function's stub (its signature): write `int f(int x) { throw 0; }` below the comment";
    return std::nullopt;
  }
  // The test files that can hold test cases: those of the test targets near the source that
  // already declare cases (a doctest/Catch2 main.cpp declares none).
  std::vector<std::pair<fs::path, std::string>> files;
  for (const auto& f : plan.testFiles) {
    auto text = testing::readSource(f, nullptr);
    if (text && !testing::listTests(*text, f, Language::Cxx).empty()) files.emplace_back(f, *text);
  }
  if (files.empty()) {
    *error = "no test target to hold the tests: no test target of the " + buildName(plan.runner) + " compiles or includes " + rel +
             (plan.selectionNote.empty() ? std::string() : " (" + plan.selectionNote + ")") +
             "; add " + rel + " to a test target (or set generate.testsFirst to \"never\")";
    return std::nullopt;
  }
  auto header = headerFor(src, plan);
  if (!header) {
    *error = "tests first needs the header that declares " + target.name + ": no header named " + src.stem().string() +
             " beside " + rel + " or in the test targets' includes";
    return std::nullopt;
  }
  const std::string headerName = header->filename().string();
  // The test file: one named after the module, else one that includes the header, else the
  // target's main test file (the most cases); ties by path, so the choice is stable.
  auto rank = [&](const std::pair<fs::path, std::string>& f) {
    int named = namedAfter(f.first, src.stem().string()) || namedAfter(f.first, header->stem().string()) ? 0 : 1;
    int includes = includeLineIn(f.second, headerName).empty() ? 1 : 0;
    int cases = -static_cast<int>(testing::listTests(f.second, f.first.string(), Language::Cxx).size());
    return std::make_tuple(named, includes, cases, f.first.string());
  };
  std::sort(files.begin(), files.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  const auto& [file, text] = files.front();

  TestsPlacement p;
  p.path = file.string();
  p.inBuild = true;
  p.framework = frameworkOf(text, plan.framework);
  // The include as the project's tests write it, else relative to the test file.
  for (const auto& f : plan.testFiles) {
    if (!p.importLine.empty()) break;
    if (auto t = testing::readSource(f, nullptr)) p.importLine = includeLineIn(*t, headerName);
  }
  if (p.importLine.empty()) p.importLine = "#include \"" + header->lexically_relative(file.parent_path()).string() + "\"";
  // The file the tests join is the best example of its style (its includes, its namespaces).
  p.examplePath = p.path;
  p.exampleText = text;
  return p;
}

std::string appendToBuildTestFile(const TestsPlacement& placement, const std::string& testsCode) {
  std::string code = testsCode;
  while (!code.empty() && (code.back() == '\n' || code.back() == ' ')) code.pop_back();
  code += "\n";
  std::string out = placement.original;
  const std::string wanted = includedPath(placement.importLine);
  bool has = wanted.empty();
  for (const auto& l : linesOf(out)) has = has || includedPath(l) == wanted;
  for (const auto& l : linesOf(code)) has = has || includedPath(l) == wanted;
  if (!has) {
    // After the file's last #include: the new cases below see the declaration.
    std::vector<std::string> lines = linesOf(out);
    std::size_t at = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (!includedPath(lines[i]).empty()) at = i + 1;
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), placement.importLine);
    out.clear();
    for (const auto& l : lines) out += l + "\n";
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out + "\n\n" + code;
}

}  // namespace greenlight::core::refine
