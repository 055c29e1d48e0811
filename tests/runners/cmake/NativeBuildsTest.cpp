// Builds other than CMake (native/CompileDb.h, native/Meson.h): the test programs a
// compile_commands.json gives (each TU with its own entry's flags, include directories made
// absolute, the project's or the framework's main, library TUs linked) and the Meson tests
// declared should_fail.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/testing/native/CompileDb.h"
#include "core/testing/native/Meson.h"

using namespace greenlight::core::testing;
using namespace greenlight::core::testing::native;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/gl-native-builds-XXXXXX";
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

std::string entry(const fs::path& dir, const std::string& file) {
  return R"({"directory": ")" + dir.string() + R"(", "file": ")" + (dir / file).string() +
         R"(", "arguments": ["/usr/bin/g++", "-Iinclude", "-std=c++17", "-c", "-o", "x.o", ")" + file + R"("]})";
}

}  // namespace

TEST_CASE("compile_commands.json: one program per framework, the project's main, library TUs linked") {
  TempDir t;
  write(t.path / "include/lib.hpp", "int twice(int);\n");
  write(t.path / "src/lib.cpp", "#include \"lib.hpp\"\nint twice(int x) { return 2 * x; }\n");
  write(t.path / "src/app.cpp", "#include \"lib.hpp\"\nint main() { return twice(0); }\n");
  write(t.path / "tests/main.cpp", "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n");
  write(t.path / "tests/lib_test.cpp", "#include <doctest/doctest.h>\n#include \"lib.hpp\"\nTEST_CASE(\"twice\") { CHECK(twice(2) == 4); }\n");
  write(t.path / "tests/g_test.cpp", "#include <gtest/gtest.h>\n#include \"lib.hpp\"\nTEST(Lib, Twice) { EXPECT_EQ(twice(2), 4); }\n");
  write(t.path / "compile_commands.json", "[" + entry(t.path, "src/lib.cpp") + "," + entry(t.path, "src/app.cpp") + "," +
                                              entry(t.path, "tests/main.cpp") + "," + entry(t.path, "tests/lib_test.cpp") + "," +
                                              entry(t.path, "tests/g_test.cpp") + "]");
  write(t.path / ".git/HEAD", "ref: refs/heads/main\n");
  auto db = findCompileDb((t.path / "tests/lib_test.cpp").string());
  REQUIRE(db);
  CHECK(db->root == t.path.string());
  CHECK(testSources(*db) == std::vector<std::string>{(t.path / "tests/lib_test.cpp").string(), (t.path / "tests/g_test.cpp").string()});
  const fs::path build = t.path / "private";
  std::string ninja, error;
  auto programs = compileDbPrograms(*db, build.string(), &ninja, &error);
  CHECK(error.empty());
  REQUIRE(programs.size() == 2);
  const auto& gtest = programs[0];
  const auto& doctest = programs[1];
  CHECK(gtest.framework == cmake::Framework::GoogleTest);
  CHECK(gtest.target == "gtest");
  CHECK(doctest.target == "doctest");
  // doctest: the project's main; gtest: gtest_main (no main of the project's for it).
  CHECK(doctest.sources == std::vector<std::string>{(t.path / "tests/lib_test.cpp").string(), (t.path / "tests/main.cpp").string()});
  CHECK(gtest.linked == std::vector<std::string>{(t.path / "src/lib.cpp").string()});
  CHECK(ninja.find("-lgtest_main -lgtest") != std::string::npos);
  // Each TU with its own flags, the include directory absolute, its own object and depfile.
  CHECK(ninja.find("-I" + (t.path / "include").string()) != std::string::npos);
  CHECK(ninja.find(" -Iinclude ") == std::string::npos);
  CHECK(ninja.find("-MD -MF") != std::string::npos);
  CHECK(ninja.find("x.o") == std::string::npos);  // the entry's own output replaced
  CHECK(ninja.find("app.cpp") == std::string::npos);  // another program's main: not linked
  CHECK(std::count(programs[1].sources.begin(), programs[1].sources.end(), (t.path / "src/lib.cpp").string()) == 0);
}

TEST_CASE("compile_commands.json: a framework with no main of the project's gets a generated one") {
  TempDir t;
  write(t.path / "tests/c_test.cpp", "#include <catch2/catch.hpp>\nTEST_CASE(\"x\") { CHECK(1 == 1); }\n");
  write(t.path / "compile_commands.json", "[" + entry(t.path, "tests/c_test.cpp") + "]");
  write(t.path / ".git/HEAD", "ref: refs/heads/main\n");
  auto db = findCompileDb((t.path / "tests/c_test.cpp").string());
  REQUIRE(db);
  std::string ninja, error;
  auto programs = compileDbPrograms(*db, (t.path / "private").string(), &ninja, &error);
  REQUIRE(programs.size() == 1);
  std::ifstream main(t.path / "private/gl_main_catch2.cpp");
  std::string text((std::istreambuf_iterator<char>(main)), std::istreambuf_iterator<char>());
  CHECK(text == "#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n");
  CHECK(ninja.find("gl_main_catch2.cpp") != std::string::npos);
}

TEST_CASE("compile_commands.json of a CMake or Meson build belongs to their adapters") {
  TempDir t;
  write(t.path / "CMakeLists.txt", "project(p)\n");
  write(t.path / "build/compile_commands.json", "[" + entry(t.path, "t_test.cpp") + "]");
  write(t.path / "t_test.cpp", "#include <gtest/gtest.h>\nTEST(A, B) {}\n");
  write(t.path / ".git/HEAD", "ref: refs/heads/main\n");
  CHECK_FALSE(findCompileDb((t.path / "t_test.cpp").string()));
}

TEST_CASE("meson: the tests declared should_fail") {
  TempDir t;
  write(t.path / "meson.build", R"(project('p', 'cpp')
test('ok', exe, args: ['1'])
test('rejects', exe, args: ['0'],
     should_fail: true)
test('paren (x)', exe, env: ['A=)'], should_fail : true)
test('no', exe, should_fail: false)
)");
  write(t.path / ".git/HEAD", "ref: refs/heads/main\n");
  auto p = findMesonProject((t.path / "meson.build").string());
  REQUIRE(p);
  CHECK(p->sourceDir == t.path.string());
  CHECK(mesonShouldFail(p->buildFiles) == std::vector<std::string>{"rejects", "paren (x)"});
}
