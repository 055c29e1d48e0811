// Builds other than CMake (native/CompileDb.h, native/Meson.h): the test programs a
// compile_commands.json gives (each TU with its own entry's flags, include directories made
// absolute, the project's or the framework's main, library TUs linked) and the Meson tests
// declared should_fail.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/testing/cmake/PrivateBuild.h"
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

namespace {

// A Bazel workspace (ws/) and its output base (ob/, outside it) as `bazel build` and an extractor
// leave them: the execroot links the workspace's src/ and test/, its external/dep the output
// base's fetched repository; the workspace links bazel-out, bazel-ws and (hedron's) external.
struct BazelLayout {
  fs::path ws, ob, execroot;
  explicit BazelLayout(const fs::path& dir) : ws(dir / "ws"), ob(dir / "ob"), execroot(dir / "ob/execroot/_main") {
    write(ws / "src/x.h", "inline int one() { return 1; }\n");
    write(ws / "test/x_test.cc",
          "#include <doctest/doctest.h>\n#include \"dep.h\"\n#include \"src/x.h\"\n#include \"src/gen.h\"\n"
          "TEST_CASE(\"one\") { CHECK(one() == 1); }\n");
    write(ws / ".git/HEAD", "ref: refs/heads/main\n");
    write(ob / "external/dep/include/dep.h", "inline int two() { return 2; }\n");
    write(execroot / "bazel-out/k8-fastbuild/bin/src/gen.h", "#define GEN 1\n");
    fs::create_directories(execroot / "external");
    fs::create_directory_symlink(ws / "src", execroot / "src");
    fs::create_directory_symlink(ws / "test", execroot / "test");
    fs::create_directory_symlink(ob / "external/dep", execroot / "external/dep");
    fs::create_directory_symlink(execroot / "bazel-out", ws / "bazel-out");
    fs::create_directory_symlink(execroot, ws / "bazel-ws");
    fs::create_directory_symlink("bazel-ws/external", ws / "external");
  }
  // compile_commands.json with its one entry run in `directory`, everything relative to it.
  void database(const fs::path& directory) const {
    write(ws / "compile_commands.json",
          R"([{"directory": ")" + directory.string() + R"(", "file": "test/x_test.cc", "arguments": ["/usr/bin/g++", "-iquote", ".",
              "-iquote", "bazel-out/k8-fastbuild/bin", "-isystem", "external/dep/include", "-c", "test/x_test.cc",
              "-o", "bazel-out/k8-fastbuild/bin/test/_objs/x_test/x_test.pic.o"]}])");
  }
};

}  // namespace

TEST_CASE("compile_commands.json of Bazel, run in the execroot: the workspace's files, the output base bound") {
  TempDir t;
  BazelLayout b(t.path);
  b.database(b.execroot);
  auto db = findCompileDb((b.ws / "test/x_test.cc").string());
  REQUIRE(db);
  CHECK(db->root == b.ws.string());
  // The entry of execroot/_main/test/x_test.cc is the file the user opens in the workspace.
  REQUIRE(db->entries.size() == 1);
  CHECK(db->entries[0].file == (b.ws / "test/x_test.cc").string());
  CHECK(testSources(*db) == std::vector<std::string>{(b.ws / "test/x_test.cc").string()});
  // The execroot, the external repository and the generated headers: one output base.
  CHECK(outsideDirs(*db, b.ws.string()) == std::vector<std::string>{b.ob.string()});
  std::string ninja, error;
  auto programs = compileDbPrograms(*db, (t.path / "private").string(), &ninja, &error);
  REQUIRE(programs.size() == 1);
  CHECK(programs[0].sources == std::vector<std::string>{(b.ws / "test/x_test.cc").string()});
  // The file compiled at its own path, in the entry's directory, its include directories there.
  CHECK(ninja.find("-c " + (b.ws / "test/x_test.cc").string()) != std::string::npos);
  CHECK(ninja.find("dir = " + b.execroot.string()) != std::string::npos);
  CHECK(ninja.find("-isystem " + (b.execroot / "external/dep/include").string()) != std::string::npos);
  // The compiler names the project's header through the execroot: it is the workspace's.
  cmake::DepsIndex deps;
  deps.objects["x.o"] = {(b.ws / "test/x_test.cc").string(), (b.execroot / "src/x.h").string(),
                         (b.execroot / "external/dep/include/dep.h").string(), (b.execroot / "bazel-out/k8-fastbuild/bin/src/gen.h").string()};
  CHECK(headersOf(programs[0], deps, b.ws.string(), (t.path / "private").string()) ==
        std::vector<std::string>{(b.ws / "src/x.h").string(), (b.ws / "test/x_test.cc").string()});
}

TEST_CASE("compile_commands.json of Bazel, run in the workspace (hedron): what its links reach is not the project's") {
  TempDir t;
  BazelLayout b(t.path);
  b.database(b.ws);
  auto db = findCompileDb((b.ws / "test/x_test.cc").string());
  REQUIRE(db);
  CHECK(db->entries[0].file == (b.ws / "test/x_test.cc").string());
  // external -> bazel-ws/external -> the execroot's, whose dep -> the output base's: one bind.
  CHECK(outsideDirs(*db, b.ws.string()) == std::vector<std::string>{b.ob.string()});
  std::string ninja, error;
  auto programs = compileDbPrograms(*db, (t.path / "private").string(), &ninja, &error);
  REQUIRE(programs.size() == 1);
  cmake::DepsIndex deps;
  deps.objects["x.o"] = {(b.ws / "test/x_test.cc").string(), (b.ws / "src/x.h").string(), (b.ws / "external/dep/include/dep.h").string(),
                         (b.ws / "bazel-out/k8-fastbuild/bin/src/gen.h").string()};
  CHECK(headersOf(programs[0], deps, b.ws.string(), (t.path / "private").string()) ==
        std::vector<std::string>{(b.ws / "src/x.h").string(), (b.ws / "test/x_test.cc").string()});
}

TEST_CASE("compile_commands.json: the directories outside the project, never the system's, $HOME or a parent") {
  TempDir t;
  const fs::path ws = t.path / "ws";
  write(ws / "tests/a_test.cpp", "TEST_CASE(\"a\") {}\n");
  write(ws / ".git/HEAD", "ref: refs/heads/main\n");
  write(t.path / "vendor/include/v.h", "\n");
  write(t.path / "vendor/include/sub/w.h", "\n");
  fs::create_directory_symlink(t.path / "vendor/include", ws / "third_party");
  write(ws / "compile_commands.json",
        R"([{"directory": ")" + ws.string() + R"(", "file": "tests/a_test.cpp", "arguments": ["g++", "-I)" + (t.path / "vendor/include").string() +
            R"(", "-idirafter", ")" + (t.path / "vendor/include/sub").string() + R"(", "-Ithird_party", "-I..", "-isystem", "/usr/include/x86_64-linux-gnu",
            "-iquote", ")" + (t.path / "missing").string() + R"(", "-I/", "-I)" + std::string(std::getenv("HOME") ? std::getenv("HOME") : "/root") +
            R"(", "-c", "tests/a_test.cpp"]}])");
  auto db = findCompileDb((ws / "tests/a_test.cpp").string());
  REQUIRE(db);
  CHECK(outsideDirs(*db, ws.string()) == std::vector<std::string>{(t.path / "vendor/include").string()});
}

TEST_CASE("followLinks: each link a path passes through, in turn") {
  const std::vector<PathLink> links = {{"/ws/bazel-ws", "/ob/execroot/_main"}, {"/ob/execroot/_main/src", "/ws/src"}};
  CHECK(followLinks(links, "/ws/bazel-ws/src/x.h") == "/ws/src/x.h");
  CHECK(followLinks(links, "/ws/bazel-ws/external/d.h") == "/ob/execroot/_main/external/d.h");
  CHECK(followLinks(links, "/ws/bazel-wsx/a.h") == "/ws/bazel-wsx/a.h");
  CHECK(followLinks(links, "/ob/execroot/_main/src") == "/ws/src");
  CHECK(followLinks({{"/a", "/b"}, {"/b", "/a"}}, "/a/x") == "/a/x");  // a loop ends
}

TEST_CASE("the private build binds each outside directory once, never one holding the project or the build") {
  cmake::PrivateBuild build("/nonexistent/ws", "/nonexistent/cache/ws-1");
  build.useReadOnlyDirs({"/ob/external", "/ob", "/ob-2", "/ob-2/x", "/nonexistent", "/nonexistent/ws/sub", "/nonexistent/cache", "/ob"});
  CHECK(build.readOnlyDirs() == std::vector<std::string>{"/ob", "/ob-2"});
}

TEST_CASE("compile_commands.json: a C driver's C++ objects link with its C++ sibling, or with -lstdc++") {
  const fs::path dir = fs::temp_directory_path() / ("gl-linkdriver-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  for (const char* f : {"gcc-12", "g++-12", "x86_64-linux-gnu-gcc", "clang-14"}) write(dir / "bin" / f, "");
  auto driver = [&](const std::string& compiler) {
    cmake::CompileCommand e;
    e.directory = (dir / "execroot").string();
    e.arguments = {compiler, "-c", "a.cc"};
    return linkDriverFor(e);
  };
  CHECK(driver((dir / "bin/gcc-12").string()).command == (dir / "bin/g++-12").string());
  CHECK(driver((dir / "bin/gcc-12").string()).extraLibs.empty());
  // No x86_64-linux-gnu-g++ and no clang++-14 beside them: the C driver links the C++ runtime.
  CHECK(driver((dir / "bin/x86_64-linux-gnu-gcc").string()).command == (dir / "bin/x86_64-linux-gnu-gcc").string());
  CHECK(driver((dir / "bin/x86_64-linux-gnu-gcc").string()).extraLibs == "-lstdc++");
  CHECK(driver((dir / "bin/clang-14").string()).extraLibs == "-lstdc++");
  // A C++ driver is left alone; a relative one is found from the entry's directory.
  CHECK(driver((dir / "bin/g++-12").string()).command == (dir / "bin/g++-12").string());
  CHECK(driver("../bin/gcc-12").command == (dir / "bin/g++-12").string());
  CHECK(driver("c++").command == "c++");
  CHECK(driver("c++").extraLibs.empty());
  fs::remove_all(dir);
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
