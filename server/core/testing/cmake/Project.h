// What a CMake project's files say, read without running anything: which project a file belongs
// to and whether its build registers tests with CTest; the test cases a C++ test file declares
// (GoogleTest, Catch2, doctest macros) and how those declarations name the tests the framework
// reports; the user's own build directory and the cache options worth carrying over.
//
// Thread-safety: pure functions (they read files).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/testing/cmake/FrameworkReports.h"

namespace greenlight::core::testing::cmake {

struct ProjectDir {
  std::string sourceDir;               // the top-level CMakeLists.txt's directory (absolute)
  std::vector<std::string> listFiles;  // CMakeLists.txt and *.cmake files under it (bounded)
  // Its build registers tests with CTest (enable_testing, include(CTest), add_test, the
  // GoogleTest/Catch2/doctest discover functions). Many do not: their test executables are
  // found in the build graph (TestTargets.h).
  bool registersTests = false;
};

// The CMake project `file` belongs to: the highest directory holding a CMakeLists.txt with
// project(), walking up from the file and stopping at a directory with .git or .greenlight.json,
// at $HOME or at `workspaceRoot`'s repository root. nullopt: no CMake project. Every C++ file of
// a CMake project is the project's: its flags are the build's, never guessed.
std::optional<ProjectDir> findTestedProject(const std::string& file, const std::string& workspaceRoot);

// One test case a C++ file declares.
struct TestDecl {
  Framework framework = Framework::Plain;
  std::string macro;  // "TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TEST_CASE", "SCENARIO", ...
  std::string name;   // as written: "Suite.Name" (GoogleTest), the test case's string (Catch2/doctest)
  int line = 0;       // 1-based
  int endLine = 0;    // the line before the next declaration (or the end of the file)
  std::string file;   // set by the caller
};
// The declarations in a test file's text. `framework` decides how TEST_CASE/SCENARIO are read
// (Catch2 and doctest share them); Plain: guessed from the text's #include lines.
std::vector<TestDecl> scanTestDeclarations(const std::string& text, Framework framework = Framework::Plain);
// Whether the framework's name of a test (as it reports it, as CTest runs it) is an instance of
// the declaration: "Inst/Suite.Name/0" of TEST_P(Suite, Name), "name<int>" of doctest's
// TEST_CASE_TEMPLATE("name", ...), "Scenario: x" of SCENARIO("x"), "name - int" of Catch2's
// TEMPLATE_TEST_CASE; else equality.
bool declares(const TestDecl& decl, const std::string& frameworkName);

// The user's own build directory of the project (build/, build-*/, cmake-build-*/, out/build/*,
// _build/: a CMakeCache.txt whose CMAKE_HOME_DIRECTORY is `sourceDir`), the newest one. Read only.
struct UserBuild {
  std::string dir;
  std::map<std::string, std::string> cache;  // NAME -> value (types dropped)
  std::map<std::string, std::string> types;  // NAME -> BOOL, STRING, FILEPATH, ...
};
// The build directory `dir` when its CMakeCache.txt configures `sourceDir`.
std::optional<UserBuild> readUserBuild(const std::string& dir, const std::string& sourceDir);
// The user's newest build directory of `sourceDir` (build, build-*, cmake-build-*, out/build/*).
std::optional<UserBuild> findUserBuild(const std::string& sourceDir);
// The -D options a private configure takes from the user's build: the build type, compilers and
// their flags, the C++ standard, and the project's own BOOL options (option()).
std::vector<std::string> carriedOptions(const UserBuild& build, const std::vector<std::string>& listFiles);

// An option that gates the project's tests (option(<...TEST...>), BUILD_TESTING) and is off for
// the private build unless turned on: off in the user's build directory, or off by default with
// no user build. The private build configures each of them ON.
struct TestGate {
  std::string name;
  std::string why;  // "OFF in /p/build", "OFF by default"
};
std::vector<TestGate> testGates(const ProjectDir& project, const std::optional<UserBuild>& user);
// "the private build turned on X (OFF by default) and Y (OFF in /p/build)"; "" for none.
std::string describeTestGates(const std::vector<TestGate>& gates);

// The line of `int main(` in a text (0 when none).
int mainLine(const std::string& text);

}  // namespace greenlight::core::testing::cmake
