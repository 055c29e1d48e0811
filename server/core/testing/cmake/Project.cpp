#include "core/testing/cmake/Project.h"
#include "core/testing/Discovery.h"
#include "support/Regex.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace greenlight::core::testing::cmake {
namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// CMake comments start with '#' (bracket comments are rare in commands that matter here).
std::string withoutComments(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    bool quoted = false;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (l[i] == '"') quoted = !quoted;
      if (l[i] == '#' && !quoted) {
        l.resize(i);
        break;
      }
    }
    out += l + "\n";
  }
  return out;
}

bool declaresProject(const std::string& text) {
  static const std::regex r = support::regex(R"((^|\n)[ \t\f\v\r]*project\s*\()", std::regex::icase);
  return std::regex_search(withoutComments(text), r);
}

bool registersTests(const std::string& text) {
  static const std::regex r = support::regex(
      R"(\b(enable_testing|add_test|gtest_discover_tests|gtest_add_tests|catch_discover_tests|doctest_discover_tests)\s*\(|\binclude\s*\(\s*CTest\s*\))",
      std::regex::icase);
  return std::regex_search(withoutComments(text), r);
}

// Directories no project keeps its build description in.
bool skippedDir(const std::string& name) {
  static const std::set<std::string> k = {"node_modules", "__pycache__", "CMakeFiles", "_deps", "venv"};
  return name.empty() || name[0] == '.' || k.count(name) > 0 || name.rfind("build", 0) == 0 ||
         name.rfind("cmake-build-", 0) == 0 || name == "_build" || name == "out";
}

std::vector<std::string> listFilesUnder(const std::string& dir, std::size_t cap) {
  std::vector<std::string> out;
  if (isFilesystemRoot(dir)) return out;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  std::size_t visited = 0;
  for (; !ec && it != end && out.size() < cap && ++visited < 50000; it.increment(ec)) {
    const auto& e = *it;
    const std::string name = e.path().filename().string();
    if (e.is_directory(ec)) {
      if (skippedDir(name) || it.depth() > 8) it.disable_recursion_pending();
      continue;
    }
    if (name == "CMakeLists.txt" || (name.size() > 6 && name.compare(name.size() - 6, 6, ".cmake") == 0))
      out.push_back(e.path().lexically_normal().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool isStop(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / ".git", ec) || fs::exists(dir / ".greenlight.json", ec)) return true;
  const char* home = std::getenv("HOME");
  return home && dir == fs::path(home).lexically_normal();
}

std::string unquote(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[++i];
      continue;
    }
    out += s[i];
  }
  return out;
}

Framework frameworkOfText(const std::string& text) {
  static const std::regex include = support::regex(R"((^|\n)[ \t\f\v\r]*#\s*include\s*[<"]([^>"]+)[>"])");
  for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it) {
    const std::string h = lower((*it)[2].str());
    if (h.find("gtest/") != std::string::npos || h.find("gmock/") != std::string::npos) return Framework::GoogleTest;
    if (h.find("doctest") != std::string::npos) return Framework::Doctest;
    if (h.find("boost/test/") != std::string::npos) return Framework::BoostTest;
    if (h.find("catch") != std::string::npos) return Framework::Catch2;
  }
  return Framework::Plain;
}

}  // namespace

std::optional<ProjectDir> findTestedProject(const std::string& file, const std::string& workspaceRoot) {
  std::error_code ec;
  fs::path start = fs::absolute(file, ec).lexically_normal().parent_path();
  (void)workspaceRoot;
  // The nearest CMakeLists.txt with project() above the file...
  fs::path top;
  fs::path dir = start;
  for (;; dir = dir.parent_path()) {
    const fs::path lists = dir / "CMakeLists.txt";
    if (fs::is_regular_file(lists, ec)) {
      if (auto text = readFile(lists); text && declaresProject(*text)) {
        top = dir;
        break;
      }
    }
    if (isStop(dir) || dir == dir.parent_path()) return std::nullopt;
  }
  // ...then up through the parents that add it (add_subdirectory): the top-level project. A
  // CMakeLists.txt above that does not add it (a build tree inside another project) is not its.
  while (!isStop(dir) && dir != dir.parent_path()) {
    dir = dir.parent_path();
    const fs::path lists = dir / "CMakeLists.txt";
    if (!fs::is_regular_file(lists, ec)) continue;
    const std::string first = *top.lexically_relative(dir).begin();
    auto text = readFile(lists);
    if (!text) break;
    const std::regex adds = support::regex(R"(\badd_subdirectory\s*\(\s*"?(\$\{(CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR|PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR)\}/)?)" +
                          std::regex_replace(first, support::regex(R"([.^$|()\[\]{}*+?\\])"), "\\$&") + R"(([/"\s)]))",
                          std::regex::icase);
    if (!std::regex_search(withoutComments(*text), adds)) break;
    top = dir;
  }
  ProjectDir p;
  p.sourceDir = top.string();
  p.listFiles = listFilesUnder(p.sourceDir, 2000);
  for (const auto& f : p.listFiles) {
    if (p.registersTests) break;
    if (auto text = readFile(f)) p.registersTests = registersTests(*text);
  }
  return p;
}

namespace {

// CMake's false constants (if(<constant>)): 0, OFF, NO, FALSE, N, IGNORE, NOTFOUND, "", *-NOTFOUND.
bool cmakeFalse(std::string v) {
  v = lower(v);
  return v.empty() || v == "0" || v == "off" || v == "no" || v == "false" || v == "n" || v == "ignore" ||
         v == "notfound" || (v.size() >= 9 && v.compare(v.size() - 9, 9, "-notfound") == 0);
}

// An option whose ON builds tests: its name says TEST(S/ING), and not the other way round.
bool gatesTests(const std::string& name) {
  const std::string n = lower(name);
  if (n.find("test") == std::string::npos) return false;
  for (const char* inverse : {"disable", "skip", "no_", "without", "exclude"})
    if (n.find(inverse) != std::string::npos) return false;
  return true;
}

}  // namespace

std::vector<TestGate> testGates(const ProjectDir& project, const std::optional<UserBuild>& user) {
  // option(NAME "help" [value]) with the value a constant (a ${variable} is left alone).
  static const std::regex opt = support::regex(
      R"(\boption\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s+(?:"(?:\\.|[^"\\])*"|[^\s)]+)\s*([^\s)]*)\s*\))", std::regex::icase);
  static const std::regex buildTesting = support::regex(R"(\bBUILD_TESTING\b|\binclude\s*\(\s*CTest\s*\))", std::regex::icase);
  std::map<std::string, std::string> defaults;  // name -> default value as written
  bool usesBuildTesting = false;
  for (const auto& f : project.listFiles) {
    auto text = readFile(f);
    if (!text) continue;
    const std::string t = withoutComments(*text);
    for (std::sregex_iterator it(t.begin(), t.end(), opt), end; it != end; ++it) {
      const std::string name = (*it)[1].str();
      if (gatesTests(name) && !defaults.count(name)) defaults[name] = (*it)[2].str();
    }
    usesBuildTesting = usesBuildTesting || std::regex_search(t, buildTesting);
  }
  // include(CTest) declares BUILD_TESTING ON.
  if (usesBuildTesting && !defaults.count("BUILD_TESTING")) defaults["BUILD_TESTING"] = "ON";
  std::vector<TestGate> out;
  for (const auto& [name, value] : defaults) {
    if (user) {
      auto it = user->cache.find(name);
      if (it != user->cache.end()) {
        if (cmakeFalse(it->second)) out.push_back({name, it->second + " in " + user->dir});
        continue;
      }
    }
    if (value.rfind("${", 0) == 0) continue;  // decided by the project (PROJECT_IS_TOP_LEVEL...)
    if (cmakeFalse(value)) out.push_back({name, "OFF by default"});
  }
  return out;
}

std::string describeTestGates(const std::vector<TestGate>& gates) {
  if (gates.empty()) return "";
  std::string out = "the private build turned on ";
  for (std::size_t i = 0; i < gates.size(); ++i) {
    if (i) out += i + 1 == gates.size() ? " and " : ", ";
    out += gates[i].name + " (" + gates[i].why + ")";
  }
  return out + " to build the tests";
}

std::vector<TestDecl> scanTestDeclarations(const std::string& text, Framework framework) {
  if (framework == Framework::Plain) framework = frameworkOfText(text);
  std::vector<TestDecl> out;
  // GoogleTest: TEST(Suite, Name), TEST_F, TEST_P, TYPED_TEST, TYPED_TEST_P, FRIEND-less.
  static const std::regex gtest = support::regex(R"(^\s*(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)\s*\(\s*(\w+)\s*,\s*(\w+)\s*\))");
  // Catch2 / doctest: MACRO( [fixture, ] "name" ...
  static const std::regex stringCase = support::regex(
      R"(^\s*(TEST_CASE|SCENARIO|TEST_CASE_METHOD|TEST_CASE_FIXTURE|TEMPLATE_TEST_CASE|TEMPLATE_PRODUCT_TEST_CASE|TEMPLATE_LIST_TEST_CASE|TEST_CASE_TEMPLATE|TEST_CASE_TEMPLATE_DEFINE|TEMPLATE_TEST_CASE_METHOD|METHOD_AS_TEST_CASE)\s*\(\s*(?:[\w:<>]+\s*,\s*)?"((?:\\.|[^"\\])*)\")");
  // Boost.Test: BOOST_AUTO_TEST_CASE(name), BOOST_FIXTURE_TEST_CASE(name, F), ..._TEMPLATE(name,
  // T, types), BOOST_DATA_TEST_CASE(name, ...), BOOST_DATA_TEST_CASE_F(F, name, ...), inside
  // BOOST_AUTO_TEST_SUITE(s) / BOOST_FIXTURE_TEST_SUITE(s, F) ... BOOST_AUTO_TEST_SUITE_END():
  // named by their path "s/name", as Boost.Test reports them.
  static const std::regex boostCase = support::regex(
      R"(^\s*(BOOST_AUTO_TEST_CASE|BOOST_FIXTURE_TEST_CASE|BOOST_AUTO_TEST_CASE_TEMPLATE|BOOST_FIXTURE_TEST_CASE_TEMPLATE|BOOST_DATA_TEST_CASE|BOOST_DATA_TEST_CASE_F)\s*\(\s*(\w+)(?:\s*,\s*(\w+))?)");
  static const std::regex boostSuite = support::regex(R"(^\s*(BOOST_AUTO_TEST_SUITE|BOOST_FIXTURE_TEST_SUITE)\s*\(\s*(\w+))");
  static const std::regex boostSuiteEnd = support::regex(R"(^\s*BOOST_AUTO_TEST_SUITE_END\s*\()");
  std::vector<std::string> suites;
  const auto suitePath = [&] {
    std::string p;
    for (const auto& x : suites) p += x + "/";
    return p;
  };
  std::istringstream in(text);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    std::smatch m;
    TestDecl d;
    if (framework == Framework::BoostTest) {
      if (std::regex_search(l, m, boostSuiteEnd)) {
        if (!suites.empty()) suites.pop_back();
        continue;
      }
      if (std::regex_search(l, m, boostSuite)) {
        suites.push_back(m[2].str());
        continue;
      }
      if (!std::regex_search(l, m, boostCase)) continue;
      d.framework = Framework::BoostTest;
      d.macro = m[1].str();
      d.name = suitePath() + (d.macro == "BOOST_DATA_TEST_CASE_F" ? m[3].str() : m[2].str());
      d.line = n;
      out.push_back(std::move(d));
      continue;
    }
    if (std::regex_search(l, m, gtest)) {
      d.framework = Framework::GoogleTest;
      d.macro = m[1].str();
      d.name = m[2].str() + "." + m[3].str();
    } else if (std::regex_search(l, m, stringCase)) {
      d.framework = framework == Framework::GoogleTest ? Framework::Catch2 : framework;
      d.macro = m[1].str();
      d.name = unquote(m[2].str());
    } else {
      continue;
    }
    d.line = n;
    out.push_back(std::move(d));
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].endLine = i + 1 < out.size() ? out[i + 1].line - 1 : n;
  return out;
}

bool declares(const TestDecl& d, const std::string& name) {
  // SCENARIO("x") is the test "Scenario: x", never "x": Catch2's own examples have a
  // TEST_CASE("vectors can be sized and resized") and a SCENARIO of that name in another file.
  if (d.macro == "SCENARIO" && d.framework == Framework::Catch2) return name == "Scenario: " + d.name;
  if (d.macro == "SCENARIO" && d.framework == Framework::Doctest)
    return name == "  Scenario: " + d.name || name == "Scenario: " + d.name;
  if (name == d.name) return true;
  auto starts = [&](const std::string& prefix) { return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0; };
  switch (d.framework) {
    case Framework::GoogleTest: {
      // [Prefix/]Suite[/TypeIndex].Name[/ParamIndex]
      auto dot = d.name.find('.');
      const std::string suite = d.name.substr(0, dot), test = d.name.substr(dot + 1);
      auto ndot = name.find('.');
      if (ndot == std::string::npos) return false;
      std::string s = name.substr(0, ndot), t = name.substr(ndot + 1);
      auto slash = t.find('/');
      if (slash != std::string::npos) t = t.substr(0, slash);
      if (t != test) return false;
      std::vector<std::string> parts;
      std::stringstream ss(s);
      for (std::string p; std::getline(ss, p, '/');) parts.push_back(p);
      for (const auto& p : parts)
        if (p == suite) return true;
      return false;
    }
    case Framework::Catch2:
      if (d.macro == "SCENARIO") return name == "Scenario: " + d.name;
      return starts(d.name + " - ");  // TEMPLATE_TEST_CASE: "name - int"
    case Framework::Doctest:
      if (d.macro == "SCENARIO") return name == "  Scenario: " + d.name || name == "Scenario: " + d.name;
      return starts(d.name + "<");  // TEST_CASE_TEMPLATE: "name<int>"
    case Framework::BoostTest:
      return starts(d.name + "<") || starts(d.name + "/_");  // "name<int>"; data cases "name/_0"
    case Framework::Plain: break;
  }
  return false;
}

std::optional<UserBuild> readUserBuild(const std::string& dir, const std::string& sourceDir) {
  auto text = readFile((fs::path(dir) / "CMakeCache.txt").string());
  if (!text) return std::nullopt;
  UserBuild b;
  b.dir = fs::path(dir).lexically_normal().string();
  std::istringstream in(*text);
  for (std::string l; std::getline(in, l);) {
    if (l.empty() || l[0] == '#' || l[0] == '/') continue;
    auto eq = l.find('=');
    auto colon = l.find(':');
    if (eq == std::string::npos || colon == std::string::npos || colon > eq) continue;
    std::string name = l.substr(0, colon);
    b.cache[name] = l.substr(eq + 1);
    b.types[name] = l.substr(colon + 1, eq - colon - 1);
  }
  auto home = b.cache.find("CMAKE_HOME_DIRECTORY");
  if (home == b.cache.end() || fs::path(home->second).lexically_normal().string() != fs::path(sourceDir).lexically_normal().string())
    return std::nullopt;
  return b;
}

std::optional<UserBuild> findUserBuild(const std::string& sourceDir) {
  std::error_code ec;
  std::vector<fs::path> candidates;
  for (const auto& e : fs::directory_iterator(sourceDir, ec)) {
    const std::string n = e.path().filename().string();
    if (!e.is_directory(ec)) continue;
    if (n == "build" || n.rfind("build-", 0) == 0 || n.rfind("build_", 0) == 0 || n.rfind("cmake-build-", 0) == 0 ||
        n == "_build")
      candidates.push_back(e.path());
    if (n == "out")
      for (const auto& o : fs::directory_iterator(e.path() / "build", ec)) candidates.push_back(o.path());
  }
  std::optional<UserBuild> best;
  fs::file_time_type bestTime{};
  for (const auto& dir : candidates) {
    const fs::path cacheFile = dir / "CMakeCache.txt";
    auto b = readUserBuild(dir.string(), sourceDir);
    if (!b) continue;
    auto t = fs::last_write_time(cacheFile, ec);
    if (!best || t > bestTime) {
      best = std::move(*b);
      bestTime = t;
    }
  }
  return best;
}

std::vector<std::string> carriedOptions(const UserBuild& build, const std::vector<std::string>& listFiles) {
  std::vector<std::string> out;
  for (const char* name : {"CMAKE_BUILD_TYPE", "CMAKE_CXX_COMPILER", "CMAKE_C_COMPILER", "CMAKE_CXX_FLAGS", "CMAKE_C_FLAGS",
                           "CMAKE_CXX_STANDARD", "CMAKE_CXX_EXTENSIONS"}) {
    auto it = build.cache.find(name);
    if (it == build.cache.end() || it->second.empty()) continue;
    out.push_back("-D" + std::string(name) + "=" + it->second);
  }
  // The project's own option()s, as the user set them.
  std::set<std::string> options;
  static const std::regex opt = support::regex(R"(\boption\s*\(\s*([A-Za-z_][A-Za-z0-9_]*))", std::regex::icase);
  for (const auto& f : listFiles) {
    auto text = readFile(f);
    if (!text) continue;
    const std::string t = withoutComments(*text);
    for (std::sregex_iterator it(t.begin(), t.end(), opt), end; it != end; ++it) options.insert((*it)[1].str());
  }
  for (const auto& name : options) {
    auto it = build.cache.find(name);
    auto type = build.types.find(name);
    if (it == build.cache.end() || type == build.types.end() || type->second != "BOOL") continue;
    out.push_back("-D" + name + ":BOOL=" + it->second);
  }
  return out;
}

int mainLine(const std::string& text) {
  static const std::regex r = support::regex(R"(^\s*(?:int|auto)\s+main\s*\()");
  std::istringstream in(text);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    if (std::regex_search(l, r)) return n;
  }
  return 0;
}

}  // namespace greenlight::core::testing::cmake
