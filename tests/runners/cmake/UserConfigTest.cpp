// How the user configures a CMake project (cmake/UserConfig.h): the configure preset chosen and
// resolved, the options carried from the user's cache, FetchContent sources reused from the
// user's build, and the sentence for a configure that needed the network.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/testing/cmake/UserConfig.h"

using namespace greenlight::core::testing::cmake;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/gl-cmake-userconfig-XXXXXX";
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

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

const char* kLists = R"(cmake_minimum_required(VERSION 3.14)
project(p CXX)
include(FetchContent)
FetchContent_Declare(
  googletest  # the quickstart's way
  URL https://github.com/google/googletest/archive/03597a01ee50ed33e9dfd640b249b4be3799d395.zip
)
FetchContent_Declare(fmt GIT_REPOSITORY "https://github.com/fmtlib/fmt.git" GIT_TAG 10.1.1 FIND_PACKAGE_ARGS)
FetchContent_MakeAvailable(googletest fmt)
enable_testing()
)";

ProjectDir project(const fs::path& dir) {
  ProjectDir p;
  p.sourceDir = dir.string();
  p.listFiles = {(dir / "CMakeLists.txt").string()};
  return p;
}

void userCache(const fs::path& build, const fs::path& source, const std::string& extra = "") {
  write(build / "CMakeCache.txt", "CMAKE_HOME_DIRECTORY:INTERNAL=" + source.string() +
                                      "\nCMAKE_GENERATOR:INTERNAL=Unix Makefiles\nCMAKE_BUILD_TYPE:STRING=Release\n" + extra);
}

}  // namespace

TEST_CASE("fetched dependencies: FetchContent_Declare and ExternalProject_Add with where they come from") {
  TempDir t;
  write(t.path / "CMakeLists.txt", std::string(kLists) + "ExternalProject_Add(zlib URL https://zlib.net/zlib.tar.gz)\nfile(DOWNLOAD https://x/y.txt y.txt)\n");
  auto deps = fetchedDependencies({(t.path / "CMakeLists.txt").string()});
  REQUIRE(deps.size() == 4);
  CHECK(deps[0].name == "googletest");
  CHECK(deps[0].line == 4);
  CHECK(deps[0].from.find("googletest/archive") != std::string::npos);
  CHECK_FALSE(deps[0].findPackageFirst);
  CHECK(deps[1].name == "fmt");
  CHECK(deps[1].from == "https://github.com/fmtlib/fmt.git");
  CHECK(deps[1].findPackageFirst);
  CHECK(deps[2].how == "ExternalProject_Add");
  CHECK(deps[3].how == "file(DOWNLOAD)");
}

TEST_CASE("presets: inherits resolved, macros expanded, the user's build dir's preset chosen") {
  TempDir t;
  write(t.path / "CMakeLists.txt", "project(p)\nenable_testing()\n");
  write(t.path / "CMakePresets.json", R"({"version": 3, "configurePresets": [
    {"name": "base", "hidden": true, "generator": "Ninja", "binaryDir": "${sourceDir}/out/${presetName}",
     "cacheVariables": {"CMAKE_BUILD_TYPE": "Debug", "A": "base", "GONE": "x"}},
    {"name": "first", "inherits": "base", "cacheVariables": {"A": "first"}},
    {"name": "vcpkg", "inherits": ["base"], "toolchainFile": "$env{GL_TEST_VCPKG_ROOT}/scripts/buildsystems/vcpkg.cmake",
     "environment": {"GL_TEST_VCPKG_ROOT": "/opt/vcpkg"},
     "cacheVariables": {"B": {"type": "BOOL", "value": true}, "GONE": null}},
    {"name": "windows", "inherits": "base", "condition": {"type": "equals", "lhs": "${hostSystemName}", "rhs": "Windows"}}
  ]})");
  std::string error;
  auto ps = readConfigurePresets(t.path.string(), &error);
  CHECK(error.empty());
  REQUIRE(ps.size() == 4);
  CHECK(ps[0].hidden);
  CHECK(ps[1].binaryDir == (t.path / "out/first").string());
  CHECK(ps[1].generator == "Ninja");
  CHECK(std::find(ps[1].cacheVariables.begin(), ps[1].cacheVariables.end(), std::make_pair(std::string("A"), std::string("first"))) !=
        ps[1].cacheVariables.end());
  CHECK(ps[2].toolchainFile == "/opt/vcpkg/scripts/buildsystems/vcpkg.cmake");
  CHECK(std::find(ps[2].cacheVariables.begin(), ps[2].cacheVariables.end(), std::make_pair(std::string("B:BOOL"), std::string("TRUE"))) !=
        ps[2].cacheVariables.end());
  for (const auto& [name, value] : ps[2].cacheVariables) CHECK(name != "GONE");
  CHECK_FALSE(ps[3].usable);

  // No build of the user's: the first usable preset.
  auto uc = userConfiguration(project(t.path), std::nullopt, true);
  CHECK(uc.source == "preset 'first' (CMakePresets.json)");
  CHECK(has(uc.args, "-DA=first"));
  CHECK(uc.generator == "Ninja");
  // The user built with the vcpkg preset: that one (its binaryDir holds the cache).
  userCache(t.path / "out/vcpkg", t.path);
  uc = userConfiguration(project(t.path), std::nullopt, true);
  CHECK(uc.source.rfind("preset 'vcpkg' (CMakePresets.json) and the cache of out/vcpkg", 0) == 0);
  CHECK(has(uc.args, "-DCMAKE_TOOLCHAIN_FILE:FILEPATH=/opt/vcpkg/scripts/buildsystems/vcpkg.cmake"));
  CHECK(uc.generator == "Unix Makefiles");  // the cache says what the build really used
}

TEST_CASE("a presets file that does not parse is named") {
  TempDir t;
  write(t.path / "CMakePresets.json", "{ not json");
  std::string error;
  auto ps = readConfigurePresets(t.path.string(), &error);
  CHECK(ps.empty());
  CHECK(error.find("CMakePresets.json") != std::string::npos);
}

TEST_CASE("FetchContent: the user's _deps sources handed over, disconnected only when all are there") {
  TempDir t;
  write(t.path / "CMakeLists.txt", kLists);
  const fs::path build = t.path / "build";
  userCache(build, t.path, "CMAKE_TOOLCHAIN_FILE:FILEPATH=" + (t.path / "tc.cmake").string() + "\nGTest_DIR:PATH=/opt/gtest/lib/cmake/GTest\n");
  write(t.path / "tc.cmake", "# toolchain\n");
  write(build / "_deps/googletest-src/CMakeLists.txt", "project(googletest)\n");
  fs::create_directories(build / "_deps/half-src");  // an empty population: not reused
  UserBuild user;
  user.dir = build.string();
  user.cache = {{"CMAKE_HOME_DIRECTORY", t.path.string()}, {"CMAKE_GENERATOR", "Unix Makefiles"}, {"CMAKE_BUILD_TYPE", "Release"},
                {"CMAKE_TOOLCHAIN_FILE", (t.path / "tc.cmake").string()}, {"GTest_DIR", "/opt/gtest/lib/cmake/GTest"}};
  user.types = {{"CMAKE_HOME_DIRECTORY", "INTERNAL"}, {"CMAKE_GENERATOR", "INTERNAL"}, {"CMAKE_BUILD_TYPE", "STRING"},
                {"CMAKE_TOOLCHAIN_FILE", "FILEPATH"}, {"GTest_DIR", "PATH"}};
  auto uc = userConfiguration(project(t.path), user, true);
  CHECK(has(uc.args, "-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST:PATH=" + (build / "_deps/googletest-src").string()));
  CHECK(has(uc.args, "-DCMAKE_TOOLCHAIN_FILE:FILEPATH=" + (t.path / "tc.cmake").string()));
  CHECK(has(uc.args, "-DGTest_DIR:PATH=/opt/gtest/lib/cmake/GTest"));
  CHECK(has(uc.args, "-DCMAKE_BUILD_TYPE=Release"));
  CHECK(uc.reused == std::vector<std::string>{"googletest"});
  // fmt may come from find_package: not missing, but not there either: FetchContent stays connected.
  CHECK(uc.missing.empty());
  CHECK_FALSE(has(uc.args, "-DFETCHCONTENT_FULLY_DISCONNECTED:BOOL=ON"));
  write(build / "_deps/fmt-src/CMakeLists.txt", "project(fmt)\n");
  uc = userConfiguration(project(t.path), user, true);
  CHECK(has(uc.args, "-DFETCHCONTENT_FULLY_DISCONNECTED:BOOL=ON"));
  // Allowed the network: FetchContent may update.
  uc = userConfiguration(project(t.path), user, false);
  CHECK_FALSE(has(uc.args, "-DFETCHCONTENT_FULLY_DISCONNECTED:BOOL=ON"));
}

TEST_CASE("network diagnosis: the dependency to download and how to allow it") {
  TempDir t;
  write(t.path / "CMakeLists.txt", kLists);
  auto uc = userConfiguration(project(t.path), std::nullopt, true);
  REQUIRE(uc.missing.size() == 1);
  const std::string said = "-- Populating googletest\nCMake Error at googletest-subbuild/googletest-populate-prefix/src/googletest-populate-stamp/download-googletest-populate.cmake:170 (message):\n  Each download failed!\n    error: downloading 'https://github.com/...' failed\n          status_code: 6\n          status_string: \"Couldn't resolve host name\"\n";
  const std::string s = networkDiagnosis(project(t.path), uc, said, "");
  CHECK(s.find("offline") != std::string::npos);
  CHECK(s.find("it downloads googletest from https://github.com/google/googletest/archive/") != std::string::npos);
  CHECK(s.find("FetchContent_Declare at CMakeLists.txt:4") != std::string::npos);
  CHECK(s.find("build/_deps/googletest-src") != std::string::npos);
  CHECK(s.find("FETCHCONTENT_SOURCE_DIR_GOOGLETEST") != std::string::npos);
  CHECK(s.find("\"sandbox\": {\"network\": true}") != std::string::npos);
  // Not the network: no sentence.
  CHECK(networkDiagnosis(project(t.path), uc, "CMake Error: Could not find a package configuration file provided by \"Foo\"", "").empty());
}

TEST_CASE("network diagnosis: a command of the configure that reached for the network") {
  TempDir t;
  write(t.path / "CMakeLists.txt", "project(p)\nexecute_process(COMMAND getent hosts example.com RESULT_VARIABLE online)\nenable_testing()\n");
  auto uc = userConfiguration(project(t.path), std::nullopt, true);
  const std::string s = networkDiagnosis(project(t.path), uc, "-- The CXX compiler identification is GNU 12.2.0\n", "socket");
  CHECK(s.find("`getent hosts example.com` (execute_process at CMakeLists.txt:2)") != std::string::npos);
  CHECK(s.find("the sandbox refused socket") != std::string::npos);
  CHECK(s.find("\"sandbox\": {\"network\": true}") != std::string::npos);
}

TEST_CASE("ExternalProject: the sources the user's build downloaded are handed over, where it put them") {
  TempDir t;
  write(t.path / "CMakeLists.txt",
        "project(p CXX)\ninclude(ExternalProject)\n"
        "ExternalProject_Add(doctest URL https://github.com/doctest/doctest/archive/v2.4.9.tar.gz CONFIGURE_COMMAND \"\")\n"
        "ExternalProject_Add(fmt GIT_REPOSITORY https://github.com/fmtlib/fmt.git PREFIX ext/fmt)\n"
        "ExternalProject_Add(json URL https://x/json.tgz SOURCE_DIR ${CMAKE_SOURCE_DIR}/third_party/json)\n"
        "ExternalProject_Add(zlib URL https://zlib.net/zlib.tar.gz SOURCE_DIR ${ZLIB_WHERE})\n");
  const fs::path build = t.path / "build";
  userCache(build, t.path);
  UserBuild user;
  user.dir = build.string();
  user.cache = {{"CMAKE_HOME_DIRECTORY", t.path.string()}, {"CMAKE_GENERATOR", "Ninja"}};
  user.types = {{"CMAKE_HOME_DIRECTORY", "INTERNAL"}, {"CMAKE_GENERATOR", "INTERNAL"}};
  auto project1 = project(t.path);

  // Nothing downloaded yet: all four need the network.
  auto uc = userConfiguration(project1, user, true);
  CHECK(uc.externalSources.empty());
  CHECK(uc.missing.size() == 4);
  CHECK(externalProjectShim(uc).empty());

  write(build / "doctest-prefix/src/doctest/doctest/doctest.h", "// doctest\n");  // the default place
  write(build / "ext/fmt/src/fmt/CMakeLists.txt", "project(fmt)\n");            // PREFIX, relative to the binary dir
  write(t.path / "third_party/json/json.hpp", "// json\n");                      // a SOURCE_DIR in the source tree
  fs::create_directories(build / "zlib-prefix/src/zlib");                        // SOURCE_DIR names a variable: not guessed
  uc = userConfiguration(project1, user, true);
  using Source = std::pair<std::string, std::string>;
  CHECK(uc.externalSources == std::vector<Source>{{"doctest", (build / "doctest-prefix/src/doctest").string()},
                                                  {"fmt", (build / "ext/fmt/src/fmt").string()},
                                                  {"json", (t.path / "third_party/json").string()}});
  CHECK(has(uc.reused, "doctest"));
  REQUIRE(uc.missing.size() == 1);
  CHECK(uc.missing[0].name == "zlib");
  // Read by the build outside the project's own tree only: the user's build is inside it here.
  const std::string shim = externalProjectShim(uc);
  CHECK(shim.find("include_guard(GLOBAL)") != std::string::npos);
  CHECK(shim.find("include(\"${CMAKE_ROOT}/Modules/ExternalProject.cmake\")") != std::string::npos);
  CHECK(shim.find("GREENLIGHT_EP_SOURCE_doctest]=====] [=====[" + (build / "doctest-prefix/src/doctest").string() + "]=====]") !=
        std::string::npos);
  CHECK(shim.find("DOWNLOAD_COMMAND [=====[${CMAKE_COMMAND}]=====] -E copy_directory [=====[${src}]=====] <SOURCE_DIR>") !=
        std::string::npos);
  CHECK(shim.find("UPDATE_COMMAND \\\"\\\" PATCH_COMMAND \\\"\\\"") != std::string::npos);
  // An empty directory is a download that failed half-way: not reused.
  fs::remove_all(build / "ext/fmt/src/fmt");
  fs::create_directories(build / "ext/fmt/src/fmt");
  uc = userConfiguration(project1, user, true);
  CHECK(uc.externalSources.size() == 2);
  CHECK(uc.missing.size() == 2);
}

TEST_CASE("ExternalProject in a module a CMakeLists.txt includes: the including directory's binary dir") {
  // cmake/doctest.cmake, include()d from the top: PREFIX is relative to the top binary dir.
  TempDir t;
  write(t.path / "CMakeLists.txt", "project(p CXX)\ninclude(cmake/doctest.cmake)\n");
  write(t.path / "cmake/doctest.cmake",
        "include(ExternalProject)\nExternalProject_Add(doctest_ep PREFIX external/doctest URL \"http://x/${V}.tar.gz\" BUILD_IN_SOURCE 1)\n");
  const fs::path build = t.path / "build";
  UserBuild user;
  user.dir = build.string();
  ProjectDir p = project(t.path);
  p.listFiles.push_back((t.path / "cmake/doctest.cmake").string());
  write(build / "external/doctest/src/doctest_ep/doctest/doctest.h", "// doctest\n");
  auto uc = userConfiguration(p, user, true);
  using Source = std::pair<std::string, std::string>;
  CHECK(uc.externalSources == std::vector<Source>{{"doctest_ep", (build / "external/doctest/src/doctest_ep").string()}});
  CHECK(uc.missing.empty());
}

TEST_CASE("network diagnosis of a build: the ExternalProject to download, never a compile error") {
  TempDir t;
  write(t.path / "CMakeLists.txt",
        "project(p CXX)\ninclude(ExternalProject)\n"
        "ExternalProject_Add(doctest URL https://github.com/doctest/doctest/archive/v2.4.9.tar.gz CONFIGURE_COMMAND \"\")\n");
  auto uc = userConfiguration(project(t.path), std::nullopt, true);
  REQUIRE(uc.missing.size() == 1);
  const std::string said =
      "[1/8] Performing download step (download, verify and extract) for 'doctest'\nFAILED: doctest-prefix/src/doctest-stamp/doctest-download\n"
      "-- Downloading...\n   dst='/b/doctest-prefix/src/v2.4.9.tar.gz'\n   timeout='none'\n   inactivity timeout='none'\n"
      "-- Using src='https://github.com/doctest/doctest/archive/v2.4.9.tar.gz'\nCMake Error at doctest-stamp/download-doctest.cmake:170 (message):\n"
      "  Each download failed!\n    error: downloading 'https://github.com/doctest/doctest/archive/v2.4.9.tar.gz' failed\n"
      "          status_code: 6\n          status_string: \"Couldn't resolve host name\"\nninja: build stopped: subcommand failed.\n";
  const std::string s = networkDiagnosis(project(t.path), uc, said, "", true);
  CHECK(s.find("cmake could not build") != std::string::npos);
  CHECK(s.find("offline (greenlight's build has no network)") != std::string::npos);
  CHECK(s.find("it downloads doctest from https://github.com/doctest/doctest/archive/v2.4.9.tar.gz (ExternalProject_Add at CMakeLists.txt:3)") !=
        std::string::npos);
  CHECK(s.find("build/doctest-prefix/src/doctest") != std::string::npos);
  CHECK(s.find("\"sandbox\": {\"network\": true}") != std::string::npos);
  // A compile error that names the dependency's directory is not the network's doing.
  const std::string compile = "FAILED: CMakeFiles/t.dir/t.cpp.o\n/b/doctest-prefix/src/doctest/doctest/doctest.h:12:3: error: 'x' was not declared\n";
  CHECK(networkDiagnosis(project(t.path), uc, compile, "", true).empty());
}
