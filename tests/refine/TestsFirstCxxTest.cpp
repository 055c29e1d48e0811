// Tests first in a C++ CMake project (issue 36) end to end: the real binary, the scripted model
// and the real sandbox building a small doctest project. The proposed cases join the existing
// test file of the test target that includes the header; only they run against the stub (the
// module's own case is neither counted nor flagged); the implementation request is answered
// wrong first and right only when the prompt carries the failure, so "2 rounds" proves the
// accepted tests are what ran.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;

namespace {

const char* kLists =
    "cmake_minimum_required(VERSION 3.16)\n"
    "project(dur LANGUAGES CXX)\n"
    "set(CMAKE_CXX_STANDARD 17)\n"
    "find_package(doctest REQUIRED)\n"
    "add_library(dur INTERFACE)\n"
    "target_include_directories(dur INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)\n"
    "enable_testing()\n"
    "add_executable(dur_tests tests/main.cpp tests/test_text.cpp)\n"
    "target_link_libraries(dur_tests PRIVATE dur doctest::doctest)\n"
    "add_test(NAME dur_tests COMMAND dur_tests)\n";

// Line 12 is parse_duration's stub; word_count is the module's tested function.
const char* kHeader =
    "#pragma once\n"
    "#include <sstream>\n"
    "#include <stdexcept>\n"
    "#include <string>\n"
    "\n"
    "inline int word_count(const std::string& text) {\n"
    "  std::istringstream in(text);\n"
    "  int n = 0;\n"
    "  for (std::string w; in >> w;) ++n;\n"
    "  return n;\n"
    "}\n"
    "\n"
    "// parse_duration(text): \"1h30m\" -> 5400 seconds; \"90s\" -> 90; throws std::invalid_argument on junk\n"
    "inline int parse_duration(const std::string& text) {\n"
    "  throw 0;\n"
    "}\n";
const int kStubLine = 14;

const char* kMain = "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n";

const char* kOldTests =
    "#include <doctest/doctest.h>\n"
    "\n"
    "#include \"dur/text.hpp\"\n"
    "\n"
    "TEST_CASE(\"word_count counts words\") {\n"
    "  CHECK(word_count(\"a b  c\") == 3);\n"
    "}\n";

// Three real cases and one that passes on any stub.
const char* kProposed =
    "TEST_CASE(\"parse_duration hours and minutes\") {\n  CHECK(parse_duration(\"1h30m\") == 5400);\n}\n\n"
    "TEST_CASE(\"parse_duration seconds\") {\n  CHECK(parse_duration(\"90s\") == 90);\n}\n\n"
    "TEST_CASE(\"parse_duration junk\") {\n  CHECK_THROWS_AS(parse_duration(\"junk\"), std::invalid_argument);\n}\n\n"
    "TEST_CASE(\"trivial\") {\n  CHECK(true);\n}\n";

// The user's edit: durations in MINUTES.
const char* kEditedCases =
    "TEST_CASE(\"parse_duration in minutes\") {\n  CHECK(parse_duration(\"1h30m\") == 90);\n}\n\n"
    "TEST_CASE(\"parse_duration minutes only\") {\n  CHECK(parse_duration(\"45m\") == 45);\n}\n";

std::string impl(int hour, int minute, int second) {
  return "inline int parse_duration(const std::string& text) {\n"
         "  if (text.empty()) throw std::invalid_argument(text);\n"
         "  int total = 0, n = 0;\n"
         "  bool digits = false;\n"
         "  for (char c : text) {\n"
         "    if (c >= '0' && c <= '9') {\n"
         "      n = n * 10 + (c - '0');\n"
         "      digits = true;\n"
         "      continue;\n"
         "    }\n"
         "    if (!digits) throw std::invalid_argument(text);\n"
         "    if (c == 'h') total += n * " + std::to_string(hour) + ";\n"
         "    else if (c == 'm') total += n * " + std::to_string(minute) + ";\n"
         "    else if (c == 's') total += n * " + std::to_string(second) + ";\n"
         "    else throw std::invalid_argument(text);\n"
         "    n = 0;\n"
         "    digits = false;\n"
         "  }\n"
         "  if (digits) throw std::invalid_argument(text);\n"
         "  return total;\n"
         "}";
}

json script() {
  return {{"rules",
           json::array({{{"match", "Write the tests for parse_duration()"}, {"text", fenced("cpp", kProposed)}},
                        {{"match", "0 == 45 )"}, {"text", fenced("cpp", impl(60, 1, 0))}},
                        {{"match", "parse_duration()"},
                         {"wrong", fenced("cpp", "inline int parse_duration(const std::string& text) {\n  return 0;\n}")},
                         {"right", fenced("cpp", impl(3600, 60, 1))},
                         {"evidence", "0 == 5400 )"}}})}};
}

// The sandbox's user configures and builds the project: it must be able to read it, as the
// project checks make theirs (a fresh temporary directory is 0700).
void openToSandbox(const Workspace& ws) {
  std::system(("chmod -R go+rX '" + ws.root() + "'").c_str());
}

void writeProject(const Workspace& ws) {
  ws.write("CMakeLists.txt", kLists);
  ws.write("include/dur/text.hpp", kHeader);
  ws.write("tests/main.cpp", kMain);
  ws.write("tests/test_text.cpp", kOldTests);
  openToSandbox(ws);
}

bool haveBuildTools() {
  return std::system("command -v cmake >/dev/null 2>&1 && test -f /usr/include/doctest/doctest.h") == 0;
}

std::string describe(const GenerateRun& r) {
  return "exit " + std::to_string(r.exitCode) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

const std::string kStubArg = "include/dur/text.hpp:" + std::to_string(kStubLine);

}  // namespace

TEST_CASE("tests first, CMake doctest project: appended to the test file that includes the header, only the new cases checked",
          "[refine][e2e][testsfirst][cxx]") {
  if (!haveBuildTools()) {
    WARN("SKIP: no cmake or doctest here (scripts/deps.sh installs them)");
    return;
  }
  Workspace ws;
  writeProject(ws);
  const auto before = ws.files();
  ScriptedModel model(script());
  auto p = generate(ws, &model, {kStubArg, "--tests-first", "--json"});
  INFO(describe(p));
  REQUIRE(p.exitCode == 3);
  CHECK(p.json["status"] == "tests_proposed");
  CHECK(p.json["applied"] == false);
  const json& t = p.json["tests"];
  CHECK(t["file"] == ws.path("tests/test_text.cpp"));
  CHECK(t["exists"] == true);
  CHECK(t["original"] == kOldTests);
  CHECK(t["text"] == std::string(kOldTests) + "\n" + kProposed);
  CHECK(t["count"] == 4);
  CHECK(t["names"] == json::array({"parse_duration hours and minutes", "parse_duration seconds", "parse_duration junk", "trivial"}));
  CHECK(t["error"].is_null());
  // word_count's case passes on the stub too, but it is not a proposed one.
  REQUIRE(t["flagged"].size() == 1);
  CHECK(t["flagged"][0]["name"] == "trivial");
  CHECK(t["flagged"][0]["line"] == 21);
  // The test-writing request names the file, the framework and the include; no implementation.
  auto requests = model.requests();
  REQUIRE(requests.size() == 1);
  const std::string prompt = requests[0]["body"].dump();
  CHECK_THAT(prompt, Catch::Contains("tests/test_text.cpp (it exists"));
  CHECK_THAT(prompt, Catch::Contains("doctest"));
  CHECK_THAT(prompt, Catch::Contains("#include \\\"dur/text.hpp\\\""));
  CHECK(prompt.find("invalid_argument(text)") == std::string::npos);
  // Nothing written.
  CHECK(ws.files() == before);
  CHECK(ws.read("tests/test_text.cpp") == kOldTests);
  CHECK(ws.read("include/dur/text.hpp") == kHeader);

  // Accepted: the loop runs the new cases only (4, not 5) and both files land.
  auto r = generate(ws, &model, {kStubArg, "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["status"] == "passed");
  CHECK(r.json["tests"]["count"] == 4);
  CHECK(r.json["tests"]["new"] == false);
  CHECK(r.json["summary"]["rounds"] == 2);
  CHECK(r.json["summary"]["passed"] == 4);
  CHECK(ws.read("tests/test_text.cpp") == std::string(kOldTests) + "\n" + kProposed);
  CHECK_THAT(ws.read("include/dur/text.hpp"), Catch::Contains("total += n * 3600;"));
  CHECK_THAT(model.lastUser(3), Catch::Contains("0 == 5400 )"));
}

TEST_CASE("tests first, CMake doctest project: the user's edit to the proposed cases is what the code must pass",
          "[refine][e2e][testsfirst][cxx]") {
  if (!haveBuildTools()) {
    WARN("SKIP: no cmake or doctest here (scripts/deps.sh installs them)");
    return;
  }
  Workspace ws;
  writeProject(ws);
  const std::string edited = ws.root() + ".edited_test_text.cpp";
  const std::string editedText = std::string(kOldTests) + "\n" + kEditedCases;
  {
    std::ofstream(edited) << editedText;
  }
  ScriptedModel model(script());
  auto r = generate(ws, &model, {kStubArg, "--tests-file", edited, "--apply", "--json"});
  std::remove(edited.c_str());
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["status"] == "passed");
  CHECK(r.json["tests"]["file"] == ws.path("tests/test_text.cpp"));
  CHECK(r.json["tests"]["count"] == 2);
  CHECK(r.json["summary"]["rounds"] == 2);
  // The minutes version passed: the seconds one (right for the proposal) would not have.
  CHECK(r.json["code"] == impl(60, 1, 0));
  CHECK(ws.read("tests/test_text.cpp") == editedText);
  for (const auto& req : model.requests()) CHECK(req["body"].dump().find("Write the tests for") == std::string::npos);
}

TEST_CASE("tests first, CMake project without a test target: the proposal says there is none to hold the tests",
          "[refine][e2e][testsfirst][cxx]") {
  if (!haveBuildTools()) {
    WARN("SKIP: no cmake or doctest here (scripts/deps.sh installs them)");
    return;
  }
  Workspace ws;
  ws.write("CMakeLists.txt",
           "cmake_minimum_required(VERSION 3.16)\nproject(dur LANGUAGES CXX)\nadd_library(dur STATIC src/dur.cpp)\n"
           "target_include_directories(dur PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)\n");
  ws.write("include/dur/text.hpp", kHeader);
  ws.write("src/dur.cpp", "#include \"dur/text.hpp\"\nint twice(int x) { return word_count(\"a\") * x; }\n");
  openToSandbox(ws);
  const auto before = ws.files();
  ScriptedModel model(script());
  auto p = generate(ws, &model, {kStubArg, "--tests-first", "--json"});
  INFO(describe(p));
  CHECK(p.exitCode != 0);
  CHECK_THAT(p.json.dump(), Catch::Contains("no test target to hold the tests"));
  CHECK(model.requests().empty());  // nothing asked: there is nowhere to put the answer
  CHECK(ws.files() == before);
}

namespace {

const char* kGtestLists =
    "cmake_minimum_required(VERSION 3.16)\n"
    "project(dur LANGUAGES CXX)\n"
    "set(CMAKE_CXX_STANDARD 17)\n"
    "find_package(GTest REQUIRED)\n"
    "add_library(dur STATIC src/text.cpp)\n"
    "target_include_directories(dur PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)\n"
    "enable_testing()\n"
    "add_executable(dur_gtests tests/text_test.cpp)\n"
    "target_link_libraries(dur_gtests PRIVATE dur GTest::gtest_main)\n"
    "add_test(NAME dur_gtests COMMAND dur_gtests)\n";

const char* kDecl = "#pragma once\n#include <string>\n\nint word_count(const std::string& text);\nint parse_duration(const std::string& text);\n";

// Line 12 is parse_duration's stub, in the library's source (declared in the header).
const char* kSource =
    "#include \"dur/text.h\"\n"
    "\n"
    "#include <sstream>\n"
    "#include <stdexcept>\n"
    "\n"
    "int word_count(const std::string& text) {\n"
    "  std::istringstream in(text);\n"
    "  int n = 0;\n"
    "  for (std::string w; in >> w;) ++n;\n"
    "  return n;\n"
    "}\n"
    "\n"
    "// parse_duration(text): \"1h30m\" -> 5400 seconds; \"90s\" -> 90; throws std::invalid_argument on junk\n"
    "int parse_duration(const std::string& text) {\n"
    "  throw 0;\n"
    "}\n";

const char* kOldGtests = "#include <gtest/gtest.h>\n\n#include \"dur/text.h\"\n\nTEST(Text, WordCount) { EXPECT_EQ(word_count(\"a b\"), 2); }\n";

const char* kGtestProposed =
    "#include <stdexcept>\n\n"
    "TEST(Duration, HoursMinutes) { EXPECT_EQ(parse_duration(\"1h30m\"), 5400); }\n"
    "TEST(Duration, Seconds) { EXPECT_EQ(parse_duration(\"90s\"), 90); }\n"
    "TEST(Duration, Junk) { EXPECT_THROW(parse_duration(\"junk\"), std::invalid_argument); }\n"
    "TEST(Duration, Trivial) { EXPECT_TRUE(true); }\n";

// The scripted model of the GoogleTest cases: kGtestProposed as the tests, then a wrong
// implementation and the right one once the failure (expected 5400) is in the prompt.
json gtestRules() {
  return {{"rules",
           json::array({{{"match", "Write the tests for parse_duration()"}, {"text", fenced("cpp", kGtestProposed)}},
                        {{"match", "parse_duration()"},
                         {"wrong", fenced("cpp", "int parse_duration(const std::string& text) {\n  return 0;\n}")},
                         {"right", fenced("cpp", "#include <stdexcept>\n" + impl(3600, 60, 1).substr(7))},
                         {"evidence", "expected 5400"}}})}};
}

}  // namespace

TEST_CASE("tests first, CMake GoogleTest project: a library's source, the test file of the target linking it, the new cases only",
          "[refine][e2e][testsfirst][cxx]") {
  if (std::system("command -v cmake >/dev/null 2>&1 && test -f /usr/include/gtest/gtest.h") != 0) {
    WARN("SKIP: no cmake or GoogleTest here (scripts/deps.sh installs them)");
    return;
  }
  Workspace ws;
  ws.write("CMakeLists.txt", kGtestLists);
  ws.write("include/dur/text.h", kDecl);
  ws.write("src/text.cpp", kSource);
  ws.write("tests/text_test.cpp", kOldGtests);
  openToSandbox(ws);
  ScriptedModel model(gtestRules());
  auto p = generate(ws, &model, {"src/text.cpp:14", "--tests-first", "--json"});
  INFO(describe(p));
  REQUIRE(p.exitCode == 3);
  const json& t = p.json["tests"];
  CHECK(t["file"] == ws.path("tests/text_test.cpp"));
  CHECK(t["text"] == std::string(kOldGtests) + "\n" + kGtestProposed);
  CHECK(t["names"] == json::array({"Duration.HoursMinutes", "Duration.Seconds", "Duration.Junk", "Duration.Trivial"}));
  REQUIRE(t["flagged"].size() == 1);  // Text.WordCount passes too, but it is not proposed
  CHECK(t["flagged"][0]["name"] == "Duration.Trivial");
  CHECK(t["error"].is_null());
  CHECK_THAT(model.requests().at(0)["body"].dump(), Catch::Contains("GoogleTest"));
  CHECK(ws.read("tests/text_test.cpp") == kOldGtests);
  CHECK(ws.read("src/text.cpp") == kSource);

  auto r = generate(ws, &model, {"src/text.cpp:14", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["summary"]["rounds"] == 2);
  CHECK(r.json["summary"]["passed"] == 4);
  CHECK(r.json["tests"]["count"] == 4);
  CHECK(ws.read("tests/text_test.cpp") == std::string(kOldGtests) + "\n" + kGtestProposed);
  CHECK_THAT(ws.read("src/text.cpp"), Catch::Contains("total += n * 3600;"));
}

TEST_CASE("tests first, CMake doctest project: proposed cases that do not compile say so, and --yes refuses them",
          "[refine][e2e][testsfirst][cxx]") {
  if (!haveBuildTools()) {
    WARN("SKIP: no cmake or doctest here (scripts/deps.sh installs them)");
    return;
  }
  Workspace ws;
  writeProject(ws);
  const auto before = ws.files();
  const json rules = {{"rules", json::array({{{"match", "Write the tests for parse_duration()"},
                                              {"text", fenced("cpp", "TEST_CASE(\"typo\") {\n  CHECK(parse_durration(\"1h\") == 3600);\n}\n")}}})}};
  ScriptedModel model(rules);
  auto p = generate(ws, &model, {kStubArg, "--tests-first", "--json"});
  INFO(describe(p));
  REQUIRE(p.exitCode == 3);
  CHECK(p.json["status"] == "tests_proposed");
  REQUIRE(p.json["tests"]["error"].is_string());
  CHECK_THAT(p.json["tests"]["error"].get<std::string>(), Catch::Contains("parse_durration"));
  CHECK(p.json["tests"]["flagged"].empty());
  auto y = generate(ws, &model, {kStubArg, "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(y));
  CHECK(y.exitCode != 0);
  CHECK(ws.files() == before);
  CHECK(ws.read("tests/test_text.cpp") == kOldTests);
}

TEST_CASE("tests first, Meson GoogleTest project: the test file of the program linking the library, the new cases only",
          "[refine][e2e][testsfirst][cxx]") {
  if (std::system("command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1 && test -f /usr/include/gtest/gtest.h") != 0) {
    WARN("SKIP: no meson, ninja or GoogleTest here (scripts/deps.sh installs them)");
    return;
  }
  Workspace ws;
  ws.write("meson.build",
           "project('dur', 'cpp', default_options: ['cpp_std=c++17'])\n"
           "inc = include_directories('include')\n"
           "dur = static_library('dur', 'src/text.cpp', include_directories: inc)\n"
           "dur_dep = declare_dependency(link_with: dur, include_directories: inc)\n"
           "gtest = dependency('gtest', main: true, required: true)\n"
           "t = executable('dur_gtests', 'tests/text_test.cpp', dependencies: [dur_dep, gtest])\n"
           "test('dur_gtests', t, protocol: 'gtest')\n");
  ws.write("include/dur/text.h", kDecl);
  ws.write("src/text.cpp", kSource);
  ws.write("tests/text_test.cpp", kOldGtests);
  openToSandbox(ws);
  ScriptedModel model(gtestRules());
  auto p = generate(ws, &model, {"src/text.cpp:14", "--tests-first", "--json"});
  INFO(describe(p));
  REQUIRE(p.exitCode == 3);
  const json& t = p.json["tests"];
  CHECK(t["file"] == ws.path("tests/text_test.cpp"));
  CHECK(t["text"] == std::string(kOldGtests) + "\n" + kGtestProposed);
  CHECK(t["count"] == 4);
  REQUIRE(t["flagged"].size() == 1);
  CHECK(t["flagged"][0]["name"] == "Duration.Trivial");
  CHECK(t["error"].is_null());
  CHECK(ws.read("tests/text_test.cpp") == kOldGtests);

  auto r = generate(ws, &model, {"src/text.cpp:14", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["summary"]["rounds"] == 2);
  CHECK(r.json["summary"]["passed"] == 4);
  CHECK(ws.read("tests/text_test.cpp") == std::string(kOldGtests) + "\n" + kGtestProposed);
  CHECK_THAT(ws.read("src/text.cpp"), Catch::Contains("total += n * 3600;"));
}

TEST_CASE("tests first, compile_commands.json project: the test source of the database that reads the header",
          "[refine][e2e][testsfirst][cxx]") {
  if (std::system("command -v ninja >/dev/null 2>&1 && test -f /usr/include/gtest/gtest.h") != 0) {
    WARN("SKIP: no ninja or GoogleTest here (scripts/deps.sh installs them)");
    return;
  }
  Workspace ws;
  ws.write("include/dur/text.h", kDecl);
  ws.write("src/text.cpp", kSource);
  ws.write("tests/text_test.cpp", kOldGtests);
  json db = json::array();
  for (const char* f : {"src/text.cpp", "tests/text_test.cpp"})
    db.push_back({{"directory", ws.root()},
                  {"file", ws.path(f)},
                  {"command", std::string("c++ -std=c++17 -Iinclude -c ") + f + " -o /tmp/unused.o"}});
  ws.write("compile_commands.json", db.dump(2));
  openToSandbox(ws);
  ScriptedModel model(gtestRules());
  auto r = generate(ws, &model, {"src/text.cpp:14", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["tests"]["file"] == ws.path("tests/text_test.cpp"));
  CHECK(r.json["tests"]["count"] == 4);
  CHECK(r.json["summary"]["rounds"] == 2);
  CHECK(r.json["summary"]["passed"] == 4);
  CHECK_THAT(r.err, Catch::Contains("Duration.Trivial: passes on the stub"));
  CHECK(ws.read("tests/text_test.cpp") == std::string(kOldGtests) + "\n" + kGtestProposed);
  CHECK_THAT(ws.read("src/text.cpp"), Catch::Contains("total += n * 3600;"));
}
