// The module resolver of the JS runners' discovery (JsResolve.h): one case per form a
// test file may load a module by, each checked against the file node (or the runner) loads; and
// discovery on top of it: a test named after a file counts only when it loads that very file.
// No process is started (the runners' own answers: tests/projects/js, label "projects").
#include <catch2/catch.hpp>

#include <filesystem>

#include "TestUtil.h"
#include "core/testing/Discovery.h"
#include "core/testing/JsProject.h"
#include "core/testing/JsResolve.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
using Files = std::vector<std::string>;

namespace {

// What `spec` written in `from` (relative to the workspace) loads, relative to the workspace.
Files resolved(const TempWorkspace& ws, const std::string& from, const std::string& spec, const std::string& root = "") {
  JsResolver r(root.empty() ? ws.root() : ws.path(root));
  Files out;
  for (const auto& f : r.resolve(ws.path(from), spec)) out.push_back(std::filesystem::path(f).lexically_relative(ws.root()).string());
  return out;
}

}  // namespace

TEST_CASE("JsResolve: '.', '..', '../' and directories load package.json main, else index") {
  TempWorkspace ws;
  ws.write("package.json", R"({"name": "pkg", "main": "lib/main.js"})");
  ws.write("lib/main.js", "module.exports = 1;\n");
  ws.write("index.js", "module.exports = 2;\n");
  ws.write("test/a.test.js", "");
  CHECK(resolved(ws, "test/a.test.js", "..") == Files{"lib/main.js"});
  CHECK(resolved(ws, "test/a.test.js", "../") == Files{"lib/main.js"});
  CHECK(resolved(ws, "lib/x.test.js", "..") == Files{"lib/main.js"});
  ws.write("sub/index.mjs", "export default 1;\n");
  ws.write("sub/inner/t.test.js", "");
  CHECK(resolved(ws, "sub/t.test.js", ".") == Files{"sub/index.mjs"});
  CHECK(resolved(ws, "sub/inner/t.test.js", "..") == Files{"sub/index.mjs"});
  CHECK(resolved(ws, "sub/inner/t.test.js", "../") == Files{"sub/index.mjs"});
  // No main: index.js of the directory (no "/index.js" written twice: "//").
  ws.write("nomain/package.json", R"({"name": "nomain"})");
  ws.write("nomain/index.js", "");
  CHECK(resolved(ws, "nomain/test/t.test.js", "..") == Files{"nomain/index.js"});
  // Exactly the path the test file's neighbours name (a file is matched by its path string).
  JsResolver r(ws.root());
  CHECK(r.resolve(ws.path("nomain/test/t.test.js"), "../") == Files{ws.path("nomain/index.js")});
  CHECK(r.resolve(ws.path("sub/inner/t.test.js"), "..") == Files{ws.path("sub/index.mjs")});
  // A main without its extension, and one that names a directory.
  ws.write("m2/package.json", R"({"main": "./src"})");
  ws.write("m2/src/index.ts", "");
  CHECK(resolved(ws, "m2/t.test.js", ".") == Files{"m2/src/index.ts"});
}

TEST_CASE("JsResolve: extensions, and TypeScript's .js written for .ts (.mjs: .mts, .cjs: .cts)") {
  TempWorkspace ws;
  for (const char* f : {"src/a.ts", "src/b.mts", "src/c.cts", "src/d.tsx", "src/e.cjs", "src/f.json", "src/g.js"}) ws.write(f, "");
  CHECK(resolved(ws, "t.test.ts", "./src/a.js") == Files{"src/a.ts"});
  CHECK(resolved(ws, "t.test.ts", "./src/b.mjs") == Files{"src/b.mts"});
  CHECK(resolved(ws, "t.test.ts", "./src/c.cjs") == Files{"src/c.cts"});
  CHECK(resolved(ws, "t.test.ts", "./src/d.js") == Files{"src/d.tsx"});
  CHECK(resolved(ws, "t.test.ts", "./src/d") == Files{"src/d.tsx"});
  CHECK(resolved(ws, "t.test.ts", "./src/e.cjs") == Files{"src/e.cjs"});
  CHECK(resolved(ws, "t.test.ts", "./src/f.json") == Files{"src/f.json"});
  CHECK(resolved(ws, "t.test.ts", "./src/g") == Files{"src/g.js"});
  CHECK(resolved(ws, "t.test.ts", "./src/g.js?raw") == Files{"src/g.js"});
  CHECK(resolved(ws, "t.test.ts", "./src/missing").empty());
}

TEST_CASE("JsResolve: the package's own name through exports: subpaths, patterns, conditions, null") {
  TempWorkspace ws;
  ws.write("package.json", R"({
    "name": "@scope/lib", "type": "module",
    "exports": {
      ".": {"types": "./types/index.d.ts", "import": "./esm/index.js", "require": "./cjs/index.cjs"},
      "./non-secure": {"node": {"import": "./non-secure/index.js"}, "default": "./non-secure/browser.js"},
      "./features/*": "./src/features/*.js",
      "./features/private/*": null,
      "./package.json": "./package.json"
    }
  })");
  for (const char* f : {"esm/index.js", "cjs/index.cjs", "non-secure/index.js", "non-secure/browser.js",
                        "src/features/x.ts", "src/features/private/y.js", "types/index.d.ts"})
    ws.write(f, "");
  // Both import and require: a test may load either (and a type never loads).
  CHECK(resolved(ws, "test/a.test.js", "@scope/lib") == Files{"esm/index.js", "cjs/index.cjs"});
  CHECK(resolved(ws, "test/a.test.js", "@scope/lib/non-secure") == Files{"non-secure/index.js", "non-secure/browser.js"});
  CHECK(resolved(ws, "test/a.test.js", "@scope/lib/features/x") == Files{"src/features/x.ts"});
  CHECK(resolved(ws, "test/a.test.js", "@scope/lib/features/private/y").empty());
  // A subpath exports does not name: nothing (as node: ERR_PACKAGE_PATH_NOT_EXPORTED).
  CHECK(resolved(ws, "test/a.test.js", "@scope/lib/esm/index.js").empty());
  // exports as a plain string / a conditions object for ".".
  ws.write("p2/package.json", R"({"name": "p2", "exports": "./main.js"})");
  ws.write("p2/main.js", "");
  CHECK(resolved(ws, "p2/t.test.js", "p2", "p2") == Files{"p2/main.js"});
  ws.write("p3/package.json", R"({"name": "p3", "exports": {"require": "./c.cjs", "default": "./m.mjs"}})");
  ws.write("p3/c.cjs", "");
  ws.write("p3/m.mjs", "");
  CHECK(resolved(ws, "p3/t.test.js", "p3", "p3") == Files{"p3/c.cjs", "p3/m.mjs"});
  // No exports: the name is the package's directory (main, then the path under it).
  ws.write("p4/package.json", R"({"name": "p4", "main": "lib/index.js"})");
  ws.write("p4/lib/index.js", "");
  ws.write("p4/util.js", "");
  CHECK(resolved(ws, "p4/test/t.test.js", "p4", "p4") == Files{"p4/lib/index.js"});
  CHECK(resolved(ws, "p4/test/t.test.js", "p4/util", "p4") == Files{"p4/util.js"});
}

TEST_CASE("JsResolve: package.json imports (#x, #internal/*, conditions)") {
  TempWorkspace ws;
  ws.write("package.json", R"({"name": "p", "imports": {
    "#db": {"node": "./src/db-node.js", "default": "./src/db.js"},
    "#internal/*": "./src/internal/*.ts",
    "#dep": "dep"
  }})");
  for (const char* f : {"src/db-node.js", "src/db.js", "src/internal/a.ts"}) ws.write(f, "");
  ws.write("node_modules/dep/package.json", R"({"name": "dep"})");
  ws.write("node_modules/dep/index.js", "");
  CHECK(resolved(ws, "test/t.test.js", "#db") == Files{"src/db-node.js", "src/db.js"});
  CHECK(resolved(ws, "test/t.test.js", "#internal/a") == Files{"src/internal/a.ts"});
  bool known = false;
  JsResolver r(ws.root());
  CHECK(r.resolve(ws.path("test/t.test.js"), "#dep", &known).empty());  // an installed package
  CHECK(known);
}

TEST_CASE("JsResolve: tsconfig paths (extends followed, several targets) and baseUrl, and jsconfig") {
  TempWorkspace ws;
  ws.write("tsconfig.base.json", R"({
    // comments and trailing commas, as tsc accepts
    "compilerOptions": {"baseUrl": ".", "paths": {"@app/*": ["missing/*", "src/app/*"], "config": ["src/config/index.ts"],},},
  })");
  ws.write("tsconfig.json", R"({"extends": "./tsconfig.base.json", "compilerOptions": {"strict": true}})");
  for (const char* f : {"src/app/users.ts", "src/config/index.ts", "lib/helpers.ts"}) ws.write(f, "");
  CHECK(resolved(ws, "test/t.test.ts", "@app/users") == Files{"src/app/users.ts"});
  CHECK(resolved(ws, "test/t.test.ts", "config") == Files{"src/config/index.ts"});
  // baseUrl alone: a bare name under it.
  CHECK(resolved(ws, "test/t.test.ts", "lib/helpers") == Files{"lib/helpers.ts"});
  // jsconfig.json, in a package of its own.
  ws.write("web/package.json", R"({"name": "web"})");
  ws.write("web/jsconfig.json", R"({"compilerOptions": {"paths": {"~/*": ["./app/*"]}}})");
  ws.write("web/app/page.jsx", "");
  CHECK(resolved(ws, "web/test/t.test.js", "~/page", "web") == Files{"web/app/page.jsx"});
}

TEST_CASE("JsResolve: vite/vitest resolve.alias read from the config (object, array, regex, __dirname, URL)") {
  TempWorkspace ws;
  ws.write("vitest.config.ts", R"(
import { defineConfig } from 'vitest/config';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(__dirname, './src'),
      '#utils': fileURLToPath(new URL('./src/utils', import.meta.url)),
      'legacy': '/old',
    },
  },
  test: { alias: [{ find: /^~\/(.*)$/, replacement: path.resolve(__dirname, 'lib/$1') }] },
});
)");
  for (const char* f : {"src/math.ts", "src/utils/strings.ts", "old/index.js", "lib/deep/x.ts"}) ws.write(f, "");
  const auto aliases = jsConfigAliases(ws.root());
  REQUIRE(aliases.size() == 4);
  CHECK(resolved(ws, "test/t.test.ts", "@/math") == Files{"src/math.ts"});
  CHECK(resolved(ws, "test/t.test.ts", "#utils/strings") == Files{"src/utils/strings.ts"});
  CHECK(resolved(ws, "test/t.test.ts", "legacy") == Files{"old/index.js"});
  CHECK(resolved(ws, "test/t.test.ts", "~/deep/x") == Files{"lib/deep/x.ts"});
  // '@' matches '@' and '@/...', never '@scope/pkg'.
  bool known = false;
  JsResolver r(ws.root());
  CHECK(r.resolve(ws.path("test/t.test.ts"), "@scope/pkg", &known).empty());
  CHECK_FALSE(known);
}

TEST_CASE("JsResolve: jest moduleNameMapper (package.json, jest.config.js, <rootDir>, $1, several targets)") {
  TempWorkspace ws;
  ws.write("package.json", R"({"name": "p", "jest": {"moduleNameMapper": {
    "^@/(.*)$": "<rootDir>/src/$1", "\\.(css|less)$": "identity-obj-proxy"}}})");
  ws.write("src/store/cart.js", "");
  CHECK(resolved(ws, "__tests__/t.test.js", "@/store/cart") == Files{"src/store/cart.js"});
  bool known = false;
  JsResolver r(ws.root());
  CHECK(r.resolve(ws.path("__tests__/t.test.js"), "./styles.css", &known).empty());
  CHECK(known);  // mapped to a package: not unsure

  TempWorkspace js;
  js.write("package.json", R"({"name": "q"})");
  js.write("jest.config.js", R"(
module.exports = {
  rootDir: '.',
  moduleNameMapper: {
    '^components/(.*)$': ['<rootDir>/missing/$1', '<rootDir>/app/components/$1'],
    "^shared$": "<rootDir>/app/shared/index.ts",
  },
};
)");
  js.write("app/components/Button.tsx", "");
  js.write("app/shared/index.ts", "");
  CHECK(resolved(js, "test/t.test.ts", "components/Button") == Files{"app/components/Button.tsx"});
  CHECK(resolved(js, "test/t.test.ts", "shared") == Files{"app/shared/index.ts"});
}

TEST_CASE("JsResolve: the runner's own aliases replace what the config's text says") {
  TempWorkspace ws;
  ws.write("jest.config.js", "module.exports = require('./build-config')();\n");  // not a literal
  ws.write("src/real.ts", "");
  CHECK(resolved(ws, "t.test.ts", "@x/real").empty());
  JsResolver r(ws.root(), std::vector<JsAlias>{{"^@x/(.*)$", true, {ws.path("src/$1")}, true}});
  CHECK(r.resolve(ws.path("t.test.ts"), "@x/real") == Files{ws.path("src/real.ts")});
  // Shared per (root, aliases).
  CHECK(JsResolver::forRoot(ws.root()) == JsResolver::forRoot(ws.root()));
  CHECK(JsResolver::forRoot(ws.root())->key() != JsResolver::forRoot(ws.root(), r.aliases())->key());
}

TEST_CASE("JsResolve: workspace packages, installed packages and builtins, and what the static map cannot follow") {
  TempWorkspace ws;
  ws.write("package.json", R"({"name": "mono", "workspaces": ["packages/*"]})");
  ws.write("packages/util/package.json", R"({"name": "@mono/util", "exports": {".": "./src/index.ts"}})");
  ws.write("packages/util/src/index.ts", "");
  std::filesystem::create_directories(ws.path("node_modules/@mono"));
  std::filesystem::create_directory_symlink(ws.path("packages/util"), ws.path("node_modules/@mono/util"));
  ws.write("node_modules/lodash/package.json", R"({"name": "lodash", "main": "lodash.js"})");
  ws.write("node_modules/lodash/lodash.js", "");
  auto test = ws.write("packages/core/test/t.test.ts",
                       "import { u } from '@mono/util';\n"
                       "import _ from 'lodash';\n"
                       "import fs from 'fs';\n"
                       "import { test } from 'node:test';\n"
                       "const x = require('./fixtures/' + name);\n"
                       "import y from './not-there.js';\n"
                       "obj.require(name);\n");
  JsResolver r(ws.root());
  const JsImports imports = r.imports(test, *readSource(test, nullptr));
  CHECK(imports.files == Files{ws.path("packages/util/src/index.ts")});
  CHECK(imports.unsure == Files{"./not-there.js", "require(<computed>)"});
  bool dynamic = false;
  jsSpecifiers("const m = await import(`./locales/${lang}.js`);\n", &dynamic);
  CHECK(dynamic);
  CHECK(jsSpecifiers("const m = require(`./plain.js`);\nimport x = require('./ts-style');\n", &dynamic) ==
        Files{"./plain.js", "./ts-style"});
  CHECK_FALSE(dynamic);
}

TEST_CASE("node:test: a test named after a file counts only when it loads that very file (two index.js)") {
  TempWorkspace ws;
  ws.write("package.json", R"({"name": "nanoid-like", "type": "module",
    "exports": {".": "./index.js", "./non-secure": "./non-secure/index.js"}})");
  auto top = ws.write("index.js", "export function id() { return 'x'; }\n");
  auto nonSecure = ws.write("non-secure/index.js", "export function id() { return 'y'; }\n");
  auto topTest = ws.write("test/index.test.js", "import { test } from 'node:test';\nimport { id } from '../index.js';\n");
  auto nsTest = ws.write("test/non-secure.test.js",
                         "import { test } from 'node:test';\nimport { id } from '../non-secure/index.js';\n");
  DiscoveryRequest r;
  r.workspaceRoot = ws.root();
  std::string error;
  r.path = nonSecure;
  auto plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->runner == "node");
  CHECK(plan->testFiles == Files{nsTest});
  CHECK(plan->discoveryNote.find("test/index.test.js is named after index.js but does not load non-secure/index.js") != std::string::npos);
  r.path = top;
  plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->testFiles == Files{topTest});
  CHECK(plan->discoveryNote.empty());
  // Only the namesake, which loads the other file: no test, never the namesake.
  std::filesystem::remove(nsTest);
  r.path = nonSecure;
  plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->empty());
  CHECK(plan->discoveryNote.find("no test file loads non-secure/index.js") != std::string::npos);
  // Through the package's own name and its exports.
  auto bySelf = ws.write("test/self.test.js", "import { id } from 'nanoid-like/non-secure';\n");
  plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->testFiles == Files{bySelf});
}

TEST_CASE("node:test: test files that load the package by require('..') (main) are all its tests") {
  TempWorkspace ws;
  ws.write("package.json", R"({"name": "cjs-lib", "main": "index.js"})");
  auto main = ws.write("index.js", "module.exports = (a, b) => a + b;\n");
  auto a = ws.write("test/index.test.js", "const add = require('../index.js');\n");
  auto b = ws.write("test/api.test.js", "const add = require('..');\n");
  auto c = ws.write("test/edge.test.js", "const add = require('../');\n");
  auto d = ws.write("test/self.test.js", "const add = require('cjs-lib');\n");
  DiscoveryRequest r;
  r.workspaceRoot = ws.root();
  r.path = main;
  std::string error;
  auto plan = discoverTests(r, &error);
  REQUIRE(plan);
  CHECK(plan->testFiles == Files{b, c, a, d});
}
