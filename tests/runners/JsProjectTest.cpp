// The JS runners' side that reads files (adapters/JsProject.h): which package.json and runner
// decide, where node finds the runner, the tests a test file defines (title paths, ranges,
// .each), the -t/--grep pattern, the local modules a file imports; TypeScript's language.
// Nothing here starts a process (the runs themselves: tests/projects/js, label "projects").
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include "TestUtil.h"
#include "core/testing/Discovery.h"
#include "core/testing/JsProject.h"
#include "core/testing/adapters/JsRunner.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
namespace fs = std::filesystem;

namespace {

const JsTestBlock* named(const std::vector<JsTestBlock>& blocks, const std::string& name) {
  for (const auto& b : blocks)
    if (jsTestName(b) == name) return &b;
  return nullptr;
}

// What jest / vitest / mocha match -t / --grep against: the titles joined with ' '.
bool selects(const std::string& pattern, const std::string& fullName) {
  return std::regex_search(fullName, std::regex(pattern, std::regex::ECMAScript | std::regex::icase));
}

}  // namespace

TEST_CASE("TypeScript files are of the JavaScript family and say typescript") {
  for (const char* f : {"/a/b.ts", "/a/b.tsx", "/a/b.mts", "/a/b.cts", "/a/b.jsx"}) {
    INFO(f);
    CHECK(languageForPath(f) == Language::JavaScript);
  }
  CHECK(languageNameOf(Language::JavaScript, "/a/b.ts") == "typescript");
  CHECK(languageNameOf(Language::JavaScript, "/a/b.TSX") == "typescript");
  CHECK(languageNameOf(Language::JavaScript, "/a/b.mjs") == "javascript");
  CHECK(languageNameOf(Language::Python, "/a/b.ts") == "python");
  CHECK_FALSE(isTypeScriptPath("/a.ts/b"));
}

TEST_CASE("functionAtLine finds TypeScript functions, typed arrows and class methods") {
  const std::string ts =
      "export function first<T>(xs: readonly T[]): T | undefined {\n"  // 1
      "  return xs[0];\n"
      "}\n"
      "export const add = (a: number, b: number): number => a + b;\n"  // 4
      "export class Money {\n"
      "  constructor(readonly cents: number) {}\n"                      // 6
      "  public allocate(n: number): Money[] {\n"                       // 7
      "    if (n <= 0) throw new RangeError('no parts');\n"
      "    return [];\n"
      "  }\n"
      "  static async load<U>(id: string): Promise<U> {\n"              // 11
      "    return fetchIt(id);\n"
      "  }\n"
      "}\n";
  auto at = [&](int line) {
    auto f = functionAtLine(ts, line, Language::JavaScript);
    return f ? f->name + ":" + std::to_string(f->line) : std::string("none");
  };
  CHECK(at(2) == "first:1");
  CHECK(at(4) == "add:4");
  CHECK(at(8) == "allocate:7");
  CHECK(at(12) == "load:11");
}

TEST_CASE("scanJsTests: describe nesting, title paths, ranges, modifiers and each") {
  const std::string text =
      "const { add } = require('./m');\n"                                   // 1
      "// it('in a comment', () => {})\n"                                   // 2
      "const re = /it\\(/;\n"                                               // 3
      "describe('Money', () => {\n"                                        // 4
      "  describe.each([[1, 2]])('pair %i and %i', (a, b) => {\n"           // 5
      "    it('adds', () => { expect(add(a, b)).toBe(3); });\n"             // 6
      "  });\n"
      "  it.skip(\"has a 'quoted' title\", () => {});\n"                    // 8
      "  test.each`\n    a | b\n    ${1} | ${2}\n  `('sums $a and $b', ({a, b}) => {\n"  // 9-12
      "    expect(a + b).toBe(3);\n"
      "  });\n"                                                             // 14
      "  it(`template ${name} title`, function () {});\n"                  // 15
      "  it.skipIf(process.env.CI)('skipped on CI', () => {});\n"          // 16
      "});\n"                                                               // 17
      "function it(x) { return x; }\n"                                      // 18
      "test('top', async () => {\n"                                         // 19
      "  await something();\n"
      "});\n";                                                              // 21
  auto blocks = scanJsTests(text);
  const JsTestBlock* money = named(blocks, "Money");
  REQUIRE(money);
  CHECK(money->group);
  CHECK(money->line == 4);
  CHECK(money->endLine == 17);
  const JsTestBlock* adds = named(blocks, "Money > pair %i and %i > adds");
  REQUIRE(adds);
  CHECK_FALSE(adds->group);
  CHECK(adds->line == 6);
  REQUIRE(named(blocks, "Money > has a 'quoted' title"));
  const JsTestBlock* sums = named(blocks, "Money > sums $a and $b");
  REQUIRE(sums);
  CHECK(sums->each);
  CHECK(sums->line == 9);
  CHECK(sums->endLine == 14);
  REQUIRE(named(blocks, "Money > skipped on CI"));
  const JsTestBlock* top = named(blocks, "top");
  REQUIRE(top);
  CHECK(top->line == 19);
  CHECK(top->endLine == 21);
  // Not tests: the comment, the regex, the function named it.
  for (const auto& b : blocks) CHECK(b.line != 2);
  for (const auto& b : blocks) CHECK(b.line != 18);
  CHECK(blocks.size() == 8);

  // The patterns select what the runners name the cases.
  CHECK(selects(jsTitlePattern("jest", {adds}), "Money pair 1 and 2 adds"));
  CHECK_FALSE(selects(jsTitlePattern("jest", {adds}), "Money pair 1 and 2 adds more"));
  CHECK(selects(jsTitlePattern("jest", {sums}), "Money sums 1 and 2"));
  const JsTestBlock* tmpl = named(blocks, "Money > template ${} title");
  REQUIRE(tmpl);
  CHECK(selects(jsTitlePattern("jest", {tmpl}), "Money template x y title"));
  // A group selects everything under it; vitest and mocha may see a prefix before the titles.
  CHECK(selects(jsTitlePattern("jest", {money}), "Money top"));
  CHECK(selects(jsTitlePattern("jest", {money}), "Money sums 1 and 2"));
  CHECK_FALSE(selects(jsTitlePattern("jest", {money}), "top"));
  CHECK(selects(jsTitlePattern("vitest", {top}), "test/m.test.ts top"));
  CHECK(selects(jsTitlePattern("mocha", {adds, top}), "top"));
  CHECK_FALSE(selects(jsTitlePattern("mocha", {top}), "laptop"));
}

TEST_CASE("jsProject: the nearest package.json that names a runner decides") {
  TempWorkspace ws;
  ws.write("package.json", R"({"name": "root", "workspaces": ["packages/*"], "scripts": {"test": "npm test --workspaces"}})");
  ws.write("packages/a/package.json", R"({"name": "a", "type": "module", "scripts": {"test": "vitest run"}})");
  auto a = ws.write("packages/a/src/m.ts", "export const x = 1;\n");
  ws.write("packages/b/package.json", R"({"name": "b", "devDependencies": {"mocha": "10.0.0"}})");
  auto b = ws.write("packages/b/lib/m.js", "module.exports = 1;\n");
  ws.write("packages/c/package.json", R"({"name": "c"})");
  ws.write("packages/c/jest.config.js", "module.exports = {};\n");
  auto c = ws.write("packages/c/src/m.js", "module.exports = 1;\n");
  ws.write("packages/d/package.json", R"({"name": "d", "scripts": {"test": "node --test"}})");
  auto d = ws.write("packages/d/m.js", "module.exports = 1;\n");
  auto top = ws.write("tools/x.js", "1;\n");

  auto pa = jsProject(a, ws.root(), nullptr);
  REQUIRE(pa);
  CHECK(pa->runner == "vitest");
  CHECK(pa->why == "scripts.test");
  CHECK(pa->root == ws.path("packages/a"));
  CHECK(pa->esm);
  auto pb = jsProject(b, ws.root(), nullptr);
  REQUIRE(pb);
  CHECK(pb->runner == "mocha");
  CHECK(pb->why == "dependency");
  auto pc = jsProject(c, ws.root(), nullptr);
  REQUIRE(pc);
  CHECK(pc->runner == "jest");
  CHECK(pc->why == "config file");
  CHECK(pc->configFiles == std::vector<std::string>{ws.path("packages/c/jest.config.js")});
  auto pd = jsProject(d, ws.root(), nullptr);
  REQUIRE(pd);
  CHECK(pd->runner == "node");
  // The root's script names no runner: nothing decides for a file outside the packages.
  CHECK_FALSE(jsProject(top, ws.root(), nullptr));
  // Unsaved text of package.json counts.
  OverlayProvider overlay = [&](const std::string& p) -> std::optional<std::string> {
    if (p == ws.path("packages/b/package.json")) return std::string(R"({"scripts": {"test": "jest"}})");
    return std::nullopt;
  };
  auto pb2 = jsProject(b, ws.root(), overlay);
  REQUIRE(pb2);
  CHECK(pb2->runner == "jest");
}

TEST_CASE("findJsRunner: nested, then hoisted node_modules, and a runner the project names but lacks is an error") {
  TempWorkspace ws;
  ws.write("node_modules/vitest/package.json", R"({"name": "vitest", "version": "1.6.1"})");
  ws.write("node_modules/vitest/vitest.mjs", "\n");
  ws.write("packages/a/node_modules/mocha/package.json", R"({"name": "mocha", "version": "10.8.2"})");
  ws.write("packages/a/node_modules/mocha/bin/mocha.js", "\n");
  auto v = findJsRunner("vitest", ws.path("packages/a"));
  REQUIRE(v);
  CHECK(v->version == "1.6.1");
  CHECK(v->bin == ws.path("node_modules/vitest/vitest.mjs"));
  auto m = findJsRunner("mocha", ws.path("packages/a"));
  REQUIRE(m);
  CHECK(m->dir == ws.path("packages/a/node_modules/mocha"));
  CHECK_FALSE(findJsRunner("jest", ws.path("packages/a")));
  CHECK(jsPackageVersion("vitest", ws.path("packages/a")) == "1.6.1");
  CHECK(versionAtLeast("6.1.0", {6, 1}));
  CHECK(versionAtLeast("7.0.0-beta.1", {6, 1}));
  CHECK_FALSE(versionAtLeast("6.0.9", {6, 1}));
  CHECK_FALSE(versionAtLeast("", {1}));

  // Both node_modules are visible in the sandbox, and so is a linked package that lives elsewhere.
  TempWorkspace store;
  store.write("node_modules/.pnpm/x@1/node_modules/x/package.json", "{}");
  std::error_code ec;
  fs::create_directory_symlink(store.path("node_modules/.pnpm/x@1/node_modules/x"), ws.path("node_modules/x"), ec);
  REQUIRE_FALSE(ec);
  auto binds = nodeModulesBinds(ws.path("packages/a"));
  auto has = [&](const std::string& p) { return std::find(binds.begin(), binds.end(), p) != binds.end(); };
  CHECK(has(fs::canonical(ws.path("packages/a/node_modules")).string()));
  CHECK(has(fs::canonical(ws.path("node_modules")).string()));
  CHECK(has(fs::canonical(store.path("node_modules/.pnpm/x@1/node_modules")).string()));

  // A project that tests with jest, without jest installed: discovery says so.
  ws.write("packages/j/package.json", R"({"scripts": {"test": "jest"}})");
  auto f = ws.write("packages/j/m.test.js", "test('x', () => {});\n");
  DiscoveryRequest r;
  r.path = f;
  r.workspaceRoot = ws.root();
  std::string error;
  CHECK_FALSE(discoverTests(r, &error));
  CHECK(error.find("tests with jest") != std::string::npos);
  CHECK(error.find("npm install") != std::string::npos);
}

TEST_CASE("jsLocalImports: relative specifiers, .js written for .ts, index files, aliases, mocks") {
  TempWorkspace ws;
  ws.write("src/set.ts", "export {};\n");
  ws.write("src/interval.ts", "export {};\n");
  ws.write("src/util/index.ts", "export {};\n");
  ws.write("src/legacy.cjs", "module.exports = {};\n");
  ws.write("src/data.json", "{}\n");
  auto test = ws.write("test/set.spec.ts",
                       "import { IntervalSet } from '../src/set.js';\n"
                       "import type { Interval } from '@/interval';\n"
                       "import * as util from '../src/util';\n"
                       "const legacy = require('../src/legacy.cjs');\n"
                       "jest.mock('../src/interval');\n"
                       "import data from '../src/data.json';\n"
                       "import { expect } from 'vitest';\n"
                       "import fs from 'node:fs';\n"
                       "const s = 'from \\'../src/nothing\\'';\n");
  auto imports = jsLocalImports(test, *readSource(test, nullptr), ws.root());
  CHECK(imports == std::vector<std::string>{ws.path("src/interval.ts"), ws.path("src/legacy.cjs"), ws.path("src/set.ts"),
                                            ws.path("src/util/index.ts")});
  // Through a re-export: the closure reaches the module.
  ws.write("src/index.ts", "export * from './set.js';\n");
  auto viaIndex = ws.write("test/all.spec.ts", "import { IntervalSet } from '../src/index.js';\n");
  auto closure = jsImportClosure({viaIndex}, ws.root(), nullptr);
  CHECK(std::find(closure.begin(), closure.end(), ws.path("src/set.ts")) != closure.end());
}

TEST_CASE("node:test without a runner: a source finds the test files that import it, not only those named after it") {
  TempWorkspace ws;
  ws.write("package.json", R"({"type": "module"})");
  auto words = ws.write("src/words.mts", "export function count(s: string): number { return s.length; }\n");
  auto stack = ws.write("src/stack.ts", "export class Stack {}\n");
  ws.write("src/lonely.ts", "export const x = 1;\n");
  auto viaMjs = ws.write("test/stack.test.ts",
                         "import { test } from 'node:test';\n"
                         "import { count } from '../src/words.mjs';\n"
                         "test('counts', () => {});\n");
  ws.write("test/other.test.ts", "import { test } from 'node:test';\ntest('other', () => {});\n");
  ws.write("node_modules/x/words.test.ts", "import '../../src/words.mjs';\n");
  DiscoveryRequest r;
  r.workspaceRoot = ws.root();
  std::string error;
  r.path = words;
  auto plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->runner == "node");
  CHECK(plan->testFiles == std::vector<std::string>{viaMjs});
  // Named after it but loading another module: never its test (issue 33), and the plan says why.
  r.path = stack;
  plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->testFiles.empty());
  CHECK(plan->discoveryNote.find("test/stack.test.ts is named after stack.ts but does not load src/stack.ts") != std::string::npos);
  // Nothing imports it: no tests.
  r.path = ws.path("src/lonely.ts");
  plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->testFiles.empty());
}
