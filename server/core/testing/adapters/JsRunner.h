// The adapter every JS runner is (jest, vitest, mocha: Jest.cpp, Vitest.cpp, Mocha.cpp), and
// what it asks the runner itself.
//
// From one process, cached: the runner's own list of test files (harness/js_probe.js --list run
// in the sandbox: jest's testMatch/testRegex/roots, vitest's include/exclude, mocha's spec),
// kept in memory and under ~/.cache/greenlight, keyed by the config files' texts, the runner's
// version and the project's list of JS/TS files; a new file or an edited config asks again.
// What the project's files say without a process: JsProject.h.
//
// The run (JsRunnerAdapter::run) is the pytest adapter's shape: the project read-only at its own
// path, unsaved texts bind-mounted over their files, workdir = the package.json's directory,
// greenlight's reporter loaded from /work/.gl, caches in /tmp, events folded per test.
//
// Thread-safety: pure functions, except probeJsProject() and relatedJsTests(), whose caches are
// locked.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/testing/JsProject.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"

namespace greenlight::core::testing {

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
