// The CMake File API reply, ctest --show-only=json-v1, compile_commands.json and the Ninja deps
// log, recorded from the projects in tests/projects/cxx configured and built in
// /tmp/glcxx-projects/<name>/{src,build} (verify_bugs.py). The include scan runs over the same
// projects in this tree: their recorded paths are moved here first.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/testing/cmake/FileApi.h"
#include "core/testing/cmake/TestTargets.h"

using namespace greenlight::core::testing::cmake;
namespace fs = std::filesystem;

namespace {

std::string data(const std::string& rel) { return std::string(GL_CMAKE_DATA) + "/fileapi/" + rel; }

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CodeModel model(const std::string& project) {
  std::string err;
  auto m = readReplyDir(data(project + "/reply"), &err);
  INFO(err);
  REQUIRE(m);
  return *m;
}

std::vector<CtestTest> tests(const std::string& project, const CodeModel& m, const DepsIndex* deps) {
  std::string err;
  auto t = parseCtestJson(readAll(data(project + "/ctest.json")), &err);
  INFO(err);
  REQUIRE_FALSE(t.empty());
  attachTargets(t, m, deps);
  return t;
}

DepsIndex deps(const std::string& project) {
  std::string err;
  auto d = parseNinjaDepsLog(readAll(data(project + "/ninja_deps.bin")), "/tmp/glcxx-projects/" + project + "/build", &err);
  INFO(err);
  REQUIRE(d);
  return *d;
}

const CtestTest& test(const std::vector<CtestTest>& ts, const std::string& name) {
  for (const auto& t : ts)
    if (t.name == name) return t;
  FAIL("no CTest test " << name);
  throw;
}

std::string replacePrefix(const std::string& s, const std::string& from, const std::string& to) {
  return s.rfind(from, 0) == 0 ? to + s.substr(from.size()) : s;
}

// The recorded model with its source paths moved to the same project in this tree.
CodeModel relocated(const std::string& project) {
  CodeModel m = model(project);
  const std::string from = "/tmp/glcxx-projects/" + project + "/src";
  const std::string to = fs::path(std::string(GL_SOURCE_DIR) + "/tests/projects/cxx/" + project).lexically_normal().string();
  m.sourceDir = replacePrefix(m.sourceDir, from, to);
  for (auto& t : m.targets) {
    t.sourceDir = replacePrefix(t.sourceDir, from, to);
    for (auto& s : t.sources) s.path = replacePrefix(s.path, from, to);
    for (auto& g : t.compileGroups)
      for (auto& i : g.includes) i = replacePrefix(i, from, to);
  }
  return m;
}

std::set<std::string> names(const std::vector<const CtestTest*>& ts) {
  std::set<std::string> out;
  for (const auto* t : ts) out.insert(t->name);
  return out;
}

std::set<std::string> targetNames(const std::vector<FileUse>& uses) {
  std::set<std::string> out;
  for (const auto& u : uses) out.insert(u.target->name);
  return out;
}

}  // namespace

TEST_CASE("readReplyDir: targets, their sources, compile groups, link and toolchain") {
  CodeModel m = model("gtest-textstat");
  CHECK(m.generator == "Ninja");
  CHECK_FALSE(m.multiConfig);
  CHECK(m.configuration == "Debug");
  CHECK(m.cmakeVersion == "3.25.1");
  CHECK(m.sourceDir == "/tmp/glcxx-projects/gtest-textstat/src");
  CHECK(m.buildDir == "/tmp/glcxx-projects/gtest-textstat/build");
  CHECK(m.cache.at("CMAKE_BUILD_TYPE") == "Debug");
  CHECK(m.cache.at("CMAKE_GENERATOR") == "Ninja");
  REQUIRE(m.toolchain("CXX"));
  CHECK(m.toolchain("CXX")->compilerPath == "/usr/bin/c++");
  CHECK(m.toolchain("CXX")->compilerId == "GNU");
  CHECK(m.targets.size() == 5);

  const Target* t = m.find("textstat_tests");
  REQUIRE(t);
  CHECK(t->type == "EXECUTABLE");
  CHECK(t->artifacts == std::vector<std::string>{"/tmp/glcxx-projects/gtest-textstat/build/tests/textstat_tests"});
  CHECK(t->sourceDir == "/tmp/glcxx-projects/gtest-textstat/src/tests");
  CHECK(t->buildDir == "/tmp/glcxx-projects/gtest-textstat/build/tests");
  CHECK(t->objectDir() == "/tmp/glcxx-projects/gtest-textstat/build/tests/CMakeFiles/textstat_tests.dir");
  REQUIRE(t->sources.size() == 2);
  CHECK(t->sources[0].path == "/tmp/glcxx-projects/gtest-textstat/src/tests/tokenize_test.cpp");
  CHECK(t->sources[0].compileGroup == 0);
  REQUIRE(t->compileGroups.size() == 1);
  const auto& g = t->compileGroups[0];
  CHECK(g.language == "CXX");
  CHECK(g.languageStandard.empty());  // cxx_std_17 is GCC 12's default: no -std
  CHECK(g.defines == std::vector<std::string>{"TEXTSTAT_TESTING=1"});
  CHECK(g.includes == std::vector<std::string>{"/tmp/glcxx-projects/gtest-textstat/src/include"});
  CHECK(g.fragments == std::vector<std::string>{"-g", "-DGTEST_HAS_PTHREAD=1"});
  CHECK(g.compiler == "/usr/bin/c++");
  CHECK(t->hasLink);
  bool gtestLib = false;
  for (const auto& f : t->link) gtestLib |= f.role == "libraries" && f.fragment == "/usr/lib/x86_64-linux-gnu/libgtest.a";
  CHECK(gtestLib);
  REQUIRE(m.find("textstat"));
  CHECK(std::find(t->dependencies.begin(), t->dependencies.end(), m.find("textstat")->id) != t->dependencies.end());
  CHECK(t->definedIn == "/tmp/glcxx-projects/gtest-textstat/src/tests/CMakeLists.txt");
  CHECK(t->definedLine == 4);
  CHECK(m.find("textstat")->type == "STATIC_LIBRARY");
  CHECK_FALSE(m.find("textstat")->hasLink);
  CHECK(m.find("Experimental")->type == "UTILITY");
  CHECK(m.byArtifact("/tmp/glcxx-projects/gtest-textstat/build/tests/../tests/wordcount_check") == m.find("wordcount_check"));
}

TEST_CASE("readReplyDir: the language standard when CMake adds -std") {
  CodeModel m = model("doctest-ringbuf");
  const Target* t = m.find("ringbuf_tests");
  REQUIRE(t);
  CHECK(t->compileGroups.at(0).languageStandard == "20");
  CHECK(t->compileGroups.at(0).fragments == std::vector<std::string>{"-g", "-std=gnu++20"});
  CHECK(t->compileGroups.at(0).defines == std::vector<std::string>{"RINGBUF_CHECKED=1"});
}

TEST_CASE("readReplyDir: an unconfigured directory is an error, not a crash") {
  std::string err;
  CHECK_FALSE(readReplyDir(data("no-such-project/reply"), &err));
  CHECK(err.find("no File API reply") != std::string::npos);
  CHECK_FALSE(parseReply("{}", [](const std::string&) { return std::nullopt; }, &err));
  CHECK(err.find("codemodel") != std::string::npos);
}

TEST_CASE("compileArguments reproduces CMake's own compile commands exactly") {
  int compared = 0;
  for (const std::string project : {"gtest-textstat", "catch2-cliopts", "doctest-ringbuf"}) {
    CodeModel m = model(project);
    auto commands = parseCompileCommands(readAll(data(project + "/compile_commands.json")));
    REQUIRE_FALSE(commands.empty());
    for (const auto& cc : commands) {
      bool found = false;
      for (const auto& t : m.targets) {
        for (const auto& s : t.sources) {
          if (s.path != cc.file) continue;
          if (!(m.buildDir + "/" + cc.output).starts_with(t.objectDir() + "/")) continue;
          INFO(project << " " << cc.file);
          CHECK(compileArguments(m, t, s, cc.output) == cc.arguments);
          CHECK(compileArguments(m, t, s).at(compileArguments(m, t, s).size() - 3) == m.buildDir + "/" + cc.output);
          found = true;
          ++compared;
        }
      }
      CHECK(found);
    }
  }
  CHECK(compared == 5 + 4 + 5);
}

TEST_CASE("ctest json: tests, their commands, properties, targets and framework names") {
  CodeModel m = model("gtest-textstat");
  DepsIndex d = deps("gtest-textstat");
  auto ts = tests("gtest-textstat", m, &d);
  CHECK(ts.size() == 29);
  const auto& first = test(ts, "SplitWords.SeparatesOnPunctuationAndSpace");
  CHECK(first.target == "textstat_tests");
  CHECK(first.framework == Framework::GoogleTest);
  CHECK(first.frameworkName == "SplitWords.SeparatesOnPunctuationAndSpace");
  CHECK(first.workingDirectory == "/tmp/glcxx-projects/gtest-textstat/build/tests");
  CHECK(first.definedIn.empty());  // discovered tests have no add_test backtrace
  const auto& param = test(ts, "NearestRank/PercentileTest.ReturnsNearestRank/(100, 50)");
  CHECK(param.frameworkName == "NearestRank/PercentileTest.ReturnsNearestRank/5");
  const auto& disabled = test(ts, "Corpus.MillionWords");
  CHECK(disabled.disabled);
  CHECK(disabled.frameworkName == "Corpus.DISABLED_MillionWords");
  const auto& plain = test(ts, "wordcount_check");
  CHECK(plain.framework == Framework::Plain);
  CHECK(plain.target == "wordcount_check");
  CHECK(plain.frameworkName == "wordcount_check");
  CHECK(plain.definedIn == "/tmp/glcxx-projects/gtest-textstat/src/tests/CMakeLists.txt");
  CHECK(plain.definedLine == 12);
}

TEST_CASE("ctest json: Catch2's discovered tests are recognized from the headers the target includes") {
  CodeModel m = model("catch2-cliopts");
  DepsIndex d = deps("catch2-cliopts");
  CHECK(targetFramework(m, *m.find("cliopts_tests"), &d) == Framework::Catch2);
  CHECK(targetFramework(m, *m.find("example"), &d) == Framework::Plain);
  auto ts = tests("catch2-cliopts", m, &d);
  CHECK(ts.size() == 12);
  const auto& t = test(ts, "positional arguments and the -- separator");
  CHECK(t.framework == Framework::Catch2);
  CHECK(t.frameworkName == "positional arguments and the -- separator");
  CHECK(t.target == "cliopts_tests");
  const auto& ex = test(ts, "example_wraps");
  CHECK(ex.framework == Framework::Plain);
  CHECK(ex.target == "example");
  CHECK(ex.command == std::vector<std::string>{"/tmp/glcxx-projects/catch2-cliopts/build/example", "--width", "10", "alpha",
                                               "beta", "gamma"});
  // Without a build (no deps): the #include scan finds the bundled catch.hpp through the
  // target's include directories.
  CodeModel here = relocated("catch2-cliopts");
  CHECK(targetFramework(here, *here.find("cliopts_tests")) == Framework::Catch2);
  CHECK(targetFramework(here, *here.find("example")) == Framework::Plain);
}

TEST_CASE("ctest json: doctest's --test-case names") {
  CodeModel m = model("doctest-ringbuf");
  auto ts = tests("doctest-ringbuf", m, nullptr);
  CHECK(ts.size() == 13);
  const auto& t = test(ts, "moving minimum, maximum and trend");
  CHECK(t.framework == Framework::Doctest);
  CHECK(t.frameworkName == "moving minimum, maximum and trend");
  CHECK(t.target == "ringbuf_tests");
  CHECK(test(ts, "ringbuf_selfcheck").framework == Framework::Plain);
}

TEST_CASE("the Ninja deps log reads as ninja -t deps prints it") {
  DepsIndex d = deps("doctest-ringbuf");
  // ninja -t deps: "<out>: #deps N, deps mtime M (VALID)" then the inputs indented.
  std::map<std::string, std::vector<std::string>> expected;
  std::istringstream in(readAll(data("doctest-ringbuf/ninja-t-deps.txt")));
  std::string current;
  for (std::string l; std::getline(in, l);) {
    if (l.empty()) continue;
    if (l[0] != ' ') {
      current = "/tmp/glcxx-projects/doctest-ringbuf/build/" + l.substr(0, l.find(": #deps"));
      expected[current];
    } else {
      expected[current].push_back(l.substr(l.find_first_not_of(' ')));
    }
  }
  REQUIRE(expected.size() == 5);
  CHECK(d.objects == expected);
  const auto& obj = d.objects.at("/tmp/glcxx-projects/doctest-ringbuf/build/tests/CMakeFiles/ringbuf_selfcheck.dir/selfcheck.cpp.o");
  CHECK(obj.front() == "/tmp/glcxx-projects/doctest-ringbuf/src/tests/selfcheck.cpp");
  std::string err;
  CHECK_FALSE(parseNinjaDepsLog("not a deps log", "/b", &err));
  CHECK(err == ".ninja_deps: bad signature");
}

TEST_CASE("depfiles and compile_commands.json") {
  auto dep = parseDepfile("CMakeFiles/x.dir/a.cpp.o: /p/a.cpp /p/include/a.h \\\n  /usr/include/c++/12/string \\\n /p/with\\ space.h\n");
  REQUIRE(dep.size() == 1);
  CHECK(dep[0].first == "CMakeFiles/x.dir/a.cpp.o");
  CHECK(dep[0].second ==
        std::vector<std::string>{"/p/a.cpp", "/p/include/a.h", "/usr/include/c++/12/string", "/p/with space.h"});
  auto cc = parseCompileCommands(R"([
    {"directory": "/b", "file": "../s/a.cpp", "arguments": ["c++", "-I", "inc", "-isystem", "/sys", "-Iother", "-c", "../s/a.cpp", "-o", "a.o"]},
    {"directory": "/b", "file": "/s/b.cpp", "command": "c++ -DX=\"a b\" '-I/q q' -o b.o -c /s/b.cpp"}
  ])");
  REQUIRE(cc.size() == 2);
  CHECK(cc[0].file == "/s/a.cpp");
  CHECK(cc[0].output == "a.o");
  CHECK(includeDirsOf(cc[0]) == std::vector<std::string>{"/b/inc", "/sys", "/b/other"});
  CHECK(cc[1].arguments == std::vector<std::string>{"c++", "-DX=a b", "-I/q q", "-o", "b.o", "-c", "/s/b.cpp"});
  CHECK(cc[1].output == "b.o");
  CHECK(splitCommandLine(R"(a "b \"c\"" 'd e' f\ g)") == std::vector<std::string>{"a", "b \"c\"", "d e", "f g"});
}

TEST_CASE("the tests near a file: header, library source, test source (from the deps log)") {
  CodeModel m = model("doctest-ringbuf");
  DepsIndex d = deps("doctest-ringbuf");
  auto ts = tests("doctest-ringbuf", m, &d);
  const std::string src = "/tmp/glcxx-projects/doctest-ringbuf/src/";

  auto header = targetsUsing(m, src + "include/ringbuf/ring_buffer.hpp", &d);
  CHECK(targetNames(header) == std::set<std::string>{"ringbuf", "ringbuf_tests", "ringbuf_selfcheck"});
  for (const auto& u : header)
    if (u.target->name == "ringbuf_tests")
      CHECK(u.via == std::vector<std::string>{src + "tests/test_moving_stats.cpp", src + "tests/test_ring_buffer.cpp"});
  CHECK(names(testsUsing(m, ts, src + "include/ringbuf/ring_buffer.hpp", &d)).size() == 13);

  // A source of the library: its users link it.
  auto lib = targetsUsing(m, src + "src/moving_stats.cpp", &d);
  CHECK(targetNames(lib) == std::set<std::string>{"ringbuf", "ringbuf_tests", "ringbuf_selfcheck"});
  for (const auto& u : lib)
    if (u.target->name != "ringbuf") CHECK(u.through == "ringbuf");
  // A test source: only its own binary's tests.
  auto near = names(testsUsing(m, ts, src + "tests/test_moving_stats.cpp", &d));
  CHECK(near.size() == 12);
  CHECK(near.count("ringbuf_selfcheck") == 0);
  CHECK(names(testsUsing(m, ts, src + "tests/selfcheck.cpp", &d)) == std::set<std::string>{"ringbuf_selfcheck"});
  CHECK(testsUsing(m, ts, src + "README.md", &d).empty());
}

TEST_CASE("the tests near a header of a header-only library, and of a src/ library") {
  CodeModel m = model("gtest-textstat");
  DepsIndex d = deps("gtest-textstat");
  auto ts = tests("gtest-textstat", m, &d);
  const std::string src = "/tmp/glcxx-projects/gtest-textstat/src/";
  CHECK(targetNames(targetsUsing(m, src + "include/textstat/stats.h", &d)) ==
        std::set<std::string>{"textstat_tests", "wordcount", "wordcount_check"});
  CHECK(names(testsUsing(m, ts, src + "include/textstat/stats.h", &d)).size() == 29);
  CHECK(names(testsUsing(m, ts, src + "src/tokenize.cpp", &d)).size() == 29);
  CHECK(names(testsUsing(m, ts, src + "tests/stats_test.cpp", &d)).size() == 28);

  CodeModel c = model("catch2-cliopts");
  DepsIndex cd = deps("catch2-cliopts");
  auto cts = tests("catch2-cliopts", c, &cd);
  CHECK(names(testsUsing(c, cts, "/tmp/glcxx-projects/catch2-cliopts/src/include/cliopts/cliopts.hpp", &cd)).size() == 12);
  CHECK(names(testsUsing(c, cts, "/tmp/glcxx-projects/catch2-cliopts/src/src/example.cpp", &cd)) ==
        std::set<std::string>{"example_help", "example_wraps"});
}

TEST_CASE("test targets come from the build graph: every framework executable, registered or not") {
  CodeModel m = model("doctest-ringbuf");
  DepsIndex d = deps("doctest-ringbuf");
  auto keys = [](const std::map<std::string, TestTarget>& ts) {
    std::set<std::string> out;
    for (const auto& [name, t] : ts) out.insert(name);
    return out;
  };
  SECTION("no CTest at all: the doctest executable is a test target, the plain program and the library are not") {
    auto ts = testTargets(m, {}, &d);
    CHECK(keys(ts) == std::set<std::string>{"ringbuf_tests"});
    CHECK(ts.at("ringbuf_tests").framework == Framework::Doctest);
    CHECK_FALSE(ts.at("ringbuf_tests").registered());
  }
  SECTION("no deps log either (not built yet): the #include scan finds the framework") {
    CodeModel here = relocated("doctest-ringbuf");  // the reply's paths moved to the fixture's sources
    auto ts = testTargets(here, {}, nullptr);
    CHECK(keys(ts) == std::set<std::string>{"ringbuf_tests"});
  }
  SECTION("CTest's registrations add the plain program and the per-case names") {
    auto ct = tests("doctest-ringbuf", m, &d);
    auto ts = testTargets(m, ct, &d);
    CHECK(keys(ts) == std::set<std::string>{"ringbuf_tests", "ringbuf_selfcheck"});
    CHECK(ts.at("ringbuf_tests").ctest.size() == 12);
    CHECK(ts.at("ringbuf_selfcheck").framework == Framework::Plain);
  }
}

TEST_CASE("GoogleTest filter patterns cover every instance of a declaration") {
  const std::string p = gtestPatterns("Suite.Name");
  auto has = [&](const std::string& x) { return (":" + p + ":").find(":" + x + ":") != std::string::npos; };
  CHECK(has("Suite.Name"));      // TEST, TEST_F
  CHECK(has("*/Suite.Name/*"));  // TEST_P instantiated: Inst/Suite.Name/0
  CHECK(has("Suite/*.Name"));    // TYPED_TEST: Suite/0.Name
  CHECK(has("*/Suite/*.Name"));  // TYPED_TEST_P instantiated: Inst/Suite/0.Name
}

TEST_CASE("the tests near a file without a build: the #include scan agrees with the deps log") {
  for (const std::string project : {"gtest-textstat", "catch2-cliopts", "doctest-ringbuf"}) {
    CodeModel built = model(project);
    DepsIndex d = deps(project);
    CodeModel here = relocated(project);
    const std::string from = "/tmp/glcxx-projects/" + project + "/src";
    for (const auto& t : here.targets) {
      for (const auto& s : t.sources) {
        if (s.compileGroup < 0) continue;
        // Every project header the compiler read for this source, the scan finds too.
        for (const auto& [obj, inputs] : d.objects) {
          if (inputs.empty() || replacePrefix(inputs.front(), from, here.sourceDir) != s.path) continue;
          std::vector<std::string> dirs = t.compileGroups[static_cast<std::size_t>(s.compileGroup)].includes;
          auto scanned = scanIncludes(s.path, dirs);
          for (const auto& in : inputs) {
            if (in.rfind(from + "/", 0) != 0 || in == inputs.front()) continue;
            INFO(project << ": " << s.path << " includes " << in);
            CHECK(std::find(scanned.begin(), scanned.end(), replacePrefix(in, from, here.sourceDir)) != scanned.end());
          }
        }
      }
    }
    for (const char* header : {"include/textstat/stats.h", "include/cliopts/cliopts.hpp", "include/ringbuf/ring_buffer.hpp"}) {
      const std::string inBuilt = from + "/" + header;
      const std::string inHere = here.sourceDir + "/" + header;
      if (!fs::exists(inHere)) continue;
      CHECK(targetNames(targetsUsing(here, inHere)) == targetNames(targetsUsing(built, inBuilt, &d)));
    }
  }
}

TEST_CASE("writeQuery writes the client query CMake answers") {
  char tmpl[] = "/tmp/gl-fileapi-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  std::string err;
  REQUIRE(writeQuery(tmpl, &err));
  auto j = nlohmann::json::parse(readAll(std::string(tmpl) + "/.cmake/api/v1/query/client-greenlight/query.json"));
  CHECK(j["requests"].size() == 3);
  CHECK(j["requests"][0]["kind"] == "codemodel");
  CHECK(j["requests"][0]["version"] == 2);
  fs::remove_all(tmpl);
}
