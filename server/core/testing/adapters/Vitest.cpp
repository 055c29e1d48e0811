// vitest, run by vitest itself (1 to 4): a project whose package.json names vitest (scripts.test,
// a vitest.config.* / vitest.workspace.*, a vite.config.* with a `test` block, or the only runner
// among its dependencies). greenlight's reporter (harness/vitest_reporter.mjs) reports per test
// with vitest's own processed errors (expected/actual, the diff, stacks mapped through vite's
// transform). Everything else is vitest's: its config, include/exclude globs (asked through
// js_probe.js), setup files, projects/workspaces, the pool.
//
//   node --import=/work/.gl/vite_sandbox.mjs <vitest>/vitest.mjs run FILE...
//        --reporter=/work/.gl/vitest_reporter.mjs --no-cache --coverage.enabled=false
//        [--configLoader runner] [--includeTaskLocation] [--minWorkers=0] [-t PATTERN]
// --minWorkers=0 (vitest 1 to 3): vitest otherwise keeps min(cores - 1, max) workers started,
// so once the one file's isolated worker is done the pool forks a replacement that nothing uses
// and the run waits for it to start and stop (about 100 ms of a 0.5 s run here). A pool's own
// minForks/minThreads in the project's config still wins. Which tests run, where, and what they
// report is unchanged: a one-file run uses one worker either way.
// vite >= 6.1 loads the config without writing anything (--configLoader runner); before that
// it writes its bundled config beside the config file or into node_modules/.vite-temp, which
// vite_sandbox.mjs sends to /tmp (the project is read-only in the sandbox); it also keeps
// vitest 1 and 2 from listening on vite's HMR port (no network in the sandbox).
// cwd = the directory of the package.json (JsProject.h); discovery and the run: JsRunnerAdapter.
#include "core/testing/adapters/JsRunner.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {

namespace {

class VitestAdapter final : public JsRunnerAdapter {
 public:
  std::string_view name() const override { return "vitest"; }

  Command command(const TestPlan& plan, const JsRunnerInstall& install, Staging& staging) const override {
    Command c;
    const std::string reporter = staging.addHarnessFile("vitest_reporter.mjs", harness::vitestReporter());
    const std::string vite = jsPackageVersion("vite", plan.rootDir);
    c.nodeFlags.push_back("--import=" + staging.addHarnessFile("vite_sandbox.mjs", harness::viteSandbox()));
    c.argv = {"run"};
    c.argv.insert(c.argv.end(), plan.runnerArgs.begin(), plan.runnerArgs.end());
    c.argv.insert(c.argv.end(), {"--reporter=" + reporter, "--no-cache"});
    // Coverage of the file under test (issue 35) through greenlight's provider, which replaces
    // the project's coverage settings for the run (nothing written, no thresholds); else none.
    if (jsCoverageOn() && !plan.sourceFile.empty()) {
      c.argv.insert(c.argv.end(), {"--coverage.enabled=true", "--coverage.provider=custom",
                                   "--coverage.customProviderModule=" +
                                       staging.addHarnessFile("vitest_coverage.mjs", harness::vitestCoverage())});
    } else {
      c.argv.push_back("--coverage.enabled=false");
    }
    if (versionAtLeast(vite, {6, 1})) c.argv.insert(c.argv.end(), {"--configLoader", "runner"});
    if (versionAtLeast(install.version, {3})) c.argv.push_back("--includeTaskLocation");
    if (versionAtLeast(install.version, {1}) && !versionAtLeast(install.version, {4})) c.argv.push_back("--minWorkers=0");
    if (!plan.namePattern.empty()) c.argv.insert(c.argv.end(), {"-t", plan.namePattern});
    return c;
  }

  std::string noTestsMessage(const std::string& out) const override {
    // "No test files found, exiting with code 1" comes after the filters and globs it tried.
    return out;
  }
};

}  // namespace

const RunnerAdapter& vitestAdapter() {
  static const VitestAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
