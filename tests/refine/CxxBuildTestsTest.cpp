// Tests first in a C++ build, the pure parts: which existing test file of the build's test
// targets gains the new cases, in which framework, with which #include, and how the cases are
// appended (the include added only when missing). The plans are written by hand as the CMake
// adapter gives them (its test files: the sources of the test targets near the file).
#include <catch2/catch.hpp>

#include <filesystem>

#include "TempTree.h"
#include "core/refine/CxxBuildTests.h"

using namespace greenlight::core::refine;
namespace fs = std::filesystem;
namespace t = greenlight::core::testing;

namespace {

struct Root : gltest::TempTree {
  Root() : TempTree("gl-cxxbuildtests") {}
};

const char* kHeader = "#pragma once\n// clamp(x, lo, hi): x kept within [lo, hi]\ninline int clamp(int x, int lo, int hi) { throw 0; }\n";

Target clampTarget() {
  auto found = findTarget(kHeader, 2, t::Language::Cxx);
  REQUIRE(found.target);
  return *found.target;
}

t::TestPlan cmakePlan(const Root& r, std::vector<std::string> testFiles) {
  t::TestPlan plan;
  plan.language = t::Language::Cxx;
  plan.runner = "cmake";
  plan.framework = "gtest";
  plan.rootDir = r.root.string();
  plan.testFiles = std::move(testFiles);
  return plan;
}

const char* kGtestMain = "#include <gtest/gtest.h>\n\nint main(int argc, char** argv) {\n  return 0;\n}\n";

}  // namespace

TEST_CASE("tests first in a CMake build: the test file named after the module, its framework, the include as the tests write it",
          "[refine][testsfirst][cxx]") {
  Root r;
  const std::string header = r.write("include/num/clamp.hpp", kHeader);
  // A bigger file that includes the header, and the module's own (smaller) test file.
  const std::string big = r.write("tests/all_test.cpp",
                                  "#include <gtest/gtest.h>\n#include <num/clamp.hpp>\n\nTEST(A, a) {}\nTEST(A, b) {}\nTEST(A, c) {}\n");
  const std::string own = r.write("tests/clamp_test.cpp", "#include <gtest/gtest.h>\n\nTEST(Clamp, old) {}\n");
  const std::string main = r.write("tests/main.cpp", kGtestMain);
  std::string error;
  auto p = placeInBuild(clampTarget(), header, cmakePlan(r, {big, own, main}), &error);
  INFO(error);
  REQUIRE(p);
  CHECK(p->path == own);
  CHECK(p->inBuild);
  CHECK(p->framework == "gtest");
  CHECK(p->importLine == "#include <num/clamp.hpp>");
  CHECK(p->exampleText == "#include <gtest/gtest.h>\n\nTEST(Clamp, old) {}\n");

  // Without a namesake: the file that includes the header beats the one with more cases.
  const std::string other = r.write("tests/misc_test.cpp", "#include <doctest/doctest.h>\nTEST_CASE(\"x\") {}\nTEST_CASE(\"y\") {}\nTEST_CASE(\"z\") {}\n");
  const std::string incl = r.write("tests/num_test.cpp", "#include <doctest/doctest.h>\n#include \"num/clamp.hpp\"\nTEST_CASE(\"a\") {}\n");
  auto q = placeInBuild(clampTarget(), header, cmakePlan(r, {other, incl}), &error);
  REQUIRE(q);
  CHECK(q->path == incl);
  CHECK(q->framework == "doctest");
  CHECK(q->importLine == "#include \"num/clamp.hpp\"");

  // No file includes it: the main test file (most cases), the header relative to it.
  auto m = placeInBuild(clampTarget(), header, cmakePlan(r, {other, main}), &error);
  REQUIRE(m);
  CHECK(m->path == other);
  CHECK(m->importLine == "#include \"../include/num/clamp.hpp\"");
}

TEST_CASE("tests first in a C++ build: no test target to hold the tests, Meson too, not the single-file runner, no stub",
          "[refine][testsfirst][cxx]") {
  Root r;
  const std::string header = r.write("include/num/clamp.hpp", kHeader);
  std::string error;
  // Only a main (a doctest/Catch2 runner file declares no case): nowhere to add cases.
  const std::string main = r.write("tests/main.cpp", kGtestMain);
  CHECK_FALSE(placeInBuild(clampTarget(), header, cmakePlan(r, {main}), &error));
  CHECK_THAT(error, Catch::StartsWith("no test target to hold the tests"));
  CHECK_THAT(error, Catch::Contains("include/num/clamp.hpp"));
  CHECK_FALSE(placeInBuild(clampTarget(), header, cmakePlan(r, {}), &error));
  CHECK_THAT(error, Catch::StartsWith("no test target to hold the tests"));

  // Meson and compile_commands.json builds place the same way; the single-file runner does not.
  auto meson = cmakePlan(r, {r.write("tests/clamp_test.cpp", "TEST(C, a) {}\n")});
  meson.runner = "meson";
  auto inMeson = placeInBuild(clampTarget(), header, meson, &error);
  REQUIRE(inMeson);
  CHECK(inMeson->path == r.root.string() + "/tests/clamp_test.cpp");
  CHECK_FALSE(placeInBuild(clampTarget(), header, cmakePlan(r, {main}), &error));
  CHECK_THAT(error, Catch::Contains("CMake build"));
  meson.runner = "meson";
  meson.testFiles = {main};
  CHECK_FALSE(placeInBuild(clampTarget(), header, meson, &error));
  CHECK_THAT(error, Catch::Contains("Meson build"));
  auto single = cmakePlan(r, {r.root.string() + "/tests/clamp_test.cpp"});
  single.runner = "cxx";
  CHECK_FALSE(placeInBuild(clampTarget(), header, single, &error));
  CHECK_THAT(error, Catch::Contains("CMake, Meson and compile_commands.json"));

  auto insert = findTarget("// clamp(x, lo, hi): x kept within [lo, hi]\n", 1, t::Language::Cxx);
  if (insert.target) {
    CHECK_FALSE(placeInBuild(*insert.target, header, cmakePlan(r, {r.root.string() + "/tests/clamp_test.cpp"}), &error));
    CHECK_THAT(error, Catch::Contains("stub"));
  }
}

TEST_CASE("tests first in a CMake build: a source file's header is the one of its name the test targets read",
          "[refine][testsfirst][cxx]") {
  Root r;
  const std::string header = r.write("include/num/clamp.h", "int clamp(int x, int lo, int hi);\n");
  const std::string source = r.write("src/clamp.cpp", kHeader);
  const std::string tests = r.write("tests/test_clamp.cpp", "#include <catch2/catch.hpp>\nTEST_CASE(\"old\") {}\n");
  auto plan = cmakePlan(r, {tests});
  plan.supportFiles = {r.write("include/num/other.h", ""), header};
  std::string error;
  auto p = placeInBuild(clampTarget(), source, plan, &error);
  INFO(error);
  REQUIRE(p);
  CHECK(p->path == tests);
  CHECK(p->framework == "catch2");
  CHECK(p->importLine == "#include \"../include/num/clamp.h\"");
}

TEST_CASE("tests first in a CMake build: the cases are appended, the include added after the last one only when missing",
          "[refine][testsfirst][cxx]") {
  TestsPlacement p;
  p.inBuild = true;
  p.exists = true;
  p.importLine = "#include \"num/clamp.hpp\"";
  p.original = "#include <gtest/gtest.h>\n#include <vector>\n\nTEST(Old, a) {}\n";
  const std::string cases = "TEST(Clamp, low) {\n  EXPECT_EQ(clamp(-1, 0, 9), 0);\n}\n\n\n";
  CHECK(appendToBuildTestFile(p, cases) ==
        "#include <gtest/gtest.h>\n#include <vector>\n#include \"num/clamp.hpp\"\n\nTEST(Old, a) {}\n\n"
        "TEST(Clamp, low) {\n  EXPECT_EQ(clamp(-1, 0, 9), 0);\n}\n");
  // The cases bring it themselves, or the file has it: nothing added above.
  CHECK(appendToBuildTestFile(p, "#include \"num/clamp.hpp\"\nTEST(Clamp, low) {}\n") ==
        std::string(p.original) + "\n#include \"num/clamp.hpp\"\nTEST(Clamp, low) {}\n");
  p.original = "#include <gtest/gtest.h>\n#  include \"num/clamp.hpp\"\nTEST(Old, a) {}\n";
  CHECK(appendToBuildTestFile(p, "TEST(Clamp, low) {}") == p.original + "\nTEST(Clamp, low) {}\n");
  // proposedFileText routes a build's placement here.
  CHECK(proposedFileText(p, "TEST(Clamp, low) {}") == p.original + "\nTEST(Clamp, low) {}\n");
}
