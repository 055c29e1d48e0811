// What a JavaScript / TypeScript project says about how its tests run, read from files (no
// process): the package.json that decides (the nearest one, from the file up to the workspace
// root, whose scripts.test, config files or dependencies name a runner), which runner it names,
// where node finds that runner (node_modules nested or hoisted, pnpm's symlinked store), the
// node_modules directories the sandbox must see, the tests written in a test file
// (describe/it nesting, title paths, line ranges) and the local modules a file imports
// (relative specifiers, moduleNameMapper-style aliases, index files, .js -> .ts; JsResolve.h).
// Discovery, tests first and the jest, vitest and mocha adapters read it; what asks the runner
// itself (its list of test files, its related tests) and the run are the adapter's
// (adapters/JsRunner.h).
//
// Thread-safety: pure functions; the import caches behind jsReach() and jsImportGraph() are
// locked.
#pragma once

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/JsResolve.h"

namespace greenlight::core::testing {

struct JsProject {
  std::string root;         // the directory of the deciding package.json (the runner's cwd)
  std::string packageJson;  // its path
  std::string runner;       // "jest", "vitest", "mocha", "node" (node --test), "" when none
  std::string why;          // "scripts.test", "config file", "dependency"
  std::vector<std::string> configFiles;  // the runner's config files found in root (absolute)
  bool esm = false;         // "type": "module"
};

// The project `file` belongs to, from the nearest package.json upward (within the workspace
// root); nullopt when no package.json names a runner.
std::optional<JsProject> jsProject(const std::string& file, const std::string& workspaceRoot,
                                   const OverlayProvider& overlay);

struct JsRunnerInstall {
  std::string version;  // package.json "version"
  std::string bin;      // the file node runs: <dir>/bin/jest.js, <dir>/vitest.mjs, <dir>/bin/mocha.js
  std::string dir;      // the package's real directory
};
// Where node finds `runner` from `root`: <root>/node_modules/<pkg>, then each parent's.
std::optional<JsRunnerInstall> findJsRunner(const std::string& runner, const std::string& root);
// A package's version as node finds it from `root` ("" when absent).
std::string jsPackageVersion(const std::string& name, const std::string& root);
// Whether `path` is a JS/TS module (.js .mjs .cjs .jsx .ts .mts .cts .tsx; a .d.ts holds no code).
bool isJsSourceFile(const std::string& path);
// Calls fn(path, path relative to root, file name) for every JS/TS file under root: node_modules,
// dot directories and build outputs left out, at most 12 levels and 50,000 entries.
void forEachJsFile(const std::string& root,
                   const std::function<void(const std::filesystem::path&, const std::string&, const std::string&)>& fn);
// `s` with every character a regular expression gives a meaning to escaped.
std::string escapeJsRegex(const std::string& s);

// "1.6.1" >= {1, 6}
bool versionAtLeast(const std::string& version, std::initializer_list<int> want);

// The node_modules directories node may read from `root` upward, and the real directories
// their top-level links lead to when those lie elsewhere (pnpm's store, workspace packages).
std::vector<std::string> nodeModulesBinds(const std::string& root);

// A test or a group in a test file: its titles from the outermost describe.
struct JsTestBlock {
  bool group = false;                  // describe / context / suite
  std::vector<std::string> titles;     // as written ("adds %i + %i" for an each)
  std::vector<std::string> patterns;   // each title as a regular expression (placeholders: .*?)
  int line = 0, endLine = 0;           // 1-based, the call's first and last line
  bool each = false;                   // .each / .for: one block, several tests
};
std::vector<JsTestBlock> scanJsTests(const std::string& text);
// "a > b > c": the name greenlight gives the test (EVENTS.md ids without the file).
std::string jsTestName(const JsTestBlock& block);

// The local files `file` imports, as JsResolver::forRoot(root) resolves them (JsResolve.h).
std::vector<std::string> jsLocalImports(const std::string& file, const std::string& text, const std::string& root);

// Every local file `files` reach through their imports (breadth first, `maxDepth` levels, at most
// `cap` files), `files` themselves included, sorted; and what could not be followed on the way
// ("file: specifier"). Each file's imports are cached by its stamp and the resolver's key.
struct JsReach {
  std::vector<std::string> files;
  std::vector<std::string> unsure;
  bool has(const std::string& f) const { return std::binary_search(files.begin(), files.end(), f); }
};
JsReach jsReach(const std::vector<std::string>& files, const JsResolver& resolver, const OverlayProvider& overlay,
                std::size_t cap = 400, int maxDepth = 6);

// The import graph under `starts` (each file's imports read once: breadth first from all of
// them, `maxDepth` levels, at most `cap` files): which of them load a file, what they reach.
// What discovery asks of every test file on every save, at the cost of one pass.
struct JsImportGraph {
  std::map<std::string, std::vector<std::string>> imports;  // file -> the local files it loads
  std::set<std::string> unsureFiles;                        // files with imports the map cannot follow
  // Every file of the graph that loads `target`, directly or not (`target` included).
  std::set<std::string> loaders(const std::string& target) const;
  // Every file of the graph that reaches a file of unsureFiles.
  std::set<std::string> unsureLoaders() const;
  // What `files` reach (themselves included), sorted.
  std::vector<std::string> closure(const std::vector<std::string>& files) const;
};
JsImportGraph jsImportGraph(const std::vector<std::string>& starts, const JsResolver& resolver,
                            const OverlayProvider& overlay, std::size_t cap = 20000, int maxDepth = 8);

// Every local file `files` reach through their imports (breadth first, a few levels deep, at
// most `cap`), `files` themselves included; sorted.
std::vector<std::string> jsImportClosure(const std::vector<std::string>& files, const std::string& root,
                                         const OverlayProvider& overlay, std::size_t cap = 400);

}  // namespace greenlight::core::testing
