// Pure tests of the run-tests conversions: column units -> LSP positions, RunResult -> per-file
// diagnostics (ranges, related information, data, empty entries), test file -> source.
#include <algorithm>
#include <catch2/catch.hpp>

#include "lsp/features/RunTestsDiagnostics.h"
#include "lsp/features/RunTestsPositions.h"
#include "lsp/features/RunTestsSourceFor.h"

using namespace greenlight;
using lsp::ColumnUnit;
using protocol::PositionEncoding;

namespace {
const std::string kEmoji = "\xF0\x9F\x98\x80";  // U+1F600: 4 bytes, 2 UTF-16 units, 2 columns
const std::string kCjk = "\xE6\xBC\xA2";        // U+6F22: 3 bytes, 1 UTF-16 unit, 2 columns
}  // namespace

TEST_CASE("byteInLine converts every producer unit") {
  const std::string line = "s = \"" + kEmoji + kCjk + "\" + )";
  const std::size_t paren = line.find(')');
  // ')' is code point 12, UTF-16 unit 13, display column 14, byte 17 (all 1-based).
  CHECK(lsp::byteInLine(line, 12, ColumnUnit::CodePoints) == paren);
  CHECK(lsp::byteInLine(line, 13, ColumnUnit::Utf16) == paren);
  CHECK(lsp::byteInLine(line, 14, ColumnUnit::Display) == paren);
  CHECK(lsp::byteInLine(line, static_cast<int>(paren) + 1, ColumnUnit::Bytes) == paren);
  // Clamping and rounding down inside a character.
  CHECK(lsp::byteInLine(line, 500, ColumnUnit::Utf16) == line.size());
  CHECK(lsp::byteInLine(line, 0, ColumnUnit::Bytes) == 0);
  CHECK(lsp::byteInLine(line, 7, ColumnUnit::Utf16) == line.find(kEmoji));  // second surrogate half
  // gcc expands tabs to the next multiple of 8.
  CHECK(lsp::byteInLine("\tint x = ;", 17, ColumnUnit::Display) == 9);
  CHECK(lsp::byteInLine("ab\tc", 9, ColumnUnit::Display) == 3);
}

TEST_CASE("producer units: Python code points, V8 UTF-16, gcc display, clang bytes") {
  using core::testing::Language;
  CHECK(lsp::producerUnit(Language::Python, true, "g++") == ColumnUnit::CodePoints);
  CHECK(lsp::producerUnit(Language::JavaScript, false, "g++") == ColumnUnit::Utf16);
  CHECK(lsp::producerUnit(Language::Cxx, true, "g++") == ColumnUnit::Display);
  CHECK(lsp::producerUnit(Language::Cxx, true, "/usr/bin/clang++-14") == ColumnUnit::Bytes);
  CHECK(lsp::producerUnit(Language::Cxx, false, "g++") == ColumnUnit::Bytes);
}

namespace {

core::testing::RunResult pythonResult(const std::string& src, const std::string& test) {
  core::testing::RunResult r;
  r.file = src;
  r.language = core::testing::Language::Python;
  r.files = {src, test};
  return r;
}

lsp::FileSource texts(std::map<std::string, std::string> files) {
  return [files](const std::string& path) {
    lsp::FileState s;
    if (auto it = files.find(path); it != files.end()) s.text = it->second;
    if (path == "/w/m.py") {
      s.uri = "file:///w/m.py";
      s.version = 7;
    }
    return s;
  };
}

}  // namespace

TEST_CASE("toLspDiagnostics: byte ranges after emoji/CJK become UTF-16, related and data filled") {
  const std::string line = "    x = \"" + kEmoji + kCjk + "\"; raise ValueError(x)  ";
  const std::string src = "def f():\n" + line + "\n";
  const std::string test = "from m import f\n\ndef test_f():\n    assert f() == 1\n";
  auto r = pythonResult("/w/m.py", "/w/test_m.py");
  core::testing::Diagnostic d;
  d.file = "/w/m.py";
  d.line = 2;
  d.column = 5;                                               // first non-blank, bytes
  d.endColumn = static_cast<int>(line.find_last_not_of(' ')) + 2;  // one past the last, bytes
  d.endLine = 2;
  d.code = "runtime-error";
  d.message = "test_f: ValueError: x";
  d.related.push_back({"/w/test_m.py", 4, 0, "called from test_f"});
  d.data = {{"test", "test_f"}, {"status", "error"}, {"output", "printed"}, {"frames", nlohmann::json::array()}};
  r.diagnostics.push_back(d);
  core::testing::TestResult t;
  t.name = "test_f";
  t.file = "/w/test_m.py";
  r.tests.push_back(t);

  auto out = lsp::toLspDiagnostics(r, texts({{"/w/m.py", src}, {"/w/test_m.py", test}}), PositionEncoding::Utf16, "g++");
  REQUIRE(out.size() == 2);
  CHECK(out["/w/test_m.py"].diagnostics.empty());  // owned by the run: published empty
  CHECK(out["/w/test_m.py"].uri == "file:///w/test_m.py");
  CHECK_FALSE(out["/w/test_m.py"].version);
  auto& m = out["/w/m.py"];
  CHECK(m.uri == "file:///w/m.py");
  CHECK(m.version == 7);
  REQUIRE(m.diagnostics.size() == 1);
  const auto& ld = m.diagnostics[0];
  CHECK(ld.range.start.line == 1);
  CHECK(ld.range.start.character == 4);
  // "    x = \"" (9) + emoji (2) + CJK (1) + "\"; raise ValueError(x)" (22) = 34 UTF-16 units.
  CHECK(ld.range.end.line == 1);
  CHECK(ld.range.end.character == 34);
  CHECK(ld.source == "greenlight");
  CHECK(ld.code == "runtime-error");
  REQUIRE(ld.relatedInformation.size() == 1);
  CHECK(ld.relatedInformation[0].location.uri == "file:///w/test_m.py");
  CHECK(ld.relatedInformation[0].location.range.start == protocol::Position{3, 4});
  CHECK(ld.relatedInformation[0].location.range.end == protocol::Position{3, 19});
  CHECK(ld.data["test"] == "test_f");
  CHECK(ld.data["testFile"] == "/w/test_m.py");
  CHECK(ld.data["message"] == "test_f: ValueError: x");
  CHECK(ld.data["output"] == "printed");

  // The same run for a UTF-8 client: byte columns.
  auto utf8 = lsp::toLspDiagnostics(r, texts({{"/w/m.py", src}, {"/w/test_m.py", test}}), PositionEncoding::Utf8, "g++");
  CHECK(utf8["/w/m.py"].diagnostics[0].range.end.character == line.find_last_not_of(' ') + 1);
}

TEST_CASE("toLspDiagnostics: a frame's column is read in the producer's unit") {
  const std::string line = "s = \"" + kEmoji + kCjk + "\" + )";
  auto r = pythonResult("/w/m.py", "/w/test_m.py");
  core::testing::Diagnostic d;
  d.file = "/w/m.py";
  d.line = 1;
  d.column = 12;  // SyntaxError.offset: code points
  d.endLine = 1;
  d.endColumn = static_cast<int>(line.size()) + 1;
  d.code = "compile-error";
  d.data = {{"test", "m (import)"}, {"frames", {{{"file", "/w/m.py"}, {"line", 1}, {"column", 12}}}}};
  r.diagnostics.push_back(d);
  auto out = lsp::toLspDiagnostics(r, texts({{"/w/m.py", line + "\n"}}), PositionEncoding::Utf16, "g++");
  REQUIRE(out["/w/m.py"].diagnostics.size() == 1);
  CHECK(out["/w/m.py"].diagnostics[0].range.start.character == 12);  // UTF-16 index of ')'
  CHECK(out["/w/m.py"].diagnostics[0].range.end.character == 13);
}

TEST_CASE("toLspDiagnostics: an unreadable file keeps the raw line") {
  auto r = pythonResult("/w/m.py", "/w/gone.py");
  core::testing::Diagnostic d;
  d.file = "/w/gone.py";
  d.line = 3;
  d.column = 2;
  d.endLine = 3;
  d.endColumn = 5;
  d.code = "test-failed";
  r.diagnostics.push_back(d);
  auto out = lsp::toLspDiagnostics(r, texts({}), PositionEncoding::Utf16, "g++");
  REQUIRE(out["/w/gone.py"].diagnostics.size() == 1);
  CHECK(out["/w/gone.py"].diagnostics[0].range.start == protocol::Position{2, 1});
}

TEST_CASE("a saved test file maps to its source") {
  CHECK(lsp::sourceCandidatesFor("/w/test_m.py") == std::vector<std::string>{"/w/m.py"});
  CHECK(lsp::sourceCandidatesFor("/w/m_test.py") == std::vector<std::string>{"/w/m.py"});
  CHECK(lsp::sourceCandidatesFor("/w/tests/test_m.py") == std::vector<std::string>{"/w/tests/m.py", "/w/m.py"});
  CHECK(lsp::sourceCandidatesFor("/w/m.test.js").front() == "/w/m.js");
  {
    // Same extension first, beside the test, then the TypeScript/JavaScript siblings, then the
    // same names one directory up (a test in __tests__/ for a source beside that directory).
    const auto c = lsp::sourceCandidatesFor("/w/__tests__/m.spec.mjs");
    REQUIRE(c.size() == 16);
    CHECK(c.front() == "/w/__tests__/m.mjs");
    CHECK(std::find(c.begin(), c.begin() + 8, "/w/__tests__/m.mts") != c.begin() + 8);
    CHECK(c[8] == "/w/m.mjs");
    CHECK(std::find(c.begin() + 8, c.end(), "/w/m.ts") != c.end());
  }
  CHECK(lsp::sourceCandidatesFor("/w/m_test.cpp").front() == "/w/m.cpp");
  CHECK(lsp::sourceCandidatesFor("/w/test_m.cpp")[3] == "/w/m.hpp");
  CHECK(lsp::sourceCandidatesFor("/w/m.py").empty());
  CHECK(lsp::sourceCandidatesFor("/w/README.md").empty());
  CHECK(lsp::sourceFor("/w/test_m.py", [](const std::string& p) { return p == "/w/m.py"; }) == "/w/m.py");
  CHECK_FALSE(lsp::sourceFor("/w/test_m.py", [](const std::string&) { return false; }));
}

TEST_CASE("toLspDiagnostics: JavaScript frame columns are UTF-16, text-derived ones bytes") {
  const std::string line = "  const s = \"" + kEmoji + kCjk + "\"; throw new Error(s);";
  const std::string test = "test('t', () => { assert.equal(f(\"" + kEmoji + "\"), 1); });";
  const int throwCol = 20;   // 1-based UTF-16: "  const s = \"" (13) + 2 + 1 + "\"; " (3) -> 19 units before
  const int assertCol = 19;  // 1-based UTF-16 of "assert" in the test line
  core::testing::RunResult r;
  r.file = "/w/m.js";
  r.language = core::testing::Language::JavaScript;
  r.files = {"/w/m.js", "/w/m.test.js"};
  core::testing::Diagnostic d;
  d.file = "/w/m.js";
  d.line = 2;
  d.column = throwCol;
  d.endLine = 2;
  d.endColumn = static_cast<int>(line.size()) + 1;
  d.code = "runtime-error";
  d.related.push_back({"/w/m.test.js", 1, assertCol, "called from t"});
  d.data = {{"test", "t"},
            {"frames", {{{"file", "/w/m.test.js"}, {"line", 1}, {"column", assertCol}}, {{"file", "/w/m.js"}, {"line", 2}, {"column", throwCol}}}}};
  r.diagnostics.push_back(d);
  auto out = lsp::toLspDiagnostics(r, texts({{"/w/m.js", "function f() {\n" + line + "\n}\n"}, {"/w/m.test.js", test + "\n"}}),
                                   PositionEncoding::Utf16, "g++");
  REQUIRE(out["/w/m.js"].diagnostics.size() == 1);
  const auto& ld = out["/w/m.js"].diagnostics[0];
  CHECK(ld.range.start == protocol::Position{1, 19});  // "throw"
  CHECK(ld.range.end == protocol::Position{1, static_cast<std::uint32_t>(line.size() - 4)});  // emoji 4->2, CJK 3->1 bytes
  REQUIRE(ld.relatedInformation.size() == 1);
  CHECK(ld.relatedInformation[0].location.range.start == protocol::Position{0, 18});  // "assert"
}
