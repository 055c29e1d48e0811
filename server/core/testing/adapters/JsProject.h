// What a JavaScript / TypeScript project says about how its tests run, shared by the jest,
// vitest and mocha adapters (Jest.cpp, Vitest.cpp, Mocha.cpp).
//
// From files (no process): the package.json that decides (the nearest one, from the file up to
// the workspace root, whose scripts.test, config files or dependencies name a runner), which
// runner it names, where node finds that runner (node_modules nested or hoisted, pnpm's
// symlinked store), the node_modules directories the sandbox must see, the tests written in a
// test file (describe/it nesting, title paths, line ranges) and the local modules a file
// imports (relative specifiers, moduleNameMapper-style aliases, index files, .js -> .ts).
//
// From one process, cached: the runner's own list of test files (harness/js_probe.js --list run
// in the sandbox: jest's testMatch/testRegex/roots, vitest's include/exclude, mocha's spec),
// kept in memory and under ~/.cache/greenlight, keyed by the config files' texts, the runner's
// version and the project's list of JS/TS files; a new file or an edited config asks again.
//
// The run (JsRunnerAdapter::run) is the pytest adapter's shape: the project read-only at its own
// path, unsaved texts bind-mounted over their files, workdir = the package.json's directory,
// greenlight's reporter loaded from /work/.gl, caches in /tmp, events folded per test.
//
// Thread-safety: pure functions, except probeJsProject(), whose cache is locked.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"
#include "core/testing/adapters/JsResolve.h"

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
// The host directory that keeps a runner's cache for a project between runs (jest's transform
// cache and haste map), created on first use, writable by the sandbox's user; "" when there is
// no cache directory. Only runs of the files as they are on disk write to it (see Jest.cpp).
std::string runnerCacheDir(const std::string& runner, const std::string& root);

// Line coverage of the file under test (issue 35): on unless greenlight's own environment has
// GREENLIGHT_COVERAGE=0 (the with/without comparisons and the bench). Thread-safe (reads the
// environment only).
bool jsCoverageOn();
// V8 sizes its heap by the machine, not by the sandbox. The sandbox's memory limit is resident
// memory, sampled: no allocation is refused, so V8's last-resort collection never comes and
// garbage can cross the limit (a warm jest-ts run after a tsconfig change: 517 MB, cold 270 MB).
// Told 3/4 of the limit, V8 collects first, as node does by itself under a cgroup limit.
std::string nodeHeapFlag(std::size_t memoryLimitMb);
// Stages what the JS runners measure coverage with (harness/js_coverage.js) and, when coverage
// is on and the plan has a file under test, coverage_targets.json beside it naming that file (a
// file, not an environment variable: the environment is part of a warm spare's shape, and a
// spare must serve every file of its project). True when a target was written.
bool stageJsCoverage(const TestPlan& plan, Staging& staging);
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

// The runner's own test files for the project (absolute, sorted), asked once per state of the
// project (js_probe.js --list in the sandbox). `error` set when the runner could not say.
// `aliases`: the module aliases the runner's resolved config holds (jest's moduleNameMapper,
// vite's resolve.alias), nullopt when it could not say (JsResolver then reads the config's text).
struct JsProbeResult {
  std::vector<std::string> testFiles;
  std::optional<std::vector<JsAlias>> aliases;
  std::string error;
};
JsProbeResult probeJsProject(const JsProject& project, const Tool& node, const std::string& workspaceRoot,
                             const Config& config);

// The runner's own answer to "which test files load `source`" (jest --listTests
// --findRelatedTests, vitest's related filter), for when the static map cannot be sure. Asked in
// the sandbox; cached in memory and under ~/.cache/greenlight by `key` (what the answer depends
// on: the project's state and the import graph around the source). `error` set when the runner
// could not say (mocha has no such question).
struct JsRelatedResult {
  std::vector<std::string> testFiles;
  std::string error;
};
JsRelatedResult relatedJsTests(const JsProject& project, const Tool& node, const std::string& workspaceRoot,
                               const Config& config, const std::string& source, const std::string& key);

// The regular expression that selects tests by their title paths (-t / --grep): jest matches
// the titles joined with ' ', vitest and mocha too (vitest 1 and 2 put the file's suite first).
// A group selects every test under it.
std::string jsTitlePattern(const std::string& runner, const std::vector<const JsTestBlock*>& blocks);

// The adapter every JS runner is: discovery and the run; each runner supplies its command.
class JsRunnerAdapter : public RunnerAdapter {
 public:
  bool handles(Language language) const override { return language == Language::JavaScript; }
  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string* error) const override;
  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override;
  bool preparable() const override { return true; }
  std::vector<std::string> fingerprintFiles(const TestPlan& plan) const override { return plan.supportFiles; }

  struct Command {
    std::vector<std::string> argv;  // after node (and its flags)
    std::vector<std::string> nodeFlags;
    std::vector<std::string> env;
    std::vector<sandbox::Bind> binds;  // beyond the project's (a runner's cache)
    // What a warm spare may prepare beyond loading the runner (js_warm.js's third argument,
    // JSON): jest's {"argv": the run's flags, "files": its test files} for ts-jest's compiler.
    // Part of the spare's shape: a spare prepared for other files serves no run of these.
    std::string warmHints;
  };
  // The runner's command line for the plan (files relative to plan.rootDir in runnerArgs,
  // plan.namePattern when narrowed), the reporter in /work/.gl.
  virtual Command command(const TestPlan& plan, const JsRunnerInstall& install, Staging& staging) const = 0;
  // What the runner says when it found nothing to run (its exit code with no test reported).
  virtual std::string noTestsMessage(const std::string& out) const { return out; }
};

}  // namespace greenlight::core::testing
