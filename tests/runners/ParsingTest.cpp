#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "core/testing/OutputParsing.h"
#include "core/testing/harness/Harnesses.h"

using namespace greenlight::core::testing;

TEST_CASE("extractEvents splits harness lines from plain output") {
  std::string text = "hello\n\x1eGL {\"ev\":\"start\",\"name\":\"t\"}\npartial\n\x1eGL {bad json}\n\x1eGL {\"ev\":\"done\"}\ntail";
  auto s = extractEvents(text);
  REQUIRE(s.events.size() == 2);
  CHECK(s.events[0]["ev"] == "start");
  CHECK(s.events[1]["ev"] == "done");
  CHECK(s.rest == "hellopartialtail");
}

TEST_CASE("extractEvents keeps an event whose JSON carries lone surrogates (Python's surrogateescape)") {
  // A test printed bytes that are not UTF-8: Python's json writes "\udcff", which a strict
  // parser refuses; the event (and the test's result) must not be lost.
  std::string text = std::string("\n") + kEventMarker +
                     R"({"ev":"result","name":"test_bytes","status":"passed","output":"x\udcffy \ud83d\ude00 \\udcff"})" + "\n";
  auto s = extractEvents(text);
  REQUIRE(s.events.size() == 1);
  auto r = resultFromEvent(s.events[0]);
  CHECK(r.name == "test_bytes");
  CHECK(r.output == "x\xEF\xBF\xBDy \xF0\x9F\x98\x80 \\udcff");  // lone -> U+FFFD, a pair kept, an escaped backslash kept
}

TEST_CASE("foldEvents: a test that started and never finished is the running one") {
  std::vector<nlohmann::json> ev = {
      {{"ev", "start"}, {"name", "a"}, {"file", "/w/t.py"}, {"line", 3}},
      {{"ev", "result"}, {"name", "a"}, {"file", "/w/t.py"}, {"line", 3}, {"status", "failed"}, {"kind", "assertion"},
       {"message", "AssertionError: f(1) returned 2, expected 3"}, {"expected", "3"}, {"actual", "2"},
       {"frames", {{{"file", "/w/t.py"}, {"line", 4}, {"function", "a"}}}}},
      {{"ev", "start"}, {"name", "b"}, {"file", "/w/t.py"}, {"line", 7}},
  };
  auto o = foldEvents(ev);
  REQUIRE(o.results.size() == 1);
  CHECK(o.results[0].status == TestStatus::Failed);
  CHECK(o.results[0].kind == FailureKind::Assertion);
  CHECK(o.results[0].expected == "3");
  CHECK(o.results[0].frames.at(0).line == 4);
  REQUIRE(o.running);
  CHECK(o.running->name == "b");
  CHECK_FALSE(o.done);
}

TEST_CASE("foldEvents: loaded clears an import that succeeded") {
  std::vector<nlohmann::json> ev = {{{"ev", "start"}, {"name", "m (import)"}}, {{"ev", "loaded"}, {"name", "m (import)"}},
                                    {{"ev", "done"}}};
  auto o = foldEvents(ev);
  CHECK_FALSE(o.running);
  CHECK(o.done);
  CHECK(o.results.empty());
}

TEST_CASE("parseCompilerOutput reads gcc and clang errors") {
  std::string out =
      "/work/src/a.cpp: In function 'int f()':\n"
      "/work/src/a.cpp:3:10: error: 'x' was not declared in this scope\n"
      "/work/src/a.cpp:4:1: warning: no return statement [-Wreturn-type]\n"
      "/work/src/b.h:9: error: expected ';'\n"
      "In file included from x.cpp:1:\n"
      "a.cpp:12:5: fatal error: missing.h: No such file or directory\n"
      "/usr/bin/ld: /tmp/cc.o: in function `main':\n"
      "/work/src/t.cpp:5: undefined reference to `g()'\n";
  auto m = parseCompilerOutput(out);
  REQUIRE(m.size() == 5);
  CHECK(m[0].file == "/work/src/a.cpp");
  CHECK(m[0].line == 3);
  CHECK(m[0].column == 10);
  CHECK(m[0].severity == "error");
  CHECK(m[0].message == "'x' was not declared in this scope");
  CHECK(m[1].severity == "warning");
  CHECK(m[2].column == 0);
  CHECK(m[3].severity == "fatal error");
  CHECK(m[4].message == "undefined reference to `g()'");
}

TEST_CASE("parseGenericLocations finds file:line[:col] anywhere") {
  auto m = parseGenericLocations("FAIL at src/m.rb:12:3: expected 1\n  (x.go:7)\nnothing here: 12\n");
  REQUIRE(m.size() == 2);
  CHECK(m[0].file == "src/m.rb");
  CHECK(m[0].line == 12);
  CHECK(m[0].column == 3);
  CHECK(m[0].message == "expected 1");
  CHECK(m[1].file == "x.go");
  CHECK(m[1].line == 7);
}

TEST_CASE("parseGenericLocations takes the severity and the code from the line") {
  auto m = parseGenericLocations(
      "src/a.c:3:5: error: expected ';'\n"
      "src/a.c:4: Warning: unused x\r\n"
      "src/a.c:4:2: note: declared here\n"
      "src/a.rs:9:1: error[E0308]: mismatched types\n"
      "src/a.c:7: fatal error: x.h: No such file\n"
      "test_a.c:12: expected 3, got 2\n");
  REQUIRE(m.size() == 6);
  CHECK(m[0].severity == "error");
  CHECK(m[0].code == "compile-error");
  CHECK(m[0].message == "expected ';'");
  CHECK(m[1].severity == "warning");
  CHECK(m[1].message == "unused x");
  CHECK(m[2].severity == "note");
  CHECK(m[2].message == "declared here");
  CHECK(m[3].severity == "error");
  CHECK(m[3].message == "mismatched types");
  CHECK(m[4].severity == "fatal error");
  CHECK(m[5].severity == "error");
  CHECK(m[5].code == "test-failed");
  CHECK(m[5].message == "expected 3, got 2");
}

TEST_CASE("parseAssertFailure reads glibc's message") {
  auto a = parseAssertFailure("test: /work/src/t.cpp:12: int main(): Assertion `f(3) == 4' failed.\n");
  REQUIRE(a);
  CHECK(a->file == "/work/src/t.cpp");
  CHECK(a->line == 12);
  CHECK(a->function == "int main()");
  CHECK(a->expression == "f(3) == 4");
  CHECK_FALSE(parseAssertFailure("Segmentation fault"));
}

TEST_CASE("PathMap maps files, then prefixes, and leaves others alone") {
  PathMap m;
  m.addPrefix("/work/src/", "/home/u/proj");
  m.addFile("/work/.gl/x", "/host/x");
  CHECK(m.toHost("/work/src/a/b.py") == "/home/u/proj/a/b.py");
  CHECK(m.toHost("/work/srcx/b.py") == "/work/srcx/b.py");
  CHECK(m.toHost("/work/.gl/x") == "/host/x");
  CHECK(m.toHost("/usr/lib/python3.11/x.py") == "/usr/lib/python3.11/x.py");
}

TEST_CASE("capText cuts on a UTF-8 boundary") {
  std::string s = "ab\xc3\xa9";  // "abé"
  auto c = capText(s, 3);
  CHECK(c.rfind("ab\n[output truncated]", 0) == 0);
  CHECK(capText("short", 10) == "short");
}

TEST_CASE("embedded harnesses are unwrapped to their language") {
  auto py = harness::pythonHarness();
  CHECK(py.rfind("# greenlight's Python test harness", 0) == 0);
  CHECK(py.find("GLPY") == std::string_view::npos);
  CHECK(py.find("def main():") != std::string_view::npos);
  auto js = harness::nodeHarness();
  CHECK(js.rfind("// greenlight's JavaScript test harness", 0) == 0);
  CHECK(js.find("GLJS") == std::string_view::npos);
  auto rep = harness::nodeReporter();
  CHECK(rep.find("export default async function*") != std::string_view::npos);
  CHECK(rep.find("GLJS") == std::string_view::npos);
  auto cc = harness::cxxSupport();
  CHECK(cc.find("set_terminate") != std::string_view::npos);
  CHECK(cc.find("GLCC") == std::string_view::npos);
  auto ah = harness::cxxAssertHeader();
  CHECK(ah.rfind("// greenlight's <assert.h>", 0) == 0);
  CHECK(ah.find("#include_next <assert.h>") != std::string_view::npos);
  CHECK(ah.find("GLAH") == std::string_view::npos);
  auto rw = harness::nodeRewriter();
  CHECK(rw.rfind("// greenlight's assert rewriter", 0) == 0);
  CHECK(rw.find("module.exports = {rewrite") != std::string_view::npos);
  CHECK(rw.find("GLJS") == std::string_view::npos);
}

TEST_CASE("the project runners' Python scripts are embedded unwrapped") {
  auto plugin = harness::pytestPlugin();  // staged as _greenlight_pytest.py
  CHECK(plugin.rfind("\"\"\"greenlight's pytest plugin, implementation", 0) == 0);
  CHECK(plugin.find("PYTEST_DONT_REWRITE") != std::string_view::npos);
  CHECK(plugin.find("def pytest_runtest_logfinish(") != std::string_view::npos);
  CHECK(plugin.find("GLPY") == std::string_view::npos);
  auto entry = harness::pytestPluginEntry();  // staged as greenlight_pytest.py
  CHECK(entry.find("from _greenlight_pytest import *") != std::string_view::npos);
  CHECK(entry.find("GLPY") == std::string_view::npos);
  auto ut = harness::unittestRunner();  // staged as greenlight_unittest.py
  CHECK(ut.rfind("\"\"\"greenlight's unittest runner", 0) == 0);
  CHECK(ut.find("class GreenlightRunner(unittest.TextTestRunner):") != std::string_view::npos);
  CHECK(ut.find("GLPY") == std::string_view::npos);
  auto warm = harness::pythonWarm();
  CHECK(warm.find("class _Stash:") != std::string_view::npos);
  CHECK(warm.find("GLPY") == std::string_view::npos);
}

TEST_CASE("the embedded acorn is the vendored file, byte for byte") {
  std::ifstream in(std::string(GL_SOURCE_DIR) + "/third_party/acorn/acorn.js", std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  REQUIRE(text.str().size() > 100000);
  CHECK(harness::acornParser() == text.str());
}
