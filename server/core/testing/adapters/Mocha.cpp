// mocha, run by mocha itself (10 and 11): a project whose package.json names mocha (scripts.test,
// a .mocharc.*, a "mocha" key, or the only runner among its dependencies). greenlight's reporter
// (harness/mocha_reporter.js, loaded with --require to see where each test is defined and with
// --reporter) reports per test with the assertion's own expected/actual (node:assert, chai) and
// mocha's diff. Everything else is mocha's: .mocharc.* (spec, require, ui, timeout, root hooks),
// its spec globs (asked through js_probe.js), ts-node or tsx when the project registers them.
//
//   GL_MOCHA_FILES=<the files, absolute> node <mocha>/bin/mocha.js --no-parallel
//        --require /work/.gl/mocha_reporter.js --reporter /work/.gl/mocha_reporter.js --exit
//        FILE... [--grep PATTERN]
// mocha adds the files of its command line to the config's spec instead of replacing them:
// GL_MOCHA_FILES narrows the run to them (the reporter's --require side).
// cwd = the directory of the package.json (JsProject.h); discovery and the run: JsRunnerAdapter.
#include <filesystem>

#include "core/testing/adapters/JsRunner.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

class MochaAdapter final : public JsRunnerAdapter {
 public:
  std::string_view name() const override { return "mocha"; }

  Command command(const TestPlan& plan, const JsRunnerInstall&, Staging& staging) const override {
    Command c;
    const std::string reporter = staging.addHarnessFile("mocha_reporter.js", harness::mochaReporter());
    c.argv = {"--no-parallel", "--require", reporter, "--reporter", reporter, "--exit"};
    std::string files;
    for (const auto& f : plan.runnerArgs) {
      c.argv.push_back(f);
      files += (files.empty() ? "" : "\n") + (fs::path(plan.rootDir) / f).lexically_normal().string();
    }
    if (!plan.namePattern.empty()) c.argv.insert(c.argv.end(), {"--grep", plan.namePattern});
    c.env.push_back("GL_MOCHA_FILES=" + files);
    return c;
  }
};

}  // namespace

const RunnerAdapter& mochaAdapter() {
  static const MochaAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
