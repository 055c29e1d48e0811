// Real runs through the sandbox: Python (pyenv shim and /usr/bin/python3), JavaScript, C++.
#include <catch2/catch.hpp>

#include <algorithm>

#include "RunHelpers.h"
#include "TestUtil.h"
#include "core/testing/Runner.h"
#include "core/testing/TestService.h"
#include "core/testing/Toolchain.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
using greenlight::test::runIn;
using greenlight::test::find;
using greenlight::test::diagAt;
using greenlight::test::describe;


// Regression: the sandbox's child used glibc's setresuid/setgroups, which in a multithreaded
// process wait for every known thread (__nptl_setxid); a worker thread starting at clone time
// made every other run hang until its wall limit. A fresh service per run starts threads
// right around each clone, which is when it happened.
TEST_CASE("back-to-back runs in one process while worker threads start") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def one():\n    return 1\n");
  ws.write("test_m.py", "from m import one\n\ndef test_one():\n    assert one() == 1\n");
  for (int i = 0; i < 4; ++i) {
    auto out = runIn(src, std::nullopt, 20);
    INFO("run " << i << ": " << describe(out.result));
    REQUIRE(out.result.tests.size() == 1);
    CHECK(out.result.tests[0].status == TestStatus::Passed);
  }
}

TEST_CASE("python: assertion operands, exceptions on the raising line, doctests, unittest") {
  TempWorkspace ws;
  auto src = ws.write("m.py",
                      "def fib(n):\n"
                      "    \"\"\"\n"
                      "    >>> fib(3)\n"
                      "    2\n"
                      "    \"\"\"\n"
                      "    a, b = 0, 1\n"
                      "    for _ in range(n - 1):\n"
                      "        a, b = b, a + b\n"
                      "    return a\n"
                      "\n"
                      "\n"
                      "def div(a, b):\n"
                      "    return a / b\n");
  auto test = ws.write("test_m.py",
                       "import unittest\n"
                       "from m import fib, div\n"
                       "\n"
                       "def test_fib():\n"
                       "    print('some output')\n"
                       "    assert fib(10) == 55\n"
                       "\n"
                       "def test_div():\n"
                       "    assert div(1, 0) == 1\n"
                       "\n"
                       "class T(unittest.TestCase):\n"
                       "    def test_eq(self):\n"
                       "        self.assertEqual(fib(2), 5)\n"
                       "    def test_ok(self):\n"
                       "        self.assertTrue(True)\n");
  for (std::string python : {"python3", "/usr/bin/python3"}) {
    INFO(python);
    auto o = runIn(src, std::nullopt, 0, python);
    const auto& r = o.result;
    INFO(describe(r));
    REQUIRE(r.error.empty());
    auto* fib = find(r, "test_fib");
    REQUIRE(fib);
    CHECK(fib->status == TestStatus::Failed);
    CHECK(fib->message == "AssertionError: fib(10) returned 34, expected 55");
    CHECK(fib->expected == "55");
    CHECK(fib->actual == "34");
    CHECK(fib->output == "some output\n");
    auto* d = diagAt(r, test, 6);
    REQUIRE(d);
    CHECK(d->code == "test-failed");
    CHECK(d->message == "test_fib: AssertionError: fib(10) returned 34, expected 55");
    // The source diagnostic sits on the `return` that produced 34, not on the `def` line.
    auto* ret = diagAt(r, src, 9);
    REQUIRE(ret);
    CHECK(ret->message == "test_fib: AssertionError: fib(10) returned 34, expected 55 (fib returned here with n=10, a=34, b=55, _=8)");
    CHECK_FALSE(diagAt(r, src, 1));
    auto* div = find(r, "test_div");
    REQUIRE(div);
    CHECK(div->status == TestStatus::Error);
    auto* dd = diagAt(r, src, 13);
    REQUIRE(dd);
    CHECK(dd->code == "runtime-error");
    CHECK(dd->message == "test_div: ZeroDivisionError: division by zero");
    auto* eq = find(r, "T.test_eq");
    REQUIRE(eq);
    CHECK(eq->status == TestStatus::Failed);
    CHECK(eq->expected == "5");
    CHECK(eq->actual == "1");
    CHECK(find(r, "T.test_ok")->status == TestStatus::Passed);
    auto* doc = find(r, "doctest:fib");
    REQUIRE(doc);
    CHECK(doc->status == TestStatus::Failed);
    CHECK(diagAt(r, src, 3));
    CHECK(r.summary.passed == 1);
    CHECK(r.summary.failed == 3);
    CHECK(r.summary.errors == 1);
    REQUIRE(r.verdict);
  }
}

TEST_CASE("python: a failing test's traced rerun leaves lifetimes, refcounts and trace hooks as they were") {
  // Run from the source file, so the failing test is rerun traced for its origin; the tests
  // after it observe what a plain run would (issue 33: a traced value kept alive failed them).
  TempWorkspace ws;
  auto src = ws.write("keep.py",
                      "import sys\n"
                      "\n"
                      "class Item:\n"
                      "    def __init__(self, name):\n"
                      "        self.name = name\n"
                      "\n"
                      "def make(n):\n"
                      "    items = [Item(i) for i in range(n)]\n"
                      "    return items\n"
                      "\n"
                      "def label(item):\n"
                      "    return 'item_%s' % item.name\n"
                      "\n"
                      "def tracing():\n"
                      "    return sys.gettrace() is not None\n");
  ws.write("test_keep.py",
           "import gc, sys, weakref\n"
           "import keep\n"
           "\n"
           "def test_a_label():\n"
           "    assert keep.label(keep.make(1)[0]) == 'item-0'\n"
           "\n"
           "def test_b_freed():\n"
           "    items = keep.make(3)\n"
           "    refs = [weakref.ref(i) for i in items]\n"
           "    del items\n"
           "    gc.collect()\n"
           "    assert [r() for r in refs] == [None, None, None]\n"
           "\n"
           "def test_c_refcount():\n"
           "    item = keep.Item('x')\n"
           "    before = sys.getrefcount(item)\n"
           "    keep.label(item)\n"
           "    assert sys.getrefcount(item) == before\n"
           "\n"
           "def test_d_no_tracer():\n"
           "    assert not keep.tracing()\n");
  auto o = runIn(src);
  const auto& r = o.result;
  INFO(describe(r));
  REQUIRE(r.error.empty());
  auto* label = find(r, "test_a_label");
  REQUIRE(label);
  CHECK(label->status == TestStatus::Failed);
  REQUIRE(label->origin);
  CHECK(label->origin->line == 12);
  for (const char* name : {"test_b_freed", "test_c_refcount", "test_d_no_tracer"}) {
    INFO(name);
    auto* t = find(r, name);
    REQUIRE(t);
    CHECK(t->status == TestStatus::Passed);
  }
}

TEST_CASE("python: unsaved text runs, syntax errors are compile errors, hangs time out on the loop") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  ws.write("test_m.py", "from m import f\n\ndef test_f():\n    assert f() == 2\n\ndef test_later():\n    pass\n");
  auto o = runIn(src, std::nullopt, 0, "python3", [&](const std::string& p) -> std::optional<std::string> {
    if (p == src) return std::string("def f():\n    return 2\n");
    return std::nullopt;
  });
  INFO(describe(o.result));
  CHECK(o.result.summary.passed == 2);
  CHECK(o.result.summary.failed == 0);

  ws.write("m.py", "def f():\n    return (1\n");
  o = runIn(src);
  INFO(describe(o.result));
  REQUIRE(!o.result.diagnostics.empty());
  CHECK(o.result.diagnostics[0].code == "compile-error");
  CHECK(o.result.diagnostics[0].file == src);
  CHECK(o.result.diagnostics[0].line == 2);

  ws.write("m.py", "def f():\n    n = 0\n    while True:\n        n += 1\n    return n\n");
  o = runIn(src, std::nullopt, 1.5);
  INFO(describe(o.result));
  auto* t = find(o.result, "test_f");
  REQUIRE(t);
  CHECK(t->status == TestStatus::Timeout);
  const Diagnostic* d = nullptr;
  for (const auto& x : o.result.diagnostics)
    if (x.code == "timeout") d = &x;
  REQUIRE(d);
  CHECK(d->file == src);
  CHECK((d->line == 3 || d->line == 4));
  auto* later = find(o.result, "test_later");
  REQUIRE(later);
  CHECK(later->status == TestStatus::Skipped);
}

// The harness writes its events with its own JSON encoder (python_harness.py, _encode): text
// beyond ASCII and the BMP, quotes, control characters and objects without a JSON form must
// arrive intact and never cost the event.
TEST_CASE("python: non-ASCII operands, odd objects and captured output survive the event stream") {
  TempWorkspace ws;
  auto src = ws.write("m.py",
                      "class Odd:\n    def __repr__(self):\n        return 'Odd<\"q\"\\t\\x01>'\n\n\n"
                      "def greet():\n    return 'h\\u00e9llo \\u4e16\\u754c \\U0001f642'\n\n\n"
                      "def odd():\n    return Odd()\n");
  ws.write("test_m.py",
           "from m import greet, odd\n\n"
           "def test_greet():\n    print('out \\U0001f600 \\u00fc')\n    assert greet() == 'hello'\n\n"
           "def test_odd():\n    assert odd() == 3\n\n"
           "def test_nan():\n    assert float('nan') == 1.0\n");
  auto o = runIn(src);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 3);
  auto* g = find(o.result, "test_greet");
  REQUIRE(g);
  CHECK(g->status == TestStatus::Failed);
  CHECK(g->message.find("h\xC3\xA9llo \xE4\xB8\x96\xE7\x95\x8C \xF0\x9F\x99\x82") != std::string::npos);
  CHECK(g->output.find("out \xF0\x9F\x98\x80 \xC3\xBC") != std::string::npos);
  auto* odd = find(o.result, "test_odd");
  REQUIRE(odd);
  CHECK(odd->status == TestStatus::Failed);
  CHECK(odd->message.find("Odd<\"q\"\t\x01>") != std::string::npos);
  auto* nan = find(o.result, "test_nan");
  REQUIRE(nan);
  CHECK(nan->status == TestStatus::Failed);
  CHECK(nan->message.find("nan") != std::string::npos);
}

TEST_CASE("python: decorated tests run (a wrapper from another module), their own line reported") {
  TempWorkspace ws;
  ws.write("deco.py", "import functools\n\ndef frozen(f):\n    @functools.wraps(f)\n    def wrapper(*a, **k):\n"
                      "        return f(*a, **k)\n    return wrapper\n");
  auto src = ws.write("m.py", "def twice(x):\n    return 2 * x\n");
  ws.write("test_m.py", "from deco import frozen\nfrom m import twice\n\n@frozen\ndef test_twice():\n    assert twice(2) == 5\n");
  auto o = runIn(src, std::nullopt, 20);
  INFO(describe(o.result));
  auto* t = find(o.result, "test_twice");
  REQUIRE(t);
  CHECK(t->status == TestStatus::Failed);
  CHECK(t->line == 4);  // where the definition starts: its decorator, as pytest and inspect say
  CHECK(t->message == "AssertionError: twice(2) returned 4, expected 5");
}

TEST_CASE("python: a module of a package is imported as part of it (relative imports, its doctests)") {
  TempWorkspace ws;
  ws.write("pkg/__init__.py", "");
  ws.write("pkg/util.py", "def base():\n    return 2\n");
  auto src = ws.write("pkg/calc.py",
                      "from .util import base\n\n\ndef twice(x):\n    \"\"\"\n    >>> twice(3)\n    6\n    \"\"\"\n"
                      "    return base() * x\n");
  ws.write("tests/test_calc.py", "from pkg.calc import twice\n\n\ndef test_twice():\n    assert twice(2) == 5\n");
  auto o = runIn(src, std::nullopt, 20);
  INFO(describe(o.result));
  REQUIRE(o.result.error.empty());
  auto* doc = find(o.result, "doctest:twice");
  REQUIRE(doc);
  CHECK(doc->status == TestStatus::Passed);
  auto* t = find(o.result, "test_twice");
  REQUIRE(t);
  // The test imported the very module greenlight loaded: the wrong value is traced to it.
  CHECK(t->message == "AssertionError: twice(2) returned 4, expected 5");
  CHECK(o.result.summary.errors == 0);
}

TEST_CASE("python: narrowing by line runs only the function's tests") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def a():\n    return 1\n\n\ndef b():\n    return 2\n");
  ws.write("test_m.py", "from m import a, b\n\ndef test_a():\n    assert a() == 1\n\ndef test_b():\n    assert b() == 3\n");
  auto o = runIn(src, 2);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].name == "test_a");
  CHECK(o.result.summary.passed == 1);
  o = runIn(src, 6);
  INFO(describe(o.result) << o.result.stdoutText << o.result.stderrText << (o.result.verdict ? std::string(greenlight::sandbox::statusName(o.result.verdict->status)) : ""));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].name == "test_b");
  CHECK(o.result.summary.failed == 1);
}

TEST_CASE("javascript: node:test with actual/expected, console.assert, exceptions") {
  TempWorkspace ws;
  auto src = ws.write("m.js",
                      "function add(a, b) {\n"
                      "  return a - b;\n"
                      "}\n"
                      "function boom() {\n"
                      "  throw new Error('boom');\n"
                      "}\n"
                      "module.exports = { add, boom };\n");
  auto t1 = ws.write("m.test.js",
                     "const test = require('node:test');\n"
                     "const assert = require('node:assert');\n"
                     "const { add, boom } = require('./m');\n"
                     "test('adds', () => {\n"
                     "  assert.strictEqual(add(2, 3), 5);\n"
                     "});\n"
                     "test('booms', () => { boom(); });\n"
                     "test('fine', () => { assert.ok(true); });\n");
  auto t2 = ws.write("test/m.test.js",
                     "const { add } = require('../m');\n"
                     "console.assert(add(1, 1) === 0);\n"
                     "console.assert(add(1, 1) === 2);\n");
  auto o = runIn(src);
  const auto& r = o.result;
  INFO(describe(r));
  REQUIRE(r.error.empty());
  auto* adds = find(r, "adds");
  REQUIRE(adds);
  CHECK(adds->status == TestStatus::Failed);
  CHECK(adds->message == "AssertionError: add(2, 3) returned -1, expected 5");
  CHECK(adds->expected == "5");
  CHECK(diagAt(r, t1, 5));
  auto* booms = find(r, "booms");
  REQUIRE(booms);
  CHECK(booms->status == TestStatus::Error);
  auto* bd = diagAt(r, src, 5);
  REQUIRE(bd);
  CHECK(bd->code == "runtime-error");
  CHECK(find(r, "fine")->status == TestStatus::Passed);
  auto* plain = find(r, "m.test.js");
  REQUIRE(plain);
  CHECK(plain->file == t2);
  CHECK(plain->status == TestStatus::Failed);
  CHECK(plain->message == "add(1, 1) returned 0, expected 2");
  CHECK(plain->actual == "0");
  CHECK(plain->expected == "2");
  CHECK(diagAt(r, t2, 3));
}

TEST_CASE("javascript: a hang is a timeout for the running test") {
  TempWorkspace ws;
  auto src = ws.write("m.js", "function spin() {\n  for (;;) {}\n}\nmodule.exports = { spin };\n");
  ws.write("m.test.js", "const { spin } = require('./m');\nspin();\n");
  auto o = runIn(src, std::nullopt, 1.0);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].status == TestStatus::Timeout);
  REQUIRE(!o.result.diagnostics.empty());
  CHECK(o.result.diagnostics[0].code == "timeout");
}

TEST_CASE("c++: assert+main, compile errors, uncaught exceptions, crashes, hangs") {
  TempWorkspace ws;
  auto src = ws.write("m.cpp",
                      "#include <stdexcept>\n"
                      "int twice(int x) {\n"
                      "  return x * 3;\n"
                      "}\n"
                      "int thrower(int x) {\n"
                      "  if (x > 0) throw std::runtime_error(\"bad x\");\n"
                      "  return 0;\n"
                      "}\n");
  auto test = ws.write("m_test.cpp",
                       "#include <cassert>\n"
                       "int twice(int);\n"
                       "int thrower(int);\n"
                       "int main() {\n"
                       "  assert(twice(2) == 4);\n"
                       "  return 0;\n"
                       "}\n");
  auto o = runIn(src);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].status == TestStatus::Failed);
  CHECK(o.result.tests[0].message == "assertion failed: twice(2) returned 6, expected 4");
  CHECK(o.result.tests[0].actual == "6");
  CHECK(o.result.tests[0].expected == "4");
  auto* d = diagAt(o.result, test, 5);
  REQUIRE(d);
  CHECK(d->code == "test-failed");
  CHECK(diagAt(o.result, src, 2));  // the definition of twice

  ws.write("m_test.cpp", "#include <cassert>\nint thrower(int);\nint main() {\n  thrower(1);\n}\n");
  o = runIn(src);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].status == TestStatus::Error);
  CHECK(o.result.tests[0].message.find("bad x") != std::string::npos);
  auto* ed = diagAt(o.result, src, 6);
  REQUIRE(ed);
  CHECK(ed->code == "runtime-error");

  ws.write("m_test.cpp", "int main() {\n  int x = \"no\";\n}\n");
  o = runIn(src);
  INFO(describe(o.result));
  auto* cd = diagAt(o.result, test, 2);
  REQUIRE(cd);
  CHECK(cd->code == "compile-error");
  CHECK(cd->column == 11);

  ws.write("m.cpp", "int spin(int x) {\n  volatile int y = x;\n  while (y >= 0) y = y + 1 - 1;\n  return y;\n}\n");
  ws.write("m_test.cpp", "int spin(int);\nint main() {\n  return spin(1);\n}\n");
  o = runIn(src, std::nullopt, 1.0);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 1);
  CHECK(o.result.tests[0].status == TestStatus::Timeout);
  auto* td = diagAt(o.result, src, 3);
  REQUIRE(td);
  CHECK(td->code == "timeout");
}

TEST_CASE("c++: Catch2 test cases are reported one by one") {
  TempWorkspace ws;
  auto src = ws.write("m.hpp", "#pragma once\ninline int sq(int x) { return x * x + (x == 3); }\n");
  auto test = ws.write("m_test.cpp",
                       "#include <catch2/catch.hpp>\n"
                       "#include \"m.hpp\"\n"
                       "TEST_CASE(\"squares small\") {\n"
                       "  REQUIRE(sq(2) == 4);\n"
                       "}\n"
                       "TEST_CASE(\"squares three\") {\n"
                       "  REQUIRE(sq(3) == 9);\n"
                       "}\n");
  // The compile step gets 3x the limit in wall time: compiling Catch2's main took over 90 s
  // on 2 cores under load (ASan lane), so 30 s made the compile time out.
  auto o = runIn(src, std::nullopt, 150);
  INFO(describe(o.result));
  REQUIRE(o.result.tests.size() == 2);
  CHECK(find(o.result, "squares small")->status == TestStatus::Passed);
  auto* three = find(o.result, "squares three");
  REQUIRE(three);
  CHECK(three->status == TestStatus::Failed);
  CHECK(three->actual == "10");
  CHECK(three->expected == "9");
  CHECK(diagAt(o.result, test, 7));
}
