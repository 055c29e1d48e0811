// Failures that show their values, through the real sandbox: JavaScript (rewritten asserts,
// node:assert, ES modules), C++ (greenlight's <assert.h>, Catch2, GoogleTest) and the lines of a
// custom tests.command. What is checked is what a user and the refine loop see: the message,
// actual/expected, and where the diagnostic lands.
#include <catch2/catch.hpp>

#include <filesystem>

#include "RunHelpers.h"
#include "TestUtil.h"
#include "core/testing/RunJson.h"

using namespace greenlight::core::testing;
using greenlight::test::describe;
using greenlight::test::diagAt;
using greenlight::test::find;
using greenlight::test::runIn;
using greenlight::test::runShell;
using greenlight::test::TempWorkspace;

TEST_CASE("javascript: console.assert, assert, assert.ok and node:assert show their values") {
  TempWorkspace ws;
  auto src = ws.write("m.js",
                      "function longest(xs) { return xs.length ? xs[0] : 'x'; }\n"
                      "function pairs(n) { return Array.from({length: n}, (_, i) => [i, i * 2]); }\n"
                      "function half(x) { return x / 3; }\n"
                      "module.exports = { longest, pairs, half };\n");
  auto test = ws.write("m.test.js",
                       "const test = require('node:test');\n"
                       "const assert = require('node:assert');\n"
                       "const { longest, pairs, half } = require('./m');\n"
                       "test('console', () => { console.assert(longest([]) === null); });\n"
                       "test('json', () => {\n"
                       "  assert(\n"
                       "    JSON.stringify(pairs(2)) === // the whole list\n"
                       "      JSON.stringify([[0, 0], [1, 1]])\n"
                       "  );\n"
                       "});\n"
                       "test('close', () => { assert.ok(Math.abs(half(3) - 1.5) < 1e-9); });\n"
                       "test('deep', () => { assert.deepStrictEqual(pairs(1), [[0, 1]]); });\n"
                       "test('plain', () => { const n = 2; console.assert(n + 1 === 4); });\n"
                       "test('alias', () => { const candidate = longest; console.assert(candidate(['a']) !== 'a'); });\n"
                       "test('passes', () => { console.assert(longest(['q']) === 'q'); assert(half(3) === 1); });\n");
  auto o = runIn(src, std::nullopt, 30);
  const auto& r = o.result;
  INFO(describe(r));
  REQUIRE(r.error.empty());
  auto* t = find(r, "console");
  REQUIRE(t);
  CHECK(t->message == "longest([]) returned 'x', expected null");
  CHECK(t->actual == "'x'");
  CHECK(t->expected == "null");
  auto* d = diagAt(r, test, 4);
  REQUIRE(d);
  CHECK(d->column == 33);  // `assert` of console.assert, as V8 places the call
  CHECK(d->data.value("actual", "") == "'x'");
  CHECK(d->data.value("expected", "") == "null");

  t = find(r, "json");
  REQUIRE(t);
  CHECK(t->message ==
        "AssertionError: JSON.stringify(pairs(2)) returned '[[0,0],[1,2]]', expected '[[0,0],[1,1]]'; "
        "pairs(2) returned [ [ 0, 0 ], [ 1, 2 ] ]");
  CHECK(diagAt(r, test, 6));

  t = find(r, "close");
  REQUIRE(t);
  CHECK(t->message == "AssertionError: Math.abs(half(3) - 1.5) returned 0.5, expected < 1e-9; half(3) returned 1");
  CHECK(t->expected == "< 1e-9");

  t = find(r, "deep");
  REQUIRE(t);
  CHECK(t->message == "AssertionError: pairs(1) returned [ [ 0, 0 ] ], expected [ [ 0, 1 ] ]");

  t = find(r, "plain");
  REQUIRE(t);
  CHECK(t->message == "console.assert(n + 1 === 4): 3 === 4 is false");
  CHECK(t->actual == "3");

  t = find(r, "alias");
  REQUIRE(t);
  CHECK(t->message == "longest(['a']) returned 'a', expected !== 'a'");
  CHECK(t->expected == "!== 'a'");

  REQUIRE(find(r, "passes"));
  CHECK(find(r, "passes")->status == TestStatus::Passed);

  // `run --json` carries them.
  auto json = runResultToJson(r);
  bool seen = false;
  for (const auto& x : json["tests"]) {
    if (x["name"] == "console") {
      CHECK(x["actual"] == "'x'");
      CHECK(x["expected"] == "null");
      seen = true;
    }
  }
  CHECK(seen);
}

TEST_CASE("javascript: ES modules, a user's own assert(), exact columns after astral characters") {
  TempWorkspace ws;
  auto src = ws.write("u.mjs",
                      "export function shout(s) { return s.toUpperCase() + '?'; }\n"
                      "export function boom() { throw new Error('boom'); }\n");
  auto test = ws.write("u.test.mjs",
                       "import { shout, boom } from './u.mjs';\n"
                       "function assert(ok, why) { if (!ok) throw new Error(why || 'failed'); }\n"
                       "const s = '𝒳𝒴';\n"
                       "console.assert(shout('a') === 'A!');\n");
  auto o = runIn(src, std::nullopt, 30);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  auto t = o.result.tests[0];
  CHECK(t.message == "shout('a') returned 'A?', expected 'A!'");
  CHECK(diagAt(o.result, test, 4));

  ws.write("u.test.mjs",
           "import { shout, boom } from './u.mjs';\n"
           "function assert(ok, why) { if (!ok) throw new Error(why || 'failed'); }\n"
           "assert(shout('b') === 'B');\n");
  o = runIn(src, std::nullopt, 30);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  t = o.result.tests[0];
  CHECK(t.status == TestStatus::Failed);
  CHECK(t.message == "AssertionError: shout('b') returned 'B?', expected 'B'");
  // On the assert call, not inside the user's assert function.
  auto* d = diagAt(o.result, test, 3);
  REQUIRE(d);
  CHECK(d->code == "test-failed");

  // node:test in an ES module, node:assert/strict.
  ws.write("u.test.mjs",
           "import test from 'node:test';\n"
           "import assert from 'node:assert/strict';\n"
           "import { shout } from './u.mjs';\n"
           "test('strict', () => { assert.equal(shout('c'), 'C'); });\n"
           "test('ok', () => { assert.ok(shout('d') === 'D'); });\n");
  o = runIn(src, std::nullopt, 30);
  INFO(describe(o.result));
  auto* strict = find(o.result, "strict");
  REQUIRE(strict);
  CHECK(strict->message == "AssertionError: shout('c') returned 'C?', expected 'C'");
  auto* ok = find(o.result, "ok");
  REQUIRE(ok);
  CHECK(ok->message == "AssertionError: shout('d') returned 'D?', expected 'D'");
  CHECK(diagAt(o.result, test, 5));

  // An exception inside an operand, after astral characters on the same line: the column is the
  // one V8 gives for the unrewritten file (UTF-16 code units).
  ws.write("u.test.mjs",
           "import { shout, boom } from './u.mjs';\n"
           "console.assert(/* 𝒳𝒴 */ shout('x') + boom() === 'X');\n");
  o = runIn(src, std::nullopt, 30);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  t = o.result.tests[0];
  CHECK(t.status == TestStatus::Error);
  bool found = false;
  for (const auto& f : t.frames) {
    if (f.file == test) {
      CHECK(f.line == 2);
      CHECK(f.column == 40);  // `boom`: 39 UTF-16 units before it
      found = true;
    }
  }
  CHECK(found);
}

TEST_CASE("javascript: evaluations of one assert that interleave at an await show no values rather than mixed ones") {
  TempWorkspace ws;
  auto src = ws.write("m.js", "const later = (ms, v) => new Promise((r) => setTimeout(() => r(v), ms));\nmodule.exports = { later };\n");
  ws.write("m.test.js",
           "const test = require('node:test');\n"
           "const { later } = require('./m');\n"
           "async function check(x, ms) { console.assert(await later(ms, x) === 1); }\n"
           "test('apart', async () => { await check(1, 1); await check(2, 1); });\n"
           "test('together', async () => { await Promise.all([check(2, 5), check(1, 40)]); });\n");
  auto o = runIn(src, std::nullopt, 30);
  INFO(describe(o.result));
  auto* apart = find(o.result, "apart");
  REQUIRE(apart);
  CHECK(apart->message == "await later(ms, x) returned 2, expected 1; ms is 1; x is 2");
  auto* together = find(o.result, "together");
  REQUIRE(together);
  CHECK(together->status == TestStatus::Failed);
  CHECK(together->message == "console.assert(await later(ms, x) === 1) failed");
  CHECK(together->actual.empty());
}

TEST_CASE("javascript: a test file that does not parse still runs and reports its syntax error") {
  TempWorkspace ws;
  auto src = ws.write("m.js", "module.exports = { one: () => 1 };\n");
  auto test = ws.write("m.test.js", "const { one } = require('./m');\nconsole.assert(one() === 2\n");
  auto o = runIn(src, std::nullopt, 30);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].message.rfind("SyntaxError", 0) == 0);
  auto* d = diagAt(o.result, test, 2);
  REQUIRE(d);
  CHECK(d->code == "compile-error");
}

TEST_CASE("c++: assert shows both sides, && and unprintable operands read as before") {
  TempWorkspace ws;
  auto src = ws.write("m.cpp",
                      "#include <string>\n"
                      "#include <vector>\n"
                      "int calls = 0;\n"
                      "int next() { return ++calls * 10; }\n"
                      "std::string greet(const std::string& n) { return \"hi \" + n; }\n"
                      "std::vector<int> evens(int n) { std::vector<int> v; for (int i = 0; i < n; ++i) v.push_back(2 * i); return v; }\n"
                      "bool odd(int x) { return x % 2 == 0; }\n");
  auto test = ws.write("m_test.cpp",
                       "#include <cassert>\n"
                       "#include <string>\n"
                       "#include <vector>\n"
                       "#include \"m.cpp\"\n"
                       "int main() {\n"
                       "  // && keeps the system's assert (and its short-circuit); the others decompose.\n"
                       "  assert(next() == 10 && calls == 1);\n"
                       "  assert(greet(\"bob\") == \"hi bob\");\n"
                       "  assert(next() >= 30);\n"
                       "}\n");
  auto o = runIn(src, std::nullopt, 60);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].status == TestStatus::Failed);
  // next() ran once in this assert: 20, not 30.
  CHECK(o.result.tests[0].message == "assertion failed: next() returned 20, expected >= 30");
  CHECK(o.result.tests[0].actual == "20");
  CHECK(o.result.tests[0].expected == ">= 30");
  auto* d = diagAt(o.result, test, 9);
  REQUIRE(d);
  CHECK(d->data.value("actual", "") == "20");

  ws.write("m_test.cpp",
           "#include <cassert>\n"
           "#include <string>\n"
           "#include <vector>\n"
           "#include \"m.cpp\"\n"
           "int main() {\n"
           "  assert(evens(3) == std::vector<int>({0, 2, 5}));\n"
           "}\n");
  o = runIn(src, std::nullopt, 60);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].message == "assertion failed: evens(3) returned {0, 2, 4}, expected {0, 2, 5}");

  ws.write("m_test.cpp",
           "#include <cassert>\n"
           "#include \"m.cpp\"\n"
           "struct Opaque { int v; bool operator==(const Opaque& o) const { return v == o.v; } };\n"
           "int main() {\n"
           "  assert(Opaque{1} == Opaque{2});\n"
           "}\n");
  o = runIn(src, std::nullopt, 60);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].message == "assertion failed: Opaque{1} == Opaque{2}");
  CHECK(o.result.tests[0].actual.empty());

  ws.write("m_test.cpp",
           "#include <cassert>\n"
           "#include \"m.cpp\"\n"
           "int main() {\n"
           "  assert(odd(3));\n"
           "}\n");
  o = runIn(src, std::nullopt, 60);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].message == "assertion failed: odd(3) returned false");
  CHECK(o.result.tests[0].actual == "false");
}

TEST_CASE("c++: Catch2 and GoogleTest values reach actual/expected for every comparison") {
  TempWorkspace ws;
  auto src = ws.write("m.hpp", "#pragma once\ninline int sq(int x) { return x * x + (x == 3); }\n");
  auto test = ws.write("m_test.cpp",
                       "#include <catch2/catch.hpp>\n"
                       "#include \"m.hpp\"\n"
                       "TEST_CASE(\"below\") {\n"
                       "  CHECK(sq(3) < 9);\n"
                       "}\n");
  auto o = runIn(src, std::nullopt, 120);
  INFO(describe(o.result));
  auto* t = find(o.result, "below");
  REQUIRE(t);
  CHECK(t->message == "CHECK: sq(3) returned 10, expected < 9");
  CHECK(t->actual == "10");
  CHECK(t->expected == "< 9");
  CHECK(diagAt(o.result, test, 4));

  if (!std::filesystem::exists("/usr/include/gtest/gtest.h")) return;
  ws.write("m_test.cpp",
           "#include <gtest/gtest.h>\n"
           "#include \"m.hpp\"\n"
           "TEST(Sq, Three) {\n"
           "  EXPECT_LE(sq(3), 9);\n"
           "}\n");
  o = runIn(src, std::nullopt, 120);
  INFO(describe(o.result));
  t = find(o.result, "Sq.Three");
  REQUIRE(t);
  CHECK(t->message == "sq(3) returned 10, expected <= 9");
  CHECK(t->actual == "10");
  CHECK(t->expected == "<= 9");
}

TEST_CASE("tests.command: one diagnostic per reported line, severity and code from the line") {
  TempWorkspace ws;
  ws.write(".greenlight.json", R"({"tests": {"command": ["sh", "{dir}/check.sh"]}})");
  auto src = ws.write("m.rb", "a\nb\nc\nd\n");
  ws.write("check.sh",
           "echo 'm.rb:2:1: error: boom here'\n"
           "echo 'm.rb:3: warning: careful'\n"
           "echo 'FAIL at m.rb:4:1: expected 1, got 2' >&2\n"
           "echo 'm.rb:2:1: error: boom here'\n"
           "exit 1\n");
  auto text = runShell(std::string(GL_GREENLIGHT_BIN) + " run '" + src + "'");
  INFO(text.out << text.err);
  CHECK(text.exitCode == 1);
  CHECK(text.out.find("error: error:") == std::string::npos);
  CHECK(text.out.find(src + ":2:1: error: boom here [compile-error]\n") != std::string::npos);
  CHECK(text.out.find(src + ":3:1: warning: careful [compile-error]\n") != std::string::npos);
  CHECK(text.out.find(src + ":4:1: error: expected 1, got 2 [test-failed]\n") != std::string::npos);
  auto json = runShell(std::string(GL_GREENLIGHT_BIN) + " run --json '" + src + "'");
  auto j = nlohmann::json::parse(json.out);
  const auto& d = j["diagnostics"];
  REQUIRE(d.size() == 3);
  CHECK(d[0]["line"] == 2);
  CHECK(d[0]["severity"] == "error");
  CHECK(d[0]["code"] == "compile-error");
  CHECK(d[0]["message"] == "boom here");
  CHECK(d[1]["severity"] == "warning");
  CHECK(d[2]["code"] == "test-failed");
  CHECK(d[2]["message"] == "expected 1, got 2");
}
