// What a CMake project's files say (cmake/Project.h): which project a file belongs to, the test
// cases a test file declares and how the frameworks name their instances, the user's build
// directory and the options a private configure takes from it. And the overlay bookkeeping of
// the private build (cmake/PrivateBuild.h): which objects must not be taken for current.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/testing/cmake/PrivateBuild.h"
#include "core/testing/cmake/Project.h"
#include "core/testing/cmake/Trace.h"

using namespace greenlight::core::testing;
using namespace greenlight::core::testing::cmake;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/gl-cmake-project-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string projectOf(const fs::path& file) {
  auto p = findTestedProject(file.string(), "");
  return p ? p->sourceDir : "";
}

}  // namespace

TEST_CASE("a file belongs to the top-level project that adds its directory") {
  TempDir t;
  write(t.path / "repo/.git/HEAD", "ref: refs/heads/main\n");
  write(t.path / "repo/CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(lib)\nadd_subdirectory(src)\n"
                                        "# add_subdirectory(commented)\nif(BUILD_TESTING)\n  add_subdirectory(\"tests\")\nendif()\n");
  write(t.path / "repo/src/CMakeLists.txt", "add_library(lib a.cpp)\n");
  write(t.path / "repo/src/a.cpp", "int a() { return 1; }\n");
  write(t.path / "repo/include/lib/a.h", "int a();\n");
  // A sub-project of its own (project() again), added by the parent: still the parent's build.
  write(t.path / "repo/tests/CMakeLists.txt", "project(lib_tests)\nenable_testing()\nadd_executable(t t.cpp)\nadd_test(NAME t COMMAND t)\n");
  write(t.path / "repo/tests/t.cpp", "int main() {}\n");
  const std::string repo = (t.path / "repo").string();
  CHECK(projectOf(t.path / "repo/src/a.cpp") == repo);
  CHECK(projectOf(t.path / "repo/include/lib/a.h") == repo);
  CHECK(projectOf(t.path / "repo/tests/t.cpp") == repo);
  auto p = findTestedProject((t.path / "repo/src/a.cpp").string(), "");
  REQUIRE(p);
  CHECK(std::find(p->listFiles.begin(), p->listFiles.end(), repo + "/tests/CMakeLists.txt") != p->listFiles.end());

  SECTION("a project inside another one's tree that the other does not add is its own") {
    write(t.path / "repo/build/deps/other/CMakeLists.txt", "project(other)\ninclude(CTest)\n");
    write(t.path / "repo/build/deps/other/o.cpp", "\n");
    write(t.path / "repo/examples/demo/CMakeLists.txt", "project(demo)\nenable_testing()\n");
    write(t.path / "repo/examples/demo/d.cpp", "\n");
    CHECK(projectOf(t.path / "repo/build/deps/other/o.cpp") == (t.path / "repo/build/deps/other").string());
    CHECK(projectOf(t.path / "repo/examples/demo/d.cpp") == (t.path / "repo/examples/demo").string());
  }
  SECTION("a build that registers no test is a project all the same (its test executables come from the build graph)") {
    write(t.path / "repo/tests/CMakeLists.txt", "# enable_testing() is not called\nadd_executable(t t.cpp)\n");
    CHECK(projectOf(t.path / "repo/src/a.cpp") == repo);
    CHECK_FALSE(findTestedProject((t.path / "repo/src/a.cpp").string(), "")->registersTests);
    CHECK(findTestedProject((t.path / "repo/include/lib/a.h").string(), "")->sourceDir == repo);
  }
  SECTION("the walk stops at the repository: a CMakeLists.txt above it is not the project's") {
    write(t.path / "CMakeLists.txt", "project(outer)\nenable_testing()\nadd_subdirectory(repo)\n");
    CHECK(projectOf(t.path / "repo/src/a.cpp") == repo);
  }
  SECTION("no CMakeLists.txt with project() up to the repository: no project") {
    CHECK(projectOf(t.path / "elsewhere/x.cpp").empty());
  }
}

TEST_CASE("the discover functions and include(CTest) register tests as add_test does") {
  TempDir t;
  for (const char* call : {"include(CTest)", "gtest_discover_tests(t)", "catch_discover_tests(t)", "doctest_discover_tests(t)",
                           "ENABLE_TESTING()"}) {
    write(t.path / "p/CMakeLists.txt", std::string("project(p)\n") + call + "\n");
    write(t.path / "p/.git/HEAD", "\n");
    CAPTURE(call);
    CHECK(projectOf(t.path / "p/x.cpp") == (t.path / "p").string());
  }
}

TEST_CASE("test declarations: GoogleTest, Catch2 and doctest macros with their lines") {
  SECTION("GoogleTest") {
    auto d = scanTestDeclarations(
        "#include <gtest/gtest.h>\n"
        "TEST(Mean, OfIntegers) {\n  EXPECT_EQ(1, 1);\n}\n"
        "TEST_F(Filter, Matches) {}\n"
        "TEST_P(PercentileTest, ReturnsNearestRank) {}\n"
        "  TYPED_TEST(Typed, Works) {}\n");
    REQUIRE(d.size() == 4);
    CHECK(d[0].name == "Mean.OfIntegers");
    CHECK(d[0].framework == Framework::GoogleTest);
    CHECK(d[0].line == 2);
    CHECK(d[0].endLine == 4);
    CHECK(d[2].macro == "TEST_P");
    CHECK(d[3].name == "Typed.Works");
    CHECK(d[3].endLine == 7);
  }
  SECTION("Catch2 and doctest share TEST_CASE; the include tells them apart") {
    const std::string body =
        "TEST_CASE(\"parse_int reads \\\"decimal\\\" integers\", \"[values][int]\") {}\n"
        "SCENARIO(\"a scenario\") {}\n"
        "TEST_CASE_METHOD(Fixture, \"with a fixture\") {}\n"
        "TEST_CASE_TEMPLATE(\"works with several element types\", T, int, double) {}\n"
        "void helper() { try { f(); } catch (...) {} }\n";
    auto c = scanTestDeclarations("#include \"catch.hpp\"\n" + body);
    REQUIRE(c.size() == 4);
    CHECK(c[0].name == "parse_int reads \"decimal\" integers");
    CHECK(c[0].framework == Framework::Catch2);
    CHECK(c[2].name == "with a fixture");
    auto d = scanTestDeclarations("#include <doctest/doctest.h>\n" + body);
    REQUIRE(d.size() == 4);
    CHECK(d[3].framework == Framework::Doctest);
    CHECK(d[3].macro == "TEST_CASE_TEMPLATE");
  }
}

TEST_CASE("a declaration names the instances its framework reports") {
  TestDecl p{Framework::GoogleTest, "TEST_P", "PercentileTest.ReturnsNearestRank", 1, 2, ""};
  CHECK(declares(p, "NearestRank/PercentileTest.ReturnsNearestRank/0"));
  CHECK(declares(p, "PercentileTest.ReturnsNearestRank"));
  CHECK_FALSE(declares(p, "NearestRank/PercentileTest.ReturnsNearestRankAlso/0"));
  CHECK_FALSE(declares(p, "Other.ReturnsNearestRank"));
  TestDecl typed{Framework::GoogleTest, "TYPED_TEST", "Typed.Works", 1, 2, ""};
  CHECK(declares(typed, "Typed/1.Works"));
  TestDecl disabled{Framework::GoogleTest, "TEST", "Corpus.DISABLED_MillionWords", 1, 2, ""};
  CHECK(declares(disabled, "Corpus.DISABLED_MillionWords"));
  TestDecl tmpl{Framework::Doctest, "TEST_CASE_TEMPLATE", "works with several element types", 1, 2, ""};
  CHECK(declares(tmpl, "works with several element types<int>"));
  CHECK_FALSE(declares(tmpl, "works with several element"));
  TestDecl scenario{Framework::Catch2, "SCENARIO", "a scenario", 1, 2, ""};
  CHECK(declares(scenario, "Scenario: a scenario"));
  CHECK_FALSE(declares(scenario, "a scenario"));  // a TEST_CASE of that name elsewhere
  TestDecl doctestScenario{Framework::Doctest, "SCENARIO", "a scenario", 1, 2, ""};
  CHECK(declares(doctestScenario, "  Scenario: a scenario"));
  CHECK_FALSE(declares(doctestScenario, "a scenario"));
  TestDecl catchTemplate{Framework::Catch2, "TEMPLATE_TEST_CASE", "sizes", 1, 2, ""};
  CHECK(declares(catchTemplate, "sizes - int"));
  CHECK_FALSE(declares(catchTemplate, "sizes of things"));
}

TEST_CASE("the user's build directory gives the build type, the compilers and the project's options") {
  TempDir t;
  const fs::path src = t.path / "p";
  write(src / "CMakeLists.txt", "project(p)\noption(P_BUILD_TESTS \"tests\" ON)\noption(P_WERROR \"w\" OFF)  # option(P_NOT)\n");
  write(src / "build-other/CMakeCache.txt", "CMAKE_HOME_DIRECTORY:INTERNAL=/somewhere/else\nCMAKE_BUILD_TYPE:STRING=Release\n");
  write(src / "build/CMakeCache.txt",
        "# This is the CMakeCache file.\n//Choose the type of build\nCMAKE_BUILD_TYPE:STRING=RelWithDebInfo\n"
        "CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/clang++\nCMAKE_CXX_FLAGS:STRING=\nP_BUILD_TESTS:BOOL=OFF\nP_WERROR:BOOL=ON\n"
        "FETCHCONTENT_FULLY_DISCONNECTED:BOOL=OFF\nCMAKE_HOME_DIRECTORY:INTERNAL=" + src.string() + "\n");
  auto user = findUserBuild(src.string());
  REQUIRE(user);
  CHECK(user->dir == (src / "build").string());
  auto opts = carriedOptions(*user, {(src / "CMakeLists.txt").string()});
  CHECK(opts == std::vector<std::string>{"-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DCMAKE_CXX_COMPILER=/usr/bin/clang++",
                                         "-DP_BUILD_TESTS:BOOL=OFF", "-DP_WERROR:BOOL=ON"});
  CHECK_FALSE(findUserBuild((t.path / "none").string()));
}

TEST_CASE("the options that gate the tests: off in the user's build or by default, turned on") {
  TempDir t;
  write(t.path / "p/.git/HEAD", "\n");
  write(t.path / "p/CMakeLists.txt",
        "project(p)\ninclude(CTest)\noption(P_BUILD_TESTS \"Build the tests\" OFF)\noption(P_ENABLE_TESTING \"x\" ON)\n"
        "option(P_DISABLE_TESTS \"the other way round\" OFF)\noption(P_EXAMPLES \"not a test\" OFF)\n"
        "option(P_TESTS_TOP \"decided by the project\" ${PROJECT_IS_TOP_LEVEL})\n# option(P_COMMENTED_TESTS \"\" OFF)\n");
  auto project = findTestedProject((t.path / "p/x.cpp").string(), "");
  REQUIRE(project);
  auto names = [](const std::vector<TestGate>& gates) {
    std::vector<std::string> out;
    for (const auto& g : gates) out.push_back(g.name + ": " + g.why);
    return out;
  };
  SECTION("no user build: the options OFF by default") {
    CHECK(names(testGates(*project, std::nullopt)) == std::vector<std::string>{"P_BUILD_TESTS: OFF by default"});
    CHECK(describeTestGates(testGates(*project, std::nullopt)) ==
          "the private build turned on P_BUILD_TESTS (OFF by default) to build the tests");
  }
  SECTION("the user's build: what it has off, BUILD_TESTING included; what it has on stays") {
    UserBuild user;
    user.dir = (t.path / "p/build").string();
    user.cache = {{"BUILD_TESTING", "OFF"}, {"P_BUILD_TESTS", "ON"}, {"P_ENABLE_TESTING", "FALSE"}, {"P_TESTS_TOP", "OFF"}};
    CHECK(names(testGates(*project, user)) ==
          std::vector<std::string>{"BUILD_TESTING: OFF in " + user.dir, "P_ENABLE_TESTING: FALSE in " + user.dir,
                                   "P_TESTS_TOP: OFF in " + user.dir});
  }
  SECTION("a project that gates nothing") {
    write(t.path / "p/CMakeLists.txt", "project(p)\nadd_executable(tests t.cpp)\n");
    auto plain = findTestedProject((t.path / "p/x.cpp").string(), "");
    REQUIRE(plain);
    CHECK(testGates(*plain, std::nullopt).empty());
    CHECK(describeTestGates({}).empty());
  }
}

TEST_CASE("mainLine finds a program's main()") {
  CHECK(mainLine("#include <x>\n\nint main() {\n}\n") == 3);
  CHECK(mainLine("int main_loop() {}\n") == 0);
  CHECK(mainLine("  auto main(int argc, char** argv) -> int {}\n") == 1);
}

// The overlay bookkeeping: no sandbox involved (syncOverlays only reads and writes files).
TEST_CASE("overlays: one copy per text, and objects built from another text than the disk's are deleted") {
  TempDir t;
  const fs::path src = t.path / "p", root = t.path / "cache";
  write(src / "include/h.hpp", "int f() { return 1; }\n");
  write(src / "other.hpp", "int g() { return 2; }\n");
  // A Make-style depfile: the object depends on the header.
  const fs::path object = root / "build/CMakeFiles/t.dir/t.cpp.o";
  write(object, "object");
  write(root / "build/CMakeFiles/t.dir/t.cpp.o.d",
        "CMakeFiles/t.dir/t.cpp.o: " + (src / "t.cpp").string() + " \\\n " + (src / "include/h.hpp").string() + "\n");
  PrivateBuild build(src.string(), root.string());
  const std::string header = (src / "include/h.hpp").string();
  std::map<std::string, std::string> editor;
  OverlayProvider overlay = [&](const std::string& p) -> std::optional<std::string> {
    auto it = editor.find(p);
    if (it == editor.end()) return std::nullopt;
    return it->second;
  };
  auto sync = [&]() {
    std::vector<OverlayBind> binds;
    std::string err;
    REQUIRE(build.syncOverlays({header, (src / "other.hpp").string()}, overlay, &binds, &err));
    return binds;
  };

  CHECK(sync().empty());  // disk texts only: nothing bound
  editor[header] = "int f() { return 1; }\n";
  CHECK(sync().empty());  // the editor's text is the disk's
  editor[header] = "int f() { return 3; }\n";
  auto binds = sync();
  REQUIRE(binds.size() == 1);
  CHECK(binds[0].path == header);
  CHECK(read(binds[0].copy) == "int f() { return 3; }\n");
  const auto firstTime = fs::last_write_time(binds[0].copy);
  // The same text again: the same copy, untouched (nothing recompiles).
  auto again = sync();
  REQUIRE(again.size() == 1);
  CHECK(again[0].copy == binds[0].copy);
  CHECK(fs::last_write_time(again[0].copy) == firstTime);
  CHECK(fs::exists(object));
  // Another text: another path (a sandbox made ahead binds the file it found), the old one gone.
  editor[header] = "int f() { return 4; }\n";
  auto third = sync();
  REQUIRE(third.size() == 1);
  CHECK(third[0].copy != binds[0].copy);
  CHECK_FALSE(fs::exists(binds[0].copy));
  // Back to the disk's text: the objects built from the overlay would look newer than the
  // header, so they go.
  editor.erase(header);
  CHECK(sync().empty());
  CHECK_FALSE(fs::exists(third[0].copy));
  CHECK_FALSE(fs::exists(object));

  SECTION("a disk text changed with an older mtime than the last build (restored, copied with its times)") {
    write(object, "object");
    CHECK(sync().empty());
    write(src / "include/h.hpp", "int f() { return 5; }\n");
    const auto past = fs::file_time_type::clock::now() - std::chrono::hours(24);
    fs::last_write_time(src / "include/h.hpp", past);
    CHECK(sync().empty());
    CHECK_FALSE(fs::exists(object));
  }
  SECTION("a file only the editor has cannot be built") {
    std::vector<OverlayBind> b;
    std::string err;
    editor[(src / "new.hpp").string()] = "x";
    CHECK_FALSE(build.syncOverlays({(src / "new.hpp").string()}, overlay, &b, &err));
    CHECK_THAT(err, Catch::Contains("exists only in the editor"));
  }
}

TEST_CASE("trace events: the throws and signals the preloaded library recorded") {
  const std::string text =
      "GLTRACE throw\tnot an integer: '+8'\t/b/test/cliopts_tests@0x1a2b;/b/test/cliopts_tests@0x10;/lib/libc.so.6@0x29d90;\n"
      "GLTRACE throw\t\t/b/t@0x1;\n"
      "GLTRACE signal\tSIGFPE\t/b/t@0x20;/b/t@0x30;\n"
      "GLTRACE throw\ta\\tb\\nc\\\\d\t/b/t@0x40;\n"
      "GLTRACE throw\ttorn";
  auto events = parseTrace(text);
  REQUIRE(events.size() == 4);
  CHECK(events[0].kind == "throw");
  CHECK(events[0].what == "not an integer: '+8'");
  REQUIRE(events[0].frames.size() == 3);
  CHECK(events[0].frames[0].object == "/b/test/cliopts_tests");
  CHECK(events[0].frames[0].offset == 0x1a2b);
  CHECK(events[2].kind == "signal");
  CHECK(events[3].what == "a\tb\nc\\d");

  TestResult threw;
  threw.status = TestStatus::Failed;
  threw.message = "CHECK( parse_int(\"+8\") == 8 ) threw: not an integer: '+8'";
  CHECK(wantsTrace(threw, ""));
  CHECK(eventFor(threw, "", events) == &events[0]);
  TestResult crashed;
  crashed.status = TestStatus::Error;
  crashed.message = "killed by signal 8";
  CHECK(eventFor(crashed, "crashed", events) == &events[2]);
  TestResult plain;
  plain.status = TestStatus::Failed;
  plain.message = "rb.size() returned 3, expected 1";
  CHECK_FALSE(wantsTrace(plain, ""));
  TestResult passed;
  passed.message = "threw";
  CHECK_FALSE(wantsTrace(passed, ""));
}

TEST_CASE("addr2line -a -f -C -i: frames per address, inlined calls expanded, unknowns dropped") {
  auto frames = parseAddr2line(
      "0x0000000000001a2b\ncliopts::parse_int(std::basic_string_view<char, std::char_traits<char> >)\n"
      "/p/include/cliopts/cliopts.hpp:35\n"
      "0x0000000000000010\ninlined_helper()\n/p/include/h.hpp:7 (discriminator 2)\nouter()\n/p/src/a.cpp:12\n"
      "0x0000000000000020\n??\n??:0\n");
  REQUIRE(frames.size() == 3);
  REQUIRE(frames[0].size() == 1);
  CHECK(frames[0][0].file == "/p/include/cliopts/cliopts.hpp");
  CHECK(frames[0][0].line == 35);
  CHECK(frames[0][0].function.rfind("cliopts::parse_int", 0) == 0);
  REQUIRE(frames[1].size() == 2);
  CHECK(frames[1][0].line == 7);
  CHECK(frames[1][1].file == "/p/src/a.cpp");
  CHECK(frames[2].empty());
}

TEST_CASE("the frameworks' own headers are not where a failure arose") {
  CHECK(frameworkHeader("/p/third_party/catch2/catch.hpp"));
  CHECK(frameworkHeader("/usr/include/gtest/internal/gtest-internal.h"));
  CHECK(frameworkHeader("/usr/include/doctest/doctest.h"));
  CHECK_FALSE(frameworkHeader("/p/include/cliopts/cliopts.hpp"));
  CHECK_FALSE(frameworkHeader("/p/src/matcher.cpp"));
}
