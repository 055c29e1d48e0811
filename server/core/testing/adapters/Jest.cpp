// jest, run by jest itself (29 and 30): a project whose package.json names jest (scripts.test,
// a jest.config.*, a "jest" key, or the only runner among its dependencies). greenlight's
// reporter (harness/jest_reporter.js, --reporters=/work/.gl/jest_reporter.js) reports per test:
// the title path, file:line (--testLocationInResults), expected/received from the matcher's own
// result, the frames jest mapped through the transform's source maps (ts-jest, babel-jest).
// Everything else is jest's: its config (presets, projects, moduleNameMapper, transforms),
// testMatch/testRegex (asked through js_probe.js), setup files, snapshots (--ci: read, never
// written).
//
//   node <jest>/bin/jest.js --ci --no-watchman --reporters=/work/.gl/jest_reporter.js
//        --testLocationInResults --cacheDirectory=/tmp/jest --runInBand --forceExit --coverage=false
//        [-t PATTERN] --runTestsByPath FILE...
// cwd = the directory of the package.json (JsProject.h); discovery and the run: JsRunnerAdapter.
#include "core/testing/adapters/JsProject.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {

namespace {

class JestAdapter final : public JsRunnerAdapter {
 public:
  std::string_view name() const override { return "jest"; }

  Command command(const TestPlan& plan, const JsRunnerInstall&, Staging& staging) const override {
    Command c;
    const std::string reporter = staging.addHarnessFile("jest_reporter.js", harness::jestReporter());
    // In band: one process, as a one-file jest run is anyway (and what a warm spare preloads).
    c.argv = {"--ci", "--no-watchman", "--reporters=" + reporter, "--testLocationInResults", "--cacheDirectory=/tmp/jest",
              "--runInBand", "--forceExit", "--coverage=false"};
    if (!plan.namePattern.empty()) c.argv.insert(c.argv.end(), {"-t", plan.namePattern});
    c.argv.push_back("--runTestsByPath");
    c.argv.insert(c.argv.end(), plan.runnerArgs.begin(), plan.runnerArgs.end());
    return c;
  }
};

}  // namespace

const RunnerAdapter& jestAdapter() {
  static const JestAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
